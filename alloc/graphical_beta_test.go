package alloc

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestGraphBetaFluid: graphical (1+β) on K_n against the fluid limit of
// (1+β) (docs/theory.md: on K_n a greedy step is Greedy[2] without
// replacement and a one-choice step a uniform bin, (1+β) up to O(1/n)), at
// n = m = 2^16, with the tolerance of the fluid tests (maxof_test.go) and
// negative controls: a neighbouring β, and Greedy[2] (β = 1).
func TestGraphBetaFluid(t *testing.T) {
	const n = 1 << 16
	T := fluidTrials2p16()
	opb := func(beta float64) []float64 {
		return fluidTails(t, MeanField{Family: FamilyOnePlusBeta, Beta: beta}, 1)
	}
	// Levels 1..4, as in TestOnePlusBetaFluid.
	lv := levelsUpTo(4)
	for _, tc := range []struct {
		name   string
		beta   float64
		want   []float64
		reject bool
	}{
		{"beta=0.3", 0.3, opb(0.3), false},
		{"beta=0.7", 0.7, opb(0.7), false},
		{"beta=0.7-vs-0.6", 0.7, opb(0.6), true},
		{"beta=0.7-vs-greedy2", 0.7, fluidTails(t, MeanField{Family: FamilyGreedy, D: 2}, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tailsOf(t, Graphical{Graph: graphgen.Complete(n), OneMinusBeta: 1 - tc.beta}, n, n, T, 5, 41)
			dev, at := deviation(f, tc.want, lv, n)
			switch {
			case !tc.reject && dev > 1:
				t.Errorf("level %d off the fluid limit by %.2f tolerances", at, dev)
			case tc.reject && dev <= 1:
				t.Errorf("a wrong prediction passed (worst %.2f tolerances)", dev)
			}
			t.Logf("worst level %d at %.2f tolerances", at, dev)
		})
	}
}

// TestGraphBetaOnGraphs: graphical (1+β) on a 2-d torus and a random
// 16-regular graph (n = 4096, m = 16n). A smaller β compares loads less
// often, and the gap grows (β = 0.25 against β = 1, a difference beyond
// q·se, q the 1 − 1e-6/2 quantile of Student's t with T − 1 degrees of
// freedom). Negative control: β = 1 − 10^-30 rounds to a coin threshold of 0
// (no one-choice step ever) but runs the (1+β) path, with its extra coin per
// ball: it has the law of two-choice, and its gap must not differ
// significantly from β = 1's.
func TestGraphBetaOnGraphs(t *testing.T) {
	// 16 trials in short mode too: they take a fraction of a second, and
	// with 8 the quantile (15.8 for 7 degrees of freedom) leaves the
	// β = 0.25 check on the edge of its power (a gap of 8.75 against a
	// threshold of 9.8 on the random regular graph, seed 31).
	T := 16
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(T - 1)}.Quantile(1 - 1e-6/2)
	torus, err := graphgen.Torus(2, 64)
	if err != nil {
		t.Fatal(err)
	}
	reg, _, err := graphgen.RandomRegular(4096, 16, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    graphgen.Graph
	}{{"torus:dim=2", torus}, {"regular:degree=16", reg}} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.g.Order()
			gap := func(lazy float64) (float64, float64) {
				return meanGap(t, Config{Process: Graphical{Graph: tc.g, OneMinusBeta: lazy}, N: n, M: 16 * int64(n), Seed: 31}, T)
			}
			two, twoSE := gap(0)
			same, sameSE := gap(1e-30)
			low, lowSE := gap(0.75)
			t.Logf("gap: β = 1 %.2f ± %.2f, β = 1 − 1e-30 %.2f ± %.2f, β = 0.25 %.2f ± %.2f", two, twoSE, same, sameSE, low, lowSE)
			if math.Abs(same-two) > q*math.Hypot(twoSE, sameSE) {
				t.Errorf("β = 1 − 1e-30 differs from two-choice: %.2f against %.2f", same, two)
			}
			if low-two <= q*math.Hypot(twoSE, lowSE) {
				t.Errorf("β = 0.25 does not raise the gap: %.2f against %.2f", low, two)
			}
		})
	}
}
