package analysis

import (
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// TestThinningFluidClosedForms checks the thinning systems against closed
// forms: Threshold(0) rejects every first bin and is one-choice (Poisson
// tails); Mean-Thinning for t ≤ 1 accepts only empty first bins, so
// ds_1/dt = (1 + s_1)(1 − s_1) = 1 − s_1², s_1 = tanh t, as for Greedy[2];
// Threshold(1) is the same rule for every t, so s_1 = tanh t for all t; and
// every system conserves balls (Σ_{i≥1} s_i = t), across the whole times
// where Mean-Thinning's right-hand side changes.
func TestThinningFluidClosedForms(t *testing.T) {
	mean := FluidProcess{Family: alloc.FamilyMeanThinning, D: 2}
	for _, tt := range []float64{0.25, 0.5, 1} {
		s, err := Tails(mean, tt)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(s[1] - math.Tanh(tt)); d > 1e-12 {
			t.Errorf("mean-thinning t=%g: s_1 = %.15g, want tanh t = %.15g", tt, s[1], math.Tanh(tt))
		}
	}
	for _, tt := range []float64{0.5, 2, 7.5} {
		s, err := Tails(FluidProcess{Family: alloc.FamilyThreshold, D: 2, Threshold: 1}, tt)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(s[1] - math.Tanh(tt)); d > 1e-12 {
			t.Errorf("threshold L=1 t=%g: s_1 = %.15g, want tanh t", tt, s[1])
		}
		s, err = Tails(FluidProcess{Family: alloc.FamilyThreshold, D: 2}, tt)
		if err != nil {
			t.Fatal(err)
		}
		p, cdf := math.Exp(-tt), 0.0 // Poisson(t): s_i = 1 − P(X < i)
		for i := 1; i < min(len(s), 12); i++ {
			cdf += p
			p *= tt / float64(i)
			if d := math.Abs(s[i] - (1 - cdf)); d > 1e-12 {
				t.Errorf("threshold L=0 t=%g: s_%d = %.15g, want %.15g", tt, i, s[i], 1-cdf)
			}
		}
	}
	for _, p := range []FluidProcess{mean, {Family: alloc.FamilyThreshold, D: 2, Threshold: 3}} {
		for _, tt := range []float64{0.999, 1, 2.5, 30} {
			s, err := Tails(p, tt)
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for _, v := range s[1:] {
				sum += v
			}
			if math.Abs(sum-tt) > 1e-10 {
				t.Errorf("%v t=%g: Σ s_i = %.15g", p.Family, tt, sum)
			}
		}
	}
	if _, err := Tails(FluidProcess{Family: alloc.FamilyThreshold, Threshold: -1}, 1); err == nil {
		t.Error("threshold -1 accepted")
	}
}
