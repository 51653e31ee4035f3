package alloc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
)

// Config describes a run: a process, n bins, m balls and the base seed from
// which trial i derives its generator (TrialRand(Seed, i)) alone.
type Config struct {
	// Process is the rule: a Process or a TrialRunner.
	Process Rule
	// Engine is the engine that runs a Process: EngineBins (the zero
	// value) or EngineLevels. A TrialRunner runs on its own state.
	Engine Engine
	N      int   // bins
	M      int64 // balls per trial
	Seed   uint64
	// Every, if positive, records the gap and the spread max − min after
	// every Every balls (and after the last ball) in Result.Series.
	Every int64
	// Profile records the sorted normalised load vector at the end of each
	// trial in Result.Profile.
	Profile bool
	// Batch, if above 1, is the batch size B of the batched setting (see
	// batch.go and docs/theory.md, section Batches): each ball chooses
	// its bin from the loads at the start of its batch of B balls, which
	// do not include the balls of its own batch; the last batch of a
	// trial holds the m mod B balls left when B does not divide m. 0 and
	// 1 are the sequential process, ball by ball, run by the same loops
	// as without this field. The per-bin engine runs every Batchable
	// process so, on four-byte loads and with up to 4·min(B, n) bytes
	// beside them; the level engine and TrialRunners are refused. The
	// --every series counts the balls chosen so far, their batch complete
	// or not.
	Batch int64
	// Loads, if set, is called at the end of each trial of the per-bin
	// engine with the trial's index and its final loads, from the worker
	// goroutine that ran it (calls for different trials may overlap). The
	// slice is valid only during the call. It is how per-bin results
	// (package results' PerVertex) are gathered without keeping every
	// trial's loads.
	Loads func(trial int, loads []uint32)
}

// Check reports whether c describes a run that can be made.
func (c Config) Check() error {
	if c.Process == nil {
		return errors.New("alloc: no process given")
	}
	if c.N < 1 {
		return fmt.Errorf("alloc: need at least one bin, got n=%d", c.N)
	}
	if c.M < 0 {
		return fmt.Errorf("alloc: number of balls must be non-negative, got m=%d", c.M)
	}
	if c.Every < 0 {
		return fmt.Errorf("alloc: recording interval must be non-negative, got every=%d", c.Every)
	}
	if c.Loads != nil && !c.usesBins() {
		return errors.New("alloc: per-bin loads (Config.Loads) need a Process on the per-bin engine")
	}
	if err := c.checkBatch(); err != nil {
		return err
	}
	if c.Engine == EngineLevels {
		return checkLevels(c.Process, c.N)
	}
	switch c.Process.(type) {
	case TrialRunner, Process:
	default:
		return fmt.Errorf("alloc: %T is neither a Process nor a TrialRunner", c.Process)
	}
	return c.Process.Check(c.N)
}

// Engine is how a Config keeps the state of a trial of a Process.
type Engine uint8

const (
	// EngineBins keeps a load per bin (Bins): every Process, n ≤ 2^32 − 1.
	EngineBins Engine = iota
	// EngineLevels keeps how many bins hold each load: the exchangeable
	// processes on the complete graph (Descriptor.Levels), memory
	// independent of n, n ≤ MaxLevelBins. Same law of every result as
	// EngineBins, not the same numbers for a seed.
	EngineLevels
)

// String returns "bins" or "levels".
func (e Engine) String() string {
	if e == EngineLevels {
		return "levels"
	}
	return "bins"
}

// Point is one sample of a trial's series: after Balls balls, the gap
// max − m/n and the spread max − min.
type Point struct {
	Balls  int64   `json:"balls"`
	Gap    float64 `json:"gap"`
	Spread float64 `json:"spread"`
}

// Result is the outcome of one trial.
type Result struct {
	Trial int `json:"trial"`
	// MaxLoad and MinLoad are whole numbers except for weighted balls.
	MaxLoad float64 `json:"max_load"`
	MinLoad float64 `json:"min_load"`
	Gap     float64 `json:"gap"` // MaxLoad − m/n
	// LoadCounts[i] is the number of bins holding exactly i balls; nil
	// for weighted balls, whose loads are not whole numbers.
	LoadCounts []int64 `json:"load_counts,omitempty"`
	Probes     int64   `json:"probes"`
	MaxProbes  int64   `json:"max_probes"`
	// Moves is the number of steps the balls took from bin to bin, and
	// MaxMoves the most any one ball took, for a process whose balls walk
	// (Descriptor.Moves: local search); omitted when zero.
	Moves    int64   `json:"moves,omitempty"`
	MaxMoves int64   `json:"max_moves,omitempty"`
	Series   []Point `json:"series,omitempty"`
	// Profile is the sorted normalised load vector (load − m/n, highest
	// first) as run-length pairs, if Config.Profile is set.
	Profile []ProfileLevel `json:"profile,omitempty"`
}

