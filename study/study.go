package study

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The names of the processes the studies run, from the processes
// themselves (their descriptors hold the names).
var (
	nameOneChoice   = alloc.OneChoice{}.Name()
	nameGreedy      = alloc.Greedy{}.Name()
	nameLeft        = alloc.Left{}.Name()
	nameFirstDiff   = alloc.FirstDiff{}.Name()
	nameMaxOf       = alloc.MaxOf{}.Name()
	nameOnePlusBeta = alloc.OnePlusBeta{}.Name()
	nameGraph       = alloc.Graphical{}.Name()
	nameGrouped     = alloc.Grouped{}.Name()
	nameWindow      = alloc.Window{}.Name()
	nameWeighted    = alloc.Weighted{}.Name()
)

// DefaultGraphs are the topologies of the default study: random regular
// graphs of degree 4, 16 and ⌈n^0.5⌉, a non-regular graph whose minimum
// degree (16) matches the second, the cycle and the complete graph.
var DefaultGraphs = []string{
	"regular:degree=4",
	"regular:degree=16",
	"regular:eps=0.5",
	"nonregular:mindeg=16,core=1024",
	"cycle",
	"complete",
}

// DefaultN and DefaultTrials complete the default study: the graphical
// process on DefaultGraphs at n = m = 2^16, 20 trials per point.
const (
	DefaultN      = 1 << 16
	DefaultTrials = 20
)

// Grid is a comparison: every process of Processes at every n of Ns, a
// process that runs on a graph (alloc.ParamGraph) on every topology of
// Graphs, Trials trials per point. A process that does not use a graph runs
// once per n.
type Grid struct {
	Graphs    []graphgen.Spec // topologies for the graph processes
	Processes []string        // process names (alloc.Lookup)
	Ns        []int           // bins n, each in [1, graphgen.MaxOrder]
	// Balls returns m for n bins; nil means m = n.
	Balls func(n int) int64
	// Params are the process parameters (d, β, ties, sampling, weights,
	// …); Graph is set per point. Ties is the process's own default
	// (Descriptor.TiesFor) unless TiesSet.
	Params  alloc.Params
	TiesSet bool
	// Expansion, if positive, is the edge expansion σ the bounds use for
	// the graph (one topology: σ is a fact of one graph).
	Expansion float64
	// Batch, if above 1, runs every point in batches of Batch balls
	// (alloc.Config.Batch); every process of the grid must run in
	// batches (alloc.Descriptor.Batches).
	Batch   int64
	Trials  int
	Seed    uint64
	Workers int // trials in parallel, 0 for one per CPU; never changes results
	// Shard, if Of > 1, keeps only the points i (in Points order) with
	// i mod Of = Index.
	Shard struct{ Index, Of int }
	// Progress, if set, is called after every trial, from the goroutine
	// that called Run, with the trials and balls done and in all.
	Progress func(trials, trialsTotal int, balls, ballsTotal int64)
	// Building, if set, is called before each graph is built, with its
	// spec and n ("" and 0 once it is built), from the goroutine that
	// called Run: building a large graph can take longer than its trials.
	Building func(spec string, n int)
	// Read is how graph files are read (graphgen.Spec.BuildContext): its
	// MaxBytes, if set, bounds what a reader may hold.
	Read graphgen.ReadOptions
	// Done are rows that an earlier Run of this grid emitted, in its
	// order (a grid's file cut short, to resume it): Run runs only the
	// points they do not hold, and emits none of them again.
	Done []Row
}

// Point is one cell of the grid.
type Point struct {
	Graph   graphgen.Spec // the topology; its Kind is "" for a process without a graph
	N       int
	Process string
}

