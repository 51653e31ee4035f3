package queue

import (
	"math"

	"github.com/graphalloc/graphalloc/analysis"
)

// Summary gathers the trials of a run: each estimate across trials (the
// Student-t interval of the trials' means, never below 0) when there are
// two or more, else the one trial's batch-means interval, as Interval
// says.
type Summary struct {
	Interval    string     `json:"interval"`
	Tails       []Estimate `json:"tails"`
	MeanQueue   Estimate   `json:"mean_queue"`
	MeanSojourn Estimate   `json:"mean_sojourn"`
	// MaxQueue is the longest queue over each trial's window: min, mean
	// and max over the trials.
	MaxQueue [3]float64 `json:"max_queue"`
	// Warmup is the warm-up of each trial, in time units, and WarmupRule
	// the rule: "given" or "mser" as every trial chose it, "mser-edge" if
	// MSER's cut landed at the edge in any trial (see Trial).
	Warmup     []float64 `json:"warmup"`
	WarmupRule string    `json:"warmup_rule"`
}

// The intervals of a Summary.
const (
	IntervalAcross     = "95% Student t across trials"
	IntervalBatchMeans = "95% batch means within the trial"
	IntervalNone       = "no trial finished"
)

// Summarize summarises trials.
func Summarize(trials []Trial) Summary {
	s := Summary{Interval: IntervalNone}
	if len(trials) == 0 {
		return s
	}
	s.WarmupRule = trials[0].WarmupRule
	for _, t := range trials {
		if t.WarmupRule == "mser-edge" {
			s.WarmupRule = t.WarmupRule // one trial without a steady state is said
		}
	}
	s.MaxQueue = [3]float64{math.Inf(1), 0, 0}
	for _, t := range trials {
		s.Warmup = append(s.Warmup, t.Warmup)
		m := float64(t.MaxQueue)
		s.MaxQueue = [3]float64{min(s.MaxQueue[0], m), s.MaxQueue[1] + m/float64(len(trials)), max(s.MaxQueue[2], m)}
	}
	if len(trials) == 1 {
		t := trials[0]
		s.Interval, s.Tails, s.MeanQueue, s.MeanSojourn = IntervalBatchMeans, t.Tails, t.MeanQueue, t.MeanSojourn
		return s
	}
	s.Interval = IntervalAcross
	across := func(get func(Trial) float64) Estimate {
		x := make([]float64, len(trials))
		for i, t := range trials {
			x[i] = get(t)
		}
		sum := analysis.SummarizeAtLeast(x, 0) // fractions and lengths
		return Estimate{Mean: sum.Mean, CI95: sum.CI95, StdErr: sum.Std / math.Sqrt(float64(len(x))), DF: len(x) - 1}
	}
	levels := 0
	for _, t := range trials {
		levels = max(levels, len(t.Tails))
	}
	for i := range levels {
		s.Tails = append(s.Tails, across(func(t Trial) float64 {
			if i < len(t.Tails) {
				return t.Tails[i].Mean
			}
			return 0
		}))
	}
	s.MeanQueue = across(func(t Trial) float64 { return t.MeanQueue.Mean })
	s.MeanSojourn = across(func(t Trial) float64 { return t.MeanSojourn.Mean })
	return s
}

// Tail is s_i of the summary (i ≥ 1), 0 beyond the levels measured.
func (s Summary) Tail(i int) Estimate {
	if i-1 < len(s.Tails) {
		return s.Tails[i-1]
	}
	return Estimate{}
}
