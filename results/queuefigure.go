package results

import (
	"fmt"
	"slices"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/queue"
)

// QueueFigure is the figure of a queue run's file (queue --plot, plot):
//
//   - the tails s_i against i (log scale): the summary's means with their
//     95% intervals, beside each prediction that applies, named with its
//     kind and regime (the others are not drawn, as the table lists them
//     apart);
//   - if the run recorded a series (--every), the mean queue against the
//     time, the mean over the trials with its 95% Student t interval
//     across them, beside the mean-field ODE from empty where the summary
//     has it.
func QueueFigure(f *QueueFile) (*figure.Figure, error) {
	if len(f.Trials) == 0 || len(f.Summary.Tails) == 0 {
		return nil, fmt.Errorf("results: a queue figure needs a finished trial")
	}
	fig := &figure.Figure{}
	fig.Add(queueTailsPanel(f))
	if p := queueSeriesPanel(f); p != nil {
		fig.Add(p)
	}
	return fig, nil
}

// queueTailsPanel is s_i against i, measured and predicted.
func queueTailsPanel(f *QueueFile) *figure.Panel {
	s := f.Summary
	p := &figure.Panel{Title: fmt.Sprintf("time-averaged fraction of queues holding ≥ i jobs over the window after the warm-up: %s", QueueTitle(f.Config)),
		XLabel: "queue length i", YLabel: "s_i", YScale: figure.ScaleLog10, XInt: true}
	meas := p.Add(&figure.Series{Name: "measured (mean, " + s.Interval + ")", Style: figure.StylePoints})
	ymin := 1.0
	for i, e := range s.Tails {
		if e.Mean > 0 {
			meas.Points = append(meas.Points, figure.Pt{X: float64(i + 1), Y: e.Mean, Lo: e.CI95[0], Hi: e.CI95[1]})
			ymin = min(ymin, e.Mean)
		}
	}
	floor := ymin / 10
	color := 0
	for _, pr := range s.Predictions {
		if !pr.Applies {
			continue
		}
		color++
		ps := p.Add(&figure.Series{Name: fmt.Sprintf("%s [%s, %s]: %s", pr.Name, pr.Kind, pr.Source, pr.Regime), Color: color, Style: figure.StyleDashed})
		for i := 1; i < len(pr.Tails) && pr.Tails[i] >= floor; i++ {
			ps.Points = append(ps.Points, figure.Pt{X: float64(i), Y: pr.Tails[i]})
		}
	}
	return p
}

// queueSeriesPanel is the mean queue against the time, over the trials,
// beside the ODE; nil without a series.
func queueSeriesPanel(f *QueueFile) *figure.Panel {
	width := len(f.Trials[0].Series)
	for _, t := range f.Trials {
		width = min(width, len(t.Series)) // every trial records at the same times
	}
	if width == 0 {
		return nil
	}
	meas := &figure.Series{Style: figure.StyleLine}
	exact := false // some point's interval is exact (SummarizeAtLeast's lattice case)
	for k := range width {
		x := make([]float64, len(f.Trials))
		for i, t := range f.Trials {
			x[i] = t.Series[k].Mean
		}
		sum := analysis.SummarizeAtLeast(x, 0)
		exact = exact || sum.IntervalMethod == analysis.IntervalBinomialTails
		meas.Points = append(meas.Points, seriesPt(f.Trials[0].Series[k].T, sum.Mean, sum.CI95, len(x)))
	}
	what := "mean over " + analysis.Count(len(f.Trials), "trial") + ", 95% Student t across them"
	switch {
	case len(f.Trials) == 1:
		what = "one trial: no interval"
	case exact:
		what = "mean over " + analysis.Count(len(f.Trials), "trial") + ", 95% CI across them: exact from binomial tails where their values are one apart, else Student t"
	}
	meas.Name = "measured (" + what + ")"
	p := &figure.Panel{Title: fmt.Sprintf("mean queue (jobs per server) at time t, recorded every %g time units, start %s", f.Config.Every, f.Config.Start),
		XLabel: "time t (mean service times)", YLabel: "mean queue", Series: []*figure.Series{meas}}
	if ode := f.Summary.ODE; len(ode) > 0 {
		s := p.Add(&figure.Series{Name: fmt.Sprintf("mean-field ODE from empty queues [limit, %s]: n → ∞, uniform d-sampling or K_n", queue.SourceFixed), Color: 1, Style: figure.StyleDashed})
		for _, o := range ode {
			s.Points = append(s.Points, figure.Pt{X: o.T, Y: o.Mean})
		}
	}
	return p
}

// readQueueFigure is the figure of b, the file of a queue run
// (ReadFigure): with its summary, or, for a file cut short, the summary
// rebuilt from its config (SummaryOf).
func readQueueFigure(name string, b []byte) (*figure.Figure, error) {
	p, err := ParseQueue(name, b)
	if err != nil {
		return nil, err
	}
	f := &p.File
	if len(f.Trials) == 0 {
		return nil, fmt.Errorf("%s: the queue run holds no finished trial to draw", name)
	}
	if !p.Complete {
		slices.SortFunc(f.Trials, func(a, b queue.Trial) int { return a.Trial - b.Trial })
		if f.Summary, err = f.Config.SummaryOf(f.Trials); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	if len(f.Summary.Tails) == 0 {
		return nil, fmt.Errorf("%s: the summary holds no tails to draw", name)
	}
	return QueueFigure(f)
}
