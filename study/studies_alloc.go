package study

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// Studies of the processes on n bins (no graph): 1 two-choices,
// 3 contiguous, 4 firstdiff, 5 unbalanced, 6 heavy.

// proc is a process with its d, as a study names it.
type proc struct {
	name  string // CLI name
	d     int
	label string // Greedy[2], …
}

// procLabel is the label of the named process with d choices: its
// String ("Greedy[2]").
func procLabel(name string, d int) string {
	return processLabel(name, alloc.Params{D: float64(d)})
}

// processLabel is the label of the named process with parameters p (its
// own tie rule): its String ("Greedy[2]", "(1+β), β = 0.5"); the name,
// with d if p has one, when the process cannot be built.
func processLabel(name string, p alloc.Params) string {
	fallback := name
	if p.D > 0 {
		fallback = fmt.Sprintf("%s[%g]", name, p.D)
	}
	desc, err := alloc.Lookup(name)
	if err != nil {
		return fallback
	}
	p.Ties = desc.Ties
	pr, err := desc.New(p)
	if err != nil {
		return fallback
	}
	return pr.String()
}

func mkProc(name string, d int) proc { return proc{name, d, procLabel(name, d)} }

// countsString prints a distribution {"4": 7, "5": 3} as "4:7 5:3".
func countsString(c map[string]int) string {
	if len(c) == 0 {
		return "-"
	}
	type kv struct {
		v int64
		k string
	}
	var ks []kv
	for k := range c {
		v, _ := strconv.ParseInt(k, 10, 64)
		ks = append(ks, kv{v, k})
	}
	slices.SortFunc(ks, func(a, b kv) int { return int(a.v - b.v) })
	var parts []string
	for _, e := range ks {
		parts = append(parts, fmt.Sprintf("%s:%d", e.k, c[e.k]))
	}
	return strings.Join(parts, " ")
}

// boundNamed returns the bound of row's query whose name starts with
// prefix, applicable or not.
func boundNamed(row Row, prefix string) (analysis.Bound, bool) {
	for _, b := range analysis.Bounds(row.Query) {
		if strings.HasPrefix(b.Name, prefix) {
			return b, true
		}
	}
	return analysis.Bound{}, false
}

// modeOf returns the most frequent value of a distribution (the smallest
// on a tie).
func modeOf(c map[string]int) int {
	best, bestK := -1, 0
	for k, v := range c {
		x, _ := strconv.Atoi(k)
		if v > bestK || v == bestK && x < best {
			best, bestK = x, v
		}
	}
	return best
}

// ciPt is the point (x, mean of s) with its 95% interval, or none when s
// has none (one trial): no zero-width [v, v] in a figure or its JSON.
func ciPt(x float64, s analysis.Summary) figure.Pt {
	if s.IntervalMethod == analysis.IntervalNone {
		return figure.Pt{X: x, Y: s.Mean}
	}
	return figure.Pt{X: x, Y: s.Mean, Lo: s.CI95[0], Hi: s.CI95[1]}
}

// ---------------------------------------------------------------------
// 1. two-choices

// twoChoicesStudy reads Params: Ns (sizes), Trials.
var twoChoicesStudy = &Study{
	Name:   "two-choices",
	Number: 1,
	Title:  "the power of two choices: one-choice, Greedy[d] and Left[d] at m = n",
	Question: "How does the maximum load of one-choice, Greedy[d] and Left[d] (d = 2, 3, 4) grow with n " +
		"at m = n, against ln n / ln ln n [RS98], ln ln n / ln d [ABKU99] and ln ln n / (d ln φ_d) [V03], " +
		"and does the fluid limit predict it at finite n?",
	Sources: []string{"[ABKU99] Azar, Broder, Karlin, Upfal 1999", "[V03] Vöcking 2003", "[RS98] Raab, Steger 1998"},
	Default: Params{Ns: powers(1<<8, 1<<20, 16), Trials: 20},
	Full:    Params{Ns: powers(1<<8, 1<<24, 4), Trials: 100},
	Tiny:    Params{Ns: []int{1 << 6, 1 << 8}, Trials: 3},
	uses:    []string{"Ns", "Trials"},
	run:     runTwoChoices,
}

