package alloc_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// Walk sampling against independent predictions (tolerances as in
// fluid_test.go).

// TestWalkTails: on K_n a non-backtracking walk of L ≤ 2 steps visits L + 1
// distinct uniform vertices, and of L = 3 steps also, but for v_3 = v_0
// (probability 1/(n−2)), so the graph process under walk:len=L is
// Greedy[L+1] (without replacement) up to O(1/n), and len=0 is one-choice;
// a two-sample rule takes the walk's start and end, two distinct uniform
// bins: g-bounded with g = 0 is Greedy[2]. Negative control: Greedy[2]'s
// tails, the law of the old rule (the ends of two independent walks, two
// independent uniform bins on a regular graph, whatever L), are rejected
// for L = 3.
func TestWalkTails(t *testing.T) {
	levels := 4
	n, trials := statN, statTrials
	if testing.Short() {
		n, trials = 1<<13, 8
	}
	kn := graphgen.Complete(n)
	for _, tc := range []struct {
		name string
		p    alloc.Process
		want []float64
		pass bool
	}{
		{"complete/len=0 vs one-choice", alloc.Graphical{Graph: kn, Sample: alloc.SampleWalk(0)}, poissonTails(levels), true},
		{"complete/len=1 vs greedy[2]", alloc.Graphical{Graph: kn, Sample: alloc.SampleWalk(1)}, fluid(t, alloc.FamilyGreedy, 2), true},
		{"complete/len=2 vs greedy[3]", alloc.Graphical{Graph: kn, Sample: alloc.SampleWalk(2)}, fluid(t, alloc.FamilyGreedy, 3), true},
		{"complete/len=3 vs greedy[4]", alloc.Graphical{Graph: kn, Sample: alloc.SampleWalk(3)}, fluid(t, alloc.FamilyGreedy, 4), true},
		{"g-bounded/g=0/complete/len=3 vs greedy[2]", alloc.GBounded{Graph: kn, Sample: alloc.SampleWalk(3)}, fluid(t, alloc.FamilyGreedy, 2), true},
		{"control/complete/len=3 vs greedy[2]", alloc.Graphical{Graph: kn, Sample: alloc.SampleWalk(3)}, fluid(t, alloc.FamilyGreedy, 2), false},
		{"control/complete/len=2 vs greedy[4]", alloc.Graphical{Graph: kn, Sample: alloc.SampleWalk(2)}, fluid(t, alloc.FamilyGreedy, 4), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tailFractions(t, tc.p, n, trials, levels)
			worst, at := worstDeviation(f, tc.want[:levels], n)
			if tc.pass && worst > 1 {
				t.Errorf("level %d off by %.2f tolerances", at, worst)
			}
			if !tc.pass && worst <= 1 {
				t.Errorf("negative control passed: worst %.2f tolerances", worst)
			}
		})
	}
}

// twoSampleDeviation returns the largest |mean_f − mean_g| / tolerance over
// the levels i = 1..levels-1 of two sets of independent trials, the
// tolerance q·√(se_f² + se_g²) + 5/n with q as in worstDeviation (the
// Student quantile with the smaller set's degrees of freedom).
func twoSampleDeviation(f, g [][]float64, levels, n int) (float64, int) {
	T := float64(min(len(f), len(g)))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: T - 1}.Quantile(1 - 1e-6/2)
	worst, at := 0.0, 0
	for i := 1; i < levels; i++ {
		mf, sf := meanSE(f, i)
		mg, sg := meanSE(g, i)
		tol := q*math.Hypot(sf, sg) + 5/float64(n)
		if d := math.Abs(mf-mg) / tol; d > worst {
			worst, at = d, i
		}
	}
	return worst, at
}

// tails returns the fractions of bins with load ≥ i, i = 0..levels-1.
func tails(L []uint32, levels int) []float64 {
	f := make([]float64, levels)
	for _, l := range L {
		for i := 0; i < levels && uint32(i) <= l; i++ {
			f[i]++
		}
	}
	for i := range f {
		f[i] /= float64(len(L))
	}
	return f
}

