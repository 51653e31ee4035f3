package study

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// Studies of the graphical process: 2 graph-degree, 7 heavy-graphs.

// ---------------------------------------------------------------------
// 2. graph-degree

// graphDegreeStudy reads Params: N (the n of the Δ sweep), Ns (the sizes of the n^ε and core sweeps), Trials.
var graphDegreeStudy = &Study{
	Name:   "graph-degree",
	Number: 2,
	Title:  "balanced allocation on graphs: max load against the degree (Kenthapadi–Panigrahy)",
	Question: "Two-choice on a graph (each ball takes a uniform edge and goes to its lesser-loaded end) at m = n: " +
		"how does the max load on random Δ-regular graphs fall as Δ goes from 3 to n^0.5 at fixed n, against the " +
		"Δ-dependent bounds of [KP06]; how does the n^ε-degree family behave for several ε against log log n + O(1/ε); " +
		"and does a non-regular graph with a high minimum degree escape those bounds, as [KP06] say it can?",
	Sources: []string{"[KP06] Kenthapadi, Panigrahy 2006"},
	Default: Params{N: 1 << 14, Ns: powers(1<<10, 1<<14, 4), Trials: 20},
	Full:    Params{N: 1 << 18, Ns: powers(1<<10, 1<<16, 2), Trials: 100},
	Tiny:    Params{N: 1 << 8, Ns: []int{1 << 9, 1 << 10}, Trials: 3},
	uses:    []string{"N", "Ns", "Trials"},
	run:     runGraphDegree,
}

// degreeSweep returns 3, 4, 8, 16, … below ⌈√n⌉, and ⌈√n⌉ (made even if n
// is odd).
func degreeSweep(n int) []int {
	top := int(math.Ceil(math.Sqrt(float64(n))))
	if n%2 == 1 && top%2 == 1 {
		top++
	}
	ds := []int{3}
	for d := 4; d < top; d *= 2 {
		ds = append(ds, d)
	}
	if top > 3 {
		ds = append(ds, top)
	}
	return ds
}

func runGraphDegree(_ context.Context, r *runner, p Params) (*Report, error) {
	g := &graphDegreeRun{r: r, p: p, fig: &figure.Figure{}}
	deltas := degreeSweep(p.N)
	epss := []float64{0.2, 0.35, 0.5, 0.65}
	cores := []string{"nonregular:mindeg=16,core=%d", "regular:degree=16"}
	r.plan(len(deltas) + len(epss)*len(p.Ns) + len(cores)*len(p.Ns))
	ta, err := g.degrees(deltas)
	if err != nil {
		return nil, err
	}
	tb, err := g.epsFamily(epss)
	if err != nil {
		return nil, err
	}
	tc, coreAt, err := g.denseCore(cores)
	if err != nil {
		return nil, err
	}
	first, last := ta.Rows[0], ta.Rows[len(ta.Rows)-1]
	findings := []string{
		fmt.Sprintf("(a) at n = %s the mean max load is %.2f at Δ = %d and %.2f at Δ = %d",
			pow2(int64(p.N)), first[2].(float64), first[0].(int), last[2].(float64), last[0].(int)),
		fmt.Sprintf("(c) at n = %s: dense core %.2f against %.2f on the 16-regular graph of the same minimum degree",
			pow2(int64(largest(p.Ns))), coreAt["nonregular:mindeg=16,core=4√n"], coreAt["regular:degree=16"]),
	}
	return &Report{Tables: []*Table{ta, tb, tc}, Findings: findings, Figure: g.fig}, nil
}

// graphDegreeRun is what the three parts of the graph-degree study share:
// the runner, the parameters and the figure each adds its panel to.
type graphDegreeRun struct {
	r   *runner
	p   Params
	fig *figure.Figure
}

