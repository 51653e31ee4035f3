package study

import (
	"context"
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
)

// ---------------------------------------------------------------------
// 10. batches

// batchesStudy reads Params: N (n), Load (m/n), Trials.
var batchesStudy = &Study{
	Name:   "batches",
	Number: 10,
	Title:  "the batched setting: the gap of Greedy[2] against the batch size b (Berenbrink et al.; Los–Sauerwald)",
	Question: "Balls come in batches of b, and each ball decides with the loads at the start of its batch. How does the gap " +
		"of Greedy[2] grow as b goes from 1 to 10^5, against one-choice and against the bounds for batches: O(log n) and " +
		"Θ(log n / log log n) at b = n [BCEFN12; LS22a], O(b/n + log n) for b in [n, n³] [LS22b] and Θ(b/n) for " +
		"b ≥ n log n [LS23]?",
	Sources: []string{"[BCEFN12] Berenbrink, Czumaj, Englert, Friedetzky, Nagel 2012", "[LS22a] Los, Sauerwald 2022 (noise)",
		"[LS22b] Los, Sauerwald 2022 (batches)", "[LS23] Los, Sauerwald 2023"},
	Default: Params{N: 1000, Load: 1000, Trials: 5},
	Full:    Params{N: 10_000, Load: 1000, Trials: 20},
	Tiny:    Params{N: 100, Load: 100, Trials: 2},
	uses:    []string{"N", "Load", "Trials"},
	run:     runBatches,
}

// batchSizes returns 1, 2, 5, 10, 20, 50, … up to min(10^5, m), keeping
// those that divide m (a bound is about the end of a batch).
func batchSizes(m int64) []int64 {
	var bs []int64
	for dec := int64(1); dec <= 100_000; dec *= 10 {
		for _, f := range []int64{1, 2, 5} {
			if b := f * dec; b <= min(100_000, m) && m%b == 0 {
				bs = append(bs, b)
			}
		}
	}
	return bs
}

func runBatches(_ context.Context, r *runner, p Params) (*Report, error) {
	n := p.N
	m := p.Load * int64(n)
	bs := batchSizes(m)
	procs := []proc{mkProc(nameOneChoice, 1), mkProc(nameGreedy, 2)}
	r.plan(len(bs) * len(procs))
	fig := &figure.Figure{}
	t := newTable("batches", fmt.Sprintf("mean gap (max load − m/n) at n = %d, m = %dn, balls in batches of b (95%% CI), against the explicit terms of the bounds for batches of Greedy[2]", n, p.Load),
		"b", "", "b/n", "%.3g", nameOneChoice, "%.2f", "95% CI", "%.2f", "Greedy[2]", "%.2f", "95% CI ", "%.2f",
		"b = n: log2 n", "%.2f", "b = n: ln n/ln ln n", "%.2f", "b/n + ln n", "%.2f", "b/n", "%.2f")
	pa := fig.Add(&figure.Panel{Title: fmt.Sprintf("gap against the batch size b, n = %d, m = %dn (mean, 95%% CI); dashed: b/n + ln n; dotted: b/n", n, p.Load),
		XLabel: "b", YLabel: "gap", XScale: figure.ScaleLog, YScale: figure.ScaleLog})
	series := []*figure.Series{
		pa.Add(&figure.Series{Name: procs[0].label, Color: 1, Shape: 1, Style: figure.StylePoints}),
		pa.Add(&figure.Series{Name: procs[1].label, Color: 0, Shape: 0, Style: figure.StylePoints}),
	}
	mid := pa.Add(&figure.Series{Name: "b/n + ln n [LS22b]", Color: -1, Style: figure.StyleDashed})
	big := pa.Add(&figure.Series{Name: "b/n [LS23]", Color: -1, Style: figure.StyleDotted})
	var gaps [2][]float64
	for _, b := range bs {
		var rows [2]Row
		for k, pr := range procs {
			pt, err := r.run(pointSpec{process: pr.name, params: alloc.Params{D: float64(pr.d)}, n: n, m: m, trials: p.Trials, batch: b})
			if err != nil {
				return nil, err
			}
			rows[k] = pt.Row
			gaps[k] = append(gaps[k], pt.Row.Gap.Mean)
			series[k].Points = append(series[k].Points, ciPt(float64(b), pt.Row.Gap))
		}
		var vals [4]any
		for i, name := range []string{"gap, batches of b = n [BCEFN12]", "gap, batches of b = n [LS22a]",
			"gap, batches of b in [n, n³] [LS22b]", "gap, batches of b >= n log n [LS23]"} {
			if bd, ok := boundNamed(rows[1], name); ok && bd.Applies {
				vals[i] = bd.Value
				switch i {
				case 2:
					mid.Points = append(mid.Points, figure.Pt{X: float64(b), Y: bd.Value})
				case 3:
					big.Points = append(big.Points, figure.Pt{X: float64(b), Y: bd.Value})
				}
			}
		}
		t.add(b, float64(b)/float64(n), rows[0].Gap.Mean, summaryCI(rows[0].Gap), rows[1].Gap.Mean, summaryCI(rows[1].Gap),
			vals[0], vals[1], vals[2], vals[3])
	}
	t.Notes = []string{
		"The bounds are about Greedy[2] at the end of a batch (m is a whole number of batches at every b here), with their constants unknown:",
		"O(log n) [BCEFN12] and Θ(log n / log log n) [LS22a] at b = n; O(b/n + log n) for b in [n, n³] [LS22b]; Θ(b/n) for b ≥ n ln n [LS23].",
		"'-' where a bound does not apply. b = 1 is the sequential process. One-choice ignores the loads: batches do not change its law.",
	}
	last := len(bs) - 1
	ratio := gaps[1][last] / gaps[0][last]
	findings := []string{
		fmt.Sprintf("Greedy[2]: gap %.2f at b = 1 and %.2f at b = %d; one-choice: %.2f and %.2f", gaps[1][0], gaps[1][last], bs[last], gaps[0][0], gaps[0][last]),
		fmt.Sprintf("at b = %d Greedy[2]'s gap is %.2f of one-choice's", bs[last], ratio),
	}
	for i, b := range bs {
		if b == int64(n) {
			findings = append(findings, fmt.Sprintf("at b = n = %d Greedy[2]'s gap is %.2f (ln n / ln ln n = %.2f)", n, gaps[1][i],
				math.Log(float64(n))/math.Log(math.Log(float64(n)))))
		}
	}
	return &Report{Tables: []*Table{t}, Findings: findings, Figure: fig}, nil
}
