package queue

import (
	"context"
	"math"

	"github.com/graphalloc/graphalloc/alloc"
)

// Run runs the trials of c (trial i depends on (c.Seed, i) alone) on
// workers goroutines (0: one per CPU) and calls emit with each, in the
// order of trials whatever the worker count. It stops at the first error,
// from a trial or from emit, or when ctx is done (ctx.Err()).
func Run(ctx context.Context, c Config, trials []int, workers int, emit func(Trial) error) error {
	if err := c.Check(); err != nil {
		return err
	}
	t, err := layout(&c)
	if err != nil {
		return err
	}
	return alloc.RunTrials(ctx, trials, workers, func() func(context.Context, int) (Trial, error) {
		return func(ctx context.Context, i int) (Trial, error) { return c.trial(ctx, &t, i) }
	}, emit)
}

// Trial runs trial i of c alone.
func (c Config) Trial(ctx context.Context, i int) (Trial, error) {
	if err := c.Check(); err != nil {
		return Trial{}, err
	}
	t, err := layout(&c)
	if err != nil {
		return Trial{}, err
	}
	return c.trial(ctx, &t, i)
}

// trial runs trial i on the laid-out topology t.
func (c *Config) trial(ctx context.Context, t *topology, i int) (Trial, error) {
	r := alloc.TrialRand(c.Seed, i)
	w := newWindow(c.N, c.Time, c.batches(), c.Every)
	var events int64
	var err error
	if c.engine() == EngineLevels {
		if c.Start == StartFixed {
			startLevels(c, w)
		}
		events, err = levels(ctx, c, t, w, r)
	} else {
		Q := make([]uint32, c.N)
		if c.Start == StartFixed {
			startServers(c, Q, w, r)
		}
		if piped(t, c.N) {
			events, err = serversPiped(ctx, c, t, Q, w, r)
		} else {
			events, err = servers(ctx, c, t, Q, w, r)
		}
	}
	if err != nil {
		return Trial{}, err
	}
	tr := measure(c, w)
	tr.Trial, tr.Events = i, events
	return tr, nil
}

// startFixedTails is the fixed point a StartFixed run starts from, to
// 1e-12 (a level below it would hold no queue at n ≤ 10^12).
func startFixedTails(c *Config) []float64 { return FixedPoint(c.Lambda, c.Choices(), 1e-12) }

// startLevels sets the counts to n·s_i, rounded.
func startLevels(c *Config, w *window) {
	s := startFixedTails(c)
	for i := 1; i < len(s); i++ {
		w.grow(i)
		w.cnt[i] = int64(math.Round(float64(c.N) * s[i]))
	}
	w.hi = w.top()
	w.bmax = w.hi
}

// startServers draws each queue's length from the fixed point, independently.
func startServers(c *Config, Q []uint32, w *window, r *alloc.Rand) {
	s := startFixedTails(c)
	for v := range Q {
		u := r.Float64()
		l := 0
		for l+1 < len(s) && u < s[l+1] {
			l++
		}
		Q[v] = uint32(l)
		for i := 1; i <= l; i++ {
			w.grow(i)
			w.cnt[i]++
		}
	}
	w.hi = w.top()
	w.bmax = w.hi
}

// trialRand is the generator of trial 0 of c.
func trialRand(c *Config) *alloc.Rand { return alloc.TrialRand(c.Seed, 0) }
