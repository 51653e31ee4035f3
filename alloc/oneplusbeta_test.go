package alloc

import (
	"math"
	"math/big"
	"testing"
)

// refOnePlusBeta: a coin u, bins i and j; a Greedy[2] step iff u < β·2^64
// (compared exactly, in big.Float), else the ball goes to i.
func refOnePlusBeta(p OnePlusBeta, L []uint32, r *Rand) (uint64, []uint64) {
	n := uint64(len(L))
	u := r.Uint64()
	i, j := r.Uint64n(n), r.Uint64n(n)
	lim := new(big.Float).SetMantExp(big.NewFloat(p.Beta), 64)
	if new(big.Float).SetUint64(u).Cmp(lim) >= 0 && p.Beta < 1 {
		return i, []uint64{i}
	}
	if L[j] < L[i] {
		return j, []uint64{i, j}
	}
	return i, []uint64{i, j}
}

func TestOnePlusBetaCheck(t *testing.T) {
	for _, beta := range []float64{-0.1, 1.0000001, math.NaN(), math.Inf(1)} {
		if (OnePlusBeta{Beta: beta}).Check(10) == nil {
			t.Errorf("beta=%g accepted", beta)
		}
	}
	for _, beta := range []float64{0, 0.5, 1} {
		if err := (OnePlusBeta{Beta: beta}).Check(10); err != nil {
			t.Errorf("beta=%g: %v", beta, err)
		}
	}
}

// TestOnePlusBetaCoin: the number of Greedy[2] steps (probes − m) is
// Binomial(m, β); it must lie within 5.3 standard deviations of mβ (two-sided
// normal tail 1e-7), and exactly at 0 and m for β = 0 and 1.
func TestOnePlusBetaCoin(t *testing.T) {
	const m = 1 << 20
	for _, beta := range []float64{0, 0.01, 0.3, 0.5, 0.99, 1} {
		st := OnePlusBeta{Beta: beta}.Place(NewBins(1000), m, NewRand(5))
		g := float64(st.Probes - m)
		sd := math.Sqrt(m * beta * (1 - beta))
		if math.Abs(g-m*beta) > 5.3*sd {
			t.Errorf("beta=%g: %g Greedy[2] steps of %d, want %g ± %g", beta, g, m, m*beta, 5.3*sd)
		}
	}
}

// TestOnePlusBetaFluid: (1+β) against its fluid limit at n = m = 2^16, with
// negative controls (a neighbouring β, and Greedy[2]).
func TestOnePlusBetaFluid(t *testing.T) {
	const n = 1 << 16
	T := fluidTrials2p16()
	opb := func(beta float64) []float64 {
		return fluidTails(t, MeanField{Family: FamilyOnePlusBeta, Beta: beta}, 1)
	}
	// Levels 1..4: fluid s_4 = 0.0052 at β = 0.5 (0.0126 at β = 0.2, 3.0e-4
	// at β = 0.9), resolved at this n.
	lv := levelsUpTo(4)
	for _, tc := range []struct {
		name   string
		beta   float64
		want   []float64
		reject bool
	}{
		{"beta=0.5", 0.5, opb(0.5), false},
		{"beta=0.2", 0.2, opb(0.2), false},
		{"beta=0.9", 0.9, opb(0.9), false},
		{"beta=0.5-vs-0.4", 0.5, opb(0.4), true},
		{"beta=0.9-vs-greedy2", 0.9, fluidTails(t, MeanField{Family: FamilyGreedy, D: 2}, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tailsOf(t, OnePlusBeta{Beta: tc.beta}, n, n, T, 5, 37)
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
