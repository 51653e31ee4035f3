package study

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/graphalloc/graphalloc/analysis"
)

// Figure is a report's plot: panels side by side (three to a row), each a
// set of curves. Report.Plot draws it with gonum/plot.
type Figure struct {
	Panels []*Panel
}

// Axis scales of a Panel.
const (
	ScaleLinear = ""
	ScaleLog    = "log"  // log axis, ticks at 1, 1.5, 2, 3, … times powers of ten
	ScaleLog2   = "log2" // log axis, ticks at the powers of two (sizes n)
	ScaleLog10  = "log10"
)

// Panel is one plot of a figure.
type Panel struct {
	Title, XLabel, YLabel string
	XScale, YScale        string
	// YMin and YMax fix the y range when YMax > YMin.
	YMin, YMax  float64
	LegendRight bool // legend at the top right instead of the top left
	LegendLow   bool // legend at the bottom instead of the top
	Series      []*Series
}

// Series styles.
const (
	StylePoints = "points" // markers joined by a line, with error bars if given
	StyleLine   = "line"   // a solid line, no markers
	StyleDashed = "dashed" // a theory curve
	StyleDotted = "dotted"
	StyleMarks  = "marks" // markers only (a prediction)
)

// Series is one curve of a panel.
type Series struct {
	Name   string // legend entry; "" for none
	Color  int    // index into plotutil's palette; -1 for grey
	Shape  int    // index into plotutil's glyph shapes
	Style  string
	Label  string // drawn beside the last point (a bound's citation)
	Points []Pt
}

// Pt is a point with an optional error bar [Lo, Hi] (Lo = Hi = 0 for none).
type Pt struct{ X, Y, Lo, Hi float64 }

func (f *Figure) add(p *Panel) *Panel { f.Panels = append(f.Panels, p); return p }

// boundSeries is the curve of q's bound whose name starts with prefix
// against t = m/n, on quantity (analysis.QuantityMaxLoad or QuantityGap):
// the bound is evaluated at m = t·n for each t of ts and drawn only where
// it applies, its regime included, read on quantity (Bound.MaxLoadAt,
// GapAt). Dotted for a reference, dashed otherwise; labelled with its mark
// and citation. It returns nil where the bound applies at no t, has no
// value or no reading on quantity.
func boundSeries(q analysis.Query, prefix, quantity string, ts []float64, color int) *Series {
	s := &Series{Color: color, Style: StyleDashed}
	for _, t := range ts {
		q.M = t * q.N
		for _, b := range analysis.Bounds(q) {
			if !strings.HasPrefix(b.Name, prefix) || !b.Applies || !b.InRegime(t) {
				continue
			}
			v, ok := b.MaxLoadAt(t)
			if quantity == analysis.QuantityGap {
				v, ok = b.GapAt(t)
			}
			if !ok {
				continue
			}
			s.Label = b.Mark() + " " + citation(b.Name)
			if b.Kind == analysis.KindReference {
				s.Style = StyleDotted
			}
			s.Points = append(s.Points, Pt{X: t, Y: v})
			break
		}
	}
	if len(s.Points) == 0 {
		return nil
	}
	return s
}

func (p *Panel) add(s *Series) *Series { p.Series = append(p.Series, s); return s }

// Size of one panel.
const (
	panelWidth  = 13 * vg.Centimeter
	panelHeight = 10.5 * vg.Centimeter
)

// Plot draws the report's figure to w as "png" or "svg".
func (r *Report) Plot(w io.Writer, format string) error {
	if r.Figure == nil || len(r.Figure.Panels) == 0 {
		return fmt.Errorf("study: %s has no figure", r.Study)
	}
	return r.Figure.Draw(w, format)
}

// Draw writes the figure to w as "png" or "svg".
func (f *Figure) Draw(w io.Writer, format string) error {
	cols := min(3, len(f.Panels))
	rows := (len(f.Panels) + cols - 1) / cols
	width, height := panelWidth*vg.Length(cols), panelHeight*vg.Length(rows)
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch format {
	case "svg":
		c = vgsvg.New(width, height)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	default:
		return fmt.Errorf("study: plot format %q (allowed: svg, png)", format)
	}
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, p := range f.Panels {
		pl, err := p.plot()
		if err != nil {
			return err
		}
		grid[i/cols][i%cols] = pl
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Centimeter, PadY: vg.Centimeter,
		PadTop: vg.Millimeter * 3, PadBottom: vg.Millimeter * 3, PadLeft: vg.Millimeter * 3, PadRight: vg.Millimeter * 3}
	cs := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j, pl := range grid[i] {
			if pl != nil {
				pl.Draw(cs[i][j])
			}
		}
	}
	_, err := c.WriteTo(w)
	return err
}

// palette is Tableau's ten colours without the grey: far apart in hue
// and lightness, so that up to nine series stay distinct.
var palette = []color.Color{
	color.RGBA{0x4e, 0x79, 0xa7, 0xff}, // blue
	color.RGBA{0xf2, 0x8e, 0x2b, 0xff}, // orange
	color.RGBA{0xe1, 0x57, 0x59, 0xff}, // red
	color.RGBA{0x59, 0xa1, 0x4f, 0xff}, // green
	color.RGBA{0xb0, 0x7a, 0xa1, 0xff}, // purple
	color.RGBA{0x76, 0xb7, 0xb2, 0xff}, // teal
	color.RGBA{0x9c, 0x75, 0x5f, 0xff}, // brown
	color.RGBA{0xed, 0xc9, 0x48, 0xff}, // yellow
	color.RGBA{0xff, 0x9d, 0xa7, 0xff}, // pink
}

