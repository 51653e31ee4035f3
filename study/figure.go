package study

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure formats, legend places and axis scales of FigureOptions.
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

// FigureFormats are the formats Figure.Draw writes.
var FigureFormats = []string{FormatPNG, FormatSVG, FormatPDF}

// Defaults of FigureOptions.
const (
	DefaultFontSize = 10 * vg.Length(1) // points: axis labels and titles; ticks and legends at 0.9×
	DefaultDPI      = vgimg.DefaultDPI  // dots per inch of a PNG
)

// Limits of FigureOptions, so that a typo cannot ask for a gigapixel image.
const (
	minFigureSide = 2 * vg.Centimeter
	maxFigureSide = 2 * 100 * vg.Centimeter
	maxPixels     = 16384 // per side of a PNG
)

// FigureOptions say how Figure.Draw draws a figure: the file format, the
// size, the fonts, the scales of the axes, a title and where the legend
// goes. The zero value draws PNG at the figure's own size (13 cm × 10.5 cm a
// panel, plus its legend), 10 pt text at 96 dpi, each panel's own scales and
// the legend outside the data. `graphalloc plot`, `compare --plot` and
// `study --plot` all draw through it.
type FigureOptions struct {
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
func (o FigureOptions) Check() error {
	if !oneOf(o.Format, "", FormatPNG, FormatSVG, FormatPDF) {
		return fmt.Errorf("study: figure format %q (allowed: %s)", o.Format, strings.Join(FigureFormats, ", "))
	}
	if (o.Width == 0) != (o.Height == 0) {
		return errors.New("study: figure size: give both the width and the height, or neither")
	}
	if o.Width != 0 {
		for _, s := range []vg.Length{o.Width, o.Height} {
			if !(s >= minFigureSide && s <= maxFigureSide) {
				return fmt.Errorf("study: figure size %s: each side must lie in [2cm, 200cm]", formatLength(s))
			}
		}
	}
	if o.FontSize != 0 && !(o.FontSize >= 4 && o.FontSize <= 72) {
		return fmt.Errorf("study: font size %gpt: need 4 to 72 points", float64(o.FontSize))
	}
	if o.DPI != 0 {
		if o.format() != FormatPNG {
			return fmt.Errorf("study: a resolution (dpi) applies to PNG only, not to %s", o.format())
		}
		if o.DPI < 10 || o.DPI > 2400 {
			return fmt.Errorf("study: resolution %d dpi: need 10 to 2400", o.DPI)
		}
	}
	for _, s := range []string{o.XScale, o.YScale} {
		if !oneOf(s, "", AxisLinear, AxisLog) {
			return fmt.Errorf("study: axis scale %q (allowed: %s, %s)", s, AxisLinear, AxisLog)
		}
	}
	if !oneOf(o.Legend, "", LegendOutside, LegendInside, LegendNone) {
		return fmt.Errorf("study: legend %q (allowed: %s, %s, %s)", o.Legend, LegendOutside, LegendInside, LegendNone)
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

func (o FigureOptions) format() string {
	if o.Format == "" {
		return FormatPNG
	}
	return o.Format
}

func (o FigureOptions) fontSize() vg.Length {
	if o.FontSize == 0 {
		return DefaultFontSize
	}
	return o.FontSize
}

func (o FigureOptions) dpi() int {
	if o.DPI == 0 {
		return DefaultDPI
	}
	return o.DPI
}

func (o FigureOptions) legend() string {
	if o.Legend == "" {
		return LegendOutside
	}
	return o.Legend
}

// ParseFigureSize parses a figure size WIDTHxHEIGHT, each a number with a
// unit cm, mm, in or pt ("12cmx8cm", "3.5inx2.5in"); a unit given once, at
// the end, holds for both ("12x8cm").
func ParseFigureSize(s string) (w, h vg.Length, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return 0, 0, fmt.Errorf("study: figure size %q: want WIDTHxHEIGHT with a unit cm, mm, in or pt, e.g. 12cmx8cm", s)
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(ws), 64); err == nil {
		ws += strings.TrimLeft(strings.TrimSpace(hs), "0123456789.+-eE ") // "12x8cm"
	}
	if w, err = ParseLength(ws); err == nil {
		h, err = ParseLength(hs)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("study: figure size %q: %v", s, err)
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

// The colours of the series: Okabe and Ito's palette for colour-blind
// readers (M. Okabe, K. Ito, Color Universal Design, 2008), blue and
// vermillion first, the pale yellow last. Every series also has its own
// marker, so that a figure printed in grey keeps its series apart.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0xf0, 0xe4, 0x42, 0xff}, // yellow
}

// grey draws references and the keys of line styles (Series.Color −1).
var grey = color.Gray{Y: 0x70}

func seriesColor(i int) color.Color {
	if i < 0 {
		return grey
	}
	return palette[i%len(palette)]
}

// shapes are the markers of the series: seven, so that with the eight
// colours no two of the first 56 series look alike.
var shapes = []draw.GlyphDrawer{
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

func seriesShape(i int) draw.GlyphDrawer {
	if i < 0 {
		i = 0
	}
	return shapes[i%len(shapes)]
}

// Dash patterns of the styles.
var (
	dashedLine  = []vg.Length{vg.Points(5), vg.Points(3)}
	dottedLine  = []vg.Length{vg.Points(1.2), vg.Points(2)}
	dashDotLine = []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.2), vg.Points(2)}
)

// Size of one panel's plot at the figure's own size; its legend, outside,
// adds to the width.
const (
	panelWidth  = 13 * vg.Centimeter
	panelHeight = 10.5 * vg.Centimeter
)

// Space between the parts of a figure.
const (
	figurePad  = 3 * vg.Millimeter // around the figure
	panelGapX  = 8 * vg.Millimeter // between panels side by side
	panelGapY  = 8 * vg.Millimeter
	legendGap  = 4 * vg.Millimeter // between a panel and its legend
	legendWrap = 0.42              // a legend's text wraps at this fraction of a panel's width
)

// Draw writes the figure to w as o says (the zero FigureOptions: a PNG with
// the paper defaults). Panels go three to a row.
func (f *Figure) Draw(w io.Writer, o FigureOptions) error {
	if err := o.Check(); err != nil {
		return err
	}
	if f == nil || len(f.Panels) == 0 {
		return errors.New("study: the figure has no panel")
	}
	if o.format() == FormatPDF {
		f, o.Title = f.forPDF(), pdfText(o.Title)
	}
	fs := o.fontSize()
	cols := min(3, len(f.Panels))
	rows := (len(f.Panels) + cols - 1) / cols

	// The plots and their legends.
	plots := make([]*plot.Plot, len(f.Panels))
	keys := make([]*legendBox, len(f.Panels))
	for i, p := range f.Panels {
		pl, entries, err := p.plot(o, fs)
		if err != nil {
			return err
		}
		plots[i] = pl
		keys[i] = newLegendBox(entries, fs)
	}
	mode := o.legend()
	shared := f.SharedLegend && mode == LegendOutside
	var sharedKey *legendBox
	if shared {
		var all []legendEntry
		seen := map[string]bool{}
		for _, k := range keys {
			for _, e := range k.entries {
				if !seen[e.text] {
					seen[e.text] = true
					all = append(all, e)
				}
			}
		}
		sharedKey = newLegendBox(all, fs)
	}

	titleH := vg.Length(0)
	titleStyle := textStyle(fs * 1.2)
	if o.Title != "" {
		titleH = titleStyle.Height(o.Title) + fs*0.6
	}
	// The legend columns: one per panel column, or one shared at the
	// right; their widths, at the figure's own size or at o's. A legend
	// taller than its panel (less the panel's title and x axis) takes two
	// or three columns.
	width, height := o.Width, o.Height
	tileW := panelWidth
	if width != 0 {
		tileW = (width - 2*figurePad - vg.Length(cols-1)*panelGapX) / vg.Length(cols)
	} else {
		height = 2*figurePad + vg.Length(rows)*panelHeight + vg.Length(rows-1)*panelGapY + titleH
	}
	wrap := legendWrap * tileW
	rowH := (height - 2*figurePad - titleH - vg.Length(rows-1)*panelGapY) / vg.Length(rows)
	legW := make([]vg.Length, cols) // per panel column
	var sharedW vg.Length
	switch {
	case shared:
		sharedW = sharedKey.fit(wrap, height-2*figurePad-titleH-3*fs)
	case mode == LegendOutside:
		for i, k := range keys {
			legW[i%cols] = max(legW[i%cols], k.fit(wrap, rowH-6*fs))
		}
	}
	space := func(l vg.Length) vg.Length {
		if l > 0 {
			return l + legendGap
		}
		return 0
	}
	var legTotal vg.Length
	for _, l := range legW {
		legTotal += space(l)
	}
	if width == 0 {
		width = 2*figurePad + vg.Length(cols)*panelWidth + vg.Length(cols-1)*panelGapX + legTotal + space(sharedW)
	}
	// A shared legend that would take more than a third of the width goes
	// below the panels instead, in as many columns as the width holds.
	var legendBelow vg.Length
	if shared && sharedW > (width-2*figurePad)/3 {
		legendBelow = sharedKey.fitWidth(wrap, width-2*figurePad) + legendGap
		sharedW = 0
	}
	legTotal += space(sharedW)

	c, err := newCanvas(o, width, height)
	if err != nil {
		return err
	}
	dc := draw.Crop(draw.New(c), figurePad, -figurePad, figurePad, -figurePad)
	if o.Title != "" {
		dc.FillText(titleStyle, vg.Point{X: dc.Center().X, Y: dc.Max.Y - titleStyle.Height(o.Title)}, o.Title)
		dc.Max.Y -= titleH
	}
	dc.Min.Y += legendBelow
	plotW := (dc.Size().X - vg.Length(cols-1)*panelGapX - legTotal) / vg.Length(cols)
	plotH := (dc.Size().Y - vg.Length(rows-1)*panelGapY) / vg.Length(rows)
	if !(plotW > 2*fs*3 && plotH > 2*fs*3) {
		return fmt.Errorf("study: a figure of %s × %s has no room for its %d panels and their legends (make it larger, the font smaller, or --legend inside)",
			formatLength(width), formatLength(height), len(f.Panels))
	}
	// The panels' titles, drawn by the figure so that a row's titles share
	// a line: wrapped at the width of their plot.
	titles := make([]string, len(plots))
	rowTitleH := make([]vg.Length, rows)
	panelTitle := textStyle(fs)
	panelTitle.YAlign = draw.YTop
	for i, pl := range plots {
		titles[i] = wrapText(pl.Title.Text, panelTitle, plotW)
		pl.Title.Text = ""
		if titles[i] != "" {
			rowTitleH[i/cols] = max(rowTitleH[i/cols], panelTitle.Height(titles[i])+fs*0.8)
		}
	}

	// Each plot's canvas: its tile less its legend column.
	tiles := make([]draw.Canvas, len(plots))
	x := dc.Min.X
	colX := make([]vg.Length, cols)
	for j := range cols {
		colX[j] = x
		x += plotW + space(legW[j]) + panelGapX
	}
	// The axis labels, drawn by the figure too: gonum places the glyph
	// box of a label on a log axis at the mean of the axis' ends, which
	// pads the plot for a label where there is none.
	labelStyle := textStyle(fs)
	yLabelStyle := labelStyle
	yLabelStyle.Rotation = math.Pi / 2
	labelRoom := func(s string) vg.Length {
		if s == "" {
			return 0
		}
		return labelStyle.Height(s) + fs*0.3
	}
	xLabels, yLabels := make([]string, len(plots)), make([]string, len(plots))
	for i, pl := range plots {
		r, j := i/cols, i%cols
		rowTop := dc.Max.Y - vg.Length(r)*(plotH+panelGapY)
		xLabels[i], yLabels[i] = pl.X.Label.Text, pl.Y.Label.Text
		pl.X.Label.Text, pl.Y.Label.Text = "", ""
		tiles[i] = draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: colX[j] + labelRoom(yLabels[i]), Y: rowTop - plotH + labelRoom(xLabels[i])},
			Max: vg.Point{X: colX[j] + plotW, Y: rowTop - rowTitleH[r]}}}
	}
	// Labels that would overlap at this size give way, round values last.
	for i, pl := range plots {
		data := pl.DataCanvas(tiles[i])
		if _, categorical := pl.X.Tick.Marker.(plot.ConstantTicks); !categorical {
			pl.X.Tick.Marker = thinTicks{inner: pl.X.Tick.Marker, axis: &pl.X, length: data.Size().X}
		}
		pl.Y.Tick.Marker = thinTicks{inner: pl.Y.Tick.Marker, axis: &pl.Y, length: data.Size().Y, vertical: true}
	}
	tiles = alignTiles(plots, tiles, cols)
	descent := labelStyle.FontExtents().Descent
	for i, pl := range plots {
		pl.Draw(tiles[i])
		data := pl.DataCanvas(tiles[i])
		if titles[i] != "" {
			top := dc.Max.Y - vg.Length(i/cols)*(plotH+panelGapY)
			dc.FillText(panelTitle, vg.Point{X: data.Center().X, Y: top}, titles[i])
		}
		if s := xLabels[i]; s != "" {
			dc.FillText(labelStyle, vg.Point{X: data.Center().X, Y: tiles[i].Min.Y - labelRoom(s) + descent}, s)
		}
		if s := yLabels[i]; s != "" {
			dc.FillText(yLabelStyle, vg.Point{X: tiles[i].Min.X - labelRoom(s) + labelStyle.Height(s) - descent, Y: data.Center().Y}, s)
		}
		switch {
		case mode == LegendInside:
			keys[i].drawInside(data, f.Panels[i], wrap)
		case mode == LegendOutside && !shared:
			keys[i].draw(dc.Canvas, vg.Point{X: tiles[i].Max.X + legendGap, Y: data.Max.Y})
		}
	}
	switch {
	case legendBelow > 0:
		w := vg.Length(sharedKey.cols)*sharedKey.colW + vg.Length(sharedKey.cols-1)*sharedKey.colGap()
		sharedKey.draw(dc.Canvas, vg.Point{X: dc.Center().X - w/2, Y: dc.Min.Y - legendGap})
	case shared:
		data := plots[0].DataCanvas(tiles[0])
		sharedKey.draw(dc.Canvas, vg.Point{X: dc.Max.X - sharedW, Y: data.Max.Y})
	}
	_, err = c.WriteTo(w)
	return err
}

