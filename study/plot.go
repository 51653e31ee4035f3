package study

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
)

// Plot size: two panels side by side.
const (
	plotWidth  = 30 * vg.Centimeter
	plotHeight = 12 * vg.Centimeter
)

// SeriesName names the curve a row belongs to in tables and plots: the
// topology for the graphical process, else the process with its d.
func SeriesName(r Row) string {
	switch {
	case r.Process == nameGraph:
		return r.Topology
	case r.Process == nameOneChoice:
		return r.Process
	case r.Process == nameOnePlusBeta:
		return r.Process
	}
	return fmt.Sprintf("%s[%g]", r.Process, r.D)
}

// series groups rows by SeriesName, in order of first appearance, each
// sorted by n.
func series(rows []Row) (names []string, by map[string][]Row) {
	by = map[string][]Row{}
	for _, r := range rows {
		k := SeriesName(r)
		if _, ok := by[k]; !ok {
			names = append(names, k)
		}
		by[k] = append(by[k], r)
	}
	for _, k := range names {
		slices.SortStableFunc(by[k], func(a, b Row) int { return int(a.N - b.N) })
	}
	return names, by
}

// Plot draws rows in two panels and writes them to w in format "svg" or
// "png":
//
//   - left: the mean max load against n (log₂ axis) for every series, with
//     its 95% confidence interval; dashed, the explicit terms of the bounds
//     that apply to it, each at the n where its regime holds and read as a
//     max load (gap bounds plus m/n; spread bounds and bounds with no value
//     are not drawn), labelled with its citation and ≤ (upper), ≥ (lower),
//     ≈ (leading term) or O, Ω, Θ (order only); dotted, the worst case over
//     Δ-regular graphs [KP06], a reference that some graph of the degree
//     attains, labelled "ref";
//   - right: at each series' largest n, the measured fraction of bins with
//     load ≥ i (log scale) against the fluid limits: the series' own where
//     it has one, and those of one-choice and Greedy[2] at the same m/n for
//     reference.
func Plot(w io.Writer, rows []Row, format string) error {
	if len(rows) == 0 {
		return fmt.Errorf("study: nothing to plot")
	}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch format {
	case "svg":
		c = vgsvg.New(plotWidth, plotHeight)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.New(plotWidth, plotHeight)}
	default:
		return fmt.Errorf("study: plot format %q (allowed: svg, png)", format)
	}
	left, err := plotMaxLoad(rows)
	if err != nil {
		return err
	}
	right, err := plotTails(rows)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Centimeter, PadTop: vg.Millimeter * 3, PadBottom: vg.Millimeter * 3, PadLeft: vg.Millimeter * 3, PadRight: vg.Millimeter * 3}
	cs := plot.Align([][]*plot.Plot{{left, right}}, tiles, dc)
	left.Draw(cs[0][0])
	right.Draw(cs[0][1])
	_, err = c.WriteTo(w)
	return err
}

// citation returns the bracketed source of a bound name, "KP06".
func citation(name string) string {
	if i := strings.LastIndex(name, "["); i >= 0 {
		return strings.Trim(name[i:], "[]")
	}
	return name
}

// boundCurve is one bound drawn over the rows of a series, on the max-load
// axis.
type boundCurve struct {
	label     string // Mark and citation, "≤ KP06", "ref KP06"
	reference bool   // KindReference: drawn dotted, apart from the bounds
	pts       plotter.XYs
}

// boundCurves returns the curves of the bounds of rows (one series, sorted
// by n), in order of first appearance: each bound at the rows where it
// applies and its regime holds at the row's m/n, read as a max load
// (Bound.MaxLoadAt: a gap bound plus m/n). A spread bound and a bound with
// no value have no max-load reading and no curve.
func boundCurves(rows []Row) []boundCurve {
	var out []boundCurve
	at := map[string]int{}
	for _, r := range rows {
		load := float64(r.M) / float64(r.N)
		for _, b := range r.Bounds {
			if !b.Applies || !b.InRegime(load) {
				continue
			}
			v, ok := b.MaxLoadAt(load)
			if !ok || !(v > 0) {
				continue
			}
			key := b.Process + "\x00" + b.Name
			i, seen := at[key]
			if !seen {
				i = len(out)
				at[key] = i
				out = append(out, boundCurve{label: b.Mark() + " " + citation(b.Name), reference: b.Kind == analysis.KindReference})
			}
			out[i].pts = append(out[i].pts, plotter.XY{X: float64(r.N), Y: v})
		}
	}
	return out
}