// degrees is part (a): the Δ sweep at fixed n.
func (g *graphDegreeRun) degrees(deltas []int) (*Table, error) {
	n := g.p.N
	ta := newTable("degree", fmt.Sprintf("(a) random Δ-regular graphs, n = m = %s: max load (mean over the trials, 95%% CI) against the bounds' explicit terms", pow2(int64(n))),
		"Δ", "", "ε = log Δ/log n", "%.3f", "max load", "%.2f", "95% CI", "%.2f", "distribution", "",
		"KP worst case (ref)", "%.2f", "KP n^ε upper", "%.2f", "KP Δ-regular upper", "%.2f")
	pa := g.fig.Add(&figure.Panel{Title: fmt.Sprintf("(a) Δ-regular, n = %s: max load against Δ; dashed: [KP06] bound; dotted: reference", pow2(int64(n))),
		XLabel: "Δ", XInt: true, YLabel: "max load", XScale: figure.ScaleLog, YScale: figure.ScaleLog, LegendRight: true})
	meas := pa.Add(&figure.Series{Name: "measured", Color: 0, Shape: 0, Style: figure.StylePoints})
	// The theory curves of the one series in its colour, told apart by
	// their dashes.
	lower := pa.Add(&figure.Series{Name: "ref: " + analysis.WorstRegularLabel, Color: 0, Style: figure.StyleDotted})
	upperEps := pa.Add(&figure.Series{Name: "≤ log log n + 1/ε", Color: 0, Style: figure.StyleDashed})
	var l4 float64
	for _, d := range deltas {
		pt, err := g.r.run(pointSpec{process: nameGraph, params: alloc.Params{D: 2}, graph: "regular:degree=" + strconv.Itoa(d), n: n, load: 1, trials: g.p.Trials})
		if err != nil {
			return nil, err
		}
		row := pt.Row
		lb, _ := boundNamed(row, "max load, worst case over Δ-regular graphs")
		ub, _ := boundNamed(row, "max load, degree n^ε")
		dr, _ := boundNamed(row, "max load, Δ-regular, m = n")
		var lbv, ubv, drv any
		if lb.Applies {
			lbv = lb.Value
			lower.Points = append(lower.Points, figure.Pt{X: float64(d), Y: lb.Value})
		}
		if ub.Applies {
			ubv = ub.Value
			upperEps.Points = append(upperEps.Points, figure.Pt{X: float64(d), Y: ub.Value})
		}
		if dr.Applies {
			drv = dr.Value
		}
		l4 = math.Pow(math.Log2(float64(n)), 4)
		ta.add(d, math.Log(float64(d))/math.Log(float64(n)), row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts),
			lbv, ubv, drv)
		meas.Points = append(meas.Points, ciPt(float64(d), row.MaxLoad))
	}
	ta.Notes = []string{
		"KP worst case: log log n + log n / log(Δ log n), the " + analysis.WorstRegularLabel + ": a reference, not a bound on a random one;",
		"KP n^ε upper: log log n + O(1/ε) + O(1) with the O(·) dropped, for ε ≥ 1/log log n; '-' where ε is smaller;",
		fmt.Sprintf("KP Δ-regular upper: log log n + O(log n / log(Δ / log⁴ n)), meaningful only for Δ > log⁴ n = %.0f ('-' here).", l4),
		"Logarithms base 2.",
	}
	return ta, nil
}

// epsFamily is part (b): random regular graphs of degree ⌈n^ε⌉ over the
// sizes Ns.
func (g *graphDegreeRun) epsFamily(epss []float64) (*Table, error) {
	tb := newTable("eps", "(b) random regular graphs of degree ⌈n^ε⌉ at m = n: max load (mean, 95% CI) against log log n + 1/ε",
		"ε", "%.2f", "n", "", "Δ", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "", "KP n^ε upper", "%.2f")
	pb := g.fig.Add(&figure.Panel{Title: "(b) degree ⌈n^ε⌉: max load against n; dashed: log log n + 1/ε",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2, LegendRight: true})
	for ci, eps := range epss {
		s := pb.Add(&figure.Series{Name: fmt.Sprintf("ε = %g", eps), Color: ci, Shape: ci, Style: figure.StylePoints})
		ub := pb.Add(&figure.Series{Color: ci, Style: figure.StyleDashed})
		for _, nn := range g.p.Ns {
			pt, err := g.r.run(pointSpec{process: nameGraph, params: alloc.Params{D: 2}, graph: fmt.Sprintf("regular:eps=%g", eps), n: nn, load: 1, trials: g.p.Trials})
			if err != nil {
				return nil, err
			}
			row := pt.Row
			b, _ := boundNamed(row, "max load, degree n^ε")
			var bv any
			if b.Applies {
				bv = b.Value
				ub.Points = append(ub.Points, figure.Pt{X: float64(nn), Y: b.Value})
			}
			tb.add(eps, row.N, row.Degree.Max, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts), bv)
			s.Points = append(s.Points, ciPt(float64(nn), row.MaxLoad))
		}
	}
	tb.Notes = []string{"KP n^ε upper: log log n + 1/ε (base 2), the O(·) constants dropped; '-' where ε < 1/log log n."}
	return tb, nil
}