func runTwoChoices(_ context.Context, r *runner, p Params) (*Report, error) {
	procs := []proc{mkProc(nameOneChoice, 1)}
	for _, name := range []string{nameGreedy, nameLeft} {
		for d := 2; d <= 4; d++ {
			procs = append(procs, mkProc(name, d))
		}
	}
	r.plan(len(procs) * len(p.Ns))
	t := newTable("max_load", "max load at m = n (mean over the trials, 95% CI); fluid: the max load the fluid limit predicts at this n; term: the leading term of the theory",
		"process", "", "n", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "",
		"fluid", "", "term", "%.2f", "max load − term", "%+.2f")
	fig := &figure.Figure{SharedLegend: true}
	left := fig.Add(&figure.Panel{Title: "max load at m = n (mean, 95% CI); dashed: leading term; circles: fluid prediction",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2})
	right := fig.Add(&figure.Panel{Title: fmt.Sprintf("fraction of bins with load ≥ i at n = %s; dashed: fluid limit", pow2(int64(largest(p.Ns)))),
		XLabel: "load i", XInt: true, YLabel: "fraction of bins", YScale: figure.ScaleLog10, LegendLow: true})
	var findings []string
	fluidHits, fluidAll := 0, 0
	for ci, pr := range procs {
		meas := left.Add(&figure.Series{Name: pr.label, Color: ci, Shape: ci, Style: figure.StylePoints})
		term := left.Add(&figure.Series{Color: ci, Style: figure.StyleDashed})
		fl := left.Add(&figure.Series{Color: ci, Style: figure.StyleMarks})
		var diffs, ratios []float64
		var bound analysis.Bound
		var last Row
		for _, n := range p.Ns {
			pt, err := r.run(pointSpec{process: pr.name, params: alloc.Params{D: float64(pr.d)}, n: n, m: int64(n), trials: p.Trials})
			if err != nil {
				return nil, err
			}
			row := pt.Row
			last = row
			b, _ := boundNamed(row, "max load, m = n")
			var fluid any
			if row.Fluid != nil {
				fluid = row.Fluid.PredictedMaxLoad
				fl.Points = append(fl.Points, figure.Pt{X: float64(n), Y: float64(row.Fluid.PredictedMaxLoad)})
				fluidAll++
				if row.Fluid.PredictedMaxLoad == modeOf(row.MaxLoad.Counts) {
					fluidHits++
				}
			}
			diff := row.MaxLoad.Mean - b.Value
			diffs, ratios, bound = append(diffs, diff), append(ratios, row.MaxLoad.Mean/b.Value), b
			t.add(pr.label, row.N, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts),
				fluid, b.Value, diff)
			meas.Points = append(meas.Points, ciPt(float64(n), row.MaxLoad))
			term.Points = append(term.Points, figure.Pt{X: float64(n), Y: b.Value})
		}
		findings = append(findings, termFinding(pr.label, bound, p.Ns, diffs, ratios))
		tailSeries(right, last, ci, pr.label)
	}
	left.Add(&figure.Series{Name: "leading term", Color: -1, Style: figure.StyleDashed})
	left.Add(&figure.Series{Name: "fluid prediction", Color: -1, Style: figure.StyleMarks})
	t.Notes = []string{
		"terms: one-choice (1 + o(1)) ln n / ln ln n [RS98] (a factor tending to 1: the difference is not bounded);",
		"Greedy[d] ln ln n / ln d ± O(1) [ABKU99]; Left[d] ln ln n / (d ln φ_d) ± O(1) [V03] (a bounded difference),",
		fmt.Sprintf("φ_2 = %.4f, φ_3 = %.4f, φ_4 = %.4f; natural logarithms.", analysis.Phi(2), analysis.Phi(3), analysis.Phi(4)),
		"fluid: the mode of P(max ≥ i) ≈ 1 − exp(−n s_i), s_i the fluid limit at t = 1.",
	}
	findings = append(findings, fmt.Sprintf("the fluid prediction is the most frequent measured max load at %d of %d points", fluidHits, fluidAll))
	return &Report{Tables: []*Table{t}, Findings: findings, Figure: fig}, nil
}

// termFinding says how the measured max load stands from the leading term
// of bound b over the sizes ns, as far as b's precision lets the theory
// speak: for a ± O(1) statement the difference, which the theory bounds by
// a constant it does not give; for a (1 + o(1)) factor the ratio, which
// the theory says tends to 1 — it bounds no difference, which may grow.
func termFinding(label string, b analysis.Bound, ns []int, diffs, ratios []float64) string {
	k := len(diffs)
	first, last := pow2(int64(ns[0])), pow2(int64(ns[k-1]))
	if b.Precision == analysis.PrecisionFactor {
		trend := "not approaching 1 at these n"
		if math.Abs(ratios[k-1]-1) < math.Abs(ratios[0]-1) {
			trend = "moving toward 1"
		}
		return fmt.Sprintf("%s: max load − term goes from %+.2f (n = %s) to %+.2f (n = %s), a difference the theory does not bound: "+
			"%s says only that max load / term tends to 1; the ratio goes from %.2f to %.2f (%s)",
			label, diffs[0], first, diffs[k-1], last, b.Formula, ratios[0], ratios[k-1], trend)
	}
	rising := k >= 3
	for i := 1; i < k; i++ {
		rising = rising && diffs[i] > diffs[i-1]
	}
	note := ""
	if rising {
		note = "; it rises at every size measured"
	}
	return fmt.Sprintf("%s: max load − term %+.2f at n = %s, %+.2f at n = %s, range [%+.2f, %+.2f]%s; "+
		"the theory's ± O(1) bounds it by a constant it does not give (%d sizes cannot show it bounded)",
		label, diffs[0], first, diffs[k-1], last, slices.Min(diffs), slices.Max(diffs), note, k)
}