// TrialRunner is a Rule that runs a whole trial on a state of its own
// (weighted balls on real loads; Rank with its sorted structure).
// Config.Trial hands such a rule the whole trial, and Run allocates no Bins
// for it. RunTrial must honour c.Every and ctx as Config.Trial does, and
// draw its randomness from TrialRand(c.Seed, i).
type TrialRunner interface {
	Rule
	RunTrial(ctx context.Context, c Config, i int) (Result, error)
}

// chunk is how many balls run between checks of the context, so that a
// cancelled run stops within a few milliseconds.
const chunk = 1 << 22

// Trial runs trial i of c in the bins b (which it resets) and returns its
// result. It returns ctx.Err() if ctx is cancelled first. With the level
// engine, or for a TrialRunner, the trial runs on its own state and b may
// be nil.
func (c Config) Trial(ctx context.Context, i int, b *Bins) (Result, error) {
	if c.Engine == EngineLevels {
		return c.levelsTrial(ctx, i)
	}
	switch p := c.Process.(type) {
	case TrialRunner:
		return p.RunTrial(ctx, c, i)
	case trialRuler:
		if err := p.Check(c.N); err != nil {
			return Result{}, err
		}
		ru := p.rule(c.N)
		return c.binsTrial(ctx, i, b, func(b *Bins, m int64, r *Rand) Stats { return placeRule(b, ru, m, r) })
	case Process:
		return c.binsTrial(ctx, i, b, p.Place)
	}
	return Result{}, c.Check()
}

// checkBatch checks Batch: not negative, and above 1 only for a Batchable
// process on the per-bin engine.
func (c Config) checkBatch() error {
	switch {
	case c.Batch < 0:
		return fmt.Errorf("alloc: batch size must be 1 or more (0 for one ball at a time), got batch=%d", c.Batch)
	case c.Batch <= 1:
		return nil
	case c.Engine == EngineLevels:
		return fmt.Errorf("alloc: the level engine does not run batches (batch=%d): a ball of a batch may hit a bin another ball of the batch hit, and the level counts do not tell bins apart; use the per-bin engine", c.Batch)
	case !Batchable(c.Process):
		return fmt.Errorf("alloc: %v has no batched form (batch=%d); batches run the per-bin processes (%s)", c.Process, c.Batch, strings.Join(batchNames(), ", "))
	case uint64(c.N) > math.MaxUint32:
		return fmt.Errorf("alloc: batches run on at most 2^32 − 1 bins (their bins are 32-bit), got n=%d (batch=%d)", c.N, c.Batch)
	}
	return nil
}

// batchNames lists the processes that run in batches.
func batchNames() []string { return namesOf((*Descriptor).Batches) }

// extremes returns the largest and the smallest load with a bin in the
// histogram c (Bins.Counts): those of Bins.MaxMin.
func extremes(c []int64) (mx, mn uint32) {
	mx = uint32(len(c) - 1)
	for mx > 0 && c[mx] == 0 {
		mx--
	}
	for int(mn) < len(c)-1 && c[mn] == 0 {
		mn++
	}
	return mx, mn
}

// usesBins reports whether the trials of c run in Bins.
func (c Config) usesBins() bool {
	_, runner := c.Process.(TrialRunner)
	return c.Engine == EngineBins && !runner
}