// denseCore is part (c): a non-regular graph with a dense core against the
// regular graph of the same minimum degree. It also returns each graph's
// mean max load at the largest n.
func (g *graphDegreeRun) denseCore(cores []string) (*Table, map[string]float64, error) {
	// The core: a clique on c = ⌈4√n⌉ vertices, 8n edges against the
	// remainder's 8n: it holds half the edges at every n, and collects
	// about m/2 balls on c vertices, √n/8 each.
	coreSize := func(n int) int { return int(math.Ceil(4 * math.Sqrt(float64(n)))) }
	tc := newTable("core", "(c) a non-regular graph of minimum degree 16 with a dense core (a clique on ⌈4√n⌉ vertices, about half the edges) against a random 16-regular graph, m = n",
		"topology", "", "n", "", "degree min/mean/max", "", "core fraction f", "%.3f", "max load", "%.2f", "95% CI", "%.2f", "distribution", "", "core load m f / c", "%.2f", "KP n^ε upper", "%.2f")
	pc := g.fig.Add(&figure.Panel{Title: "(c) minimum degree 16: dense core against 16-regular; dashed: m f / c",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2, YScale: figure.ScaleLog})
	coreAt := map[string]float64{}
	for ci, spec := range cores {
		label := "regular:degree=16"
		if ci == 0 {
			label = "nonregular:mindeg=16,core=4√n"
		}
		s := pc.Add(&figure.Series{Name: label, Color: ci + 4, Shape: ci, Style: figure.StylePoints})
		cb := pc.Add(&figure.Series{Color: ci + 4, Style: figure.StyleDashed})
		for _, nn := range g.p.Ns {
			gs := spec
			if ci == 0 {
				gs = fmt.Sprintf(spec, coreSize(nn))
			}
			pt, err := g.r.run(pointSpec{process: nameGraph, params: alloc.Params{D: 2}, graph: gs, n: nn, load: 1, trials: g.p.Trials})
			if err != nil {
				return nil, nil, err
			}
			row := pt.Row
			var f, cl, ub any
			if b, ok := boundNamed(row, "max load, dense core"); ok && b.Applies {
				f, cl = row.Query.CoreFraction, b.Value
				cb.Points = append(cb.Points, figure.Pt{X: float64(nn), Y: b.Value})
			}
			if b, ok := boundNamed(row, "max load, degree n^ε"); ok && b.Applies {
				ub = b.Value
			}
			deg := fmt.Sprintf("%d/%.2f/%d", row.Degree.Min, row.Degree.Mean, row.Degree.Max)
			tc.add(label, row.N, deg, f, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts), cl, ub)
			s.Points = append(s.Points, ciPt(float64(nn), row.MaxLoad))
			coreAt[label] = row.MaxLoad.Mean
		}
	}
	tc.Notes = []string{"core load: every ball that draws a core edge stays in the core, about m·f balls on c vertices [KP06]."}
	return tc, coreAt, nil
}

// ---------------------------------------------------------------------
// 7. heavy-graphs

