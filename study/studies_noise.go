package study

import (
	"context"
	"fmt"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
)

// Studies of imperfect information: 9 noise (10 batches is in
// studies_batches.go).

// ---------------------------------------------------------------------
// 9. noise

// noiseStudy reads Params: Ns (sizes), Load (m/n), Trials.
var noiseStudy = &Study{
	Name:   "noise",
	Number: 9,
	Title:  "balanced allocations with the choice of noise: the gap against g and σ (Los–Sauerwald)",
	Question: "Two choices whose comparison is corrupted: g-bounded (an adversary decides every comparison within g), " +
		"g-myopic (a coin decides it) and noisy (each load read with Gaussian noise of deviation σ). How does the mean gap " +
		"grow with g and σ under heavy load, against the O(g + log n) and Θ(g / log g · log log n) of [LS22]? " +
		"This is the noise figure of [LS22]: g-bounded lies above g-myopic, and both grow with g; noisy grows with σ.",
	Sources: []string{"[LS22] Los, Sauerwald 2022"},
	Default: Params{Ns: []int{1 << 12}, Load: 100, Trials: 10},
	Full:    Params{Ns: []int{10_000, 100_000}, Load: 1000, Trials: 10},
	Tiny:    Params{Ns: []int{1 << 8}, Load: 10, Trials: 2},
	uses:    []string{"Ns", "Load", "Trials"},
	run:     runNoise,
}

// The thresholds g and the noise levels σ of the noise study.
var (
	noiseGs     = []int{0, 1, 2, 3, 4, 6, 8, 12, 16}
	noiseSigmas = []float64{0, 0.5, 1, 2, 4, 8, 16}
)

func runNoise(_ context.Context, r *runner, p Params) (*Report, error) {
	r.plan(len(p.Ns) * (2*len(noiseGs) + len(noiseSigmas)))
	fig := &figure.Figure{}
	tg := newTable("g", fmt.Sprintf("(a) mean gap (max load − m/n) at m = %dn against g, with its 95%% CI, and the explicit terms of the [LS22] bounds", p.Load),
		"n", "", "g", "", alloc.GBounded{}.Name(), "%.2f", "95% CI", "%.2f", alloc.GMyopic{}.Name(), "%.2f", "95% CI ", "%.2f",
		"g + ln n", "%.2f", "g/ln g · ln ln n", "%.2f")
	ts := newTable("sigma", fmt.Sprintf("(b) mean gap at m = %dn against σ for noisy (each load read as load + N(0, σ²)), 95%% CI", p.Load),
		"n", "", "σ", "%.1f", alloc.Noisy{}.Name(), "%.2f", "95% CI", "%.2f")
	pg := fig.Add(&figure.Panel{Title: fmt.Sprintf("(a) gap at m = %dn against g (mean, 95%% CI); dashed: g + ln n", p.Load),
		XLabel: "g", XInt: true, YLabel: "gap"})
	ps := fig.Add(&figure.Panel{Title: fmt.Sprintf("(b) noisy: gap at m = %dn against σ (mean, 95%% CI)", p.Load),
		XLabel: "σ", YLabel: "gap"})
	var findings []string
	for ni, n := range p.Ns {
		gb := pg.Add(&figure.Series{Name: "g-bounded, n = " + pow2(int64(n)), Color: 2 * ni, Shape: 2 * ni, Style: figure.StylePoints})
		gm := pg.Add(&figure.Series{Name: "g-myopic, n = " + pow2(int64(n)), Color: 2*ni + 1, Shape: 2*ni + 1, Style: figure.StylePoints})
		up := pg.Add(&figure.Series{Color: 2 * ni, Style: figure.StyleDashed})
		above := 0
		var bFirst, bLast, mFirst, mLast float64
		for gi, g := range noiseGs {
			var rows [2]Row
			for k, name := range []string{alloc.GBounded{}.Name(), alloc.GMyopic{}.Name()} {
				pt, err := r.run(pointSpec{process: name, params: alloc.Params{Tolerance: g}, graph: "complete", n: n, load: p.Load, trials: p.Trials})
				if err != nil {
					return nil, err
				}
				rows[k] = pt.Row
			}
			var upv, tightv any
			if b, ok := boundNamed(rows[0], "gap, any m ≥ n [LS22]"); ok && b.Applies {
				upv = b.Value
				up.Points = append(up.Points, figure.Pt{X: float64(g), Y: b.Value})
			}
			if b, ok := boundNamed(rows[0], "gap, g ≤ log n, any m ≥ n [LS22]"); ok && b.Applies {
				tightv = b.Value
			}
			tg.add(pow2(int64(n)), g, rows[0].Gap.Mean, summaryCI(rows[0].Gap), rows[1].Gap.Mean, summaryCI(rows[1].Gap), upv, tightv)
			gb.Points = append(gb.Points, ciPt(float64(g), rows[0].Gap))
			gm.Points = append(gm.Points, ciPt(float64(g), rows[1].Gap))
			if g > 0 && rows[0].Gap.Mean > rows[1].Gap.Mean {
				above++
			}
			if gi == 0 {
				bFirst, mFirst = rows[0].Gap.Mean, rows[1].Gap.Mean
			}
			bLast, mLast = rows[0].Gap.Mean, rows[1].Gap.Mean
		}
		gTop := noiseGs[len(noiseGs)-1]
		findings = append(findings,
			fmt.Sprintf("n = %s: g-bounded's gap grows from %.2f at g = 0 to %.2f at g = %d, g-myopic's from %.2f to %.2f; g-bounded is above g-myopic at %d of the %d values g > 0",
				pow2(int64(n)), bFirst, bLast, gTop, mFirst, mLast, above, len(noiseGs)-1))
		sn := ps.Add(&figure.Series{Name: "noisy, n = " + pow2(int64(n)), Color: 2 * ni, Shape: 2 * ni, Style: figure.StylePoints})
		var sFirst, sLast float64
		for si, sigma := range noiseSigmas {
			pt, err := r.run(pointSpec{process: alloc.Noisy{}.Name(), params: alloc.Params{Sigma: sigma}, graph: "complete", n: n, load: p.Load, trials: p.Trials})
			if err != nil {
				return nil, err
			}
			row := pt.Row
			ts.add(pow2(int64(n)), sigma, row.Gap.Mean, summaryCI(row.Gap))
			sn.Points = append(sn.Points, ciPt(sigma, row.Gap))
			if si == 0 {
				sFirst = row.Gap.Mean
			}
			sLast = row.Gap.Mean
		}
		findings = append(findings, fmt.Sprintf("n = %s: noisy's gap grows from %.2f at σ = 0 to %.2f at σ = %g",
			pow2(int64(n)), sFirst, sLast, noiseSigmas[len(noiseSigmas)-1]))
	}
	tg.Notes = []string{
		"g + ln n: the explicit term of O(g + log n) [LS22], every m ≥ n; g/ln g · ln ln n: of Θ(g / log g · log log n), for 1 ≤ g ≤ ln n",
		"(log g read as max(1, ln g)); '-' where the bound does not apply. Both are orders: their constants are unknown.",
		"g = 0 is two-choice for both rules.",
	}
	ts.Notes = []string{"σ = 0 is two-choice; graphalloc states no bound of [LS22] for σ > 0."}
	return &Report{Tables: []*Table{tg, ts}, Findings: findings, Figure: fig}, nil
}
