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

func runDegreeScale(_ context.Context, r *runner, p Params) (*Report, error) {
	n0 := p.Ns[0]
	type graphRun struct {
		label  string
		degree func(n int) int // 0 for the complete graph
	}
	var graphs []graphRun
	for _, d := range scaleDegrees {
		graphs = append(graphs, graphRun{label: "Δ = " + strconv.Itoa(d), degree: func(int) int { return d }})
	}
	graphs = append(graphs, graphRun{label: "Δ = ⌈√n⌉", degree: sqrtDegree}, graphRun{label: "complete", degree: func(int) int { return 0 }})
	// feasible reports whether the implicit Δ-regular graph exists on n
	// vertices (2 <= Δ < n <= graphgen.MaxImplicitOrder).
	feasible := func(d, n int) bool { return d == 0 || d < n && n <= graphgen.MaxImplicitOrder }
	for _, n := range p.Ns {
		for _, g := range graphs {
			if feasible(g.degree(n), n) {
				r.plan(1)
			}
		}
	}

	ta := newTable("scale", "(a) two-choice at m = n on implicit random Δ-regular multigraphs and on K_n: max load (mean over the trials, 95% CI) against the [KP06] explicit terms",
		"topology", "", "n", "", "Δ", "", "trials", "", "max load", "%.2f", "95% CI", "%.2f", "distribution", "",
		"KP worst case (ref)", "%.2f", "log⁴ n", "%.3g", "KP Δ-regular upper", "%.2f", "ABKU complete", "%.2f")
	fig := &figure.Figure{}
	pa := fig.Add(&figure.Panel{Title: "mean max load against n, m = n; dotted: [KP06] worst case over Δ-regular graphs",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2, LegendRight: true})
	// mean[g][i] is the mean max load of graph g at Ns[i], NaN where it
	// did not run.
	mean := make([][]float64, len(graphs))
	for gi, g := range graphs {
		color := gi
		if g.label == "complete" {
			color = -1
		}
		s := pa.Add(&figure.Series{Name: g.label, Color: color, Shape: gi, Style: figure.StylePoints})
		ref := pa.Add(&figure.Series{Color: color, Style: figure.StyleDotted})
		mean[gi] = make([]float64, len(p.Ns))
		for i, n := range p.Ns {
			mean[gi][i] = math.NaN()
			d := g.degree(n)
			if !feasible(d, n) {
				continue
			}
			ps := pointSpec{process: nameGraph, params: alloc.Params{D: 2}, n: n, load: 1, trials: scaleTrials(p.Trials, n0, n)}
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
			mean[gi][i] = row.MaxLoad.Mean
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

	// (b) the difference from K_n: from which n on does each degree
	// raise the max load?
	cols := []string{"n", ""}
	for _, g := range graphs[:len(graphs)-1] {
		cols = append(cols, g.label, "%+.2f")
	}
	cols = append(cols, "complete", "%.2f")
	tb := newTable("difference", "(b) mean max load minus that of K_n at the same n (the last column: K_n's own)", cols...)
	kn := mean[len(graphs)-1]
	for i, n := range p.Ns {
		vals := []any{pow2(int64(n))}
		for gi := range graphs[:len(graphs)-1] {
			vals = append(vals, mean[gi][i]-kn[i])
		}
		tb.add(append(vals, kn[i])...)
	}
	tb.Notes = []string{"'-' where a graph did not run (Δ >= n)."}

	// Findings: for each degree, the first n from which its mean max
	// load stays at least half a ball above K_n's at every larger n it
	// ran.
	var findings []string
	for gi, g := range graphs[:len(graphs)-1] {
		from := -1
		for i := len(p.Ns) - 1; i >= 0; i-- {
			dv := mean[gi][i] - kn[i]
			if math.IsNaN(dv) {
				continue
			}
			if dv < 0.5 {
				break
			}
			from = i
		}
		last := -1
		for i := range p.Ns {
			if !math.IsNaN(mean[gi][i] - kn[i]) {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		at := fmt.Sprintf("%+.2f at n = %s", mean[gi][last]-kn[last], pow2(int64(p.Ns[last])))
		if from < 0 {
			findings = append(findings, fmt.Sprintf("%s: within half a ball of K_n at the largest n it ran (%s)", g.label, at))
		} else {
			findings = append(findings, fmt.Sprintf("%s: at least half a ball above K_n from n = %s on (%s)", g.label, pow2(int64(p.Ns[from])), at))
		}
	}
	return &Report{Tables: []*Table{ta, tb}, Findings: findings, Figure: fig}, nil
}