// newCanvas is the canvas of o's format at the size given.
func newCanvas(o FigureOptions, width, height vg.Length) (interface {
	vg.CanvasSizer
	io.WriterTo
}, error) {
	switch o.format() {
	case FormatSVG:
		// The fonts go in the file: a viewer without them would
		// substitute wider ones, and the legends would overflow.
		return vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(true)), nil
	case FormatPDF:
		return pdfCanvas{vgpdf.New(width, height)}, nil
	}
	dpi := o.dpi()
	if px := max(width, height).Dots(float64(dpi)); px > maxPixels {
		return nil, fmt.Errorf("study: a %s × %s figure at %d dpi is %.0f pixels wide; at most %d (lower --dpi or the size)",
			formatLength(width), formatLength(height), dpi, px, maxPixels)
	}
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))}, nil
}

// pdfCanvas writes text in the code page of the fonts vgpdf embeds,
// Windows-1252: vgpdf passes a string's bytes on as they are, so UTF-8
// would print as mojibake. Figure.Draw has already spelled out the
// characters the code page lacks (pdfText).
type pdfCanvas struct{ *vgpdf.Canvas }

func (c pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	b, err := encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder()).String(s)
	if err != nil {
		b = strings.Map(func(r rune) rune { return min(r, '?') }, s)
	}
	c.Canvas.FillString(f, pt, b)
}

