package render

import (
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	c, err := canvasOf(f, o)
	if err != nil {
		return &Refusal{err}
	}
	_, err = c.WriteTo(w)
	return err
}

// Refusal is the error of Draw for a figure it refuses before it writes a
// byte: options out of range, no panel, a bound or panel the figure lacks,
// a size too small for the panels or too many pixels. It is the caller's
// input that is wrong, not the writer.
type Refusal struct{ Err error }

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// canvasOf draws f with options o on a canvas, which is not yet written.
func canvasOf(f *figure.Figure, o Options) (vgCanvas, error) {
	l, plots, err := prepare(f, o)
	if err != nil {
		return nil, err
	}
	c, err := newCanvas(o, l.width, l.height)
	if err != nil {
		return nil, err
	}
	if err := l.draw(draw.New(c), plots); err != nil {
		return nil, err
	}
	return c, nil
}

// prepare checks o against f and lays the figure out: its plots and where
// they go.
func prepare(f *figure.Figure, o Options) (*layout, []*plot.Plot, error) {
	if err := o.Check(); err != nil {
		return nil, nil, err
	}
	if f == nil || len(f.Panels) == 0 {
		return nil, nil, errors.New("render: the figure has no panel")
	}
	if err := o.checkPanels(f); err != nil {
		return nil, nil, err
	}
	if o.Panel > 0 {
		// The one panel, numbered 1 in the figure of its own.
		if po, ok := o.Panels[o.Panel]; ok {
			o.Panels = map[int]PanelOptions{1: po}
		}
		f = &figure.Figure{Panels: []*figure.Panel{f.Panels[o.Panel-1]}}
	}
	fs := o.fontSize()
	plots := make([]*plot.Plot, len(f.Panels))
	keys := make([]*legendBox, len(f.Panels))
	for i, p := range f.Panels {
		pl, entries, err := panelPlot(p, o.forPanel(i), fs)
		if err != nil {
			return nil, nil, err
		}
		plots[i] = pl
		keys[i] = newLegendBox(entries, fs)
	}
	return newLayout(f, o, keys), plots, nil
}

// layout is where the parts of a figure go. The size of the figure and the
// widths of the legends beside the panels are known before the canvas
// exists (newLayout); the panels' places follow on the canvas (draw).
type layout struct {
	fig        *figure.Figure // the panels drawn: one alone with --panel
	o          Options
	fs         vg.Length
	cols, rows int
	mode       string       // o's legend place
	keys       []*legendBox // the legend of each panel
	// sharedKey is the one legend of a figure with SharedLegend drawn
	// outside; nil otherwise.
	sharedKey     *legendBox
	titleStyle    text.Style
	titleH        vg.Length // the height of o's title, 0 without one
	width, height vg.Length
	wrap          vg.Length   // where a legend's text wraps
	legW          []vg.Length // the width of the legends of each panel column
	sharedW       vg.Length   // the width of the shared legend beside the panels
	legTotal      vg.Length   // the width of every legend beside the panels, their gaps included
	legendBelow   vg.Length   // the height of the shared legend below the panels, its gap included
	// dataAreas are the panels' data areas, as draw placed them.
	dataAreas []vg.Rectangle
}

// newLayout lays out a figure of f's panels whose legends are keys: its
// size (o's, or the panels' own plus their legends) and the legends'
// columns. A legend taller than its panel (less the panel's title and x
// axis) takes two or three columns; a shared legend that would take more
// than a third of the width goes below the panels, in as many columns as
// the width holds.
func newLayout(f *figure.Figure, o Options, keys []*legendBox) *layout {
	fs := o.fontSize()
	cols := min(3, len(f.Panels))
	l := &layout{fig: f, o: o, fs: fs, cols: cols, rows: (len(f.Panels) + cols - 1) / cols, mode: o.legend(), keys: keys,
		titleStyle: textStyle(fs * 1.2), width: o.Width, height: o.Height}
	if f.SharedLegend && l.mode == LegendOutside {
		l.sharedKey = sharedLegend(keys, fs)
	}
	if o.Title != "" {
		l.titleH = l.titleStyle.Height(o.Title) + fs*0.6
	}
	tileW := panelWidth
	if l.width != 0 {
		tileW = (l.width - 2*figurePad - vg.Length(cols-1)*panelGapX) / vg.Length(cols)
	} else {
		l.height = 2*figurePad + vg.Length(l.rows)*panelHeight + vg.Length(l.rows-1)*panelGapY + l.titleH
	}
	l.wrap = legendWrap * tileW
	rowH := (l.height - 2*figurePad - l.titleH - vg.Length(l.rows-1)*panelGapY) / vg.Length(l.rows)
	l.legW = make([]vg.Length, cols)
	if l.mode == LegendOutside && l.sharedKey == nil {
		var total vg.Length
		for i, k := range keys {
			l.legW[i%cols] = max(l.legW[i%cols], k.fit(l.wrap, rowH-6*fs))
		}
		for _, w := range l.legW {
			total += space(w)
		}
		// At a size given, legends that would take more than a third of
		// the width beside the panels (a paper's column) become one,
		// below them.
		if l.width != 0 && total > (l.width-2*figurePad)/3 {
			clear(l.legW)
			l.sharedKey = sharedLegend(keys, fs)
		}
	}
	if l.sharedKey != nil {
		l.sharedW = l.sharedKey.fit(l.wrap, l.height-2*figurePad-l.titleH-3*fs)
	}
	for _, w := range l.legW {
		l.legTotal += space(w)
	}
	if l.width == 0 {
		l.width = 2*figurePad + vg.Length(cols)*panelWidth + vg.Length(cols-1)*panelGapX + l.legTotal + space(l.sharedW)
	}
	if l.sharedKey != nil && l.sharedW > (l.width-2*figurePad)/3 {
		l.legendBelow = l.sharedKey.fitWidth(l.width-2*figurePad) + legendGap
		l.sharedW = 0
	}
	l.legTotal += space(l.sharedW)
	return l
}