// Points returns the cells of g in the order Run emits them: processes in
// order; the graphical process topology by topology, each over every n
// (so a graph is built once per (spec, n)), except a graph read from a
// file, which has its own n and gives one point (at the first n of Ns, a
// nominal size: its rows carry the file's n); the others over every n.
// Shard applies.
func (g *Grid) Points() []Point {
	var pts []Point
	for _, p := range g.Processes {
		if usesGraph(p) {
			for _, s := range g.Graphs {
				ns := g.Ns
				if s.FromFile() && len(ns) > 1 {
					ns = ns[:1]
				}
				for _, n := range ns {
					pts = append(pts, Point{Graph: s, N: n, Process: p})
				}
			}
			continue
		}
		for _, n := range g.Ns {
			pts = append(pts, Point{N: n, Process: p})
		}
	}
	if g.Shard.Of > 1 {
		kept := pts[:0]
		for i, pt := range pts {
			if i%g.Shard.Of == g.Shard.Index {
				kept = append(kept, pt)
			}
		}
		pts = kept
	}
	return pts
}

// plannedElsewhere reports whether spec can be built (graphgen.Spec.Plan)
// at a point of the whole grid outside g's shard: a shard that can build
// spec at none of its points then skips them, as the unsharded grid does,
// instead of failing while another shard builds it.
func (g *Grid) plannedElsewhere(sp graphgen.Spec) bool {
	if g.Shard.Of <= 1 {
		return false
	}
	whole := *g
	whole.Shard.Of = 0
	for i, pt := range whole.Points() {
		if pt.Graph.String() != sp.String() || i%g.Shard.Of == g.Shard.Index {
			continue
		}
		if _, err := sp.Plan(pt.N); err == nil {
			return true
		}
	}
	return false
}

func (g *Grid) balls(n int) int64 {
	if g.Balls == nil {
		return int64(n)
	}
	return g.Balls(n)
}

// Check reports the first problem with g: an empty dimension, an unknown
// process or malformed SPEC, an n out of range, a bad shard, a row of Done
// that is not one of g's points. Graphs that
// cannot be built at some n (odd nΔ, …) are found by Run.
func (g *Grid) Check() error {
	switch {
	case len(g.Processes) == 0:
		return errors.New("study: no process given")
	case len(g.Ns) == 0:
		return errors.New("study: no n given")
	case g.Trials < 1:
		return fmt.Errorf("study: need at least 1 trial, got %d", g.Trials)
	case g.Shard.Of > 1 && (g.Shard.Index < 0 || g.Shard.Index >= g.Shard.Of):
		return fmt.Errorf("study: shard %d of %d out of range", g.Shard.Index, g.Shard.Of)
	}
	if g.Batch < 0 {
		return fmt.Errorf("study: batch size must be 1 or more, got %d", g.Batch)
	}
	for _, p := range g.Processes {
		d, err := alloc.Lookup(p)
		if err != nil {
			return err
		}
		if g.Batch > 1 && !d.Batches() {
			return fmt.Errorf("study: process %s does not run in batches (batch=%d)", p, g.Batch)
		}
		if usesGraph(p) && len(g.Graphs) == 0 {
			return fmt.Errorf("study: process %s needs at least one topology", p)
		}
	}
	for _, sp := range g.Graphs {
		// A grid runs the per-bin engine, whose loops hold K_n's
		// vertices as uint32: K_n of a spec's own n= beyond 2^32 − 1 is
		// for run's level engine.
		if p, err := sp.Plan(1); err == nil && sp.Kind == "complete" && p.N > graphgen.MaxOrder {
			return fmt.Errorf("study: %s: need n <= %d on the per-bin engine (run -p graph -g complete -n N runs K_n up to 2^62 on the level engine)", sp, int64(graphgen.MaxOrder))
		}
	}
	for _, n := range g.Ns {
		if n < 1 || n > graphgen.MaxOrder {
			return fmt.Errorf("study: need 1 <= n <= %d, got %d", int64(graphgen.MaxOrder), n)
		}
		if m := g.balls(n); m < 0 {
			return fmt.Errorf("study: negative number of balls %d for n = %d", m, n)
		}
	}
	if len(g.Done) > 0 {
		_, err := (&gridRun{g: *g, pts: g.Points()}).matchDone()
		return err
	}
	return nil
}