// pdfSpelling spells out the characters of the figures that Windows-1252
// lacks.
var pdfSpelling = strings.NewReplacer(
	"Δ", "Delta", "Θ", "Theta", "Π", "Pi", "Σ", "Sigma", "Ω", "Omega",
	"α", "alpha", "β", "beta", "δ", "delta", "ε", "eps", "λ", "lambda", "μ", "µ",
	"π", "pi", "σ", "sigma", "φ", "phi", "χ", "chi",
	"′", "'", "″", "''", "⁴", "^4", "⁻", "^-", "₂", "2", "→", "->", "∈", " in ",
	"−", "-", "∖", "\\", "√", "sqrt ", "∝", "~", "∞", "inf", "≈", "~", "≠", "!=",
	"≤", "<=", "≥", ">=", "≫", ">>", "⌈", "ceil(", "⌉", ")", "⌊", "floor(", "⌋", ")",
)

// pdfText is s with the characters Windows-1252 lacks spelled out.
func pdfText(s string) string { return pdfSpelling.Replace(s) }

// forPDF is a copy of f whose text Windows-1252 can write.
func (f *Figure) forPDF() *Figure {
	out := &Figure{SharedLegend: f.SharedLegend}
	for _, p := range f.Panels {
		q := *p
		q.Title, q.XLabel, q.YLabel = pdfText(p.Title), pdfText(p.XLabel), pdfText(p.YLabel)
		q.XCategories = nil
		for _, c := range p.XCategories {
			q.XCategories = append(q.XCategories, pdfText(c))
		}
		q.Series = nil
		for _, s := range p.Series {
			t := *s
			t.Name, t.Label = pdfText(s.Name), pdfText(s.Label)
			q.Series = append(q.Series, &t)
		}
		out.Panels = append(out.Panels, &q)
	}
	return out
}