// sharedLegend is the legend of all of keys' entries, each text once.
func sharedLegend(keys []*legendBox, fs vg.Length) *legendBox {
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
	return newLegendBox(all, fs)
}

// space is the width a legend of width w takes beside a panel: w and the
// gap before it, or nothing.
func space(w vg.Length) vg.Length {
	if w > 0 {
		return w + legendGap
	}
	return 0
}

// draw draws the title, plots (one for each of l.fig's panels) and the
// legends on c, the figure's whole canvas.
func (l *layout) draw(c draw.Canvas, plots []*plot.Plot) error {
	f := l.fig
	dc := draw.Crop(c, figurePad, -figurePad, figurePad, -figurePad)
	if l.o.Title != "" {
		dc.FillText(l.titleStyle, vg.Point{X: dc.Center().X, Y: dc.Max.Y - l.titleStyle.Height(l.o.Title)}, l.o.Title)
		dc.Max.Y -= l.titleH
	}
	dc.Min.Y += l.legendBelow
	fs := l.fs
	plotW := (dc.Size().X - vg.Length(l.cols-1)*panelGapX - l.legTotal) / vg.Length(l.cols)
	plotH := (dc.Size().Y - vg.Length(l.rows-1)*panelGapY) / vg.Length(l.rows)
	if !(plotW > 2*fs*3 && plotH > 2*fs*3) {
		return fmt.Errorf("render: a figure of %s × %s has no room for its %d panels and their legends (make it larger, the font smaller, or --legend inside)",
			formatLength(l.width), formatLength(l.height), len(f.Panels))
	}
	// The panels' titles, drawn by the figure so that a row's titles share
	// a line: wrapped at the width of their plot.
	panelTitle := textStyle(fs)
	panelTitle.YAlign = draw.YTop
	titles, rowTitleH := l.panelTitles(plots, panelTitle, plotW)
	lab := newAxisLabels(plots, fs)
	tiles := l.tiles(dc, lab, plotW, plotH, rowTitleH)
	// Labels that would overlap at this size give way, round values last.
	for i, pl := range plots {
		data := pl.DataCanvas(tiles[i])
		if _, categorical := pl.X.Tick.Marker.(plot.ConstantTicks); !categorical {
			pl.X.Tick.Marker = thinTicks{inner: pl.X.Tick.Marker, axis: &pl.X, length: data.Size().X}
		}
		pl.Y.Tick.Marker = thinTicks{inner: pl.Y.Tick.Marker, axis: &pl.Y, length: data.Size().Y, vertical: true}
	}
	tiles = alignTiles(plots, tiles, l.cols)
	l.dataAreas = nil
	for i, pl := range plots {
		pl.Draw(tiles[i])
		data := pl.DataCanvas(tiles[i])
		l.dataAreas = append(l.dataAreas, data.Rectangle)
		if titles[i] != "" {
			top := dc.Max.Y - vg.Length(i/l.cols)*(plotH+panelGapY)
			// Centred on the data, but within the panel's column.
			x, half := data.Center().X, panelTitle.Width(titles[i])/2
			left := tiles[i].Min.X - lab.room(lab.y[i])
			x = max(min(x, tiles[i].Max.X-half), max(left, dc.Min.X)+half)
			dc.FillText(panelTitle, vg.Point{X: x, Y: top}, titles[i])
		}
		lab.draw(dc, i, tiles[i], data)
		switch {
		case l.mode == LegendInside:
			l.keys[i].drawInside(data, pl, f.Panels[i], l.wrap)
		case l.mode == LegendOutside && l.sharedKey == nil:
			l.keys[i].draw(dc.Canvas, vg.Point{X: tiles[i].Max.X + legendGap, Y: data.Max.Y})
		}
	}
	switch k := l.sharedKey; {
	case l.legendBelow > 0:
		w := vg.Length(k.cols)*k.colW + vg.Length(k.cols-1)*k.colGap()
		k.draw(dc.Canvas, vg.Point{X: dc.Center().X - w/2, Y: dc.Min.Y - legendGap})
	case k != nil:
		data := plots[0].DataCanvas(tiles[0])
		k.draw(dc.Canvas, vg.Point{X: dc.Max.X - l.sharedW, Y: data.Max.Y})
	}
	return nil
}