// heavyGraphsStudy reads Params: Ns and Load (the sweep at m = Load·n; at least 3 sizes), Cycles and Tori (the stationary sweep; may be empty), Trials.
var heavyGraphsStudy = &Study{
	Name:   "heavy-graphs",
	Number: 7,
	Title:  "the open question: graphical two-choice under heavy load on cycles, tori, hypercubes and random regular graphs",
	Question: "Under heavy load (m = 1000n) how does the gap of two-choice grow with n on the cycle, the 2-d torus, " +
		"the hypercube and random regular graphs? Greedy on cycles and tori is conjectured to have a polynomial gap " +
		"[PTW15; BF22]. Fit the growth exponent of the gap in n with a confidence interval; and, since at fixed m/n " +
		"the process on a cycle may not yet be stationary, also measure the stationary gap of small cycles and tori.",
	Sources: []string{"[PTW15] Peres, Talwar, Wieder 2015", "[BF22] Bansal, Feldheim 2022"},
	Default: Params{Ns: powers(1<<8, 1<<14, 2), Load: 1000, Trials: 8, Cycles: powers(1<<5, 1<<9, 2), Tori: powers(8, 64, 2)},
	Full:    Params{Ns: powers(1<<8, 1<<20, 2), Load: 1000, Trials: 16, Cycles: powers(1<<5, 1<<10, 2), Tori: powers(8, 128, 2)},
	Tiny:    Params{Ns: powers(1<<6, 1<<8, 2), Load: 20, Trials: 3, Cycles: []int{8, 16, 32}, Tori: []int{4, 6, 8}},
	uses:    []string{"Ns", "Load", "Trials"},
	run:     runHeavyGraphs,
}

// heavyGraphsTopologies are the graphs of the heavy-graphs study.
var heavyGraphsTopologies = []string{"cycle", "torus:dim=2", "hypercube", "regular:degree=4", "regular:degree=16"}

// stationaryLoad returns m/n for the stationary sweep: n²/2 for a cycle of
// n vertices, 2n for a torus (the relaxation time of a growing interface
// is about L² balls per vertex for a side L).
func stationaryLoad(kind string, n int) int64 {
	if kind == "cycle" {
		return max(int64(n)*int64(n)/2, 100)
	}
	return max(2*int64(n), 100)
}

func runHeavyGraphs(_ context.Context, r *runner, p Params) (*Report, error) {
	r.plan(len(heavyGraphsTopologies)*len(p.Ns) + len(p.Cycles) + len(p.Tori))
	h := &heavyGraphsRun{r: r, p: p, fig: &figure.Figure{}}
	ta, tf, err := h.sweep()
	if err != nil {
		return nil, err
	}
	tsn, tfs, err := h.stationary()
	if err != nil {
		return nil, err
	}
	return &Report{Tables: []*Table{ta, tf, tsn, tfs}, Findings: h.findings, Figure: h.fig}, nil
}

// heavyGraphsRun is what the two sweeps of the heavy-graphs study share:
// the runner, the parameters, the figure each adds its panel to, and the
// findings.
type heavyGraphsRun struct {
	r        *runner
	p        Params
	fig      *figure.Figure
	findings []string
}

// growth is the growth of a gap with n at k sizes: xs = ln n, ys = ln(mean
// gap), gaps = mean gap.
type growth struct {
	xs, ys, gaps []float64
}

func (g *growth) add(n, gap float64) {
	g.xs = append(g.xs, math.Log(n))
	g.ys = append(g.ys, math.Log(gap))
	g.gaps = append(g.gaps, gap)
}

// fit returns the least-squares fits of ln(gap) on ln n (the exponent) and
// of gap on log2 n (the slope per doubling).
func (g *growth) fit() (pw, lin LineFit, err error) {
	pw, err = FitLine(g.xs, g.ys)
	if err != nil {
		return pw, lin, err
	}
	lx := make([]float64, len(g.xs))
	for i, x := range g.xs {
		lx[i] = x / math.Ln2
	}
	lin, err = FitLine(lx, g.gaps)
	return pw, lin, err
}

// draw adds the power-law fit pw as a dashed line over the sizes measured.
func (g *growth) draw(pan *figure.Panel, color int, pw LineFit) {
	fit := pan.Add(&figure.Series{Color: color, Style: figure.StyleDashed})
	for _, x := range []float64{g.xs[0], g.xs[len(g.xs)-1]} {
		fit.Points = append(fit.Points, figure.Pt{X: math.Exp(x), Y: math.Exp(pw.Intercept + pw.Slope*x)})
	}
}