// Line styles of the bound curves.
var (
	boundDashes     = []vg.Length{vg.Points(4), vg.Points(3)}
	referenceDashes = []vg.Length{vg.Points(1), vg.Points(2)}
)

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

func plotMaxLoad(rows []Row) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "max load against n (mean, 95% CI; dashed: bounds, explicit terms; dotted: reference)"
	p.X.Label.Text = "n (bins)"
	p.Y.Label.Text = "max load"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = pow2Ticks{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	names, by := series(rows)
	lo, hi := math.Inf(1), math.Inf(-1)
	ymax, ymin := 0.0, math.Inf(1)
	hasReference := false
	for i, name := range names {
		rs := by[name]
		col := plotutil.Color(i)
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, r := range rs {
			lo, hi = min(lo, float64(r.N)), max(hi, float64(r.N))
			mean := r.MaxLoad.Mean
			if !(mean > 0) {
				continue // a log axis has no room for an empty run
			}
			// A wide interval from few trials is clipped at half the mean:
			// the log axis cannot show 0 or below.
			low := max(r.MaxLoad.CI95[0], mean/2)
			pts = append(pts, plotter.XY{X: float64(r.N), Y: mean})
			errs = append(errs, struct{ Low, High float64 }{mean - low, r.MaxLoad.CI95[1] - mean})
			ymax = max(ymax, r.MaxLoad.CI95[1])
			ymin = min(ymin, low)
		}
		if len(pts) == 0 {
			continue
		}
		line, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, sc.Color = col, col
		sc.Shape = plotutil.Shape(i)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = col
		p.Add(line, sc, eb)
		p.Legend.Add(name, line, sc)

		// Bound curves: one per bound, over the rows where it applies.
		for _, bc := range boundCurves(rs) {
			bl, bs, err := plotter.NewLinePoints(bc.pts)
			if err != nil {
				return nil, err
			}
			bl.Color, bs.Color = col, col
			bl.Dashes = boundDashes
			bs.Shape = draw.CrossGlyph{}
			if bc.reference {
				bl.Dashes = referenceDashes
				bs.Shape = draw.PlusGlyph{}
				hasReference = true
			}
			last := bc.pts[len(bc.pts)-1]
			lab, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{last}, Labels: []string{bc.label}})
			if err != nil {
				return nil, err
			}
			for k := range lab.TextStyle {
				lab.TextStyle[k].Color = col
				lab.TextStyle[k].Font.Size = vg.Points(7)
			}
			lab.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(1)}
			p.Add(bl, bs, lab)
			for _, pt := range bc.pts {
				ymax, ymin = max(ymax, pt.Y), min(ymin, pt.Y)
			}
		}
	}
	if hasReference {
		// One legend entry says what the dotted curves are.
		l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes = color.Gray{Y: 60}, referenceDashes
		p.Legend.Add("ref: "+analysis.WorstRegularLabel+" [KP06]", l)
	}
	p.X.Min, p.X.Max = lo/math.Sqrt2, hi*2
	// A log scale: the small differences between the good topologies
	// stay visible beside a non-regular graph's large loads.
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = niceLogTicks{}
	if math.IsInf(ymin, 1) {
		ymin, ymax = 1, 2
	}
	p.Y.Min, p.Y.Max = max(min(ymin, 2)*0.8, 0.1), max(ymax*1.5, 2)
	p.Add(plotter.NewGrid())
	return p, nil
}