// tailSeries adds the measured tails of row (points) and its fluid tails
// (dashed) to a panel.
func tailSeries(p *figure.Panel, row Row, ci int, label string) {
	s := p.Add(&figure.Series{Name: label, Color: ci, Shape: ci, Style: figure.StylePoints})
	floor := 0.5 / float64(row.N) / float64(max(row.Trials, 1))
	for i := 1; i < len(row.Tails); i++ {
		if row.Tails[i] > 0 {
			s.Points = append(s.Points, figure.Pt{X: float64(i), Y: row.Tails[i]})
		}
	}
	if row.Fluid != nil {
		f := p.Add(&figure.Series{Color: ci, Style: figure.StyleDashed})
		for i := 1; i < len(row.Fluid.Tails); i++ {
			if row.Fluid.Tails[i] >= floor {
				f.Points = append(f.Points, figure.Pt{X: float64(i), Y: row.Fluid.Tails[i]})
			}
		}
	}
}

// ---------------------------------------------------------------------
// 3. contiguous

// contiguousStudy reads Params: Ns (sizes), Trials.
var contiguousStudy = &Study{
	Name:   "contiguous",
	Number: 3,
	Title:  "grouped contiguous bins against random windows and Left[d], d = 4, 8, 16",
	Question: "Kenthapadi and Panigrahy show that two random accesses to aligned groups of d/2 consecutive bins " +
		"give a max load O(log log n / d), the order of Left[d], while two unaligned random windows only reach " +
		"Ω(log log n / log d). Do the simulated max loads at m = n order themselves that way for d = 4, 8, 16?",
	Sources: []string{"[KP06] Kenthapadi, Panigrahy 2006", "[V03] Vöcking 2003"},
	Default: Params{Ns: powers(1<<12, 1<<20, 16), Trials: 10},
	Full:    Params{Ns: powers(1<<12, 1<<24, 16), Trials: 100},
	Tiny:    Params{Ns: []int{1 << 8}, Trials: 3},
	uses:    []string{"Ns", "Trials"},
	run:     runContiguous,
}

func runContiguous(_ context.Context, r *runner, p Params) (*Report, error) {
	ds := []int{4, 8, 16}
	const dn = 4 // the d of the panels against n
	names := []string{nameGrouped, nameWindow, nameLeft}
	t := newTable("max_load", "max load at m = n (mean over the trials, 95% CI); s_2, s_3: fraction of bins with load ≥ 2, ≥ 3 (mean); probes: bins read per ball; term: the explicit part of the bound",
		"d", "", "process", "", "n", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "", "s_2", "%.5f", "s_3", "%.3g",
		"probes/ball", "%.0f", "term", "%.2f", "bound", "")
	fig := &figure.Figure{}
	nMax := largest(p.Ns)
	p2 := fig.Add(&figure.Panel{Title: fmt.Sprintf("fraction of bins with load ≥ 2 at m = n = %s", pow2(int64(nMax))),
		XLabel: "d", XInt: true, YLabel: "s_2", YScale: figure.ScaleLog, LegendRight: true})
	p3 := fig.Add(&figure.Panel{Title: "d = 4: fraction of bins with load ≥ 3 at m = n (Left[4]: none)",
		XLabel: "n", YLabel: "s_3", XScale: figure.ScaleLog2, YScale: figure.ScaleLog})
	pm := fig.Add(&figure.Panel{Title: "d = 4: max load at m = n (mean, 95% CI); dashed: bound term",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2})
	type key struct {
		name string
		d    int
	}
	type tails struct{ s2, s3 float64 }
	at := map[key]tails{}
	tail := func(row Row, i int) float64 {
		if i < len(row.Tails) {
			return row.Tails[i]
		}
		return 0
	}
	// Each process's series: s_2 against d; at d = dn, s_3 and the max
	// load with its bound term against n.
	s2, s3, meas, term := make([]*figure.Series, len(names)), make([]*figure.Series, len(names)),
		make([]*figure.Series, len(names)), make([]*figure.Series, len(names))
	for ci, name := range names {
		label := strings.Replace(procLabel(name, 2), "[2]", "[d]", 1)
		s2[ci] = p2.Add(&figure.Series{Name: label, Color: ci, Shape: ci, Style: figure.StylePoints})
		s3[ci] = p3.Add(&figure.Series{Name: procLabel(name, dn), Color: ci, Shape: ci, Style: figure.StylePoints})
		meas[ci] = pm.Add(&figure.Series{Name: procLabel(name, dn), Color: ci, Shape: ci, Style: figure.StylePoints})
		term[ci] = pm.Add(&figure.Series{Color: ci, Style: figure.StyleDashed})
	}
	err := r.sweepD(t, names, ds, p, func(ci int, name string, d, n int, pt *point) {
		row := pt.Row
		b, _ := boundNamed(row, "max load, m = n")
		t.add(d, procLabel(name, d), row.N, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts),
			tail(row, 2), tail(row, 3), probesPerBall(pt), b.Value, b.Formula+" ["+citation(b.Name)+"]")
		if d == dn {
			s3[ci].Points = append(s3[ci].Points, figure.Pt{X: float64(n), Y: tail(row, 3)})
			meas[ci].Points = append(meas[ci].Points, ciPt(float64(n), row.MaxLoad))
			if b.Applies {
				term[ci].Label = b.Mark() + " " + citation(b.Name)
				term[ci].Points = append(term[ci].Points, figure.Pt{X: float64(n), Y: b.Value})
			}
		}
		if n == nMax {
			at[key{name, d}] = tails{tail(row, 2), tail(row, 3)}
			s2[ci].Points = append(s2[ci].Points, figure.Pt{X: float64(d), Y: tail(row, 2)})
		}
	})
	if err != nil {
		return nil, err
	}
	pm.Add(&figure.Series{Name: "bound term", Color: -1, Style: figure.StyleDashed})
	t.Notes = []string{
		"grouped: O(log log n / d) [KP06]; window: Ω(log log n / log d) [KP06] (base-2 logarithms);",
		"left: ln ln n / (d ln φ_d) + O(1) [V03]. Terms drop the unknown constants: compare growth, not level.",
		"At m = n every max load is at least 1 and the terms fall below 1 for d ≥ 8: the schemes differ in the tails s_2, s_3.",
	}
	var findings []string
	for _, d := range ds {
		g, w, l := at[key{nameGrouped, d}], at[key{nameWindow, d}], at[key{nameLeft, d}]
		findings = append(findings, fmt.Sprintf("d = %d, n = %s: s_2 grouped %.5f, window %.5f, Left %.5f; s_3 grouped %.3g, window %.3g, Left %.3g",
			d, pow2(int64(nMax)), g.s2, w.s2, l.s2, g.s3, w.s3, l.s3))
	}
	return &Report{Tables: []*Table{t}, Findings: findings, Figure: fig}, nil
}

