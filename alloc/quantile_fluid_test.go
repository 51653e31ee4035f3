package alloc_test

import (
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// Quantile(δ) against its fluid limit (docs/theory.md, section Quantile;
// analysis's quantileSystem), with the tolerance of fluid_test.go:
// |mean − s_i| ≤ q·se + 5/n over T trials at n = 2^16, where δn is whole
// for every δ here (the limit's δ is then the process's k/n exactly). The
// loads m/n = 1/2, 1 and 4 put the boundary load at 0, at 1 and well above
// the least load. The negative controls feed the measurements to
// neighbouring limits — a δ off by 0.1, Mean-Thinning (whose threshold is
// the average, near the median), one-choice — and must be rejected.
func TestQuantileFluid(t *testing.T) {
	const n = statN
	T := statTrials
	if testing.Short() {
		T = 8
	}
	quant := func(d float64) alloc.MeanField {
		return alloc.MeanField{Family: alloc.FamilyQuantile, D: 2, Delta: d}
	}
	cases := []struct {
		name   string
		delta  float64
		balls  int64 // m·2/n: the load m/n is balls/2
		want   alloc.MeanField
		reject bool
	}{
		{"delta=0.5/m=n/2", 0.5, 1, quant(0.5), false},
		{"delta=0.5/m=n", 0.5, 2, quant(0.5), false},
		{"delta=0.5/m=4n", 0.5, 8, quant(0.5), false},
		{"delta=0.25/m=n", 0.25, 2, quant(0.25), false},
		{"delta=0.75/m=4n", 0.75, 8, quant(0.75), false},
		// Negative controls.
		{"delta=0.5-vs-0.4/m=n", 0.5, 2, quant(0.4), true},
		{"delta=0.5-vs-mean-thinning/m=4n", 0.5, 8, alloc.MeanField{Family: alloc.FamilyMeanThinning, D: 2}, true},
		{"delta=0.25-vs-one-choice/m=n", 0.25, 2, alloc.MeanField{Family: alloc.FamilyOneChoice, D: 1}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkFluid(t, alloc.Quantile{Delta: tc.delta}, tc.want, n, float64(tc.balls)/2, tc.balls*int64(n)/2, 4431, T, tc.reject)
		})
	}
}