func plotTails(rows []Row) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = "load i"
	p.Y.Label.Text = "fraction of bins"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = decadeTicks{}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	names, by := series(rows)
	ymin, xmax := 1.0, 1.0
	var ref Row
	for i, name := range names {
		rs := by[name]
		r := rs[len(rs)-1]
		if i == 0 {
			ref = r
		}
		col := plotutil.Color(i)
		var pts plotter.XYs
		for k := 1; k < len(r.Tails); k++ {
			if r.Tails[k] > 0 {
				pts = append(pts, plotter.XY{X: float64(k), Y: r.Tails[k]})
				ymin = min(ymin, r.Tails[k])
				xmax = max(xmax, float64(k))
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, sc.Color = col, col
		sc.Shape = plotutil.Shape(i)
		p.Add(line, sc)
		// The series' own fluid limit, unless it is one of the references
		// drawn below.
		if f := r.Fluid; f != nil && !(f.Process == nameOneChoice || f.Process == nameGreedy && f.D == 2) {
			fl, err := tailLine(r.Fluid.Tails, ymin/10)
			if err != nil {
				return nil, err
			}
			fl.Color = col
			fl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(fl)
			p.Legend.Add(fmt.Sprintf("fluid %s[%d] (n → ∞)", r.Fluid.Process, r.Fluid.D), fl)
		}
	}
	floor := max(ymin/10, 1e-12)
	load := float64(ref.M) / float64(ref.N)
	p.Title.Text = fmt.Sprintf("fraction of bins at load ≥ i, m/n = %.4g, largest n (colours as left)", load)
	refs := []struct {
		fp   analysis.FluidProcess
		name string
		dash []vg.Length
	}{
		{alloc.MeanField{Family: alloc.FamilyOneChoice, D: 1}, fmt.Sprintf("fluid %v (n → ∞)", alloc.OneChoice{}), []vg.Length{vg.Points(1), vg.Points(2)}},
		{alloc.MeanField{Family: alloc.FamilyGreedy, D: 2}, fmt.Sprintf("fluid %v (n → ∞)", alloc.Greedy{D: 2}), []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)}},
	}
	if load > 0 && load <= 64 {
		for _, rf := range refs {
			tails, err := analysis.TailsTol(rf.fp, load, floor)
			if err != nil {
				return nil, err
			}
			l, err := tailLine(tails, floor)
			if err != nil {
				return nil, err
			}
			l.Color = color.Gray{Y: 60}
			l.Dashes = rf.dash
			p.Add(l)
			p.Legend.Add(rf.name, l)
			xmax = max(xmax, float64(len(tails)-1))
		}
	}
	p.Y.Min, p.Y.Max = floor, 1.5
	// A log scale for i too: the first levels, where the good processes
	// differ, get room beside the deep tail of a non-regular graph.
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = niceLogTicks{}
	p.X.Min, p.X.Max = 0.9, xmax*1.1
	p.Add(plotter.NewGrid())
	return p, nil
}

// tailLine is the curve of s_i, i ≥ 1, down to floor.
func tailLine(tails []float64, floor float64) (*plotter.Line, error) {
	var pts plotter.XYs
	for k := 1; k < len(tails); k++ {
		if tails[k] >= floor {
			pts = append(pts, plotter.XY{X: float64(k), Y: tails[k]})
		}
	}
	if len(pts) == 0 {
		pts = plotter.XYs{{X: 1, Y: max(floor, 1e-300)}}
	}
	return plotter.NewLine(pts)
}

// niceLogTicks labels a log axis at 1, 1.5, 2, 3, 4, 5, 6, 8 times the
// powers of ten in range.
type niceLogTicks struct{}

func (niceLogTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 1.5, 2, 3, 4, 5, 6, 8} {
			v := m * math.Pow(10, e)
			if v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ts
}

// decadeTicks labels a log axis at the powers of ten, 1e-k.
type decadeTicks struct{}

func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Ceil(math.Log10(lo)); e <= math.Floor(math.Log10(hi)); e++ {
		label := fmt.Sprintf("1e%g", e)
		if e == 0 {
			label = "1"
		}
		ts = append(ts, plot.Tick{Value: math.Pow(10, e), Label: label})
	}
	return ts
}