// alignTiles shrinks the tiles so that the data areas of the plots in a row
// share their top and bottom, and those in a column their left and right
// (plot.Align's rule, for tiles of any width).
func alignTiles(plots []*plot.Plot, tiles []draw.Canvas, cols int) []draw.Canvas {
	rows := (len(plots) + cols - 1) / cols
	left, right := make([]vg.Length, cols), make([]vg.Length, cols)
	bottom, top := make([]vg.Length, rows), make([]vg.Length, rows)
	for i, pl := range plots {
		r, j := i/cols, i%cols
		c, d := tiles[i], pl.DataCanvas(tiles[i])
		left[j] = max(left[j], d.Min.X-c.Min.X)
		right[j] = max(right[j], c.Max.X-d.Max.X)
		bottom[r] = max(bottom[r], d.Min.Y-c.Min.Y)
		top[r] = max(top[r], c.Max.Y-d.Max.Y)
	}
	out := make([]draw.Canvas, len(tiles))
	for i, pl := range plots {
		r, j := i/cols, i%cols
		c, d := tiles[i], pl.DataCanvas(tiles[i])
		out[i] = draw.Crop(c, left[j]-(d.Min.X-c.Min.X), -(right[j] - (c.Max.X - d.Max.X)),
			bottom[r]-(d.Min.Y-c.Min.Y), -(top[r] - (c.Max.Y - d.Max.Y)))
	}
	return out
}

// textStyle is the figure's text at size fs.
func textStyle(fs vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, fs),
		XAlign:  draw.XCenter,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// wrapText breaks s into lines no wider than w at spaces (a word wider
