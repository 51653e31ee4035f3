package render

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/graphalloc/graphalloc/figure"
)

// Figure formats, legend places and axis scales of Options.
const (
	FormatPNG = "png"
	FormatSVG = "svg"
	FormatPDF = "pdf"

	LegendOutside = "outside" // beside the panels, never on the data (the default)
	LegendInside  = "inside"  // in a corner of each panel's data area
	LegendNone    = "none"

	AxisLinear = "linear"
	AxisLog    = "log"
)

// Formats are the formats Draw writes.
var Formats = []string{FormatPNG, FormatSVG, FormatPDF}

// Defaults of Options.
const (
	DefaultFontSize = 10 * vg.Length(1) // points: axis labels and titles; ticks and legends at 0.9×
	DefaultDPI      = vgimg.DefaultDPI  // dots per inch of a PNG
)

// Limits of Options, so that a typo cannot ask for a gigapixel image.
const (
	minFigureSide = 2 * vg.Centimeter
	maxFigureSide = 2 * 100 * vg.Centimeter
	maxPixels     = 16384 // per side of a PNG
)

// Options say how Draw draws a figure: the file format, the size, the
// fonts, the scales of the axes, a title and where the legend goes. The
// zero value draws PNG at the figure's own size (13 cm × 10.5 cm a panel,
// plus its legend), 10 pt text at 96 dpi, each panel's own scales and the
// legend outside the data. `graphalloc plot`, `compare --plot` and
// `study --plot` all draw through it.
type Options struct {
	Format string // FormatPNG (""), FormatSVG or FormatPDF

	// Width and Height are the size of the whole figure; both 0 for the
	// figure's own size.
	Width, Height vg.Length
	// FontSize is the size of the axis labels and titles (0: DefaultFontSize).
	FontSize vg.Length
	// DPI is the resolution of a PNG (0: DefaultDPI).
	DPI int

	// XScale and YScale replace every panel's scale of that axis by
	// AxisLinear or AxisLog ("" keeps each panel's). A panel whose x axis
	// is categorical keeps it.
	XScale, YScale string

	// YMin and YMax, if YMax > YMin, fix the y range of every panel.
	YMin, YMax float64
	// Panels override XScale, YScale, YMin and YMax for one panel each:
	// the key is the panel's number, 1 for the first, in reading order.
	Panels map[int]PanelOptions

	// Panel, if not 0, draws panel Panel alone (1 for the first): a
	// figure of one panel for a paper's column. The keys of Panels still
	// number the figure's panels.
	Panel int

	// Bounds, if not empty, are the letters of the bounds to draw (the
	// letters of compare's bound legend); the other lettered bounds are
	// left out, with their keys. NoBounds leaves out every bound: every
	// theory curve drawn with a label.
	Bounds   []string
	NoBounds bool

	// Title, if not "", is drawn above the panels.
	Title string
	// Legend is LegendOutside (""), LegendInside or LegendNone.
	Legend string
}

// PanelOptions are the scales and y range of one panel ("" and YMax <=
// YMin: the figure's).
type PanelOptions struct {
	XScale, YScale string
	YMin, YMax     float64
}

// forPanel is o with panel i's own options (i from 0) in place of the
// figure's.
func (o Options) forPanel(i int) Options {
	po, ok := o.Panels[i+1]
	if !ok {
		return o
	}
	if po.XScale != "" {
		o.XScale = po.XScale
	}
	if po.YScale != "" {
		o.YScale = po.YScale
	}
	if po.YMax > po.YMin {
		o.YMin, o.YMax = po.YMin, po.YMax
	}
	return o
}

