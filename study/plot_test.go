package study

import (
	"github.com/graphalloc/graphalloc/alloc"
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// The plots draw each bound on the max-load axis by the conversion its
// quantity allows (a gap bound plus m/n), only where its regime holds, a
// reference apart from the bounds, and nothing for a bound with no value
// or a spread. n = 2^16: ln ln n / ln 2 = 3.471234, log₂ n = 16.
func TestBoundCurves(t *testing.T) {
	const n = 1 << 16
	row := func(q analysis.Query) Row {
		q.N = n
		var bs []analysis.Bound
		for _, b := range analysis.Bounds(q) {
			if b.Applies {
				bs = append(bs, b)
			}
		}
		m := int64(q.M)
		if m == 0 {
			m = n
		}
		return Row{N: n, M: m, Bounds: bs}
	}
	type curve struct {
		label     string
		reference bool
		y         float64 // to 1e-5
	}
	cases := []struct {
		name string
		q    analysis.Query
		want []curve
	}{
		// Greedy[2] at m = 16n: [BCSV06]'s max load and gap, both at
		// 16 + 3.471234; [ABKU99]'s m = n statement is out of its regime.
		{"greedy, m = 16n", analysis.Query{M: 16 * n, Process: "greedy"},
			[]curve{{"≈ BCSV06", false, 19.471234}, {"≈ BCSV06", false, 19.471234}}},
		{"(1+β) at m = n: Θ(log n / β) is heavily loaded", analysis.Query{M: n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.5}}, nil},
		// m/n = 1000 + log₂ n / β = 32.
		{"(1+β) at m = 1000n", analysis.Query{M: 1000 * n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.5}},
			[]curve{{"Θ PTW15", false, 1032}}},
		{"weighted balls: [TW07] has no value to draw", analysis.Query{M: n, Process: "weighted"}, nil},
		// The cycle: 4 + 16 / log₂ 32 = 7.2.
		{"cycle at m = n: the worst case over Δ-regular graphs", analysis.Query{M: n, Process: "graph", Topology: "cycle"},
			[]curve{{"ref KP06", true, 7.2}}},
		// σ = 1/4 at m = 16n: [PTW15]'s gap 64 + 16; [BF22]'s spread has
		// no max-load reading.
		{"regular, m = 16n: a gap bound, not the spread", analysis.Query{M: 16 * n, Process: "graph", Topology: "regular", Degree: 16, Expansion: 0.25},
			[]curve{{"O PTW15", false, 80}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := boundCurves([]Row{row(tc.q)})
			if len(got) != len(tc.want) {
				t.Fatalf("%d curves %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.label != w.label || g.reference != w.reference || len(g.pts) != 1 || math.Abs(g.pts[0].Y-w.y) > 1e-5 {
					t.Errorf("curve %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// A theory curve against t = m/n starts where its regime does:
// one-choice's heavily loaded gap from t >= ln n = 11.09, at
// sqrt(2 t ln n) (ln n = 11.090355).
func TestBoundSeriesRegime(t *testing.T) {
	q := analysis.Query{N: 1 << 16, Process: "one-choice"}
	s := boundSeries(q, "gap, heavily loaded", analysis.QuantityGap, []float64{1, 5, 12, 100}, 0)
	if s == nil || len(s.Points) != 2 || s.Points[0].X != 12 || s.Label != "~ RS98" || s.Style != figure.StyleDashed {
		t.Fatalf("series %+v, want the points at t = 12 and 100", s)
	}
	if want := math.Sqrt(2 * 100 * 11.090355); math.Abs(s.Points[1].Y-want) > 1e-4 {
		t.Errorf("gap at t = 100: %g, want %g", s.Points[1].Y, want)
	}
	if got := boundSeries(q, "gap, heavily loaded", analysis.QuantityMaxLoad, []float64{100}, 0); got == nil || math.Abs(got.Points[0].Y-100-math.Sqrt(2*100*11.090355)) > 1e-4 {
		t.Errorf("as a max load: %+v, want m/n + the gap", got)
	}
	if s := boundSeries(analysis.Query{N: 1 << 16, Process: "weighted"}, "gap independent of m", analysis.QuantityGap, []float64{1, 100}, 0); s != nil {
		t.Errorf("[TW07] drawn: %+v", s)
	}
}
