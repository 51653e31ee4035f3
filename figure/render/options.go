package render

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
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

	// Title, if not "", is drawn above the panels.
	Title string
	// Legend is LegendOutside (""), LegendInside or LegendNone.
	Legend string
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
	for _, s := range []string{o.XScale, o.YScale} {
		if !oneOf(s, "", AxisLinear, AxisLog) {
			return fmt.Errorf("render: axis scale %q (allowed: %s, %s)", s, AxisLinear, AxisLog)
		}
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