// TestWalkCycleArcs: on the cycle C_n a non-backtracking walk never turns,
// so the L + 1 vertices it visits from a uniform start in a uniform
// direction form a uniform arc of L + 1 consecutive vertices. A second
// implementation here puts each ball on a least loaded vertex of a uniform
// arc (ties uniform), from its own generator; the tails must agree. Negative
// controls: arcs one shorter, and Greedy[2] (the old rule's law).
func TestWalkCycleArcs(t *testing.T) {
	const levels, l = 4, 3
	n, trials := 1<<14, 16
	if testing.Short() {
		n, trials = 1<<12, 12
	}
	e := make([]uint32, 0, 2*n)
	for v := range n {
		e = append(e, uint32(v), uint32((v+1)%n))
	}
	cycle, _, err := graphgen.FromEdges(n, e)
	if err != nil {
		t.Fatal(err)
	}
	arcs := func(k int) [][]float64 {
		out := make([][]float64, trials)
		for tr := range out {
			r := rand.New(rand.NewPCG(11, uint64(tr)))
			L := make([]uint32, n)
			for range n {
				a := r.IntN(n)
				c, mn, tied := a, L[a], 1
				for j := 1; j < k; j++ {
					v := (a + j) % n
					switch {
					case L[v] < mn:
						c, mn, tied = v, L[v], 1
					case L[v] == mn:
						tied++
						if r.IntN(tied) == 0 { // reservoir: uniform among the tied
							c = v
						}
					}
				}
				L[c]++
			}
			out[tr] = tails(L, levels)
		}
		return out
	}
	walk := tailFractions(t, alloc.Graphical{Graph: cycle, Sample: alloc.SampleWalk(l)}, n, trials, levels)
	if worst, at := twoSampleDeviation(walk, arcs(l+1), levels, n); worst > 1 {
		t.Errorf("walk vs arcs of %d: level %d off by %.2f tolerances", l+1, at, worst)
	}
	if worst, _ := twoSampleDeviation(walk, arcs(l), levels, n); worst <= 1 {
		t.Errorf("negative control (arcs of %d) passed: worst %.2f tolerances", l, worst)
	}
	if worst, _ := worstDeviation(walk, fluid(t, alloc.FamilyGreedy, 2)[:levels], n); worst <= 1 {
		t.Errorf("negative control (Greedy[2]) passed: worst %.2f tolerances", worst)
	}
}

// TestWalkLongerIsBetter: on a random 4-regular graph (locally tree-like:
// O(1) cycles shorter than any fixed length) a walk of L = 16 steps offers
// 17 distinct choices almost always, and must lower both the fraction of
// bins with load ≥ 2 and the maximum load against L = 1, significantly
// (the tolerance of twoSampleDeviation). Negative control: the old rule,
// the lesser loaded of the ends of two independent simple random walks,
// implemented here, is Greedy[2] for every L on a regular graph and shows
// no significant change.
func TestWalkLongerIsBetter(t *testing.T) {
	const levels = 12
	n, trials := 1<<14, 12
	if testing.Short() {
		n, trials = 1<<12, 12
	}
	g, _, err := graphgen.RandomRegular(n, 4, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	// withMax appends the trial's maximum load to its tails.
	withMax := func(f [][]float64) [][]float64 {
		for i, x := range f {
			mx := 0
			for j := 1; j < levels && x[j] > 0; j++ {
				mx = j
			}
			f[i] = append(x, float64(mx))
		}
		return f
	}
	oldRule := func(l int) [][]float64 {
		out := make([][]float64, trials)
		for tr := range out {
			r := rand.New(rand.NewPCG(12, uint64(tr)))
			L := make([]uint32, n)
			end := func() int {
				v := r.IntN(n)
				for range l {
					nb := g.Neighbors(v)
					v = int(nb[r.IntN(len(nb))])
				}
				return v
			}
			for range n {
				a, b := end(), end()
				if L[b] < L[a] {
					a = b
				}
				L[a]++
			}
			out[tr] = tails(L, levels)
		}
		return withMax(out)
	}
	// improved reports whether short's level-2 tail and maximum load
	// exceed long's by more than their tolerances.
	improved := func(short, long [][]float64) (bool, string) {
		ok := true
		msg := ""
		for _, lv := range []struct {
			i    int
			name string
		}{{2, "s_2"}, {levels, "max"}} {
			i, name := lv.i, lv.name
			ms, ss := meanSE(short, i)
			ml, sl := meanSE(long, i)
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(trials - 1)}.Quantile(1 - 1e-6/2)
			tol := q * math.Hypot(ss, sl)
			ok = ok && ms-ml > tol
			msg += fmt.Sprintf(" %s: %.4g vs %.4g (tolerance %.3g)", name, ms, ml, tol)
		}
		return ok, msg
	}
	walk := func(l int) [][]float64 {
		return withMax(tailFractions(t, alloc.Graphical{Graph: g, Sample: alloc.SampleWalk(l)}, n, trials, levels))
	}
	if ok, msg := improved(walk(1), walk(16)); !ok {
		t.Errorf("len=16 does not beat len=1:%s", msg)
	}
	if ok, msg := improved(oldRule(1), oldRule(16)); ok {
		t.Errorf("negative control (two independent walks) improved:%s", msg)
	}
}