// panelTitles takes the plots' titles away from gonum, to be drawn by the
// figure, and returns them wrapped at the plots' width plotW in style sty,
// with the height each row of panels keeps for its titles.
func (l *layout) panelTitles(plots []*plot.Plot, sty text.Style, plotW vg.Length) (titles []string, rowTitleH []vg.Length) {
	titles = make([]string, len(plots))
	rowTitleH = make([]vg.Length, l.rows)
	for i, pl := range plots {
		titles[i] = wrapText(pl.Title.Text, sty, plotW)
		pl.Title.Text = ""
		if titles[i] != "" {
			rowTitleH[i/l.cols] = max(rowTitleH[i/l.cols], sty.Height(titles[i])+l.fs*0.8)
		}
	}
	return titles, rowTitleH
}

// tiles returns each plot's canvas on dc: its place in the grid of panels
// of plotW × plotH, less its legend column, its row's titles and the room
// of its axis labels.
func (l *layout) tiles(dc draw.Canvas, lab *axisLabels, plotW, plotH vg.Length, rowTitleH []vg.Length) []draw.Canvas {
	colX := make([]vg.Length, l.cols)
	x := dc.Min.X
	for j := range l.cols {
		colX[j] = x
		x += plotW + space(l.legW[j]) + panelGapX
	}
	tiles := make([]draw.Canvas, len(lab.x))
	for i := range tiles {
		r, j := i/l.cols, i%l.cols
		rowTop := dc.Max.Y - vg.Length(r)*(plotH+panelGapY)
		tiles[i] = draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: colX[j] + lab.room(lab.y[i]), Y: rowTop - plotH + lab.room(lab.x[i])},
			Max: vg.Point{X: colX[j] + plotW, Y: rowTop - rowTitleH[r]}}}
	}
	return tiles
}

// axisLabels are the plots' axis labels, drawn by the figure rather than by
// gonum: gonum places the glyph box of a label on a log axis at the mean
// of the axis' ends, which pads the plot for a label where there is none.
type axisLabels struct {
	x, y          []string // each plot's
	style, yStyle text.Style
	fs, descent   vg.Length
}

// newAxisLabels takes the axis labels of plots away from gonum.
func newAxisLabels(plots []*plot.Plot, fs vg.Length) *axisLabels {
	a := &axisLabels{x: make([]string, len(plots)), y: make([]string, len(plots)), style: textStyle(fs), fs: fs}
	a.yStyle = a.style
	a.yStyle.Rotation = math.Pi / 2
	a.descent = a.style.FontExtents().Descent
	for i, pl := range plots {
		a.x[i], a.y[i] = pl.X.Label.Text, pl.Y.Label.Text
		pl.X.Label.Text, pl.Y.Label.Text = "", ""
	}
	return a
}

// room is the space a label s takes beside its axis.
func (a *axisLabels) room(s string) vg.Length {
	if s == "" {
		return 0
	}
	return a.style.Height(s) + a.fs*0.3
}

// draw draws plot i's labels on dc, beside its tile and centred on its
// data area.
func (a *axisLabels) draw(dc draw.Canvas, i int, tile, data draw.Canvas) {
	if s := a.x[i]; s != "" {
		dc.FillText(a.style, vg.Point{X: data.Center().X, Y: tile.Min.Y - a.room(s) + a.descent}, s)
	}
	if s := a.y[i]; s != "" {
		dc.FillText(a.yStyle, vg.Point{X: tile.Min.X - a.room(s) + a.style.Height(s) - a.descent, Y: data.Center().Y}, s)
	}
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
