package queue

import (
	"math"

	"github.com/graphalloc/graphalloc/analysis"
)

// Estimate is a steady-state mean with its 95% confidence interval, and
// the Student-t standard error and degrees of freedom behind it (the
// interval is Mean ± t_{DF, 0.975}·StdErr, clipped at 0).
type Estimate struct {
	Mean   float64    `json:"mean"`
	CI95   [2]float64 `json:"ci95"`
	StdErr float64    `json:"stderr"`
	DF     int        `json:"df"`
}

// Trial is what one run measures over its window [Warmup, Time].
type Trial struct {
	Trial int `json:"trial"`
	// Events counts the events of the uniformised clock, idle completions
	// included (see servers.go).
	Events int64 `json:"events"`
	// Warmup is the time discarded, a whole number of batches, and
	// WarmupRule how it was chosen: "given", "mser", or "mser-edge" when
	// MSER's minimum fell at the edge of its search (half the run): the
	// run is then too short to be sure it reached its steady state.
	Warmup     float64 `json:"warmup"`
	WarmupRule string  `json:"warmup_rule"`
	// Tails[i-1] is s_i, the time-averaged fraction of queues of length
	// ≥ i, with batch-means 95% intervals (analysis.BatchMeans: up to 20
	// groups of the window's batches, fewer when the series is
	// correlated over longer times).
	Tails []Estimate `json:"tails"`
	// MeanQueue is the time-averaged number of jobs per server, Σ s_i;
	// MeanSojourn = MeanQueue/λ the mean time a job spends in the system
	// (Little's law), interval scaled alike.
	MeanQueue   Estimate `json:"mean_queue"`
	MeanSojourn Estimate `json:"mean_sojourn"`
	// MaxQueue is the longest queue over the window.
	MaxQueue int     `json:"max_queue"`
	Series   []Point `json:"series,omitempty"`
}

// Groups is the most groups batch-means intervals are made of.
const Groups = 20

// measure turns a finished window into a Trial: the warm-up cut (given,
// or MSER on the batches' mean queue), then the window's estimates.
func measure(c *Config, w *window) Trial {
	B := len(w.rows)
	mean := make([]float64, B)
	for b, row := range w.rows {
		for _, v := range row {
			mean[b] += v
		}
	}
	var cut int
	rule := "given"
	if c.Warmup < 0 {
		var ok bool
		cut, ok = analysis.MSER(mean)
		rule = "mser"
		if !ok {
			rule = "mser-edge"
		}
	} else {
		cut = min(int(math.Ceil(c.Warmup/w.length-1e-9)), B-1)
	}
	rows := w.rows[cut:]
	tr := Trial{Warmup: float64(cut) * w.length, WarmupRule: rule}
	levels := 0
	for _, row := range rows {
		levels = max(levels, len(row))
	}
	y := make([]float64, len(rows))
	for i := range levels {
		for b, row := range rows {
			y[b] = 0
			if i < len(row) {
				y[b] = row[i]
			}
		}
		tr.Tails = append(tr.Tails, estimate(y, 1))
	}
	tr.MeanQueue = estimate(mean[cut:], 1)
	tr.MeanSojourn = estimate(mean[cut:], 1/c.Lambda)
	for _, m := range w.maxes[cut:] {
		tr.MaxQueue = max(tr.MaxQueue, m)
	}
	tr.Series = w.series
	return tr
}

// estimate is the batch-means estimate of the series y of non-negative
// values, scaled by k: its interval stops at 0.
func estimate(y []float64, k float64) Estimate {
	m, h, g := analysis.BatchMeans(y, Groups, 0.05)
	e := Estimate{Mean: k * m, CI95: [2]float64{k * max(m-h, 0), k * (m + h)}, DF: g - 1}
	if g >= 2 {
		e.StdErr = k * h / analysis.StudentQuantile(0.975, g-1)
	}
	return e
}

// FixedPoint returns the stationary tails of the supermarket model with
// uniform d-sampling as n → ∞ [Mit96, VDK96],
//
//	s_i = λ^{(d^i − 1)/(d − 1)}  (d ≥ 2),  s_i = λ^i  (d = 1: M/M/1),
//
// s_0 = 1, up to the last level with s_i ≥ eps.
func FixedPoint(lambda float64, d int, eps float64) []float64 {
	s := []float64{1}
	e := 0.0 // the exponent (d^i − 1)/(d − 1), by e ← d·e + 1
	ln := math.Log(lambda)
	for {
		e = float64(d)*e + 1
		v := math.Exp(e * ln)
		if v < eps || len(s) > 1<<16 {
			return s
		}
		s = append(s, v)
	}
}

// MeanOf is Σ_{i≥1} s_i, the mean queue length of tails s (s_0 first).
func MeanOf(s []float64) float64 {
	var m float64
	for _, v := range s[1:] {
		m += v
	}
	return m
}
