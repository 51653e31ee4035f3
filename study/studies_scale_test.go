package study

import (
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

func TestSqrtDegree(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		want int
	}{
		{"square of an even number", 1 << 16, 256},
		{"odd power of two: ⌈√2^17⌉ = 363, made even", 1 << 17, 364},
		{"4·10^9: ⌈63245.55⌉ = 63246", 4e9, 63246},
		{"10^10: √ = 10^5 exactly", 1e10, 100000},
	} {
		if got := sqrtDegree(c.n); got != c.want {
			t.Errorf("%s: sqrtDegree(%d) = %d, want %d", c.name, c.n, got, c.want)
		}
	}
}

func TestScaleTrials(t *testing.T) {
	for _, c := range []struct {
		name      string
		t, n0, n  int
		wantTrial int
	}{
		{"smallest n: all trials", 32, 1 << 16, 1 << 16, 32},
		{"4× n: half the trials", 32, 1 << 16, 1 << 18, 16},
		{"full size at 2^28: 64/64 = 1", 64, 1 << 16, 1 << 28, 1},
		{"never below one", 64, 1 << 16, 1e10, 1},
	} {
		if got := scaleTrials(c.t, c.n0, c.n); got != c.wantTrial {
			t.Errorf("%s: scaleTrials(%d, %d, %d) = %d, want %d", c.name, c.t, c.n0, c.n, got, c.wantTrial)
		}
	}
}

// TestMeasureHugeComplete: the K_n that degree-scale runs beyond
// graphgen.MaxOrder (10^10 vertices) has more edges than an int64 holds;
// Measure states none (0, omitted from JSON) rather than a wrapped count.
func TestMeasureHugeComplete(t *testing.T) {
	sp, err := graphgen.ParseSpec("complete")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n    int
		want int64
	}{{10_000_000_000, 0}, {1 << 20, (1 << 19) * (1<<20 - 1)}} {
		if got := Measure(sp, graphgen.Complete(tc.n)).Edges; got != tc.want {
			t.Errorf("K_%d: Edges = %d, want %d", tc.n, got, tc.want)
		}
	}
}