// binsTrial runs trial i of c in the bins b (which it resets), placing the
// balls with place.
func (c Config) binsTrial(ctx context.Context, i int, b *Bins, place func(b *Bins, m int64, r *Rand) Stats) (Result, error) {
	if b == nil || b.N() != c.N {
		return Result{}, fmt.Errorf("alloc: Trial needs bins for n=%d", c.N)
	}
	b.Reset()
	r := TrialRand(c.Seed, i)
	res := Result{Trial: i}
	maxMin := b.MaxMin
	var bt *batcher
	if c.Batch > 1 {
		// Batches: the process's rule through the batched driver.
		if err := c.checkBatch(); err != nil {
			return Result{}, err
		}
		ru := c.Process.(batchable).rule(c.N)
		bt = newBatcher(c.Batch, c.N, c.M)
		place = func(b *Bins, m int64, r *Rand) Stats { return bt.place(b, ru, m, r) }
		maxMin = func() (mx, mn uint32) {
			bt.peek(b, func() { mx, mn = b.MaxMin() })
			return mx, mn
		}
	}
	st, series, err := c.batches(ctx,
		func(k int64) Stats { return place(b, k, r) },
		func(placed int64) Point {
			mx, mn := maxMin()
			return c.point(placed, float64(mx), float64(mn))
		})
	if err != nil {
		return Result{}, err
	}
	if bt != nil {
		bt.flush(b, b.wide(), nil) // the last batch ends with the trial
		runtime.KeepAlive(b)
	}
	counts, err := b.Counts()
	if err != nil {
		return Result{}, err
	}
	// The extremes from the counts: one pass over the loads fewer, 6 s
	// at n = 10^10.
	mx, mn := extremes(counts)
	res.MaxLoad, res.MinLoad = float64(mx), float64(mn)
	res.Gap = float64(mx) - float64(c.M)/float64(c.N)
	res.LoadCounts = counts
	res.Probes, res.MaxProbes = st.Probes, st.MaxProbes
	res.Moves, res.MaxMoves = st.Moves, st.MaxMoves
	res.Series = series
	if c.Profile {
		res.Profile = ProfileFromCounts(counts, c.M, c.N)
	}
	if c.Loads != nil {
		c.Loads(i, b.wide())
		runtime.KeepAlive(b)
	}
	return res, nil
}

// batches throws the c.M balls of a trial through place, at most chunk at a
// time, checking ctx between batches, and with c.Every > 0 records
// sample(placed) after every Every balls and after the last. Every engine's
// trial loop is this one, so batching never changes a result.
func (c Config) batches(ctx context.Context, place func(k int64) Stats, sample func(placed int64) Point) (Stats, []Point, error) {
	var st Stats
	var series []Point
	step := c.M
	if c.Every > 0 {
		step = c.Every
	}
	for placed := int64(0); placed < c.M; {
		next := min(placed+step, c.M)
		for placed < next {
			if err := ctx.Err(); err != nil {
				return st, nil, err
			}
			k := min(next-placed, chunk)
			st.Add(place(k))
			placed += k
		}
		if c.Every > 0 {
			series = append(series, sample(placed))
		}
	}
	return st, series, nil
}

// point is the series sample of integer-ball engines after placed balls
// with the given largest and smallest load.
func (c Config) point(placed int64, mx, mn float64) Point {
	return Point{Balls: placed, Gap: mx - float64(placed)/float64(c.N), Spread: mx - mn}
}

// Run runs the given trials of c on workers goroutines (all CPUs if workers
// ≤ 0) and calls emit with each result in the order of trials, from the
// calling goroutine. Trial i's randomness depends only on (c.Seed, i), so
// the results do not depend on workers or scheduling.
//
// Run stops at the first error, from a trial, from emit or from ctx, and
// returns it; every result emitted before then is complete.
func Run(ctx context.Context, c Config, trials []int, workers int, emit func(Result) error) error {
	if err := c.Check(); err != nil {
		return err
	}
	return RunTrials(ctx, trials, workers, func() func(context.Context, int) (Result, error) {
		var b *Bins
		if c.usesBins() {
			b = NewBins(c.N)
		}
		return func(ctx context.Context, i int) (Result, error) { return c.Trial(ctx, i, b) }
	}, emit)
}

// RunTrials runs the trials on workers goroutines (all CPUs if workers ≤
// 0), each with a trial function of its own from worker (called once in
// its goroutine, so that it may hold state such as loads), and calls emit
// with each result in the order of trials, from the calling goroutine. It
// stops at the first error, from a trial, from emit or from ctx, and
// returns it; every result emitted before then is complete. Run,
// RunDynamic and the supermarket model's queue.Run share it: one ordered
// worker pool for every kind of trial.
func RunTrials[R any](ctx context.Context, trials []int, workers int, worker func() func(context.Context, int) (R, error), emit func(R) error) error {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(trials)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type done struct {
		pos int
		res R
		err error
	}
	jobs := make(chan int)
	out := make(chan done, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			trial := worker()
			for pos := range jobs {
				res, err := trial(ctx, trials[pos])
				out <- done{pos, res, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for pos := range trials {
			select {
			case jobs <- pos:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()

	// Emit in order: hold finished trials until their predecessors finish.
	pending := make(map[int]R)
	nextPos := 0
	var first error
	for d := range out {
		if first != nil {
			continue // drain
		}
		if d.err != nil {
			first = d.err
			cancel()
			continue
		}
		pending[d.pos] = d.res
		for {
			res, ok := pending[nextPos]
			if !ok {
				break
			}
			delete(pending, nextPos)
			nextPos++
			if err := emit(res); err != nil {
				first = err
				cancel()
				break
			}
		}
	}
	if first == nil && nextPos < len(trials) {
		first = ctx.Err()
	}
	return first
}
