package study

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// GridFigure is the figure of a grid's rows, in two panels, every series
// (SeriesName) in one colour and marker throughout, one legend for both:
//
//   - left: the mean max load with its 95% confidence interval against n
//     (log₂ axis), or, when every row has one n, per series on a
//     categorical axis; dashed in the series' colour, the explicit terms of
//     the bounds that apply to it, each at the n where its regime holds and
//     read as a max load (gap bounds plus m/n; spread bounds and bounds
//     with no value are not drawn); dotted, the worst case over Δ-regular
//     graphs [KP06], a reference that some graph of the degree attains.
//     Each bound curve ends in its letter, the letter of the table's bound
//     legend (results.WriteGrid: a, b, c, … in order of first appearance),
//     and the legend keys the letters;
//   - right: at each series' largest n, the measured fraction of bins with
//     load ≥ i (log scale) against the fluid limits: the series' own where
//     it has one, and those of one-choice and Greedy[2] at the same m/n for
//     reference.
func GridFigure(rows []Row) (*figure.Figure, error) {
	if len(rows) == 0 {
		return nil, errors.New("study: nothing to plot")
	}
	names, by := series(rows)
	right, err := tailsPanel(names, by)
	if err != nil {
		return nil, err
	}
	return &figure.Figure{Panels: []*figure.Panel{maxLoadPanel(rows, names, by), right}, SharedLegend: true}, nil
}

// boundLetters assigns the bounds of rows the letters a, b, c, … (b26,
// b27, … after z) in order of first appearance, a bound being told apart by
// its process and name: the letters of the table of a grid
// (results.WriteGrid), so that a figure and its table agree. It returns
// the letter of each bound's key (boundKey) and the keys in letter order.
func boundLetters(rows []Row) (letters map[string]string, order []string) {
	letters = map[string]string{}
	for _, r := range rows {
		for _, b := range r.Bounds {
			k := boundKey(b)
			if _, ok := letters[k]; ok {
				continue
			}
			i := len(order)
			letters[k] = fmt.Sprintf("b%d", i)
			if i < 26 {
				letters[k] = string(rune('a' + i))
			}
			order = append(order, k)
		}
	}
	return letters, order
}

// boundKey tells bounds apart: two processes may cite one paper for
// different formulas.
func boundKey(b analysis.Bound) string { return b.Process + "\x00" + b.Name }

// boundKeyText is the legend's key to a bound's letter: the letter, the
// bound's mark and its name as a max load ("gap" reads "m/n + gap").
func boundKeyText(letter string, b analysis.Bound) string {
	name := strings.TrimPrefix(b.Name, "max load, ")
	if b.Quantity == analysis.QuantityGap {
		name = "m/n + " + name
	}
	return letter + ": " + b.Mark() + " " + name
}

// category is a series' name as a label of a categorical axis: a spec's
// parameters on lines of their own.
func category(name string) string {
	kind, params, ok := strings.Cut(name, ":")
	if !ok {
		return name
	}
	return kind + "\n" + strings.ReplaceAll(params, ",", "\n")
}

// maxLoadPanel is GridFigure's left panel.
func maxLoadPanel(rows []Row, names []string, by map[string][]Row) *figure.Panel {
	letters, order := boundLetters(rows)
	p := &figure.Panel{YLabel: "max load", YScale: figure.ScaleLog,
		Title: "max load against n (mean, 95% CI)", XLabel: "n (bins)", XScale: figure.ScaleLog2}
	// A log scale for the loads: the small differences between the good
	// topologies stay visible beside a non-regular graph's large loads.
	singleN := !slices.ContainsFunc(rows, func(r Row) bool { return r.N != rows[0].N })
	if singleN {
		p.Title = fmt.Sprintf("max load at n = %s (mean, 95%% CI)", pow2(rows[0].N))
		p.XLabel, p.XScale = "", figure.ScaleLinear
		for _, name := range names {
			p.XCategories = append(p.XCategories, category(name))
		}
	}
	drawn := map[string]analysis.Bound{}
	for i, name := range names {
		rs := by[name]
		s := p.Add(&figure.Series{Name: name, Color: i, Shape: i, Style: figure.StylePoints})
		for _, r := range rs {
			x := float64(r.N)
			if singleN {
				x = float64(i)
			}
			s.Points = append(s.Points, ciPt(x, r.MaxLoad))
		}
		for _, bc := range boundCurves(rs) {
			letter := letters[bc.key]
			drawn[bc.key] = bc.bound
			b := p.Add(&figure.Series{Color: i, Style: figure.StyleDashed, Label: letter})
			if bc.reference {
				b.Style = figure.StyleDotted
			}
			if singleN {
				// A short level line across the series' column.
				y := bc.pts[0].Y
				b.Points = []figure.Pt{{X: float64(i) - 0.3, Y: y}, {X: float64(i) + 0.3, Y: y}}
				continue
			}
			for _, q := range bc.pts {
				b.Points = append(b.Points, figure.Pt{X: q.X, Y: q.Y})
			}
		}
	}
	// The key to the letters drawn, in letter order.
	for _, k := range order {
		if b, ok := drawn[k]; ok {
			style := figure.StyleDashed
			if b.Kind == analysis.KindReference {
				style = figure.StyleDotted
			}
			p.Add(&figure.Series{Name: boundKeyText(letters[k], b), Color: -1, Style: style})
		}
	}
	return p
}