// fitted fits the growth g of topology name (at: "m = 64n",
// "stationary"), adds the fit to table t, draws it on pan in color and
// states it among the findings.
func (h *heavyGraphsRun) fitted(g *growth, t *Table, pan *figure.Panel, color int, name, at string) error {
	pw, lin, err := g.fit()
	if err != nil {
		return err
	}
	t.add(name, len(g.xs), pw.Slope, pw.CI95, pw.R2, lin.Slope, lin.CI95, lin.R2)
	g.draw(pan, color, pw)
	h.findings = append(h.findings, fmt.Sprintf("%s, %s: gap ∝ n^%.3f, 95%% CI [%.3f, %.3f] (%d sizes, %d df); %+.3f [%+.3f, %+.3f] per doubling of n",
		name, at, pw.Slope, pw.CI95[0], pw.CI95[1], len(g.xs), pw.DF, lin.Slope, lin.CI95[0], lin.CI95[1]))
	return nil
}

// sweep is parts (a) and (b): the gap at m = Load·n over the sizes Ns on
// every topology, and the fits of its growth with n.
func (h *heavyGraphsRun) sweep() (ta, tf *Table, err error) {
	p := h.p
	ta = newTable("gap", fmt.Sprintf("(a) gap (max load − m/n) at m = %dn: mean over the trials at m/2 and at m, 95%% CI at m", p.Load),
		"topology", "", "n", "", "Δ", "", "gap at m/2", "%.2f", "gap at m", "%.2f", "95% CI", "%.2f", "distribution", "", "max − min", "%.2f")
	tf = newTable("fit", "(b) growth of the gap at m = "+strconv.FormatInt(p.Load, 10)+"n with n: least squares of ln(mean gap) on ln n (exponent α) and of mean gap on log2 n (slope per doubling), 95% CI from Student's t on k − 2 df",
		"topology", "", "sizes k", "", "exponent α", "%.3f", "95% CI", "%.3f", "R²", "%.3f", "per doubling", "%.3f", "95% CI ", "%.3f", "R² ", "%.3f")
	pa := h.fig.Add(&figure.Panel{Title: fmt.Sprintf("(a) gap at m = %dn against n (mean, 95%% CI); dashed: power-law fit", p.Load),
		XLabel: "n", YLabel: "gap", XScale: figure.ScaleLog2, YScale: figure.ScaleLog})
	for ci, spec := range heavyGraphsTopologies {
		s := pa.Add(&figure.Series{Name: spec, Color: ci, Shape: ci, Style: figure.StylePoints})
		g, err := h.sweepTopology(spec, ta, s)
		if err != nil {
			return nil, nil, err
		}
		if err := h.fitted(&g, tf, pa, ci, spec, fmt.Sprintf("m = %dn", p.Load)); err != nil {
			return nil, nil, err
		}
	}
	ta.Notes = []string{
		"Edge sampling; the torus is ⌈√n⌉ × ⌈√n⌉, so odd powers of two round n up. max − min: the spread at m.",
		"gap at m/2 ≈ gap at m: the gap has stopped growing with m at that n (the process is near stationarity).",
	}
	tf.Notes = []string{"The interval is the regression's: it reflects the scatter of the k size means about the line, lack of fit included."}
	return ta, tf, nil
}

// sweepTopology runs one topology at every size of Ns (the hypercube at the
// powers of two only), adding its rows to ta and its points to s.
func (h *heavyGraphsRun) sweepTopology(spec string, ta *Table, s *figure.Series) (growth, error) {
	var g growth
	for _, n := range h.p.Ns {
		if spec == "hypercube" && n&(n-1) != 0 {
			continue
		}
		pt, err := h.r.run(pointSpec{process: nameGraph, params: alloc.Params{D: 2}, graph: spec, n: n, load: h.p.Load,
			trials: h.p.Trials, everyDiv: 2})
		if err != nil {
			return g, err
		}
		row := pt.Row
		var half, spread []float64
		for _, res := range pt.Results {
			half = append(half, res.Series[0].Gap)
			spread = append(spread, res.MaxLoad-res.MinLoad)
		}
		hm, _ := meanCI(half)
		sm, _ := meanCI(spread)
		ta.add(spec, row.N, row.Degree.Max, hm, row.Gap.Mean, summaryCI(row.Gap), countsString(row.Gap.Counts), sm)
		s.Points = append(s.Points, ciPt(float64(row.N), row.Gap))
		g.add(float64(row.N), row.Gap.Mean)
	}
	return g, nil
}