// than w keeps its own line), never beside a relation sign: "λ = 2" stays
// whole.
func wrapText(s string, sty text.Style, w vg.Length) string {
	if s == "" || sty.Width(s) <= w {
		return s
	}
	var words []string
	glue := false
	for _, word := range strings.Fields(s) {
		rel := oneOf(word, "=", "<", ">", "≤", "≥", "≈", "→")
		if n := len(words); n > 0 && (rel || glue) {
			words[n-1] += " " + word
		} else {
			words = append(words, word)
		}
		glue = rel
	}
	var lines []string
	line := ""
	for _, word := range words {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && sty.Width(try) > w {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	return strings.Join(append(lines, line), "\n")
}

// legendEntry is a line of a legend: its text and the thumbnails drawn
// beside it (none: a line of text).
type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
}

// legendBox is a legend drawn by the figure itself rather than by
// gonum/plot, so that it can stand outside the data, wrap long entries and
// take more than one column.
type legendBox struct {
	entries []legendEntry
	style   text.Style
	thumbW  vg.Length
	cols    int       // columns, set by fit
	colW    vg.Length // the width of a column, its text wrapped to fit
}

func newLegendBox(entries []legendEntry, fs vg.Length) *legendBox {
	sty := textStyle(fs * 0.9)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	return &legendBox{entries: entries, style: sty, thumbW: 2.2 * fs, cols: 1}
}

// lineHeight is the height of one line of text, gap the space between
// entries and colGap between columns.
func (l *legendBox) lineHeight() vg.Length { return l.style.Height("Ag") }
func (l *legendBox) gap() vg.Length        { return l.style.Font.Size * 0.35 }
func (l *legendBox) colGap() vg.Length     { return l.style.Font.Size }

// indent is where the text of an entry starts.
func (l *legendBox) indent() vg.Length { return l.thumbW + l.style.Font.Size*0.5 }

// fit lays the legend out with its text wrapped at wrap, in as few columns
// (at most three) as keep it within height avail, and returns its width
// (0 if it is empty).
func (l *legendBox) fit(wrap, avail vg.Length) vg.Length {
	l.colW = 0
	for _, e := range l.entries {
		for _, line := range strings.Split(wrapText(e.text, l.style, wrap-l.indent()), "\n") {
			l.colW = max(l.colW, l.indent()+l.style.Width(line))
		}
	}
	for l.cols = 1; l.cols < min(3, len(l.entries)); l.cols++ {
		if l.height() <= avail {
			break
		}
	}
	if len(l.entries) == 0 {
		return 0
	}
	return vg.Length(l.cols)*l.colW + vg.Length(l.cols-1)*l.colGap()
}

// fitWidth lays the legend out with its text wrapped at wrap, in as many
// columns as width holds, and returns its height.
func (l *legendBox) fitWidth(wrap, width vg.Length) vg.Length {
	l.fit(wrap, 0)
	l.cols = max(1, min(len(l.entries), int((width+l.colGap())/(l.colW+l.colGap()))))
	return l.height()
}

// columns splits the entries into the legend's columns, in order.
func (l *legendBox) columns() [][]legendEntry {
	per := (len(l.entries) + l.cols - 1) / max(l.cols, 1)
	var out [][]legendEntry
	for es := l.entries; len(es) > 0; {
		k := min(per, len(es))
		out = append(out, es[:k])
		es = es[k:]
	}
	return out
}

// lines is an entry's text wrapped to its column.
func (l *legendBox) lines(e legendEntry) []string {
	return strings.Split(wrapText(e.text, l.style, l.colW-l.indent()), "\n")
}

// height is the height of the legend's tallest column.
func (l *legendBox) height() vg.Length {
	var h vg.Length
	for _, col := range l.columns() {
		var ch vg.Length
		for i, e := range col {
			ch += vg.Length(len(l.lines(e))) * l.lineHeight()
			if i > 0 {
				ch += l.gap()
			}
		}
		h = max(h, ch)
	}
	return h
}

// draw draws the legend, as fit laid it out, with its top left corner at
// at.
func (l *legendBox) draw(c vg.Canvas, at vg.Point) {
	dc := draw.Canvas{Canvas: c}
	lh := l.lineHeight()
	for k, col := range l.columns() {
		x := at.X + vg.Length(k)*(l.colW+l.colGap())
		y := at.Y
		for _, e := range col {
			lines := l.lines(e)
			icon := draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - lh}, Max: vg.Point{X: x + l.thumbW, Y: y}}}
			for _, t := range e.thumbs {
				t.Thumbnail(&icon)
			}
			tx := x + l.indent()
			if len(e.thumbs) == 0 {
				tx = x
			}
			for j, line := range lines {
				dc.FillText(l.style, vg.Point{X: tx, Y: y - vg.Length(j)*lh}, line)
			}
			y -= vg.Length(len(lines))*lh + l.gap()
		}
	}
}

// drawInside draws the legend on a white ground in the corner of the data
// area that the panel asks for (top left unless LegendRight, LegendLow).
func (l *legendBox) drawInside(data draw.Canvas, p *Panel, wrap vg.Length) {
	if len(l.entries) == 0 {
		return
	}
	pad := l.style.Font.Size * 0.4
	w := l.fit(wrap, data.Size().Y-2*pad)
	h := l.height()
	x, y := data.Min.X+pad, data.Max.Y-pad
	if p.LegendRight {
		x = data.Max.X - pad - w
	}
	if p.LegendLow {
		y = data.Min.Y + pad + h
	}
	box := vg.Rectangle{Min: vg.Point{X: x - pad/2, Y: y - h - pad/2}, Max: vg.Point{X: x + w + pad/2, Y: y + pad/2}}
	data.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xe0})
	data.Fill(box.Path())
	l.draw(data.Canvas, vg.Point{X: x, Y: y})
}