// tailsPanel is GridFigure's right panel.
func tailsPanel(names []string, by map[string][]Row) (*figure.Panel, error) {
	p := &figure.Panel{XLabel: "load i", YLabel: "fraction of bins", YScale: figure.ScaleLog10, XInt: true}
	ymin := 1.0
	var ns []int64
	var loads []float64
	for i, name := range names {
		rs := by[name]
		r := rs[len(rs)-1]
		ns, loads = append(ns, r.N), append(loads, float64(r.M)/float64(r.N))
		s := p.Add(&figure.Series{Name: name, Color: i, Shape: i, Style: figure.StylePoints})
		for k := 1; k < len(r.Tails); k++ {
			if r.Tails[k] > 0 {
				s.Points = append(s.Points, figure.Pt{X: float64(k), Y: r.Tails[k]})
				ymin = min(ymin, r.Tails[k])
			}
		}
	}
	// The fluid curves go a decade below the smallest measured fraction.
	floor := max(ymin/10, 1e-12)
	fluid := false
	for i, name := range names {
		rs := by[name]
		f := rs[len(rs)-1].Fluid
		// The series' own fluid limit, unless it is one of the references
		// drawn below.
		if f == nil || f.Process == nameOneChoice || f.Process == nameGreedy && f.D == 2 {
			continue
		}
		s := p.Add(&figure.Series{Name: fmt.Sprintf("fluid %s[%d] (n → ∞)", f.Process, f.D), Color: i, Style: figure.StyleDashed})
		for k := 1; k < len(f.Tails); k++ {
			if f.Tails[k] >= floor {
				s.Points = append(s.Points, figure.Pt{X: float64(k), Y: f.Tails[k]})
			}
		}
		fluid = true
	}
	p.Title = "fraction of bins at load ≥ i"
	loN, hiN := slices.Min(ns), slices.Max(ns)
	if loN == hiN {
		p.Title += ", n = " + pow2(loN)
	} else {
		p.Title += fmt.Sprintf(" at each series' largest n (%s to %s)", pow2(loN), pow2(hiN))
	}
	loL, hiL := slices.Min(loads), slices.Max(loads)
	if loL != hiL {
		p.Title += fmt.Sprintf(", m/n from %.4g to %.4g", loL, hiL)
	} else {
		p.Title += fmt.Sprintf(", m/n = %.4g", loL)
	}
	// The references, at the one m/n of every series.
	refs := []struct {
		fp    analysis.FluidProcess
		name  string
		style string
	}{
		{alloc.MeanField{Family: alloc.FamilyOneChoice, D: 1}, fmt.Sprintf("fluid %v (n → ∞)", alloc.OneChoice{}), figure.StyleDotted},
		{alloc.MeanField{Family: alloc.FamilyGreedy, D: 2}, fmt.Sprintf("fluid %v (n → ∞)", alloc.Greedy{D: 2}), figure.StyleDashDot},
	}
	if loL == hiL && loL > 0 && loL <= maxFluidLoad {
		for _, rf := range refs {
			tails, err := analysis.TailsTol(rf.fp, loL, floor)
			if err != nil {
				return nil, err
			}
			s := p.Add(&figure.Series{Name: rf.name, Color: -1, Style: rf.style})
			for k := 1; k < len(tails); k++ {
				if tails[k] >= floor {
					s.Points = append(s.Points, figure.Pt{X: float64(k), Y: tails[k]})
				}
			}
			fluid = true
		}
	}
	if fluid {
		p.YMin, p.YMax = floor, 1
	}
	return p, nil
}

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
	key       string // boundKey
	bound     analysis.Bound
	pts       []figure.Pt
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
			key := boundKey(b)
			i, seen := at[key]
			if !seen {
				i = len(out)
				at[key] = i
				out = append(out, boundCurve{label: b.Mark() + " " + citation(b.Name), reference: b.Kind == analysis.KindReference, key: key, bound: b})
			}
			out[i].pts = append(out[i].pts, figure.Pt{X: float64(r.N), Y: v})
		}
	}
	return out
}
