package figure

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Figure is a set of panels side by side (three to a row), each a set of
// curves. It is saved with a result's JSON, so that `graphalloc plot`
// redraws it without simulating.
type Figure struct {
	Panels []*Panel `json:"panels"`
	// SharedLegend gathers the legends of the panels into one, beside the
	// last column, each entry once: for panels that draw the same series.
	SharedLegend bool `json:"shared_legend,omitempty"`
}

// Add appends p to f's panels and returns it.
func (f *Figure) Add(p *Panel) *Panel { f.Panels = append(f.Panels, p); return p }

// Axis scales of a Panel.
const (
	ScaleLinear = ""
	ScaleLog    = "log"  // log axis, ticks at 1, 1.5, 2, 3, … times powers of ten
	ScaleLog2   = "log2" // log axis, ticks at the powers of two (sizes n)
	ScaleLog10  = "log10"
)

// Panel is one plot of a figure.
type Panel struct {
	Title  string `json:"title"`
	XLabel string `json:"x_label"`
	YLabel string `json:"y_label"`
	XScale string `json:"x_scale,omitempty"`
	YScale string `json:"y_scale,omitempty"`
	// XInt says that x is a whole number (a load, d, a degree): ticks
	// only at whole numbers.
	XInt bool `json:"x_int,omitempty"`
	// XCategories, if set, make x categorical: a point at x = i belongs to
	// the category XCategories[i], which labels the axis there.
	XCategories []string `json:"x_categories,omitempty"`
	// YMin and YMax fix the y range when YMax > YMin.
	YMin float64 `json:"y_min,omitempty"`
	YMax float64 `json:"y_max,omitempty"`
	// LegendRight and LegendLow place a legend drawn inside the data: top
	// right instead of top left, bottom instead of top.
	LegendRight bool      `json:"legend_right,omitempty"`
	LegendLow   bool      `json:"legend_low,omitempty"`
	Series      []*Series `json:"series"`
}

// Add appends s to p's series and returns it.
func (p *Panel) Add(s *Series) *Series { p.Series = append(p.Series, s); return s }

// Series styles.
const (
	StylePoints  = "points" // markers joined by a line, with error bars if given
	StyleLine    = "line"   // a solid line with a few markers; a shaded band if the points have [Lo, Hi]
	StyleDashed  = "dashed" // a theory curve
	StyleDotted  = "dotted"
	StyleDashDot = "dashdot"
	StyleMarks   = "marks" // markers only (a prediction)
)

// Series is one curve of a panel. A series with a name and no points is a
// legend entry only: the key to a style (Color −1 draws it grey).
type Series struct {
	Name   string `json:"name,omitempty"` // legend entry; "" for none
	Color  int    `json:"color"`          // index into the palette; -1 for grey
	Shape  int    `json:"shape"`          // index into the markers
	Style  string `json:"style"`
	Label  string `json:"label,omitempty"` // drawn beside the last point (a bound's letter or citation)
	Points []Pt   `json:"points"`
}

// Pt is a point with an optional error bar [Lo, Hi] (Lo = Hi = 0 for none).
// In JSON it is [x, y] or [x, y, lo, hi], null standing for a value that is
// not finite (which is not drawn).
type Pt struct{ X, Y, Lo, Hi float64 }

// MarshalJSON writes p as [x, y] or [x, y, lo, hi].
func (p Pt) MarshalJSON() ([]byte, error) {
	vals := []float64{p.X, p.Y}
	if p.Lo != 0 || p.Hi != 0 {
		vals = append(vals, p.Lo, p.Hi)
	}
	b := []byte{'['}
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		if finite(v) {
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		} else {
			b = append(b, "null"...)
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads what MarshalJSON writes; null reads as NaN.
func (p *Pt) UnmarshalJSON(b []byte) error {
	var vals []*float64
	if err := json.Unmarshal(b, &vals); err != nil {
		return err
	}
	if len(vals) != 2 && len(vals) != 4 {
		return fmt.Errorf("figure: a point is [x, y] or [x, y, lo, hi], got %d values", len(vals))
	}
	get := func(i int) float64 {
		if i >= len(vals) {
			return 0
		}
		if vals[i] == nil {
			return math.NaN()
		}
		return *vals[i]
	}
	*p = Pt{X: get(0), Y: get(1), Lo: get(2), Hi: get(3)}
	return nil
}

// finite reports whether v is a number JSON can hold: neither NaN nor
// infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
