package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/graphalloc/graphalloc/figure"
)

// farFactor is how far beyond the measured range a theory curve's point
// may lie and still widen the axis: a bound 10× above the data (a gap
// bound of 10⁵ beside loads of 4) would flatten every measurement into a
// band, so it is drawn to the panel's edge and named there instead.
const farFactor = 10

// isTheory reports whether s draws a prediction (a bound, a fluid limit,
// a reference): the dashed, dotted and dash-dotted styles. The others are
// measurements.
func isTheory(s *figure.Series) bool {
	return s.Style == figure.StyleDashed || s.Style == figure.StyleDotted || s.Style == figure.StyleDashDot
}

// boundLetter is the letter of a bound curve (a theory curve labelled with
// a letter of the table's bound legend: "a", …, "z", "b26", …), or "".
func boundLetter(s *figure.Series) string {
	if !isTheory(s) || !isLetter(s.Label) {
		return ""
	}
	return s.Label
}

// isLetter reports whether l is a bound's letter: a to z, or b26, b27, ….
func isLetter(l string) bool {
	if len(l) == 1 {
		return l[0] >= 'a' && l[0] <= 'z'
	}
	k, ok := strings.CutPrefix(l, "b")
	n, err := strconv.Atoi(k)
	return ok && err == nil && n >= 26 && strconv.Itoa(n) == k
}

// ParseBounds reads --bounds: "none" (no bound), or the letters of the
// bounds to draw, run together ("ad") or separated by commas ("a,b27").
// It returns the letters, and none for "none".
func ParseBounds(s string) (letters []string, none bool, err error) {
	s = strings.TrimSpace(s)
	if s == "none" {
		return nil, true, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) == 1 && !isLetter(s) {
		parts = strings.Split(s, "")
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !isLetter(p) {
			return nil, false, fmt.Errorf("%q is not a bound's letter (a to z, b26, …; or none)", p)
		}
		letters = append(letters, p)
	}
	if len(letters) == 0 {
		return nil, false, fmt.Errorf("no letter given (the letters of the bounds to draw, or none)")
	}
	return letters, false, nil
}

// checkBounds reports an error if o asks for a bound letter that no panel
// of f draws.
func checkBounds(f *figure.Figure, o Options) error {
	if len(o.Bounds) == 0 {
		return nil
	}
	var have []string
	for _, p := range f.Panels {
		for _, s := range p.Series {
			if l := boundLetter(s); l != "" && !slices.Contains(have, l) {
				have = append(have, l)
			}
		}
	}
	for _, l := range o.Bounds {
		if !slices.Contains(have, l) {
			if len(have) == 0 {
				return fmt.Errorf("render: no bound %s to draw (--bounds): the figure draws no lettered bound", l)
			}
			slices.Sort(have)
			return fmt.Errorf("render: no bound %s to draw (--bounds): the figure's bounds are %s", l, strings.Join(have, ", "))
		}
	}
	return nil
}

// keptSeries is p's series less the bounds o leaves out (--bounds), with
// their keys in the legend ("a: …").
func keptSeries(p *figure.Panel, o Options) []*figure.Series {
	if !o.NoBounds && len(o.Bounds) == 0 {
		return p.Series
	}
	dropped := map[string]bool{}
	var out []*figure.Series
	for _, s := range p.Series {
		l := boundLetter(s)
		switch {
		case o.NoBounds && isTheory(s) && s.Label != "":
			dropped[s.Label] = true
		case l != "" && !slices.Contains(o.Bounds, l):
			dropped[l] = true
		default:
			out = append(out, s)
		}
	}
	return slices.DeleteFunc(out, func(s *figure.Series) bool {
		letter, _, ok := strings.Cut(s.Name, ": ")
		return ok && len(s.Points) == 0 && dropped[letter]
	})
}

// measuredY is the y range of p's measured points (not its theory
// curves) that can be drawn on the axis; ok is false without any.
func measuredY(series []*figure.Series, logY bool) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range series {
		if isTheory(s) {
			continue
		}
		for _, q := range s.Points {
			if finite(q.Y) && (!logY || q.Y > 0) {
				lo, hi = min(lo, q.Y), max(hi, q.Y)
			}
		}
	}
	return lo, hi, hi >= lo
}

// farFrom says whether y lies more than farFactor beyond [lo, hi]: as a
// ratio when the range is positive (a log axis, or loads), else by
// farFactor spans of the range.
func farFrom(y, lo, hi float64) (above, below bool) {
	if lo > 0 {
		return y > hi*farFactor, y < lo/farFactor
	}
	span := hi - lo
	if span == 0 {
		span = max(math.Abs(hi), 1)
	}
	return y > hi+farFactor*span, y < lo-farFactor*span
}

// offScale gathers the theory curves of a panel that lie beyond its
// range, by name (a bound's letter, else the series' label or name), with
// the span of their values beyond it, for the note at the panel's edge.
type offScale struct {
	names        []string
	lo, hi       map[string]float64
	above, below map[string]bool
}

func newOffScale() *offScale {
	return &offScale{lo: map[string]float64{}, hi: map[string]float64{}, above: map[string]bool{}, below: map[string]bool{}}
}

func (o *offScale) add(s *figure.Series, y float64, above bool) {
	name := s.Label
	if name == "" {
		name = s.Name
	}
	if _, ok := o.lo[name]; !ok {
		o.names = append(o.names, name)
		o.lo[name], o.hi[name] = y, y
	}
	o.lo[name], o.hi[name] = min(o.lo[name], y), max(o.hi[name], y)
	if above {
		o.above[name] = true
	} else {
		o.below[name] = true
	}
}

// text is the note: "off scale: d ↑ 1.1e+04 to 9.6e+05", a clause a name.
func (o *offScale) text() string {
	if len(o.names) == 0 {
		return ""
	}
	var parts []string
	for _, n := range o.names {
		arrow := "↑"
		if o.below[n] && !o.above[n] {
			arrow = "↓"
		} else if o.below[n] {
			arrow = "↕"
		}
		v := formatValue(o.lo[n])
		if o.hi[n] != o.lo[n] {
			v += " to " + formatValue(o.hi[n])
		}
		parts = append(parts, n+" "+arrow+" "+v)
	}
	return "off scale: " + strings.Join(parts, "; ")
}

// formatValue writes a bound's value in three significant digits, an
// exponent plainly: 1.13e4, 2e-5.
func formatValue(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}

// whiteGround is the ground of text drawn on the data: a legend inside it,
// the note of the curves off scale.
var whiteGround = color.NRGBA{0xff, 0xff, 0xff, 0xe0}

// edgeNote is a line of text at the top left of a panel's data area
// (where curves that grow with n leave room), on a white ground, wrapped
// to the data's width: the theory curves drawn beyond the panel's edge,
// with their values.
type edgeNote struct {
	text  string
	style text.Style
}

// Plot draws the note; it implements plot.Plotter.
func (n edgeNote) Plot(c draw.Canvas, _ *plot.Plot) {
	pad := n.style.Font.Size * 0.3
	s := wrapText(n.text, n.style, c.Size().X-2*pad)
	sty := n.style
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	w, h := sty.Width(s), sty.Height(s)
	at := vg.Point{X: c.Min.X + pad, Y: c.Max.Y - pad}
	c.SetColor(whiteGround)
	c.Fill(vg.Rectangle{Min: vg.Point{X: at.X - pad/2, Y: at.Y - h - pad/2}, Max: vg.Point{X: at.X + w + pad/2, Y: at.Y + pad/2}}.Path())
	c.FillText(sty, at, s)
}