// Degrees summarises the degree sequence of a topology.
type Degrees struct {
	Min  int     `json:"min"`
	Mean float64 `json:"mean"`
	Max  int     `json:"max"`
}

// Fluid is the mean-field prediction of a row, for a process that has one
// as it ran (analysis.FluidOf: the graphical process on the complete graph
// is Greedy[2] up to O(1/n), and Greedy[L+1] under walk:len=L).
type Fluid struct {
	Process string `json:"process"` // the family of the rule solved, e.g. "greedy"
	D       int    `json:"d"`       // the d of the rule solved
	// Limit names the rule solved (alloc.MeanField's String): "Greedy[4]".
	Limit string `json:"limit"`
	// Tails[i] = s_i(m/n), the fraction of bins with load ≥ i as n → ∞,
	// down to 1e-12.
	Tails []float64 `json:"tails"`
	// PMaxAtLeast[i] ≈ P(max load ≥ i) at this n, 1 − exp(−n s_i), and
	// PredictedMaxLoad its mode.
	PMaxAtLeast      []float64 `json:"p_max_at_least"`
	PredictedMaxLoad int       `json:"predicted_max_load"`
}

// Row is the outcome of one grid point. The JSON names are those of
// `graphalloc compare -f json`.
type Row struct {
	Topology string   `json:"topology,omitempty"` // canonical SPEC; "" without a graph
	N        int64    `json:"n"`
	M        int64    `json:"m"`
	Edges    int64    `json:"edges,omitempty"`
	Degree   *Degrees `json:"degree,omitempty"`
	Process  string   `json:"process"`
	D        float64  `json:"d"`
	Sample   string   `json:"sample,omitempty"`
	Ties     string   `json:"ties"`
	Seed     uint64   `json:"seed"`
	Trials   int      `json:"trials"`
	// Batch is the batch size of a batched grid, omitted for one ball at
	// a time.
	Batch int64 `json:"batch,omitempty"`
	// MaxLoad and Gap summarise the trials (mean, std, CI95, counts).
	MaxLoad analysis.Summary `json:"max_load"`
	Gap     analysis.Summary `json:"gap"`
	// Tails[i] is the measured fraction of bins with load ≥ i, averaged
	// over the trials (Tails[0] = 1); nil for weighted balls.
	Tails []float64 `json:"tails,omitempty"`
	Fluid *Fluid    `json:"fluid,omitempty"`
	// NoFluid says why there is no fluid prediction, when Fluid is nil.
	NoFluid string `json:"no_fluid,omitempty"`
	// Bounds are the bounds of analysis.Bounds that apply here.
	Bounds []analysis.Bound `json:"bounds"`
	// Query is what the bounds were evaluated for.
	Query analysis.Query `json:"-"`
}

// BuildError reports a topology that cannot be built at some n.
type BuildError struct {
	Spec string
	N    int
	Err  error
}

func (e *BuildError) Error() string { return fmt.Sprintf("%s at n=%d: %v", e.Spec, e.N, e.Err) }
func (e *BuildError) Unwrap() error { return e.Err }

