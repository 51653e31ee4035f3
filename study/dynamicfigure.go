package study

import (
	"fmt"
	"math"
	"slices"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// DynamicFigure is the figure of the trials res of a run with deletions on
// n bins (run --delete --plot, and plot on its file), what naming the run:
//
//   - the fraction of bins holding at least i balls after the last step,
//     the mean over the trials with its 95% interval (levelCI's, exact on
//     the bin counts), on a log scale;
//   - if the run recorded a series (--every), the max load, the
//     discrepancy x_max − m(t)/n and the overload x_max − max_{s≤t} m(s)/n
//     against t/n, the mean with its 95% interval over the trials.
//
// No prediction is drawn: the bounds of a run with deletions are of the
// max load alone, and the table prints them in their regimes.
func DynamicFigure(what string, n int64, res []alloc.DynamicResult) *figure.Figure {
	f := &figure.Figure{}
	trials := analysis.Count(len(res), "trial")
	levels := 0
	tails := make([][]float64, len(res))
	for _, r := range res {
		levels = max(levels, len(r.LoadCounts)-1)
	}
	for j, r := range res {
		tails[j] = tailsOf(r.LoadCounts, int(n), levels)
	}
	pt := f.Add(&figure.Panel{Title: fmt.Sprintf("fraction of bins at load ≥ i after the last step (mean over %s, 95%% CI): %s", trials, what),
		XLabel: "load i", XInt: true, YLabel: "fraction of bins", YScale: figure.ScaleLog10})
	s := pt.Add(&figure.Series{Name: "measured", Style: figure.StylePoints})
	// An interval that reaches 0 is drawn down to half a bin in all the
	// trials, the resolution of the mean, which a log scale can show.
	floor := 0.5 / float64(n) / float64(max(len(res), 1))
	// From the highest level every bin reached in every trial (under heavy
	// load the tails are 1 up to near m/n), as RunFigure draws them.
	from := 1
	for from < levels && slices.IndexFunc(tails, func(t []float64) bool { return t[from+1] < 1 }) < 0 {
		from++
	}
	for i := from; i <= levels; i++ {
		m, ci := levelCI(tails, i, int(n))
		if m <= 0 {
			continue
		}
		p := figure.Pt{X: float64(i), Y: m}
		if iv, ok := ci.(methodCI); ok {
			p.Lo, p.Hi = max(iv.iv[0], floor), iv.iv[1]
		}
		s.Points = append(s.Points, p)
	}
	if len(res) == 0 || len(res[0].Series) == 0 {
		return f
	}
	ps := f.Add(&figure.Panel{Title: fmt.Sprintf("max load, discrepancy x_max − m(t)/n and overload x_max − max_{s≤t} m(s)/n (mean over %s, 95%% CI)", trials),
		XLabel: "steps t/n", YLabel: "load"})
	seriesCI(ps, res, 0, "max load", n, 0, func(pt alloc.DynPoint) float64 { return float64(pt.MaxLoad) })
	seriesCI(ps, res, 1, "discrepancy", n, 0, func(pt alloc.DynPoint) float64 { return pt.Discrepancy })
	seriesCI(ps, res, 2, "overload", n, math.Inf(-1), func(pt alloc.DynPoint) float64 { return pt.Overload })
	return f
}
