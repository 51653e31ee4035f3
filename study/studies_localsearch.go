package study

import (
	"context"
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
)

// ---------------------------------------------------------------------
// 11. local-search

// localSearchStudy reads Params: Ns (sizes; at least 3), Trials.
var localSearchStudy = &Study{
	Name:   alloc.LocalSearch{}.Name(), // the study of the process of that name
	Number: 11,
	Title:  "balls into bins via local search: max load on cycles, tori, hypercubes and random regular graphs (BSSS13)",
	Question: "A ball starts at a uniform vertex and walks to a neighbour of least load while one is strictly lighter. " +
		"At m = n, how does its max load compare with two-choice on the same graph, on the cycle, the 2-d and 3-d tori, " +
		"the hypercube and random regular graphs? [BSSS13] prove Θ((log n / log log n)^{1/(k+1)}) on the k-dimensional " +
		"torus and Θ(log log n) on expanders of constant degree: fit the max load on the tori against " +
		"(log n / log log n)^{1/(k+1)}, with the interval of the slope, and count the moves a ball makes.",
	Sources: []string{"[BSSS13] Bogdan, Sauerwald, Stauffer, Sun 2013"},
	Default: Params{Ns: powers(1<<10, 1<<18, 4), Trials: 10},
	Full:    Params{Ns: powers(1<<10, 1<<22, 4), Trials: 40},
	Tiny:    Params{Ns: powers(1<<6, 1<<8, 2), Trials: 2},
	uses:    []string{"Ns", "Trials"},
	run:     runLocalSearch,
}

// localSearchTopologies are the graphs of the local-search study; dims
// gives the dimension k of a torus (the cycle is the 1-d torus), 0 for
// the others.
var localSearchTopologies = []struct {
	spec string
	dim  int
}{
	{"cycle", 1}, {"torus:dim=2", 2}, {"torus:dim=3", 3}, {"hypercube", 0}, {"regular:degree=4", 0}, {"regular:degree=16", 0},
}

func runLocalSearch(_ context.Context, r *runner, p Params) (*Report, error) {
	r.plan(2 * len(localSearchTopologies) * len(p.Ns))
	fig := &figure.Figure{}
	ta := newTable("max_load", "(a) max load at m = n: local search against two-choice on the same graph (mean over the trials, 95% CI); moves a ball makes, mean and most",
		"topology", "", "n", "", "Δ", "", "local search", "%.2f", "95% CI", "%.2f", "distribution", "",
		"two-choice", "%.2f", "95% CI ", "%.2f", "moves/ball", "%.3f", "most moves", "")
	tf := newTable("fit", "(b) max load of local search on the k-dimensional torus against x = (ln n / ln ln n)^{1/(k+1)}: least squares, 95% CI from Student's t on k − 2 df",
		"topology", "", "k", "", "sizes", "", "slope", "%.3f", "95% CI", "%.3f", "intercept", "%.3f", "R²", "%.3f")
	pa := fig.Add(&figure.Panel{Title: "(a) max load at m = n against n (mean, 95% CI); solid: local search; dashed: two-choice",
		XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2})
	pb := fig.Add(&figure.Panel{Title: "(b) local search on tori: max load against (ln n / ln ln n)^{1/(k+1)}; dashed: least-squares line",
		XLabel: "(ln n / ln ln n)^{1/(k+1)}", YLabel: "max load"})
	var findings []string
	for ci, top := range localSearchTopologies {
		ls := pa.Add(&figure.Series{Name: top.spec, Color: ci, Shape: ci, Style: figure.StylePoints})
		tc := pa.Add(&figure.Series{Color: ci, Style: figure.StyleDashed})
		var xs, ys []float64
		var lastLS, lastTC float64
		var lastN int64
		for _, n := range p.Ns {
			if top.spec == "hypercube" && n&(n-1) != 0 {
				continue
			}
			pl, err := r.run(pointSpec{process: alloc.LocalSearch{}.Name(), graph: top.spec, n: n, load: 1, trials: p.Trials})
			if err != nil {
				return nil, err
			}
			pg, err := r.run(pointSpec{process: nameGraph, params: alloc.Params{D: 2}, graph: top.spec, n: n, load: 1, trials: p.Trials})
			if err != nil {
				return nil, err
			}
			row, two := pl.Row, pg.Row
			var moves, most int64
			for _, res := range pl.Results {
				moves += res.Moves
				most = max(most, res.MaxMoves)
			}
			perBall := float64(moves) / float64(row.M*int64(len(pl.Results)))
			ta.add(top.spec, row.N, row.Degree.Max, row.MaxLoad.Mean, summaryCI(row.MaxLoad), countsString(row.MaxLoad.Counts),
				two.MaxLoad.Mean, summaryCI(two.MaxLoad), perBall, most)
			ls.Points = append(ls.Points, ciPt(float64(row.N), row.MaxLoad))
			tc.Points = append(tc.Points, figure.Pt{X: float64(row.N), Y: two.MaxLoad.Mean})
			if top.dim > 0 {
				ln := math.Log(float64(row.N))
				xs = append(xs, math.Pow(ln/math.Log(ln), 1/float64(top.dim+1)))
				ys = append(ys, row.MaxLoad.Mean)
			}
			lastLS, lastTC, lastN = row.MaxLoad.Mean, two.MaxLoad.Mean, row.N
		}
		findings = append(findings, fmt.Sprintf("%s, n = %s: local search %.2f, two-choice %.2f", top.spec, pow2(lastN), lastLS, lastTC))
		if top.dim == 0 || len(xs) < 3 {
			continue
		}
		f, err := FitLine(xs, ys)
		if err != nil {
			return nil, err
		}
		tf.add(top.spec, top.dim, len(xs), f.Slope, f.CI95, f.Intercept, f.R2)
		s := pb.Add(&figure.Series{Name: fmt.Sprintf("%s (k = %d)", top.spec, top.dim), Color: ci, Shape: ci, Style: figure.StylePoints})
		for i := range xs {
			s.Points = append(s.Points, figure.Pt{X: xs[i], Y: ys[i]})
		}
		line := pb.Add(&figure.Series{Color: ci, Style: figure.StyleDashed})
		for _, x := range []float64{xs[0], xs[len(xs)-1]} {
			line.Points = append(line.Points, figure.Pt{X: x, Y: f.Intercept + f.Slope*x})
		}
		findings = append(findings, fmt.Sprintf("%s: max load ≈ %.3f + %.3f·(ln n / ln ln n)^{1/%d}, slope 95%% CI [%.3f, %.3f] (%d sizes, %d df, R² %.3f)",
			top.spec, f.Intercept, f.Slope, top.dim+1, f.CI95[0], f.CI95[1], len(xs), f.DF, f.R2))
	}
	ta.Notes = []string{
		"Local search: the ball starts at a uniform vertex and moves to a least-loaded neighbour, uniform among those, while one is strictly lighter.",
		"Two-choice: a uniform edge, the lesser-loaded end. Tori have side ⌈n^{1/k}⌉, so n rounds up. moves/ball: total steps / m over the trials.",
	}
	tf.Notes = []string{"A slope whose interval excludes 0 says the max load grows with x; the max load is a small integer, so the points are coarse."}
	return &Report{Tables: []*Table{ta, tf}, Findings: findings, Figure: fig}, nil
}
