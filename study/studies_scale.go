package study

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/graphgen"
)

// Study 9, degree-scale: two-choice on implicit random Δ-regular graphs
// against the complete graph, from n = 2^16 up to the largest n the
// implicit graphs and the level engine reach.

// degreeScaleStudy reads Params: Ns (the sizes, ascending), Trials (at
// the smallest n; fewer at larger n, see scaleTrials).
var degreeScaleStudy = &Study{
	Name:   "degree-scale",
	Number: 12,
	Title:  "degree at scale: max load on implicit random Δ-regular graphs against K_n, n = 2^16 to 10^10 (Kenthapadi–Panigrahy)",
	Question: "Two-choice on a graph at m = n, on implicit random Δ-regular multigraphs (the permutation model) with " +
		"Δ = 4, 16, 256 and ⌈√n⌉, beside the complete graph and the explicit terms of the [KP06] bounds for " +
		"Δ-regular graphs: from which n on does the degree change the max load, and by how much?",
	Sources: []string{"[KP06] Kenthapadi, Panigrahy 2006", "[ABKU99] Azar, Broder, Karlin, Upfal 1999"},
	Default: Params{Ns: powers(1<<16, 1<<24, 4), Trials: 32},
	// 10^10 takes 5 GB of packed loads (half a byte a bin) for each
	// implicit graph's trial (one trial there: scaleTrials).
	Full: Params{Ns: append(powers(1<<16, 1<<30, 4), 4e9, 1e10), Trials: 64},
	Tiny: Params{Ns: []int{1 << 10, 1 << 12}, Trials: 3},
	uses: []string{"Ns", "Trials"},
	run:  runDegreeScale,
}

// scaleDegrees are the fixed degrees of degree-scale; ⌈√n⌉ is added at
// each n.
var scaleDegrees = []int{4, 16, 256}

// sqrtDegree returns ⌈√n⌉ rounded up to even (the implicit graphs need an
// even degree).
func sqrtDegree(n int) int {
	d := int(math.Ceil(math.Sqrt(float64(n))))
	return d + d%2
}

// scaleTrials returns the trials at n: t·√(n0/n) rounded, at least 1, so
// that the balls of a point grow as √n rather than n (the max load
// concentrates on one or two values at large n).
func scaleTrials(t, n0, n int) int {
	return max(1, int(math.Round(float64(t)*math.Sqrt(float64(n0)/float64(n)))))
}

// scaleGraph is a graph of degree-scale: its label and its degree at n, 0
// for the complete graph.
type scaleGraph struct {
	label  string
	degree func(n int) int
}

// scaleGraphs returns the graphs of degree-scale: the fixed degrees, ⌈√n⌉,
// and last the complete graph, which the differences are taken from.
func scaleGraphs() []scaleGraph {
	var graphs []scaleGraph
	for _, d := range scaleDegrees {
		graphs = append(graphs, scaleGraph{label: "Δ = " + strconv.Itoa(d), degree: func(int) int { return d }})
	}
	return append(graphs, scaleGraph{label: "Δ = ⌈√n⌉", degree: sqrtDegree}, scaleGraph{label: "complete", degree: func(int) int { return 0 }})
}

// scaleFeasible reports whether the implicit Δ-regular graph exists on n
// vertices (2 <= Δ < n <= graphgen.MaxImplicitOrder).
func scaleFeasible(d, n int) bool { return d == 0 || d < n && n <= graphgen.MaxImplicitOrder }

func runDegreeScale(_ context.Context, r *runner, p Params) (*Report, error) {
	graphs := scaleGraphs()
	for _, n := range p.Ns {
		for _, g := range graphs {
			if scaleFeasible(g.degree(n), n) {
				r.plan(1)
			}
		}
	}
	fig := &figure.Figure{}
	ta, mean, err := scaleLoads(r, p, graphs, fig)
	if err != nil {
		return nil, err
	}
	kn := mean[len(graphs)-1]
	tb := scaleDifferences(p.Ns, graphs, mean, kn)
	var findings []string
	for gi, g := range graphs[:len(graphs)-1] {
		if f, ok := scaleFinding(p.Ns, g.label, mean[gi], kn); ok {
			findings = append(findings, f)
		}
	}
	return &Report{Tables: []*Table{ta, tb}, Findings: findings, Figure: fig}, nil
}

