package render

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/graphalloc/graphalloc/figure"
)

// panelPlot builds the gonum plot of panel p at font size fs and returns the
// entries of its legend (in the plot when o says inside).
func panelPlot(p *figure.Panel, o Options, fs vg.Length) (*plot.Plot, []legendEntry, error) {
	pl := newPlot(p, fs)
	categorical := len(p.XCategories) > 0
	xScale, yScale := p.XScale, p.YScale
	if !categorical {
		xScale = override(xScale, o.XScale)
	}
	yScale = override(yScale, o.YScale)
	logX, logY := xScale != figure.ScaleLinear, yScale != figure.ScaleLinear
	setScale(&pl.X, xScale, p.XInt)
	setScale(&pl.Y, yScale, false)

	var entries []legendEntry
	ext := emptyExtent()
	series := keptSeries(p, o)
	mlo, mhi, measured := measuredY(series, logY)
	ends := newEndLabels(fs)
	for _, s := range series {
		col := seriesColor(s.Color)
		own := emptyExtent()
		xy, errs, hasErr := own.points(s.Points, logX, logY)
		if measured && isTheory(s) {
			// A theory curve far beyond the measurements does not set
			// the axis: it is drawn to the edge and named there.
			ext.xlo, ext.xhi = min(ext.xlo, own.xlo), max(ext.xhi, own.xhi)
			for i, q := range xy {
				if above, below := farFrom(q.Y, mlo, mhi); !above && !below {
					ext.ylo, ext.yhi = min(ext.ylo, q.Y-errs[i].Low), max(ext.yhi, q.Y+errs[i].High)
				}
			}
		} else {
			ext = ext.union(own)
		}
		thumbs, err := addSeries(pl, s, xy, errs, hasErr, logX, col, fs)
		if err != nil {
			return nil, nil, err
		}
		if s.Name != "" && (len(xy) > 0 || len(s.Points) == 0) {
			entries = append(entries, legendEntry{s.Name, thumbs})
		}
		if s.Label != "" && len(xy) > 0 {
			ends.add(xy[len(xy)-1].X, xy[len(xy)-1].Y, s.Label, col)
		}
	}
	if len(ends.labels) > 0 {
		pl.Add(ends)
	}
	setRange(pl, p, ext, logX, logY, o.legend() == LegendInside && len(entries) > 0)
	if o.YMax > o.YMin {
		pl.Y.Min, pl.Y.Max = o.YMin, o.YMax
	}
	off := offScaleOf(series, pl.Y.Min, pl.Y.Max, logX, logY)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{Y: 0xdd}, color.Gray{Y: 0xdd}
	if categorical {
		grid.Vertical.Color = nil
	}
	// The grid under the data.
	pl.Add(grid)
	if note := off.text(); note != "" {
		sty := textStyle(fs * 0.8)
		sty.Color = grey
		pl.Add(edgeNote{text: note, style: sty})
	}
	return pl, entries, nil
}

// offScaleOf gathers the points of the theory curves among series that lie
// outside the y range [lo, hi] of the axis.
func offScaleOf(series []*figure.Series, lo, hi float64, logX, logY bool) *offScale {
	off := newOffScale()
	slack := (hi - lo) * 1e-9
	for _, s := range series {
		if !isTheory(s) {
			continue
		}
		var e extent
		xy, _, _ := e.points(s.Points, logX, logY)
		for _, q := range xy {
			if q.Y > hi+slack || q.Y < lo-slack {
				off.add(s, q.Y, q.Y > hi)
			}
		}
	}
	return off
}

// newPlot is an empty plot with p's title and axis labels, its text sized
// from fs.
func newPlot(p *figure.Panel, fs vg.Length) *plot.Plot {
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
	return pl
}

// extent is the range of the points drawn on a panel, error bars included.
type extent struct{ xlo, xhi, ylo, yhi float64 }

// emptyExtent is the extent of no point.
func emptyExtent() extent {
	return extent{xlo: math.Inf(1), xhi: math.Inf(-1), ylo: math.Inf(1), yhi: math.Inf(-1)}
}