// Run runs the grid and calls emit with each row as it finishes, in Points
// order, from the calling goroutine; notes (adjustments a generator made)
// go to note, which may be nil. Each graph is built once per (spec, n)
// from the generator alloc.NewRand(alloc.DeriveSeed(Seed, alloc.StreamGraph, 0))
// and each point's trials are trials 0..Trials−1 of seed Seed: a row is
// exactly what `graphalloc run` prints for the same process, topology, n,
// m, trials and seed.
//
// A topology that cannot be built at some n (a core larger than n, an odd
// nΔ, a hypercube of a size not a power of two) skips those points: they
// are returned in skipped, and the sweep goes on. A topology that cannot be
// built at any n of the grid is an error, a *BuildError. Otherwise Run
// stops at the first error (a process that rejects its parameters, ctx,
// emit) and returns it.
func Run(ctx context.Context, g Grid, emit func(Row) error, note func(string)) (skipped []*BuildError, err error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	s := newGridRun(g, note)
	done, err := s.matchDone()
	if err != nil {
		return nil, err
	}
	for i, pt := range s.pts {
		if err := ctx.Err(); err != nil {
			return s.skipped, err
		}
		if done[i] {
			s.built[pt.Graph.String()] = true
			s.advance(g.Trials, g.balls(pt.N)*int64(g.Trials))
			continue
		}
		desc, err := alloc.Lookup(pt.Process)
		if err != nil {
			return s.skipped, err
		}
		params := g.Params
		if !g.TiesSet {
			params.Ties = alloc.TiesDefault
		}
		var sp graphgen.Spec
		n := pt.N
		if usesGraph(pt.Process) {
			if err := s.build(pt); err != nil {
				return s.skipped, err
			}
			if s.cur.err != nil {
				if err := s.skip(i, pt); err != nil {
					return s.skipped, err
				}
				continue
			}
			sp = s.cur.sp
			params.Graph = s.cur.graph
			n = s.cur.graph.Order()
		}
		row, err := s.runPoint(ctx, desc, params, sp, n)
		if err != nil {
			return s.skipped, err
		}
		if err := emit(row); err != nil {
			return s.skipped, err
		}
	}
	return s.skipped, nil
}

// gridRun is the state of Run across the points of a grid: the points in
// order, the progress counts, the graph of the current (spec, n), and which
// specs were built or failed.
type gridRun struct {
	g      Grid
	note   func(string)
	pts    []Point
	trials []int // 0..Trials−1, the trials of every point

	trialsDone, trialsTotal int
	ballsDone, ballsTotal   int64

	// cur is the graph of the last (spec, n), kept while the points
	// that follow use it; err is its build error.
	cur struct {
		spec  string
		n     int
		graph graphgen.Graph
		info  *graphgen.BuildInfo
		sp    graphgen.Spec
		err   *BuildError
	}
	built   map[string]bool // specs built at some n
	failed  map[string]*BuildError
	skipped []*BuildError
}

func newGridRun(g Grid, note func(string)) *gridRun {
	s := &gridRun{g: g, note: note, pts: g.Points(), built: map[string]bool{}, failed: map[string]*BuildError{}}
	s.trials = seqTrials(g.Trials)
	for _, pt := range s.pts {
		s.ballsTotal += g.balls(pt.N) * int64(g.Trials)
	}
	s.trialsTotal = len(s.pts) * g.Trials
	return s
}

// advance counts trials done with their balls and reports the progress.
func (s *gridRun) advance(trials int, balls int64) {
	s.trialsDone += trials
	s.ballsDone += balls
	if s.g.Progress != nil {
		s.g.Progress(s.trialsDone, s.trialsTotal, s.ballsDone, s.ballsTotal)
	}
}

// build makes cur the graph of pt's (spec, n), building it unless cur is
// that already. A graph that cannot be built is not an error here: it is
// left in cur.err for skip. The error is a malformed spec.
func (s *gridRun) build(pt Point) error {
	key := pt.Graph.String()
	if s.cur.spec == key && s.cur.n == pt.N {
		return nil
	}
	g, cur := &s.g, &s.cur
	cur.graph, cur.err = nil, nil // let the previous graph go before building
	cur.sp, cur.spec, cur.n = pt.Graph, key, pt.N
	if g.Building != nil {
		g.Building(cur.sp.String(), pt.N)
	}
	gr, info, err := cur.sp.BuildContext(context.Background(), pt.N, alloc.NewRand(alloc.DeriveSeed(g.Seed, alloc.StreamGraph, 0)), g.Read)
	if g.Building != nil {
		g.Building("", 0)
	}
	if err != nil {
		cur.err = &BuildError{Spec: pt.Graph.Given(), N: pt.N, Err: err}
		return nil
	}
	cur.graph, cur.info = gr, info
	s.built[key] = true
	if s.note != nil {
		for _, n := range info.Notes {
			s.note(fmt.Sprintf("%s at n=%d: %s", cur.sp, pt.N, n))
		}
	}
	return nil
}