// scaleLoads is part (a): the max load of every graph at every n it runs
// at, in a table and a panel of fig. It also returns mean[g][i], the mean
// max load of graph g at Ns[i], NaN where it did not run.
func scaleLoads(r *runner, p Params, graphs []scaleGraph, fig *figure.Figure) (*Table, [][]float64, error) {
	ta := newTable("scale", "(a) two-choice at m = n on implicit random Δ-regular multigraphs and on K_n: max load (mean over the trials, 95% CI) against the [KP06] explicit terms",
		"topology", "", "n", "", "Δ", "", "trials", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "",
		"KP worst case (ref)", "%.2f", "log⁴ n", "%.3g", "KP Δ-regular upper", "%.2f", "ABKU complete", "%.2f")
	pa := fig.Add(&figure.Panel{Title: "mean max load against n, m = n; dotted: [KP06] worst case over Δ-regular graphs",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2, LegendRight: true})
	mean := make([][]float64, len(graphs))
	for gi, g := range graphs {
		color := gi
		if g.label == "complete" {
			color = -1
		}
		s := pa.Add(&figure.Series{Name: g.label, Color: color, Shape: gi, Style: figure.StylePoints})
		ref := pa.Add(&figure.Series{Color: color, Style: figure.StyleDotted})
		var err error
		if mean[gi], err = scaleGraphLoads(r, p, g, ta, s, ref); err != nil {
			return nil, nil, err
		}
	}
	ta.Notes = []string{
		"implicit graphs: regular:degree=Δ,implicit, the union of Δ/2 Feistel permutations and their inverses (a multigraph: loops and parallel edges are rare); ⌈√n⌉ is rounded up to even;",
		"complete: the level engine (the same law as the per-bin engine, not the same numbers for a seed, and memory independent of n);",
		"KP worst case: log log n + log n / log(Δ log n), attained by some Δ-regular graph: a reference, not a bound on a random one;",
		"KP Δ-regular upper: log log n + log n / log(Δ / log⁴ n), the O(·) dropped, meaningful only for Δ > log⁴ n ('-' otherwise);",
		"ABKU complete: ln ln n / ln 2, the O(1) dropped, two-choice on K_n [ABKU99]; the KP terms take logarithms base 2;",
		"trials: the size's trials at the smallest n, times √(n0/n) (rounded, at least 1) at n.",
	}
	return ta, mean, nil
}

// scaleGraphLoads runs graph g at every n of Ns where it exists, adding
// its rows to ta, its points to s and the [KP06] worst case to ref, and
// returns its mean max load at each n (NaN where it did not run).
func scaleGraphLoads(r *runner, p Params, g scaleGraph, ta *Table, s, ref *figure.Series) ([]float64, error) {
	mean := make([]float64, len(p.Ns))
	for i, n := range p.Ns {
		mean[i] = math.NaN()
		d := g.degree(n)
		if !scaleFeasible(d, n) {
			continue
		}
		ps := pointSpec{process: nameGraph, params: alloc.Params{D: 2}, n: n, load: 1, trials: scaleTrials(p.Trials, p.Ns[0], n)}
		if d == 0 {
			// The level engine: memory independent of n, so K_n
			// reaches 10^10; the same law as the per-bin engine.
			ps.graph, ps.engine = "complete", alloc.EngineLevels
		} else {
			ps.graph = fmt.Sprintf("regular:degree=%d,implicit", d)
		}
		pt, err := r.run(ps)
		if err != nil {
			return nil, err
		}
		row := pt.Row
		var refv, upv, abv any
		if b, ok := boundNamed(row, "max load, worst case over Δ-regular graphs"); ok && b.Applies {
			refv = b.Value
			ref.Points = append(ref.Points, figure.Pt{X: float64(n), Y: b.Value})
		}
		if b, ok := boundNamed(row, "max load, Δ-regular, m = n"); ok && b.Applies {
			upv = b.Value
		}
		if b, ok := boundNamed(row, "max load, complete graph, m = n"); ok && b.Applies {
			abv = b.Value
		}
		ta.add(g.label, pow2(int64(n)), row.Degree.Max, ps.trials, row.MaxLoad.Mean, summaryCI(row.MaxLoad),
			countsString(row.MaxLoad.Counts), refv, math.Pow(math.Log2(float64(n)), 4), upv, abv)
		s.Points = append(s.Points, ciPt(float64(n), row.MaxLoad))
		mean[i] = row.MaxLoad.Mean
	}
	return mean, nil
}

// scaleDifferences is part (b): the difference from K_n, kn being K_n's
// mean max load at each n: from which n on does each degree raise the max
// load?
func scaleDifferences(ns []int, graphs []scaleGraph, mean [][]float64, kn []float64) *Table {
	cols := []string{"n", ""}
	for _, g := range graphs[:len(graphs)-1] {
		cols = append(cols, g.label, "%+.2f")
	}
	cols = append(cols, "complete", "%.2f")
	tb := newTable("difference", "(b) mean max load minus that of K_n at the same n (the last column: K_n's own)", cols...)
	for i, n := range ns {
		vals := []any{pow2(int64(n))}
		for gi := range graphs[:len(graphs)-1] {
			vals = append(vals, mean[gi][i]-kn[i])
		}
		tb.add(append(vals, kn[i])...)
	}
	tb.Notes = []string{"'-' where a graph did not run (Δ >= n)."}
	return tb
}

// scaleFinding says from which n on a graph's mean max load (mean, at each
// of ns) stays at least half a ball above K_n's (kn) at every larger n it
// ran; false if it ran at no n.
func scaleFinding(ns []int, label string, mean, kn []float64) (string, bool) {
	from := -1
	for i := len(ns) - 1; i >= 0; i-- {
		dv := mean[i] - kn[i]
		if math.IsNaN(dv) {
			continue
		}
		if dv < 0.5 {
			break
		}
		from = i
	}
	last := -1
	for i := range ns {
		if !math.IsNaN(mean[i] - kn[i]) {
			last = i
		}
	}
	if last < 0 {
		return "", false
	}
	at := fmt.Sprintf("%+.2f at n = %s", mean[last]-kn[last], pow2(int64(ns[last])))
	if from < 0 {
		return fmt.Sprintf("%s: within half a ball of K_n at the largest n it ran (%s)", label, at), true
	}
	return fmt.Sprintf("%s: at least half a ball above K_n from n = %s on (%s)", label, pow2(int64(ns[from])), at), true
}
