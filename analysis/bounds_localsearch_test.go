package analysis

import (
	"github.com/graphalloc/graphalloc/alloc"
	"math"
	"strings"
	"testing"
)

// TestBoundsLocalSearch: which of local search's bounds applies on which
// graph [BSSS13], and their values.
func TestBoundsLocalSearch(t *testing.T) {
	lg := func(n float64) float64 { return math.Log2(n) }
	cases := []struct {
		name    string
		q       Query
		applies string  // the name prefix of the one bound that applies, "" for none
		value   float64 // its value, NaN if it has none
	}{
		// A random 6-regular graph on 2^16 vertices: Δ = 6 < ln n = 11.09.
		{"expander", Query{N: 1 << 16, M: 1 << 16, Topology: "regular", Degree: 6}, "max load, expander", lg(lg(1 << 16))},
		// Degree 16 ≥ ln 2^10 = 6.93: the O(1) bound, which has no value.
		{"degree log n", Query{N: 1 << 10, M: 1 << 10, Topology: "regular", Degree: 16}, "max load, almost regular", math.NaN()},
		{"degree log n, left ties", Query{N: 1 << 10, M: 1 << 10, Topology: "regular", Degree: 16, Params: alloc.Params{Ties: alloc.TiesLeft}}, "", 0},
		// The hypercube Q_16: degree log₂ n ≥ ln n.
		{"hypercube", Query{N: 1 << 16, M: 1 << 16, Topology: "hypercube"}, "max load, almost regular", math.NaN()},
		// A 2-dimensional torus (Δ = 4): (log n / log log n)^{1/3}.
		{"torus", Query{N: 1 << 20, M: 1 << 20, Topology: "torus", Degree: 4}, "max load, k-dimensional torus", math.Cbrt(20 / lg(20))},
		// The cycle is the 1-dimensional torus.
		{"cycle", Query{N: 1 << 20, M: 1 << 20, Topology: "cycle"}, "max load, k-dimensional torus", math.Sqrt(20 / lg(20))},
		// K_n: ⌈m/n⌉ for every m.
		{"complete", Query{N: 1000, M: 2500, Topology: "complete"}, "max load, complete graph", 3},
		{"complete, m = n", Query{N: 1000, M: 1000}, "max load, complete graph", 1},
		// The paper's statements are for m = n.
		{"torus, m = 2n", Query{N: 1 << 20, M: 1 << 21, Topology: "torus", Degree: 4}, "", 0},
		// Not regular: no bound of the paper applies.
		{"gnp", Query{N: 1 << 16, M: 1 << 16, Topology: "gnp", MinDegree: 3}, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Process = "local-search"
			bs := Bounds(tc.q)
			if len(bs) != 4 {
				t.Fatalf("%d bounds, want 4", len(bs))
			}
			var applies []Bound
			for _, b := range bs {
				if b.Applies {
					applies = append(applies, b)
				}
			}
			// On K_n at m = n the O(1) bound applies beside the exact one
			// (its degree n − 1 is at least ln n).
			if tc.name == "complete, m = n" && len(applies) == 2 && strings.HasPrefix(applies[0].Name, "max load, almost regular") {
				applies = applies[1:]
			}
			switch {
			case tc.applies == "" && len(applies) != 0:
				t.Fatalf("%s applies: %s", applies[0].Name, applies[0].Reason)
			case tc.applies == "":
				return
			case len(applies) != 1 || !strings.HasPrefix(applies[0].Name, tc.applies):
				t.Fatalf("%d bounds apply (%v), want %q", len(applies), applies, tc.applies)
			}
			b := applies[0]
			if math.IsNaN(tc.value) != b.NoValue || (!b.NoValue && math.Abs(b.Value-tc.value) > 1e-12) {
				t.Errorf("%s: value %g (no value %v), want %g", b.Name, b.Value, b.NoValue, tc.value)
			}
		})
	}
}