// stationary is parts (c) and (d): small cycles and tori run long enough
// to be stationary, and the fits of their gap's growth with n.
func (h *heavyGraphsRun) stationary() (tsn, tfs *Table, err error) {
	p := h.p
	tsn = newTable("stationary", "(c) stationary gap: cycles with m/n = n²/2, tori with m/n = 2n; gap averaged over the samples in (m/4, m/2] and in (m/2, m] (five and ten samples), mean over the trials",
		"topology", "", "n", "", "m/n", "", "gap, 2nd quarter", "%.2f", "gap, 2nd half", "%.2f", "95% CI", "%.2f")
	pc := h.fig.Add(&figure.Panel{Title: "(c) stationary gap (time average over (m/2, m]) against n; dashed: power-law fit",
		XLabel: "n", YLabel: "gap", XScale: figure.ScaleLog2, YScale: figure.ScaleLog})
	tfs = newTable("stationary_fit", "(d) growth of the stationary gap (2nd half) with n: ln(mean gap) on ln n (exponent α) and mean gap on log2 n (per doubling), 95% CI from Student's t on k − 2 df",
		"topology", "", "sizes k", "", "exponent α", "%.3f", "95% CI", "%.3f", "R²", "%.3f", "per doubling", "%.3f", "95% CI ", "%.3f", "R² ", "%.3f")
	for ci, kind := range []string{"cycle", "torus"} {
		sizes := p.Cycles
		if kind == "torus" {
			sizes = p.Tori
		}
		if len(sizes) == 0 {
			continue
		}
		s := pc.Add(&figure.Series{Name: kind, Color: ci, Shape: ci, Style: figure.StylePoints})
		g, err := h.stationaryKind(kind, sizes, tsn, s)
		if err != nil {
			return nil, nil, err
		}
		if len(g.xs) < 3 {
			continue
		}
		if err := h.fitted(&g, tfs, pc, ci, kind, "stationary"); err != nil {
			return nil, nil, err
		}
	}
	tsn.Notes = []string{"Each trial records its gap every m/20 balls; 2nd quarter ≈ 2nd half: the gap no longer grows with m."}
	return tsn, tfs, nil
}

// stationaryKind runs the cycles or tori of the given sizes (sides for
// tori), adding their rows to tsn and their points to s.
func (h *heavyGraphsRun) stationaryKind(kind string, sizes []int, tsn *Table, s *figure.Series) (growth, error) {
	var g growth
	for _, size := range sizes {
		spec, n := "cycle", size
		if kind == "torus" {
			spec, n = fmt.Sprintf("torus:dim=2,side=%d", size), size*size
		}
		load := stationaryLoad(kind, n)
		pt, err := h.r.run(pointSpec{process: nameGraph, params: alloc.Params{D: 2}, graph: spec, n: n, load: load,
			trials: h.p.Trials, everyDiv: 20})
		if err != nil {
			return g, err
		}
		q2, h2 := stationaryGaps(pt.Results)
		qm, _ := meanCI(q2)
		hm, hci := meanCI(h2)
		tsn.add(kind, int64(n), load, qm, hm, sampleCI(hci, len(h2)))
		cp := figure.Pt{X: float64(n), Y: hm}
		if len(h2) >= 2 {
			cp.Lo, cp.Hi = hci[0], hci[1]
		}
		s.Points = append(s.Points, cp)
		g.add(float64(n), hm)
	}
	return g, nil
}

// stationaryGaps returns each trial's gap averaged over its samples 5 to 9
// (the second quarter of the run, of 20 samples) and over samples 10 on
// (the second half).
func stationaryGaps(results []alloc.Result) (q2, h2 []float64) {
	for _, res := range results {
		var a, b float64
		for k, sp := range res.Series {
			switch {
			case k >= 5 && k < 10:
				a += sp.Gap / 5
			case k >= 10:
				b += sp.Gap / float64(len(res.Series)-10)
			}
		}
		q2 = append(q2, a)
		h2 = append(h2, b)
	}
	return q2, h2
}