// sweepD runs each process of names with each d of ds on each n of p.Ns,
// m = n, in that order, and hands each point to visit with the process's
// index (its colour in the figures). It then sorts t's rows by d, their
// first column, keeping the order of the processes and sizes within a d.
func (r *runner) sweepD(t *Table, names []string, ds []int, p Params, visit func(ci int, name string, d, n int, pt *point)) error {
	r.plan(len(ds) * len(names) * len(p.Ns))
	for ci, name := range names {
		for _, d := range ds {
			for _, n := range p.Ns {
				pt, err := r.run(pointSpec{process: name, params: alloc.Params{D: float64(d)}, n: n, m: int64(n), trials: p.Trials})
				if err != nil {
					return err
				}
				visit(ci, name, d, n, pt)
			}
		}
	}
	slices.SortStableFunc(t.Rows, func(a, b []any) int { return a[0].(int) - b[0].(int) })
	return nil
}

// probesPerBall is the mean over the trials of probes / m.
func probesPerBall(pt *point) float64 {
	if pt.Row.M == 0 || len(pt.Results) == 0 {
		return math.NaN()
	}
	var s float64
	for _, res := range pt.Results {
		s += float64(res.Probes)
	}
	return s / float64(len(pt.Results)) / float64(pt.Row.M)
}

// maxProbes is the most probes any ball made, over the trials.
func maxProbes(pt *point) int64 {
	var mp int64
	for _, res := range pt.Results {
		mp = max(mp, res.MaxProbes)
	}
	return mp
}

// ---------------------------------------------------------------------
// 4. firstdiff

// firstDiffStudy reads Params: Ns (sizes), Trials.
var firstDiffStudy = &Study{
	Name:   nameFirstDiff,
	Number: 4,
	Title:  "FirstDiff[d] against Greedy[d] and Left[d]: max load and probes per ball",
	Question: "Augustine, Moses, Redlich and Upfal show that FirstDiff[d] — probe until a load differs from the " +
		"first probe's — reaches a max load close to Left[d]'s with about d probes per ball on average. How do the " +
		"max load and the probes per ball of FirstDiff[d] (probe cap 2^d) compare with Greedy[d] and Left[d] at m = n?",
	Sources: []string{"[AMRU16] Augustine, Moses, Redlich, Upfal 2016", "[ABKU99]", "[V03]"},
	Default: Params{Ns: powers(1<<12, 1<<20, 16), Trials: 20},
	Full:    Params{Ns: powers(1<<12, 1<<24, 4), Trials: 100},
	Tiny:    Params{Ns: []int{1 << 8}, Trials: 3},
	uses:    []string{"Ns", "Trials"},
	run:     runFirstDiff,
}