func seriesColor(i int) color.Color {
	if i < 0 {
		return color.Gray{Y: 90}
	}
	return palette[i%len(palette)]
}

// plot builds the gonum plot of a panel.
func (p *Panel) plot() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.Title.TextStyle.Font.Size = vg.Points(10)
	pl.X.Label.Text, pl.Y.Label.Text = p.XLabel, p.YLabel
	pl.Legend.Top = !p.LegendLow
	pl.Legend.Left = !p.LegendRight
	pl.Legend.TextStyle.Font.Size = vg.Points(7.5)
	logX, logY := p.XScale != ScaleLinear, p.YScale != ScaleLinear
	setScale(&pl.X, p.XScale)
	setScale(&pl.Y, p.YScale)
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range p.Series {
		var xy plotter.XYs
		var errs plotter.YErrors
		hasErr := false
		for _, q := range s.Points {
			if (logX && !(q.X > 0)) || (logY && !(q.Y > 0)) || math.IsNaN(q.X) || math.IsNaN(q.Y) {
				continue
			}
			lo, hi := q.Lo, q.Hi
			if lo == 0 && hi == 0 {
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
		if len(xy) == 0 {
			continue
		}
		col := seriesColor(s.Color)
		line, sc, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		line.Color, sc.Color = col, col
		sc.Shape = plotutil.Shape(s.Shape)
		var thumbs []plot.Thumbnailer
		switch s.Style {
		case StyleLine:
			pl.Add(line)
			thumbs = append(thumbs, line)
		case StyleDashed, StyleDotted:
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			if s.Style == StyleDotted {
				line.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2)}
			}
			line.Width = vg.Points(1.2)
			pl.Add(line)
			thumbs = append(thumbs, line)
		case StyleMarks:
			sc.Shape = draw.RingGlyph{}
			sc.Radius = vg.Points(5)
			pl.Add(sc)
			thumbs = append(thumbs, sc)
		default:
			pl.Add(line, sc)
			thumbs = append(thumbs, line, sc)
			if hasErr {
				eb, err := plotter.NewYErrorBars(struct {
					plotter.XYs
					plotter.YErrors
				}{xy, errs})
				if err != nil {
					return nil, err
				}
				eb.Color = col
				pl.Add(eb)
			}
		}
		if s.Name != "" {
			pl.Legend.Add(s.Name, thumbs...)
		}
		if s.Label != "" {
			last := xy[len(xy)-1]
			lab, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{last}, Labels: []string{s.Label}})
			if err != nil {
				return nil, err
			}
			for k := range lab.TextStyle {
				lab.TextStyle[k].Color = col
				lab.TextStyle[k].Font.Size = vg.Points(7)
			}
			lab.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(1)}
			pl.Add(lab)
		}
	}
	if math.IsInf(xlo, 1) {
		xlo, xhi, ylo, yhi = 1, 2, 1, 2
	}
	// Room for the legend above the curves and the labels to the right.
	if logX {
		pl.X.Min, pl.X.Max = xlo/math.Pow(xhi/xlo, 0.04), xhi*math.Pow(xhi/xlo, 0.25)
		if xhi == xlo {
			pl.X.Min, pl.X.Max = xlo/2, xhi*2
		}
	} else {
		w := max(xhi-xlo, 1)
		pl.X.Min, pl.X.Max = xlo-0.04*w, xhi+0.2*w
	}
	// The legend's room: above the curves, or below them (LegendLow).
	below, above := 0.05, 0.4
	if p.LegendLow {
		below, above = 0.35, 0.05
	}
	if logY {
		span := math.Max(yhi/ylo, 1.5)
		pl.Y.Min, pl.Y.Max = ylo/math.Pow(span, below), yhi*math.Pow(span, above)
	} else {
		h := max(yhi-ylo, 1)
		pl.Y.Min, pl.Y.Max = min(ylo-below*h, 0), yhi+above*h
	}
	if p.YMax > p.YMin {
		pl.Y.Min, pl.Y.Max = p.YMin, p.YMax
	}
	pl.Add(plotter.NewGrid())
	return pl, nil
}

func setScale(a *plot.Axis, s string) {
	switch s {
	case ScaleLog:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = autoLogTicks{}
	case ScaleLog2:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = sparsePow2Ticks{}
	case ScaleLog10:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = plainDecadeTicks{}
	}
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

// autoLogTicks labels a log axis like niceLogTicks over at most two
// decades, and at the powers of ten beyond.
type autoLogTicks struct{}

func (autoLogTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi/lo > 100 {
		return plainDecadeTicks{}.Ticks(lo, hi)
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
	return ts
}

// plainDecadeTicks labels a log axis at the powers of ten, as plain numbers
// from 0.001 to 100000 and as 1eK beyond.
type plainDecadeTicks struct{}

func (plainDecadeTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := decadeTicks{}.Ticks(lo, hi)
	for i := range ts {
		if v := ts[i].Value; v >= 1e-3 && v <= 1e5 {
			ts[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ts
}