// skip records point i, whose graph could not be built, as skipped. At
// the spec's last point it returns the build error if the spec was built
// at no n of the whole grid (another shard may build it).
func (s *gridRun) skip(i int, pt Point) error {
	key := pt.Graph.String()
	s.skipped = append(s.skipped, s.cur.err)
	if s.failed[key] == nil {
		s.failed[key] = s.cur.err
	}
	s.advance(s.g.Trials, s.g.balls(pt.N)*int64(s.g.Trials))
	if !s.built[key] && !slices.ContainsFunc(s.pts[i+1:], func(p Point) bool { return p.Graph.String() == key }) &&
		!s.g.plannedElsewhere(pt.Graph) {
		return s.failed[key]
	}
	return nil
}

// matchDone marks the points whose rows g.Done holds. Run emits a row
// for every point but those whose graph cannot be built, in order, so a
// row of g.Done is the next point, from the last one matched, with its
// process, topology and n (the graph's own, which graphgen.Spec.Plan
// tells without building it). A row left unmatched is not the grid's.
func (s *gridRun) matchDone() ([]bool, error) {
	done := make([]bool, len(s.pts))
	j := 0
	for i, pt := range s.pts {
		if j < len(s.g.Done) && rowOf(s.g.Done[j], pt) {
			done[i] = true
			j++
		}
	}
	if j < len(s.g.Done) {
		r := s.g.Done[j]
		return nil, fmt.Errorf("study: the row of %s on %q at n=%d is not a point of this grid, or not in its order", r.Process, r.Topology, r.N)
	}
	return done, nil
}

// rowOf reports whether r is the row of point pt.
func rowOf(r Row, pt Point) bool {
	if r.Process != pt.Process {
		return false
	}
	if !usesGraph(pt.Process) {
		return r.Topology == "" && r.N == int64(pt.N)
	}
	sp := pt.Graph
	if r.Topology != sp.String() {
		return false
	}
	if sp.FromFile() {
		return true // one point, at the file's own n
	}
	plan, err := sp.Plan(pt.N)
	return err == nil && int64(plan.N) == r.N
}

// runPoint runs the trials of a point on n bins and returns its row.
func (s *gridRun) runPoint(ctx context.Context, desc *alloc.Descriptor, params alloc.Params, sp graphgen.Spec, n int) (Row, error) {
	g := &s.g
	m := g.balls(n)
	proc, err := desc.New(params)
	if err != nil {
		return Row{}, err
	}
	cfg := alloc.Config{Process: proc, N: n, M: m, Seed: g.Seed, Batch: g.Batch}
	if err := cfg.Check(); err != nil {
		return Row{}, err
	}
	var results []alloc.Result
	err = alloc.Run(ctx, cfg, s.trials, g.Workers, func(r alloc.Result) error {
		results = append(results, r)
		s.advance(1, m)
		return nil
	})
	if err != nil {
		return Row{}, err
	}
	var topo *Topology
	if params.Graph != nil {
		topo = Measure(sp, params.Graph)
		if g.Expansion > 0 {
			topo.Expansion = g.Expansion
		}
	}
	return newRow(Setting{Process: desc, Params: params, N: int64(n), M: m, Topology: topo, Batch: g.Batch}, g.Seed, g.Trials, results), nil
}

// MeanTails returns the fraction of bins with load ≥ i, averaged over the
// trials: entry 0 is 1, the last entry the largest load seen.
func MeanTails(rs []alloc.Result, n int64) []float64 {
	var width int
	for _, r := range rs {
		width = max(width, len(r.LoadCounts))
	}
	tails := make([]float64, width)
	for _, r := range rs {
		var above int64 // bins with load ≥ i, from the top down
		for i := len(r.LoadCounts) - 1; i >= 0; i-- {
			above += r.LoadCounts[i]
			tails[i] += float64(above) / float64(n) / float64(len(rs))
		}
	}
	return tails
}

// usesGraph reports whether the named process runs on a graph.
func usesGraph(process string) bool {
	d, err := alloc.Lookup(process)
	return err == nil && d.Uses&alloc.ParamGraph != 0
}