func runFirstDiff(_ context.Context, r *runner, p Params) (*Report, error) {
	ds := []int{2, 3, 4}
	names := []string{nameFirstDiff, nameGreedy, nameLeft}
	t := newTable("max_load", "max load at m = n (mean over the trials, 95% CI) and probes per ball (mean, and the most one ball made)",
		"d", "", "process", "", "n", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "", "probes/ball", "%.3f", "max probes", "")
	fig := &figure.Figure{SharedLegend: true}
	nMax := largest(p.Ns)
	load := fig.Add(&figure.Panel{Title: fmt.Sprintf("max load at m = n = %s (mean, 95%% CI)", pow2(int64(nMax))), XLabel: "d", XInt: true, YLabel: "max load"})
	probes := fig.Add(&figure.Panel{Title: fmt.Sprintf("probes per ball at m = n = %s (mean)", pow2(int64(nMax))), XLabel: "d", XInt: true, YLabel: "probes per ball"})
	type res struct{ load, probes float64 }
	at := map[string]res{}
	ls, ps := make([]*figure.Series, len(names)), make([]*figure.Series, len(names))
	for ci, name := range names {
		ls[ci] = load.Add(&figure.Series{Name: strings.Replace(procLabel(name, 2), "[2]", "[d]", 1), Color: ci, Shape: ci, Style: figure.StylePoints})
		ps[ci] = probes.Add(&figure.Series{Name: ls[ci].Name, Color: ci, Shape: ci, Style: figure.StylePoints})
	}
	err := r.sweepD(t, names, ds, p, func(ci int, name string, d, n int, pt *point) {
		row := pt.Row
		ppb := probesPerBall(pt)
		if n == nMax {
			ls[ci].Points = append(ls[ci].Points, ciPt(float64(d), row.MaxLoad))
			ps[ci].Points = append(ps[ci].Points, figure.Pt{X: float64(d), Y: ppb})
			at[procLabel(name, d)] = res{row.MaxLoad.Mean, ppb}
		}
		t.add(d, procLabel(name, d), row.N, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts),
			ppb, maxProbes(pt))
	})
	if err != nil {
		return nil, err
	}
	t.Notes = []string{
		fmt.Sprintf("FirstDiff[d] probes at most 2^d bins (alloc.DefaultFirstDiffCap: %d, %d, %d for d = 2, 3, 4).",
			alloc.DefaultFirstDiffCap(2), alloc.DefaultFirstDiffCap(3), alloc.DefaultFirstDiffCap(4)),
		"Greedy[d] and Left[d] read exactly d bins a ball.",
	}
	var findings []string
	for _, d := range ds {
		f, g, l := at[procLabel(nameFirstDiff, d)], at[procLabel(nameGreedy, d)], at[procLabel(nameLeft, d)]
		findings = append(findings, fmt.Sprintf("d = %d, n = %s: FirstDiff %.2f with %.2f probes/ball; Left %.2f, Greedy %.2f with %d",
			d, pow2(int64(nMax)), f.load, f.probes, l.load, g.load, d))
	}
	return &Report{Tables: []*Table{t}, Findings: findings, Figure: fig}, nil
}

// ---------------------------------------------------------------------
// 5. unbalanced

// unbalancedStudy reads Params: N (n = m), Trials.
var unbalancedStudy = &Study{
	Name:   nameMaxOf,
	Number: 5,
	Title:  "unbalanced allocation: the load distribution of MaxOf[d] against its fluid limit",
	Question: "MaxOf[d] sends each ball to the MOST loaded of d uniform bins. Redlich analyses its load " +
		"distribution through the mean-field equations ds_i/dt = (1 − s_i)^d − (1 − s_{i−1})^d. Does the " +
		"measured fraction of bins at each load match them at m = n, and what do the largest and smallest loads do?",
	Sources: []string{"[R14] Redlich, Unbalanced allocations (arXiv:1401.0223)"},
	Default: Params{N: 1 << 20, Trials: 10},
	Full:    Params{N: 1 << 24, Trials: 100},
	Tiny:    Params{N: 1 << 10, Trials: 3},
	uses:    []string{"N", "Trials"},
	run:     runUnbalanced,
}