// plot builds the gonum plot of a panel at font size fs and returns the
// entries of its legend (in the plot when o says inside).
func (p *Panel) plot(o FigureOptions, fs vg.Length) (*plot.Plot, []legendEntry, error) {
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.Title.TextStyle = textStyle(fs)
	pl.Title.Padding = fs * 0.6
	pl.X.Label.Text, pl.Y.Label.Text = p.XLabel, p.YLabel
	for _, a := range []*plot.Axis{&pl.X, &pl.Y} {
		a.Label.TextStyle.Font.Size = fs
		a.Tick.Label.Font.Size = fs * 0.9
		a.Label.Padding = fs * 0.3
		a.Tick.Length = fs * 0.5
		a.Padding = fs * 0.4
	}
	categorical := len(p.XCategories) > 0
	xScale, yScale := p.XScale, p.YScale
	if !categorical {
		xScale = override(xScale, o.XScale)
	}
	yScale = override(yScale, o.YScale)
	logX, logY := xScale != ScaleLinear, yScale != ScaleLinear
	setScale(&pl.X, xScale, p.XInt)
	setScale(&pl.Y, yScale, false)

	var entries []legendEntry
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range p.Series {
		col := seriesColor(s.Color)
		var xy plotter.XYs
		var errs plotter.YErrors
		hasErr := false
		for _, q := range s.Points {
			if !finite(q.X) || !finite(q.Y) || (logX && !(q.X > 0)) || (logY && !(q.Y > 0)) {
				continue
			}
			lo, hi := q.Lo, q.Hi
			if (lo == 0 && hi == 0) || !finite(lo) || !finite(hi) {
				lo, hi = q.Y, q.Y
			}
			if logY {
				lo = max(lo, q.Y/2) // a log axis cannot show 0
			}
			hasErr = hasErr || lo != q.Y || hi != q.Y
			xy = append(xy, plotter.XY{X: q.X, Y: q.Y})
			errs = append(errs, struct{ Low, High float64 }{q.Y - lo, hi - q.Y})
			xlo, xhi = min(xlo, q.X), max(xhi, q.X)
			ylo, yhi = min(ylo, lo), max(yhi, hi)
		}
		thumbs, err := addSeries(pl, s, xy, errs, hasErr, logX, col, fs)
		if err != nil {
			return nil, nil, err
		}
		if s.Name != "" && (len(xy) > 0 || len(s.Points) == 0) {
			entries = append(entries, legendEntry{s.Name, thumbs})
		}
		if s.Label != "" && len(xy) > 0 {
			lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xy[len(xy)-1:], Labels: []string{s.Label}})
			if err != nil {
				return nil, nil, err
			}
			for k := range lab.TextStyle {
				lab.TextStyle[k].Color = col
				lab.TextStyle[k].Font.Size = fs * 0.85
				lab.TextStyle[k].YAlign = draw.YCenter
			}
			lab.Offset = vg.Point{X: fs * 0.35}
			pl.Add(lab)
		}
	}
	if math.IsInf(xlo, 1) {
		xlo, xhi, ylo, yhi = 1, 2, 1, 2
	}
	// The axes span the data: the markers, error bars and labels get
	// their room from gonum's glyph boxes, not from empty data range.
	switch {
	case categorical:
		pl.X.Min, pl.X.Max = -0.5, float64(len(p.XCategories))-0.5
		ticks := make([]plot.Tick, len(p.XCategories))
		for i, c := range p.XCategories {
			ticks[i] = plot.Tick{Value: float64(i), Label: c}
		}
		pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	case xhi == xlo && logX:
		pl.X.Min, pl.X.Max = xlo/2, xhi*2
	case xhi == xlo:
		pl.X.Min, pl.X.Max = xlo-1, xhi+1
	default:
		pl.X.Min, pl.X.Max = xlo, xhi
	}
	// A little room above and below the data; with the legend inside,
	// room for it above the curves (or below them, LegendLow).
	below, above := 0.03, 0.03
	if o.legend() == LegendInside && len(entries) > 0 {
		below, above = 0.05, 0.4
		if p.LegendLow {
			below, above = 0.35, 0.05
		}
	}
	if logY {
		span := math.Max(yhi/ylo, 1.5)
		pl.Y.Min, pl.Y.Max = ylo/math.Pow(span, below), yhi*math.Pow(span, above)
	} else {
		h := yhi - ylo
		if h == 0 {
			h = math.Max(math.Abs(yhi), 1)
		}
		pl.Y.Min, pl.Y.Max = ylo-below*h, yhi+above*h
	}
	if p.YMax > p.YMin && !(logY && p.YMin <= 0) {
		pl.Y.Min, pl.Y.Max = p.YMin, p.YMax
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{Y: 0xdd}, color.Gray{Y: 0xdd}
	if categorical {
		grid.Vertical.Color = nil
	}
	// The grid under the data.
	pl.Add(grid)
	return pl, entries, nil
}