// union is the extent of e's points and f's.
func (e extent) union(f extent) extent {
	return extent{min(e.xlo, f.xlo), max(e.xhi, f.xhi), min(e.ylo, f.ylo), max(e.yhi, f.yhi)}
}

// points returns the points of pts that can be drawn on the axes (not
// finite, or not positive on a log axis, they are left out), with their
// error bars, whether any has one, and widens e to them.
func (e *extent) points(pts []figure.Pt, logX, logY bool) (xy plotter.XYs, errs plotter.YErrors, hasErr bool) {
	for _, q := range pts {
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
		e.xlo, e.xhi = min(e.xlo, q.X), max(e.xhi, q.X)
		e.ylo, e.yhi = min(e.ylo, lo), max(e.yhi, hi)
	}
	return xy, errs, hasErr
}

// setRange sets the axes of panel p's plot to span the data e: the
// markers, error bars and labels get their room from gonum's glyph boxes,
// not from empty data range. A categorical x axis spans its categories;
// legendInside leaves room for the legend above the curves (or below them,
// LegendLow); the panel's YMin and YMax, if set, win.
func setRange(pl *plot.Plot, p *figure.Panel, e extent, logX, logY, legendInside bool) {
	if math.IsInf(e.xlo, 1) {
		e = extent{1, 2, 1, 2}
	}
	switch {
	case len(p.XCategories) > 0:
		pl.X.Min, pl.X.Max = -0.5, float64(len(p.XCategories))-0.5
		ticks := make([]plot.Tick, len(p.XCategories))
		for i, c := range p.XCategories {
			ticks[i] = plot.Tick{Value: float64(i), Label: c}
		}
		pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	case e.xhi == e.xlo && logX:
		pl.X.Min, pl.X.Max = e.xlo/2, e.xhi*2
	case e.xhi == e.xlo:
		pl.X.Min, pl.X.Max = e.xlo-1, e.xhi+1
	default:
		pl.X.Min, pl.X.Max = e.xlo, e.xhi
	}
	// A little room above and below the data.
	below, above := 0.03, 0.03
	if legendInside {
		below, above = 0.05, 0.4
		if p.LegendLow {
			below, above = 0.35, 0.05
		}
	}
	if logY {
		span := math.Max(e.yhi/e.ylo, 1.5)
		pl.Y.Min, pl.Y.Max = e.ylo/math.Pow(span, below), e.yhi*math.Pow(span, above)
	} else {
		h := e.yhi - e.ylo
		if h == 0 {
			h = math.Max(math.Abs(e.yhi), 1)
		}
		pl.Y.Min, pl.Y.Max = e.ylo-below*h, e.yhi+above*h
	}
	if p.YMax > p.YMin && !(logY && p.YMin <= 0) {
		pl.Y.Min, pl.Y.Max = p.YMin, p.YMax
	}
}

// addSeries adds the plotters of series s, its points xy with error bars
// errs, to pl, and returns the thumbnails of its legend entry.
func addSeries(pl *plot.Plot, s *figure.Series, xy plotter.XYs, errs plotter.YErrors, hasErr, logX bool, col color.Color, fs vg.Length) ([]plot.Thumbnailer, error) {
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
	case figure.StyleLine:
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
	case figure.StyleDashed, figure.StyleDotted, figure.StyleDashDot:
		line.Dashes = map[string][]vg.Length{figure.StyleDashed: dashedLine, figure.StyleDotted: dottedLine, figure.StyleDashDot: dashDotLine}[s.Style]
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
	case figure.StyleMarks:
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
		return figure.ScaleLinear
	case o == AxisLog && s == figure.ScaleLinear:
		return figure.ScaleLog
	}
	return s
}

// setScale sets an axis' scale and ticks; integer says it holds whole
// numbers (ticks at whole numbers only).
func setScale(a *plot.Axis, s string, integer bool) {
	a.Tick.Marker = linearTicks{integer: integer}
	switch s {
	case figure.ScaleLog:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = threeLabels{autoLogTicks{integer: integer}, integer}
	case figure.ScaleLog2:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = threeLabels{sparsePow2Ticks{}, integer}
	case figure.ScaleLog10:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = threeLabels{plainDecadeTicks{}, integer}
	}
}