func runUnbalanced(_ context.Context, r *runner, p Params) (*Report, error) {
	ds := []int{1, 2, 3, 4}
	r.plan(len(ds))
	sum := newTable("extremes", fmt.Sprintf("max and min load at m = n = %s (mean over the trials, 95%% CI); fluid: predicted max load; empty: fraction of empty bins", pow2(int64(p.N))),
		"process", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "", "fluid", "", "min load", "%.2f", "empty", "%.5f", "fluid empty", "%.5f")
	tails := newTable("tails", "fraction of bins with load ≥ i: measured (mean over the trials) and fluid limit",
		"i", "")
	fig := &figure.Figure{}
	pan := fig.Add(&figure.Panel{Title: fmt.Sprintf("fraction of bins with load ≥ i at m = n = %s; dashed: fluid limit", pow2(int64(p.N))),
		XLabel: "load i", XInt: true, YLabel: "fraction of bins", YScale: figure.ScaleLog10, LegendLow: true})
	var rows []Row
	var findings []string
	for ci, d := range ds {
		pt, err := r.run(pointSpec{process: nameMaxOf, params: alloc.Params{D: float64(d)}, n: p.N, m: int64(p.N), trials: p.Trials})
		if err != nil {
			return nil, err
		}
		row := pt.Row
		rows = append(rows, row)
		label := procLabel(nameMaxOf, d)
		if d == 1 {
			label = "MaxOf[1] = one-choice"
		}
		var mins []float64
		for _, res := range pt.Results {
			mins = append(mins, res.MinLoad)
		}
		minMean, _ := meanCI(mins)
		var fluid, fluidEmpty any
		if row.Fluid != nil {
			fluid = row.Fluid.PredictedMaxLoad
			if len(row.Fluid.Tails) > 1 {
				fluidEmpty = 1 - row.Fluid.Tails[1]
			}
		}
		empty := 1.0
		if len(row.Tails) > 1 {
			empty = 1 - row.Tails[1]
		}
		sum.add(label, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts), fluid, minMean, empty, fluidEmpty)
		tailSeries(pan, row, ci, label)
		tails.Columns = append(tails.Columns, fmt.Sprintf("MaxOf[%d]", d), "fluid")
		tails.Formats = append(tails.Formats, "%.4g", "%.4g")
		// The largest gap between measurement and fluid limit where the
		// fluid tail is at least 1e-3 (where n·trials samples resolve it).
		worst, at := 0.0, 0
		if row.Fluid != nil {
			for i := 1; i < len(row.Fluid.Tails); i++ {
				if row.Fluid.Tails[i] < 1e-3 {
					break
				}
				var meas float64
				if i < len(row.Tails) {
					meas = row.Tails[i]
				}
				if e := math.Abs(meas - row.Fluid.Tails[i]); e > worst {
					worst, at = e, i
				}
			}
		}
		findings = append(findings, fmt.Sprintf("%s: measured tails within %.2g of the fluid limit wherever s_i ≥ 10^-3 (largest at i = %d)", label, worst, at))
	}
	width := 0
	for _, row := range rows {
		width = max(width, len(row.Tails))
	}
	for i := 1; i < width; i++ {
		vals := []any{i}
		for _, row := range rows {
			var meas, fl any = 0.0, nil
			if i < len(row.Tails) {
				meas = row.Tails[i]
			}
			if row.Fluid != nil && i < len(row.Fluid.Tails) {
				fl = row.Fluid.Tails[i]
			}
			vals = append(vals, meas, fl)
		}
		tails.add(vals...)
	}
	tails.Notes = []string{"fluid: ds_i/dt = (1 − s_i)^d − (1 − s_{i−1})^d at t = 1 [R14]; '-': below 1e-12."}
	return &Report{Tables: []*Table{sum, tails}, Findings: findings, Figure: fig}, nil
}

// ---------------------------------------------------------------------
// 6. heavy

// heavyStudy reads Params: N, Load (m/n at the end), Trials.
var heavyStudy = &Study{
	Name:   "heavy",
	Number: 6,
	Title:  "the heavily loaded case: the gap over time for one-choice, Greedy[2], (1+β) and weighted balls",
	Question: "As m grows far beyond n, one-choice's gap grows like sqrt(2 (m/n) ln n) while Greedy[2]'s stays at " +
		"ln ln n / ln 2 + O(1) [BCSV06], (1+β)'s at Θ(log n / β) [PTW15], and that of weighted balls with a finite " +
		"second moment does not grow with m [TW07]. Does the simulated gap, recorded along the way, stop growing " +
		"where the theory says so?",
	Sources: []string{"[BCSV06] Berenbrink, Czumaj, Steger, Vöcking 2006", "[PTW15] Peres, Talwar, Wieder 2015",
		"[TW07] Talwar, Wieder 2007", "[RS98] Raab, Steger 1998"},
	Default: Params{N: 1 << 10, Load: 10000, Trials: 12},
	Full:    Params{N: 1 << 16, Load: 10000, Trials: 20},
	Tiny:    Params{N: 1 << 8, Load: 20, Trials: 3},
	uses:    []string{"N", "Load", "Trials"},
	run:     runHeavy,
}

// heavyProc is a process of the heavy study.
type heavyProc struct {
	label   string
	process string
	beta    float64
	weights string
}