// addSeries adds the plotters of series s, its points xy with error bars
// errs, to pl, and returns the thumbnails of its legend entry.
func addSeries(pl *plot.Plot, s *Series, xy plotter.XYs, errs plotter.YErrors, hasErr, logX bool, col color.Color, fs vg.Length) ([]plot.Thumbnailer, error) {
	pts := xy
	if len(pts) == 0 {
		pts = plotter.XYs{{}} // a legend-only entry: the style, no data
	}
	line, sc, err := plotter.NewLinePoints(pts)
	if err != nil {
		return nil, err
	}
	line.Color, sc.Color = col, col
	line.Width = fs * 0.13 // 1.3 pt at 10 pt text
	sc.Shape = seriesShape(s.Shape)
	sc.Radius = fs * 0.3
	draws := len(xy) > 0
	var thumbs []plot.Thumbnailer
	switch s.Style {
	case StyleLine:
		// Markers on a few of the points, so that the curves differ in
		// grey too; each series starts at its own offset, so that curves
		// that meet keep their markers apart.
		thumbs = append(thumbs, line, sc)
		if !draws {
			break
		}
		if hasErr {
			band, err := bandPolygon(xy, errs, col)
			if err != nil {
				return nil, err
			}
			pl.Add(band)
		}
		pl.Add(line)
		ms, err := plotter.NewScatter(sparseMarks(xy, logX, max(s.Shape, 0)))
		if err != nil {
			return nil, err
		}
		ms.GlyphStyle = sc.GlyphStyle
		pl.Add(ms)
	case StyleDashed, StyleDotted, StyleDashDot:
		line.Dashes = map[string][]vg.Length{StyleDashed: dashedLine, StyleDotted: dottedLine, StyleDashDot: dashDotLine}[s.Style]
		line.Width = fs * 0.11
		thumbs = append(thumbs, line)
		if draws {
			pl.Add(line)
		}
		if len(xy) == 1 {
			// A curve of one point (a bound whose regime holds at one n
			// only) is a cross.
			sc.Shape, sc.Radius = draw.CrossGlyph{}, fs*0.35
			pl.Add(sc)
		}
	case StyleMarks:
		sc.Shape = draw.RingGlyph{}
		sc.Radius = fs * 0.5
		thumbs = append(thumbs, sc)
		if draws {
			pl.Add(sc)
		}
	default:
		thumbs = append(thumbs, line, sc)
		if !draws {
			break
		}
		if len(xy) > 1 {
			pl.Add(line)
		}
		if hasErr {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{xy, errs})
			if err != nil {
				return nil, err
			}
			eb.Color = col
			eb.Width = fs * 0.09
			eb.CapWidth = fs * 0.5
			pl.Add(eb)
		}
		pl.Add(sc)
	}
	return thumbs, nil
}

// sparseMarks picks about eight of the points xy (sorted by x), evenly
// spaced along the x axis (log-spaced if logX), shifted by the series'
// shape k so that curves that meet keep their markers apart.
func sparseMarks(xy plotter.XYs, logX bool, k int) plotter.XYs {
	const marks = 8
	if len(xy) <= marks {
		return xy
	}
	pos := func(x float64) float64 {
		if logX {
			return math.Log(x)
		}
		return x
	}
	lo, hi := pos(xy[0].X), pos(xy[len(xy)-1].X)
	var out plotter.XYs
	j := 0
	for m := range marks {
		target := lo + (hi-lo)*(float64(m)+float64(k%len(shapes)+1)/float64(len(shapes)+1))/marks
		for j+1 < len(xy) && math.Abs(pos(xy[j+1].X)-target) <= math.Abs(pos(xy[j].X)-target) {
			j++
		}
		if len(out) == 0 || out[len(out)-1] != xy[j] {
			out = append(out, xy[j])
		}
	}
	return out
}

// bandPolygon is the shaded band between the low and high ends of errs.
func bandPolygon(xy plotter.XYs, errs plotter.YErrors, col color.Color) (*plotter.Polygon, error) {
	ring := make(plotter.XYs, 0, 2*len(xy))
	for i, q := range xy {
		ring = append(ring, plotter.XY{X: q.X, Y: q.Y - errs[i].Low})
	}
	for i := len(xy) - 1; i >= 0; i-- {
		ring = append(ring, plotter.XY{X: xy[i].X, Y: xy[i].Y + errs[i].High})
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, err
	}
	r, g, b, _ := col.RGBA()
	poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x40}
	poly.LineStyle.Width = 0
	return poly, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// override is the scale of an axis after the option o (AxisLinear,
// AxisLog or "" for the panel's own, s).
func override(s, o string) string {
	switch {
	case o == AxisLinear:
		return ScaleLinear
	case o == AxisLog && s == ScaleLinear:
		return ScaleLog
	}
	return s
}

// setScale sets an axis' scale and ticks; integer says it holds whole
// numbers (ticks at whole numbers only).
func setScale(a *plot.Axis, s string, integer bool) {
	a.Tick.Marker = linearTicks{integer: integer}
	switch s {
	case ScaleLog:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = autoLogTicks{integer: integer}
	case ScaleLog2:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = sparsePow2Ticks{}
	case ScaleLog10:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = plainDecadeTicks{}
	}
}

// linearTicks labels a linear axis at the multiples of a step of 1, 2 or 5
// times a power of ten, about six labels, with a minor tick between; each
// value is rounded to the digits its label shows (0.15, not
// 0.15000000000000002). On an integer axis the step is at least 1.
type linearTicks struct{ integer bool }

func (t linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if t.integer && step < 1 {
		step = 1
	}
	digits := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	minor := step / 2
	if t.integer {
		// Minor ticks at whole numbers too: 5 → 1, 2 → 1, 10 → 5, 1 → none.
		switch m := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); {
		case step == 1:
			minor = 1
		case math.Abs(m-5) < 1e-9:
			minor = step / 5
		}
	}
	round := func(v float64, d int) float64 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', d, 64), 64)
		return r
	}
	var ts []plot.Tick
	for k := math.Ceil(lo/minor - 1e-9); k*minor <= hi+1e-9*step; k++ {
		v := round(k*minor, digits+1)
		if v == 0 {
			v = 0 // not −0
		}
		tick := plot.Tick{Value: v}
		if math.Mod(k, step/minor) == 0 {
			tick.Label = strconv.FormatFloat(round(v, digits), 'f', digits, 64)
		}
		ts = append(ts, tick)
	}
	// A whole-number axis that starts at a whole number says so (load 1),
	// if the first label is not too close.
	if t.integer && lo == math.Round(lo) && len(ts) > 0 && ts[0].Label == "" {
		for _, tk := range ts {
			if tk.Label == "" {
				continue
			}
			if tk.Value-lo >= 0.6*step {
				if ts[0].Value != lo {
					ts = append([]plot.Tick{{Value: lo}}, ts...)
				}
				ts[0].Label = strconv.FormatFloat(lo, 'f', 0, 64)
			}
			break
		}
	}
	return ts
}

