package render

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/graphalloc/graphalloc/figure"
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

// Draw writes the figure to w as o says (the zero Options: a PNG with
// the paper defaults). Panels go three to a row.
func Draw(w io.Writer, f *figure.Figure, o Options) error {
	if err := o.Check(); err != nil {
		return err
	}
	if f == nil || len(f.Panels) == 0 {
		return errors.New("render: the figure has no panel")
	}
	if o.format() == FormatPDF {
		f, o.Title = forPDF(f), pdfText(o.Title)
	}
	fs := o.fontSize()
	cols := min(3, len(f.Panels))
	rows := (len(f.Panels) + cols - 1) / cols

	// The plots and their legends.
	plots := make([]*plot.Plot, len(f.Panels))
	keys := make([]*legendBox, len(f.Panels))
	for i, p := range f.Panels {
		pl, entries, err := panelPlot(p, o, fs)
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
		return fmt.Errorf("render: a figure of %s × %s has no room for its %d panels and their legends (make it larger, the font smaller, or --legend inside)",
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
func newCanvas(o Options, width, height vg.Length) (interface {
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
		return nil, fmt.Errorf("render: a %s × %s figure at %d dpi is %.0f pixels wide; at most %d (lower --dpi or the size)",
			formatLength(width), formatLength(height), dpi, px, maxPixels)
	}
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))}, nil
}

// pdfCanvas writes text in the code page of the fonts vgpdf embeds,
// Windows-1252: vgpdf passes a string's bytes on as they are, so UTF-8
// would print as mojibake. Draw has already spelled out the
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
func forPDF(f *figure.Figure) *figure.Figure {
	out := &figure.Figure{SharedLegend: f.SharedLegend}
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
