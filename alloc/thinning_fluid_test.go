package alloc_test

import (
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// Mean-Thinning and Threshold(L) against their fluid limits (docs/theory.md;
// analysis's thinningSystem), with the tolerance of fluid_test.go:
// |mean − s_i| ≤ q·se + 5/n, se the standard error of the mean over T
// trials, q the 1 − 1e-6/2 quantile of Student's t, 5/n the O(1/n) bias of
// the mean-field limit (worstDeviation). The loads m/n = 1/2, 1 and 5/2 put
// the average threshold below, at and between whole loads, where
// Mean-Thinning's right-hand side changes. The negative controls feed the
// measurements to a neighbouring limit — Greedy[2] (which Mean-Thinning
// matches exactly on s_1 while t ≤ 1), a threshold one off, the threshold
// held at 1 instead of following the average — and must be rejected, or the
// tolerance proves nothing.
func TestThinningFluid(t *testing.T) {
	const n = statN
	T := statTrials
	if testing.Short() {
		T = 8
	}
	mean := alloc.MeanField{Family: alloc.FamilyMeanThinning, D: 2}
	thr := func(l int) alloc.MeanField { return alloc.MeanField{Family: alloc.FamilyThreshold, D: 2, Threshold: l} }
	greedy2 := alloc.MeanField{Family: alloc.FamilyGreedy, D: 2}
	cases := []struct {
		name   string
		p      alloc.Process
		balls  int64 // m·2/n: the load m/n is balls/2
		want   alloc.MeanField
		reject bool
	}{
		{"mean-thinning/m=n/2", alloc.MeanThinning{}, 1, mean, false},
		{"mean-thinning/m=n", alloc.MeanThinning{}, 2, mean, false},
		{"mean-thinning/m=5n/2", alloc.MeanThinning{}, 5, mean, false},
		{"mean-thinning/m=4n", alloc.MeanThinning{}, 8, mean, false},
		{"threshold/L=0/m=n", alloc.Threshold{L: 0}, 2, thr(0), false},
		{"threshold/L=1/m=n", alloc.Threshold{L: 1}, 2, thr(1), false},
		{"threshold/L=2/m=5n/2", alloc.Threshold{L: 2}, 5, thr(2), false},
		{"threshold/L=3/m=2n", alloc.Threshold{L: 3}, 4, thr(3), false},
		// Negative controls.
		{"mean-thinning-vs-greedy2/m=n", alloc.MeanThinning{}, 2, greedy2, true},
		{"mean-thinning-vs-threshold1/m=5n/2", alloc.MeanThinning{}, 5, thr(1), true},
		{"threshold2-vs-threshold1/m=n", alloc.Threshold{L: 2}, 2, thr(1), true},
		{"threshold2-vs-mean-thinning/m=5n/2", alloc.Threshold{L: 2}, 5, mean, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkFluid(t, tc.p, tc.want, n, float64(tc.balls)/2, tc.balls*int64(n)/2, 2215, T, tc.reject)
		})
	}
}