// thinTicks blanks the labels of inner's ticks that would overlap on an
// axis of the given length: labels are kept in order of roundness (1, 5, 2
// times a power of ten; even powers of two; every other of evenly spaced
// labels first), each if it clears those already kept.
type thinTicks struct {
	inner    plot.Ticker
	axis     *plot.Axis
	length   vg.Length
	vertical bool
}

func (t thinTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := t.inner.Ticks(lo, hi)
	sty := t.axis.Tick.Label
	type label struct {
		i         int
		pos, size vg.Length
		rank      int
	}
	var ls []label
	for i, tk := range ts {
		if tk.Label == "" {
			continue
		}
		size := sty.Width(tk.Label)
		if t.vertical {
			size = sty.Height(tk.Label)
		}
		ls = append(ls, label{i: i, pos: vg.Length(t.axis.Norm(tk.Value)) * t.length, size: size, rank: 2*roundness(tk) + len(ls)%2})
	}
	slices.SortStableFunc(ls, func(a, b label) int { return a.rank - b.rank })
	gap := sty.Font.Size * 0.6
	var kept []label
	for _, l := range ls {
		clear := true
		for _, k := range kept {
			if d := l.pos - k.pos; max(d, -d) < (l.size+k.size)/2+gap {
				clear = false
				break
			}
		}
		if clear {
			kept = append(kept, l)
		} else {
			ts[l.i].Label = ""
		}
	}
	return ts
}

// roundness ranks a tick's value: 0 for 1 times a power of ten (or 0), 1
// for 5, 2 for 2, 3 otherwise; a power of two 0 for an even exponent, 1 for
// an odd one.
func roundness(tk plot.Tick) int {
	if k, ok := strings.CutPrefix(tk.Label, "2^"); ok {
		if e, err := strconv.Atoi(k); err == nil {
			return e & 1
		}
	}
	v := math.Abs(tk.Value)
	if v == 0 {
		return 0
	}
	m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))
	switch {
	case math.Abs(m-1) < 1e-6:
		return 0
	case math.Abs(m-5) < 1e-6:
		return 1
	case math.Abs(m-2) < 1e-6:
		return 2
	}
	return 3
}

// sparsePow2Ticks labels a log axis at powers of two, every k-th one so
// that at most eight carry a label.
type sparsePow2Ticks struct{}

func (sparsePow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	ts := pow2Ticks{}.Ticks(lo, hi)
	step := (len(ts) + 7) / 8
	for i := range ts {
		if step > 1 && i%step != 0 {
			ts[i].Label = ""
		}
	}
	return ts
}

// pow2Ticks labels a log axis at every power of two.
type pow2Ticks struct{}

func (pow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(math.Log2(lo)); k <= math.Ceil(math.Log2(hi)); k++ {
		v := math.Exp2(k)
		if v < lo*0.999 || v > hi*1.001 {
			continue
		}
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("2^%g", k)})
	}
	return ts
}

// autoLogTicks labels a log axis at 1, 1.5, 2, 3, 4, 5, 6, 8 times the
// powers of ten over at most two decades, and at the powers of ten beyond;
// on an integer axis only at whole numbers.
type autoLogTicks struct{ integer bool }

func (t autoLogTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi/lo > 100 {
		ts := plainDecadeTicks{}.Ticks(lo, hi)
		if t.integer {
			ts = wholeTicks(ts)
		}
		return ts
	}
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 1.5, 2, 3, 4, 5, 6, 8} {
			// Round to the digits shown, so that 1.5·10^-1 reads 0.15.
			v, _ := strconv.ParseFloat(strconv.FormatFloat(m*math.Pow(10, e), 'g', 6, 64), 64)
			if v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	if t.integer {
		ts = wholeTicks(ts)
	}
	return ts
}

// wholeTicks keeps the ticks at whole numbers.
func wholeTicks(ts []plot.Tick) []plot.Tick {
	var out []plot.Tick
	for _, t := range ts {
		if t.Value >= 1 && t.Value == math.Round(t.Value) {
			out = append(out, t)
		}
	}
	return out
}

// plainDecadeTicks labels a log axis at the powers of ten, as plain numbers
// from 0.001 to 100000 and as 1eK beyond.
type plainDecadeTicks struct{}

func (plainDecadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Ceil(math.Log10(lo)); e <= math.Floor(math.Log10(hi)); e++ {
		v := math.Pow(10, e)
		label := fmt.Sprintf("1e%g", e)
		if v >= 1e-3 && v <= 1e5 {
			label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}