// checkPanels reports an option for a panel that f lacks, y limits that
// a log axis cannot show, or a bound letter f does not draw.
func (o Options) checkPanels(f *figure.Figure) error {
	if o.Panel > len(f.Panels) {
		return fmt.Errorf("render: panel %d alone (--panel), but the figure has %d panel%s", o.Panel, len(f.Panels), plural(len(f.Panels)))
	}
	for k := range o.Panels {
		if o.Panel > 0 && k != o.Panel {
			return fmt.Errorf("render: options for panel %d (P= of --linear, --log or --ylim), but panel %d is drawn alone (--panel)", k, o.Panel)
		}
		if k > len(f.Panels) {
			return fmt.Errorf("render: options for panel %d (P= of --linear, --log or --ylim), but the figure has %d panel%s", k, len(f.Panels), plural(len(f.Panels)))
		}
	}
	for i, p := range f.Panels {
		po := o.forPanel(i)
		yScale := override(p.YScale, po.YScale)
		if po.YMax > po.YMin && po.YMin <= 0 && yScale != figure.ScaleLinear {
			return fmt.Errorf("render: y limits %g:%g (--ylim): panel %d's y axis is logarithmic and cannot reach %g (give a lower limit above 0, or --linear y)",
				po.YMin, po.YMax, i+1, po.YMin)
		}
	}
	return checkBounds(f, o)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Check reports the first option that is out of range, naming the field
// and what is allowed.
func (o Options) Check() error {
	if !oneOf(o.Format, "", FormatPNG, FormatSVG, FormatPDF) {
		return fmt.Errorf("render: figure format %q (allowed: %s)", o.Format, strings.Join(Formats, ", "))
	}
	if (o.Width == 0) != (o.Height == 0) {
		return errors.New("render: figure size: give both the width and the height, or neither")
	}
	if o.Width != 0 {
		for _, s := range []vg.Length{o.Width, o.Height} {
			if !(s >= minFigureSide && s <= maxFigureSide) {
				return fmt.Errorf("render: figure size %s: each side must lie in [2cm, 200cm]", formatLength(s))
			}
		}
	}
	if o.FontSize != 0 && !(o.FontSize >= 4 && o.FontSize <= 72) {
		return fmt.Errorf("render: font size %gpt: need 4 to 72 points", float64(o.FontSize))
	}
	if o.DPI != 0 {
		if o.format() != FormatPNG {
			return fmt.Errorf("render: a resolution (dpi) applies to PNG only, not to %s", o.format())
		}
		if o.DPI < 10 || o.DPI > 2400 {
			return fmt.Errorf("render: resolution %d dpi: need 10 to 2400", o.DPI)
		}
	}
	scales := []string{o.XScale, o.YScale}
	lims := [][2]float64{{o.YMin, o.YMax}}
	for k, po := range o.Panels {
		if k < 1 {
			return fmt.Errorf("render: options for panel %d: panels are numbered from 1", k)
		}
		scales = append(scales, po.XScale, po.YScale)
		lims = append(lims, [2]float64{po.YMin, po.YMax})
	}
	for _, s := range scales {
		if !oneOf(s, "", AxisLinear, AxisLog) {
			return fmt.Errorf("render: axis scale %q (allowed: %s, %s)", s, AxisLinear, AxisLog)
		}
	}
	for _, l := range lims {
		if (l[0] != 0 || l[1] != 0) && !(l[1] > l[0] && finite(l[0]) && finite(l[1])) {
			return fmt.Errorf("render: y limits %g:%g: need finite limits, the lower below the upper", l[0], l[1])
		}
	}
	for _, l := range o.Bounds {
		if !isLetter(l) {
			return fmt.Errorf("render: bound %q: a bound's letter is a to z, or b26, b27, …", l)
		}
	}
	if o.Panel < 0 {
		return fmt.Errorf("render: panel %d: panels are numbered from 1", o.Panel)
	}
	if o.NoBounds && len(o.Bounds) > 0 {
		return errors.New("render: bounds: give the letters of the bounds to draw, or none, not both")
	}
	if !oneOf(o.Legend, "", LegendOutside, LegendInside, LegendNone) {
		return fmt.Errorf("render: legend %q (allowed: %s, %s, %s)", o.Legend, LegendOutside, LegendInside, LegendNone)
	}
	return nil
}

func oneOf(s string, allowed ...string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

func (o Options) format() string {
	if o.Format == "" {
		return FormatPNG
	}
	return o.Format
}

func (o Options) fontSize() vg.Length {
	if o.FontSize == 0 {
		return DefaultFontSize
	}
	return o.FontSize
}

func (o Options) dpi() int {
	if o.DPI == 0 {
		return DefaultDPI
	}
	return o.DPI
}

func (o Options) legend() string {
	if o.Legend == "" {
		return LegendOutside
	}
	return o.Legend
}

// ParseSize parses a figure size WIDTHxHEIGHT, each a number with a
// unit cm, mm, in or pt ("12cmx8cm", "3.5inx2.5in"); a unit given once, at
// the end, holds for both ("12x8cm").
func ParseSize(s string) (w, h vg.Length, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return 0, 0, fmt.Errorf("render: figure size %q: want WIDTHxHEIGHT with a unit cm, mm, in or pt, e.g. 12cmx8cm", s)
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(ws), 64); err == nil {
		ws += strings.TrimLeft(strings.TrimSpace(hs), "0123456789.+-eE ") // "12x8cm"
	}
	if w, err = ParseLength(ws); err == nil {
		h, err = ParseLength(hs)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("render: figure size %q: %v", s, err)
	}
	return w, h, nil
}

// ParseLength parses a length with its unit: "12cm", "80mm", "3.5in",
// "240pt".
func ParseLength(s string) (vg.Length, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	units := []struct {
		suffix string
		unit   vg.Length
	}{{"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"in", vg.Inch}, {"pt", vg.Points(1)}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("%q is not a positive length", s)
			}
			return vg.Length(v) * u.unit, nil
		}
	}
	return 0, fmt.Errorf("%q has no unit (cm, mm, in or pt)", s)
}

// formatLength writes a length in centimetres.
func formatLength(l vg.Length) string {
	return strconv.FormatFloat(float64(l/vg.Centimeter), 'g', 4, 64) + "cm"
}
