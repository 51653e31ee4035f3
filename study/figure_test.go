package study

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
)

// A grid at one n draws its series on a categorical axis, one column each,
// the bounds as level marks across it; at several n, against n.
func TestGridFigureAxes(t *testing.T) {
	rows, _ := runRows(t, Grid{Processes: []string{"graph"}, Graphs: specs("cycle", "regular:degree=4", "complete"), Ns: []int{64}, Params: alloc.Params{D: 2}, Trials: 2})
	f, err := GridFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	left := f.Panels[0]
	if want := []string{"cycle", "regular\ndegree=4", "complete"}; !slices.Equal(left.XCategories, want) {
		t.Errorf("categories %q, want %q", left.XCategories, want)
	}
	for _, s := range left.Series {
		for _, p := range s.Points {
			if c := float64(s.Color); s.Color >= 0 && math.Abs(p.X-c) > 0.3+1e-9 {
				t.Errorf("series %q (colour %d) has a point at x = %g", s.Name, s.Color, p.X)
			}
		}
	}
	if !strings.Contains(f.Panels[1].Title, "n = 2^6") {
		t.Errorf("tails title %q", f.Panels[1].Title)
	}

	rows, _ = runRows(t, Grid{Processes: []string{"graph"}, Graphs: specs("cycle", "complete"), Ns: []int{64, 128}, Params: alloc.Params{D: 2}, Trials: 2})
	// A series cut short at 64 (as when a graph cannot be built at 128):
	// the tails are each series' largest n, and the title says so.
	rows = slices.DeleteFunc(rows, func(r Row) bool { return r.Topology == "cycle" && r.N == 128 })
	if f, err = GridFigure(rows); err != nil {
		t.Fatal(err)
	}
	if left := f.Panels[0]; left.XCategories != nil || left.XScale != figure.ScaleLog2 {
		t.Errorf("several n: categories %q, scale %q", left.XCategories, left.XScale)
	}
	if got := f.Panels[1].Title; !strings.Contains(got, "each series' largest n (2^6 to 2^7)") {
		t.Errorf("tails title %q", got)
	}
	if _, err := GridFigure(nil); err == nil {
		t.Error("no rows: no error")
	}
}
