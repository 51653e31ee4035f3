package render

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/graphalloc/graphalloc/figure"
)

// TestInsideCorner: a legend drawn inside the data goes to the panel's own
// corner when no point falls under it there, else to the first corner
// that is free (top left, top right, bottom left, bottom right), else to
// the one that covers the fewest points; error bars' ends count as points.
func TestInsideCorner(t *testing.T) {
	pl := plot.New()
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = 0, 1, 0, 1
	a := vg.Rectangle{Max: vg.Point{X: 100, Y: 100}}
	at := func(p *figure.Panel) string {
		b := insideCorner(a, pl, p, 30, 30, 2)
		return map[bool]string{false: "left", true: "right"}[b.Min.X > 50] + " " + map[bool]string{false: "low", true: "top"}[b.Min.Y > 50]
	}
	pts := func(xy ...float64) *figure.Series {
		s := &figure.Series{}
		for i := 0; i+1 < len(xy); i += 2 {
			s.Points = append(s.Points, figure.Pt{X: xy[i], Y: xy[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		name string
		p    *figure.Panel
		want string
	}{
		{"empty: its own corner", &figure.Panel{}, "left top"},
		{"asked low right, free", &figure.Panel{LegendRight: true, LegendLow: true, Series: []*figure.Series{pts(0.1, 0.9)}}, "right low"},
		{"a falling curve fills the top left", &figure.Panel{Series: []*figure.Series{pts(0.05, 0.95, 0.2, 0.8, 0.5, 0.5, 0.9, 0.1)}}, "right top"},
		{"top left and top right taken", &figure.Panel{Series: []*figure.Series{pts(0.1, 0.9, 0.9, 0.9)}}, "left low"},
		{"an error bar's end", &figure.Panel{Series: []*figure.Series{{Points: []figure.Pt{{X: 0.1, Y: 0.5, Lo: 0.4, Hi: 0.9}}}}}, "right top"},
		{"every corner taken: the fewest", &figure.Panel{Series: []*figure.Series{pts(0.1, 0.9, 0.15, 0.85, 0.9, 0.9, 0.85, 0.85, 0.1, 0.1, 0.15, 0.15, 0.9, 0.1)}}, "right low"},
	} {
		if got := at(c.p); got != c.want {
			t.Errorf("%s: legend at %s, want %s", c.name, got, c.want)
		}
	}
}