func runHeavy(_ context.Context, r *runner, p Params) (*Report, error) {
	procs := []heavyProc{
		{label: nameOneChoice, process: nameOneChoice},
		{label: "Greedy[2]", process: nameGreedy},
		{label: "(1+β), β = 0.5", process: nameOnePlusBeta, beta: 0.5},
		{label: "(1+β), β = 0.1", process: nameOnePlusBeta, beta: 0.1},
		{label: "weighted Greedy[2], exp", process: nameWeighted, weights: "exp"},
		{label: "weighted Greedy[2], pareto 1.5", process: nameWeighted, weights: "pareto:shape=1.5"},
	}
	r.plan(len(procs))
	h := newHeavyOut(p)
	var findings []string
	lastGap := map[string]float64{}
	for ci, hp := range procs {
		m := p.Load * int64(p.N)
		pt, err := r.run(pointSpec{process: hp.process, params: alloc.Params{D: 2, Beta: hp.beta}, weights: hp.weights,
			n: p.N, m: m, trials: p.Trials, every: int64(p.N)})
		if err != nil {
			return nil, err
		}
		mean, dm, dci := h.add(hp, ci, pt)
		findings = append(findings, fmt.Sprintf("%s: gap %.2f at t = %d, drift over the last decade %+.2f [%+.2f, %+.2f]",
			hp.label, mean[p.Load-1], p.Load, dm, dci[0], dci[1]))
		lastGap[hp.label] = mean[p.Load-1]
	}
	findings = append(findings, fmt.Sprintf("(1+β): gap at β = 0.1 over gap at β = 0.5, t = %d: %.2f (a gap proportional to 1/β would give 5; Θ(log n / β) fixes it only up to constant factors)",
		p.Load, lastGap["(1+β), β = 0.1"]/lastGap["(1+β), β = 0.5"]))
	h.t.Notes = []string{
		"theory (the gap bound where it applies at t = m/n; '-' outside its regime): one-choice (1 + o(1)) sqrt(2 (m/n) ln n) for m ≫ n ln n,",
		"taken as t >= ln n [RS98]; Greedy[2] ln ln n / ln 2 ± O(1) for every m [BCSV06]; (1+β) Θ(log n / β), unknown constants",
		"(explicit term log2 n / β), heavily loaded: the upper bound O(log n / β) holds for every m, the lower bound from t of order",
		"ln n / β², taken as the threshold [PTW15]; weighted balls (mean 1): a gap independent of m, with no explicit value, for weights",
		"with a finite second moment [TW07] (exponential: yes; Pareto with shape 1.5: infinite variance).",
		"Every trial records its gap after every n balls (alloc.Config.Every = n); weighted gap = max − total weight / n.",
	}
	return &Report{Tables: []*Table{h.t}, Findings: findings, Figure: h.fig}, nil
}

// heavyOut is the heavy study's output under construction: its table,
// one row per process, and its figure, with the checkpoints and the
// decades over which the drift is measured.
type heavyOut struct {
	p Params
	// checks: t = m/n at the powers of ten up to Load, and Load.
	checks []int64
	// Drift: each trial's mean gap over the last decade of t, (L/10, L],
	// minus its mean over the decade before, (L/100, L/10] (from t = 1 if
	// L < 100): zero for a stationary gap, whatever its level.
	hi0, lo0  int64
	t         *Table
	fig       *figure.Figure
	pan, flat *figure.Panel
}

func newHeavyOut(p Params) *heavyOut {
	h := &heavyOut{p: p, hi0: max(p.Load/10, 1), lo0: max(p.Load/100, 1)}
	for c := int64(1); c <= p.Load; c *= 10 {
		h.checks = append(h.checks, c)
	}
	if h.checks[len(h.checks)-1] != p.Load {
		h.checks = append(h.checks, p.Load)
	}
	n := p.N
	cols := []string{"process", ""}
	for _, c := range h.checks {
		cols = append(cols, fmt.Sprintf("t=%d", c), "%.2f")
	}
	cols = append(cols, "drift", "%+.2f", "95% CI", "%+.2f", "theory at t="+strconv.FormatInt(p.Load, 10), "%.2f", "bound", "")
	h.t = newTable("gap", fmt.Sprintf("mean gap (max load − m/n) after t·n balls, n = %s; drift: mean gap over t in (%d, %d] minus over the decade before, per trial, mean and 95%% CI",
		pow2(int64(n)), h.hi0, p.Load), cols...)
	h.fig = &figure.Figure{SharedLegend: true}
	h.pan = h.fig.Add(&figure.Panel{Title: fmt.Sprintf("gap after t·n balls, n = %s (mean over %s); dashed: gap bounds where they apply", pow2(int64(n)), analysis.Count(p.Trials, "trial")),
		XLabel: "t = m/n", YLabel: "gap = max load − m/n", XScale: figure.ScaleLog10, YScale: figure.ScaleLog})
	h.flat = h.fig.Add(&figure.Panel{Title: "the processes whose gap the theory bounds for every m (linear scale)",
		XLabel: "t = m/n", YLabel: "gap = max load − m/n", XScale: figure.ScaleLog10})
	return h
}

