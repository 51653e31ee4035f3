package alloc_test

import (
	"fmt"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The two-sample rules (g-bounded, g-myopic, noisy) against their fluid
// limits on the complete graph (docs/theory.md, derived from the rules in
// analysis's twoSampleSystem and checked there against a sum over pairs of
// candidate loads), with the tolerance of fluid_test.go: |mean − s_i| ≤
// q·se + 5/n, se the standard error of the mean over T trials, q the
// 1 − 1e-6/2 quantile of Student's t (a correct simulator fails a level
// with probability about 1e-6; the seeds are fixed, so the test is
// deterministic), 5/n the O(1/n) bias of the mean-field limit. The
// negative controls feed the measurements of one rule to a neighbouring
// rule's limit and must be rejected, or the tolerance proves nothing.

// twoSampleFluid returns the fluid tails of mf at m/n = load, down to the
// last level holding at least 1e-3 of the bins (deeper levels hold too few
// bins at n = 2^16 to weigh in).
func twoSampleFluid(t *testing.T, mf alloc.MeanField, load float64) []float64 {
	t.Helper()
	s, err := analysis.TailsTol(mf, load, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTwoSampleFluid(t *testing.T) {
	const n = statN
	T := statTrials
	if testing.Short() {
		T = 8
	}
	bounded := func(g int) alloc.MeanField { return alloc.MeanField{Family: alloc.FamilyGBounded, D: 2, Tolerance: g} }
	myopic := func(g int) alloc.MeanField { return alloc.MeanField{Family: alloc.FamilyGMyopic, D: 2, Tolerance: g} }
	noisy := func(s float64) alloc.MeanField { return alloc.MeanField{Family: alloc.FamilyNoisy, D: 2, Sigma: s} }
	cases := []struct {
		name   string
		p      alloc.Process
		load   int64
		want   alloc.MeanField
		reject bool
	}{
		{"g-bounded/g=1/m=n", alloc.GBounded{Tolerance: 1}, 1, bounded(1), false},
		{"g-bounded/g=3/m=4n", alloc.GBounded{Tolerance: 3}, 4, bounded(3), false},
		{"g-bounded/g=2/left/m=4n", alloc.GBounded{Tolerance: 2, Ties: alloc.TiesLeft}, 4, bounded(2), false},
		{"g-myopic/g=1/m=n", alloc.GMyopic{Tolerance: 1}, 1, myopic(1), false},
		{"g-myopic/g=3/m=4n", alloc.GMyopic{Tolerance: 3}, 4, myopic(3), false},
		{"noisy/sigma=0.5/m=n", alloc.Noisy{Sigma: 0.5}, 1, noisy(0.5), false},
		{"noisy/sigma=2/m=4n", alloc.Noisy{Sigma: 2}, 4, noisy(2), false},
		{"noisy/sigma=1/K_n/m=n", alloc.Noisy{Sigma: 1, Graph: graphgen.Complete(n)}, 1, noisy(1), false},
		// Negative controls: neighbouring rules and parameters.
		{"g-bounded2-vs-g-myopic2", alloc.GBounded{Tolerance: 2}, 4, myopic(2), true},
		{"g-bounded1-vs-g-bounded2", alloc.GBounded{Tolerance: 1}, 1, bounded(2), true},
		{"g-myopic2-vs-g-myopic1", alloc.GMyopic{Tolerance: 2}, 4, myopic(1), true},
		{"noisy1-vs-noisy1.25", alloc.Noisy{Sigma: 1}, 4, noisy(1.25), true},
		{"noisy0.5-vs-greedy2", alloc.Noisy{Sigma: 0.5}, 1, noisy(0), true},
		{"noisy1-vs-g-myopic1", alloc.Noisy{Sigma: 1}, 1, myopic(1), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkFluid(t, tc.p, tc.want, n, float64(tc.load), tc.load*int64(n), 2214, T, tc.reject)
		})
	}
}

// checkFluid runs T trials of p with m balls on n bins (trial seeds from
// seed) and compares their tails with the fluid limit of mf at m/n = load:
// within the tolerance at every level, or, for a negative control
// (reject), beyond it at some level.
func checkFluid(t *testing.T, p alloc.Process, mf alloc.MeanField, n int, load float64, m int64, seed uint64, T int, reject bool) {
	t.Helper()
	want := twoSampleFluid(t, mf, load)
	f := simTails(t, p, n, m, seed, T, len(want))
	d, at := worstDeviation(f, want, n)
	switch {
	case !reject && d > 1:
		t.Errorf("level %d off the fluid limit by %.2f tolerances", at, d)
	case reject && d <= 1:
		t.Errorf("a wrong prediction passed (worst %.2f tolerances)", d)
	}
	if testing.Verbose() {
		fmt.Printf("%s: worst level %d at %.2f tolerances (%d levels, T = %d)\n", t.Name(), at, d, len(want)-1, T)
	}
}