// add puts a process's row in the table and its curves in the figure, and
// returns its mean gap after each unit of n balls and its drift with the
// drift's 95% CI.
func (h *heavyOut) add(hp heavyProc, ci int, pt *point) ([]float64, float64, Interval) {
	// mean[k]: the mean over trials of the gap after k+1 units of n balls.
	steps := len(pt.Results[0].Series)
	mean := make([]float64, steps)
	for _, res := range pt.Results {
		for k, s := range res.Series {
			mean[k] += s.Gap / float64(len(pt.Results))
		}
	}
	vals := []any{hp.label}
	for _, c := range h.checks {
		vals = append(vals, mean[c-1])
	}
	var diffs []float64
	for _, res := range pt.Results {
		first := h.lo0 + 1
		if h.lo0 == h.hi0 || h.p.Load < 100 {
			first = 1
		}
		diffs = append(diffs, meanGap(res.Series, h.hi0+1, h.p.Load)-meanGap(res.Series, first, h.hi0))
	}
	dm, dci := meanCI(diffs)
	vals = append(vals, dm, sampleCI(dci, len(diffs)))
	prefix := map[string]string{nameOneChoice: "gap, heavily loaded", nameGreedy: "gap, any m",
		nameOnePlusBeta: "gap, heavily loaded", nameWeighted: "gap independent of m"}[hp.process]
	theory, bound := heavyBound(pt.Row, hp, prefix)
	vals = append(vals, theory, bound)
	h.t.add(vals...)
	h.plot(hp, ci, mean, pt.Row.Query, prefix)
	return mean, dm, dci
}

// meanGap is the mean gap of a series over t in [a, b].
func meanGap(ser []alloc.Point, a, b int64) float64 {
	var s float64
	for k := a; k <= b; k++ {
		s += ser[k-1].Gap
	}
	return s / float64(b-a+1)
}

// heavyBound returns the process's gap bound at t = Load, the bound named
// by prefix: its value only where it applies (nil elsewhere), and its
// formula, saying from which t on a heavily loaded statement holds.
func heavyBound(row Row, hp heavyProc, prefix string) (theory any, bound string) {
	bound = "-"
	b, ok := boundNamed(row, prefix)
	if !ok {
		return nil, bound
	}
	bound = b.Formula
	if b.Base == "log2" {
		bound += " (log2)"
	}
	bound += " [" + citation(b.Name) + "]"
	switch {
	case hp.process == nameWeighted && !b.Applies:
		bound = "no claim: infinite variance [TW07]"
	case hp.process == nameWeighted:
		bound = "independent of m [TW07]"
	case b.Applies:
		theory = b.Value
	case b.Regime == analysis.RegimeHeavy:
		bound += fmt.Sprintf(", from t >= %.4g", b.HeavyFrom)
	}
	return theory, bound
}

// plot draws a process's mean gap, and on the linear panel the processes
// with a gap bounded for every m, with the gap bound at the t where it
// applies (one-choice's from t >= ln n, (1+β)'s from t >= ln n / β²;
// weighted balls' has no value to draw).
func (h *heavyOut) plot(hp heavyProc, ci int, mean []float64, q analysis.Query, prefix string) {
	steps := len(mean)
	s := h.pan.Add(&figure.Series{Name: hp.label, Color: ci, Shape: ci, Style: figure.StyleLine})
	for _, k := range logSpaced(steps, 60) {
		s.Points = append(s.Points, figure.Pt{X: float64(k + 1), Y: mean[k]})
	}
	if hp.process != nameOneChoice && hp.weights != "pareto:shape=1.5" {
		h.flat.Add(&figure.Series{Name: hp.label, Color: ci, Shape: ci, Style: figure.StyleLine, Points: s.Points})
	}
	var ts []float64
	for _, k := range logSpaced(steps, 30) {
		ts = append(ts, float64(k+1))
	}
	if th := boundSeries(q, prefix, analysis.QuantityGap, ts, ci); th != nil {
		h.pan.Add(th)
		if hp.process == nameGreedy {
			h.flat.Add(th)
		}
	}
}

// logSpaced returns about k indices in [0, steps), spaced evenly on a log
// scale of index+1, always including the first and the last.
func logSpaced(steps, k int) []int {
	var idx []int
	last := -1
	for j := 0; j <= k; j++ {
		i := int(math.Round(math.Pow(float64(steps), float64(j)/float64(k)))) - 1
		i = min(max(i, 0), steps-1)
		if i > last {
			idx = append(idx, i)
			last = i
		}
	}
	return idx
}
