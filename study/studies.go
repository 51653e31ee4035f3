package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// A Study reproduces a published result (or, for heavy-graphs, runs the
// experiment the literature has only conjectured about) as one call: it
// runs its simulations at the sizes of its Params and returns a Report of
// tables, one-line findings and a figure. `graphalloc study NAME` prints
// the report; docs/studies/NAME.md shows it with the command that made it.
//
// Every study is deterministic by seed: a graph is built from
// alloc.DeriveSeed(seed, alloc.StreamGraph, 0) and the trials of a point are
// trials 0..T−1 of seed seed, exactly as `graphalloc run --seed S` builds
// and runs them, so a row of a study is what `run` prints for the same
// process, graph, n, m and trials (the per-bin engine, run's default below
// 2^32 bins). The number of workers never changes a report.
type Study struct {
	Name     string   // the command-line name, e.g. "two-choices"
	Number   int      // its number in docs/studies/README.md, 1..15
	Title    string   // one line
	Question string   // what the study asks, in a few sentences
	Sources  []string // the papers it reproduces, as cited in the pages
	// Default finishes in seconds to a minute or so on two cores; Full is
	// the size of the source papers' experiments; Tiny is for tests.
	Default, Full, Tiny Params

	uses []string // the Params fields run reads: "Ns", "HeavyNs", "HyperNs", "N", "Trials", "Load", "Samples", "Horizon"
	run  func(ctx context.Context, r *runner, p Params) (*Report, error)
}

// check reports a parameter the study reads that is missing or out of
// range.
func (s *Study) check(p Params) error {
	for _, f := range s.uses {
		switch {
		case f == "Ns" && len(p.Ns) == 0:
			return fmt.Errorf("study %s: no sizes n given", s.Name)
		case f == "Ns" && slices.Min(p.Ns) < 1:
			return fmt.Errorf("study %s: sizes must be positive, got %v", s.Name, p.Ns)
		case f == "HeavyNs" && len(p.HeavyNs) == 0:
			return fmt.Errorf("study %s: no heavily loaded sizes n given", s.Name)
		case f == "HeavyNs" && slices.Min(p.HeavyNs) < 1:
			return fmt.Errorf("study %s: heavily loaded sizes must be positive, got %v", s.Name, p.HeavyNs)
		case f == "HyperNs" && len(p.HyperNs) == 0:
			return fmt.Errorf("study %s: no hypergraph sizes n given", s.Name)
		case f == "HyperNs" && slices.Min(p.HyperNs) < 1:
			return fmt.Errorf("study %s: hypergraph sizes must be positive, got %v", s.Name, p.HyperNs)
		case f == "N" && p.N < 1:
			return fmt.Errorf("study %s: need n >= 1, got %d", s.Name, p.N)
		case f == "Trials" && p.Trials < 1:
			return fmt.Errorf("study %s: need at least 1 trial, got %d", s.Name, p.Trials)
		case f == "Load" && p.Load < 1:
			return fmt.Errorf("study %s: need m/n >= 1, got %d", s.Name, p.Load)
		case f == "Horizon" && !(p.Horizon > 0):
			return fmt.Errorf("study %s: need a positive horizon, got %g", s.Name, p.Horizon)
		case f == "Samples" && p.Samples < 2:
			return fmt.Errorf("study %s: need at least 2 Monte Carlo samples, got %d", s.Name, p.Samples)
		}
	}
	return nil
}

// Params are the sizes of a study. Each study reads the fields its
// documentation names (Run rejects them missing) and ignores the others.
type Params struct {
	// Ns are the sizes n of the main sweep.
	Ns []int `json:"n,omitempty"`
	// HeavyNs are the sizes n at m = Load·n of a study that also runs a
	// light sweep over Ns (information).
	HeavyNs []int `json:"heavy_n,omitempty"`
	// HyperNs are the sizes n of a study's sweep over random hypergraphs
	// (information).
	HyperNs []int `json:"hyper_n,omitempty"`
	// N is the fixed n of a study that sweeps something else (the degree
	// in graph-degree, the time in heavy, the load levels in unbalanced).
	N int `json:"fixed_n,omitempty"`
	// Trials are the independent trials per point.
	Trials int `json:"trials,omitempty"`
	// Load is m/n for the heavily loaded studies.
	Load int64 `json:"load,omitempty"`
	// Cycles and Tori are heavy-graphs' stationary sweep: cycle lengths,
	// and torus sides L (n = L²).
	Cycles []int `json:"cycles,omitempty"`
	Tori   []int `json:"tori,omitempty"`
	// Samples is the number of Monte Carlo samples of reachability.
	Samples int `json:"samples,omitempty"`
	// Horizon is the simulated time of the supermarket study in units of
	// 1/(1 − λ), the scale on which its queues relax.
	Horizon float64 `json:"horizon,omitempty"`
}

// Size names one of a study's three parameter sets.
type Size string

// The sizes of a study.
const (
	SizeTiny    Size = "tiny"
	SizeDefault Size = "default"
	SizeFull    Size = "full"
)

// Params returns the parameters of size z (Default for an unknown size).
func (s *Study) Params(z Size) Params {
	switch z {
	case SizeTiny:
		return s.Tiny
	case SizeFull:
		return s.Full
	}
	return s.Default
}

// Options are what a run of a study takes besides its sizes.
type Options struct {
	Seed    uint64
	Workers int // trials in parallel, 0 for one per CPU; never changes results
	// Progress, if set, is called from the calling goroutine before each
	// point of the study with the points done, the points in all and what
	// is being run.
	Progress func(done, total int, what string)
	// Note, if set, receives adjustments a generator made (a torus side
	// rounded up, …), one line each.
	Note func(string)
	// MaxMemory, if positive, is the memory a point may hold: a point
	// estimated to need more (RunMemory, with its graph) stops the study
	// with an error wrapping ErrMemory before its trials run, and graph
	// files are read within it.
	MaxMemory int64
}

// ErrMemory is what the error of a study point that would not fit in
// Options.MaxMemory wraps, for errors.Is.
var ErrMemory = errors.New("not enough memory")

// Run runs the study with parameters p (typically s.Params(size)) and
// returns its report. It stops at the first error, ctx's included.
func (s *Study) Run(ctx context.Context, p Params, o Options) (*Report, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	r := &runner{ctx: ctx, o: o}
	rep, err := s.run(ctx, r, p)
	if err != nil {
		return nil, fmt.Errorf("study %s: %w", s.Name, err)
	}
	for _, t := range rep.Tables {
		t.noteCI()
	}
	rep.Study, rep.Number, rep.Title = s.Name, s.Number, s.Title
	rep.Params, rep.Seed = p, o.Seed
	rep.Size = "custom"
	for _, z := range []Size{SizeDefault, SizeFull, SizeTiny} {
		if reflect.DeepEqual(p, s.Params(z)) {
			rep.Size = z
			break
		}
	}
	return rep, nil
}

// SizeOf is the size that --full and --tiny ask for: SizeDefault for
// neither, an error for both.
func SizeOf(full, tiny bool) (Size, error) {
	switch {
	case full && tiny:
		return SizeDefault, errors.New("--full and --tiny: choose one size")
	case full:
		return SizeFull, nil
	case tiny:
		return SizeTiny, nil
	}
	return SizeDefault, nil
}

// Studies returns the studies in the order of docs/studies/README.md.
func Studies() []*Study {
	return []*Study{
		twoChoicesStudy, graphDegreeStudy, contiguousStudy, firstDiffStudy,
		unbalancedStudy, heavyStudy, heavyGraphsStudy, reachabilityStudy,
		noiseStudy, batchesStudy, localSearchStudy, degreeScaleStudy, infoStudy,
		deletionsStudy,
		supermarketStudy,
	}
}

// WriteList writes the list of the studies, with their sizes, to w: the
// output of `graphalloc study` with no name.
func WriteList(w io.Writer) error {
	fmt.Fprint(w, "studies (graphalloc study NAME [--full]; each is documented in docs/studies/NAME.md):\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range Studies() {
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", s.Number, s.Name, s.Title)
		fmt.Fprintf(tw, "  \t\tdefault: %s\n", s.Default)
		fmt.Fprintf(tw, "  \t\tfull:    %s\n", s.Full)
	}
	return tw.Flush()
}

// StudyNames returns the names of the studies, in order.
func StudyNames() []string {
	var names []string
	for _, s := range Studies() {
		names = append(names, s.Name)
	}
	return names
}

// Lookup returns the study with the given name or number ("7").
func Lookup(name string) (*Study, error) {
	for _, s := range Studies() {
		if s.Name == name || strconv.Itoa(s.Number) == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("study: unknown study %q (studies: %s)", name, strings.Join(StudyNames(), ", "))
}

// runner runs the points of a study: it builds each graph once per (spec,
// n), runs the trials and reports progress.
type runner struct {
	ctx context.Context
	o   Options

	done, total int

	spec  string
	n     int
	graph graphgen.Graph
	sp    graphgen.Spec
}

// plan adds k points to the total the progress reports.
func (r *runner) plan(k int) { r.total += k }

// pointSpec is one point: a process with its parameters on n bins (or on
// the graph spec builds on n vertices), m balls, trials 0..trials−1.
type pointSpec struct {
	process string
	params  alloc.Params // Ties is the process's own default unless tiesSet
	tiesSet bool
	weights string // the --weights spec of "weighted", for its bounds
	graph   string // the topology SPEC of "graph"
	n       int
	m       int64 // balls; 0 means load·n for the graph's own n
	load    int64
	trials  int
	every   int64 // record the gap every this many balls (Config.Every)
	// everyDiv, if positive, records the gap every m/everyDiv balls.
	everyDiv int64
	// batch, if above 1, runs the balls in batches of batch
	// (alloc.Config.Batch).
	batch int64
	// engine runs the trials (alloc.Config.Engine): the per-bin engine
	// unless set, EngineLevels for an exchangeable process on K_n beyond
	// what n bytes of loads allow.
	engine alloc.Engine
}

// point is the outcome of a pointSpec: the row compare would print and the
// trials themselves (probes, series).
type point struct {
	Row     Row
	Results []alloc.Result
}

// run runs one point.
func (r *runner) run(ps pointSpec) (*point, error) {
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	what := ps.process
	if ps.graph != "" {
		what = ps.graph
	}
	if r.o.Progress != nil {
		r.o.Progress(r.done, max(r.total, r.done+1), fmt.Sprintf("%s n=%d m=%d", what, ps.n, ps.m))
	}
	desc, err := alloc.Lookup(ps.process)
	if err != nil {
		return nil, err
	}
	params := ps.params
	if !ps.tiesSet {
		params.Ties = alloc.TiesDefault
	}
	n := ps.n
	var sp graphgen.Spec
	if usesGraph(ps.process) {
		g, err := r.buildGraph(ps.graph, ps.n)
		if err != nil {
			return nil, err
		}
		params.Graph = g
		n = g.Order()
		sp = r.sp
	}
	if ps.weights != "" {
		w, err := alloc.ParseWeights(ps.weights)
		if err != nil {
			return nil, err
		}
		params.Weights = w
	}
	proc, err := desc.New(params)
	if err != nil {
		return nil, err
	}
	m, every := ps.m, ps.every
	if m == 0 { // load·n for the n the builder made (a torus rounds n up)
		m = ps.load * int64(n)
	}
	if ps.everyDiv > 0 {
		every = max(m/ps.everyDiv, 1)
	}
	cfg := alloc.Config{Process: proc, Engine: ps.engine, N: n, M: m, Seed: r.o.Seed, Every: every, Batch: ps.batch}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	req := RunRequest{Process: desc, Params: params, Balls: strconv.FormatInt(m, 10), Batch: strconv.FormatInt(ps.batch, 10),
		Every: strconv.FormatInt(every, 10), Workers: r.o.Workers, Trials: ps.trials, Held: int64(ps.trials)}
	if err := r.fits(req.Memory(int64(n), ps.engine == alloc.EngineLevels)); err != nil {
		return nil, err
	}
	results, err := runTrials(r, alloc.Run, cfg, ps.trials)
	if err != nil {
		return nil, err
	}

	var topo *Topology
	if params.Graph != nil {
		topo = Measure(sp, params.Graph)
	}
	row := newRow(Setting{Process: desc, Params: params, N: int64(n), M: m, Topology: topo, Batch: ps.batch}, r.o.Seed, ps.trials, results)
	return &point{Row: row, Results: results}, nil
}

// runTrials runs trials 0..k−1 of c with run (alloc.Run,
// alloc.RunDynamic, queue.Run) on r's workers, counts the point done, and
// returns the trials' results in the order run emits them.
func runTrials[C, R any](r *runner, run func(context.Context, C, []int, int, func(R) error) error, c C, k int) ([]R, error) {
	var out []R
	if err := run(r.ctx, c, seqTrials(k), r.o.Workers, func(res R) error {
		out = append(out, res)
		return nil
	}); err != nil {
		return nil, err
	}
	r.done++
	return out, nil
}

// seqTrials returns 0..k−1.
func seqTrials(k int) []int {
	t := make([]int, k)
	for i := range t {
		t[i] = i
	}
	return t
}

// fits checks the point rm, on the graph r holds (if rm has one), against
// Options.MaxMemory, counting the trials that run at once.
func (r *runner) fits(rm RunMemory) error {
	if r.o.MaxMemory <= 0 {
		return nil
	}
	if rm.Params.Graph != nil {
		if p, err := r.sp.Plan(int(rm.N)); err == nil {
			rm.Graph = p.Bytes
		}
	}
	if need := rm.Bytes(); need > r.o.MaxMemory {
		big := rm.Largest()
		return fmt.Errorf("%w: a point at n=%d needs about %s (most of it %s, %s), more than %s",
			ErrMemory, rm.N, graphgen.FormatBytes(need), big.What, graphgen.FormatBytes(big.Bytes), graphgen.FormatBytes(r.o.MaxMemory))
	}
	return nil
}

// buildGraph returns the graph of spec on n vertices, built as
// `graphalloc run` builds it, keeping the last one.
func (r *runner) buildGraph(spec string, n int) (graphgen.Graph, error) {
	if r.graph != nil && r.spec == spec && r.n == n {
		return r.graph, nil
	}
	r.graph = nil // let the previous graph go before building
	sp, err := graphgen.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	g, info, err := sp.BuildContext(context.Background(), n, alloc.NewRand(alloc.DeriveSeed(r.o.Seed, alloc.StreamGraph, 0)), graphgen.ReadOptions{MaxBytes: r.o.MaxMemory})
	if err != nil {
		return nil, &BuildError{Spec: spec, N: n, Err: err}
	}
	if r.o.Note != nil {
		for _, s := range info.Notes {
			r.o.Note(fmt.Sprintf("%s at n=%d: %s", sp, n, s))
		}
	}
	r.spec, r.n, r.graph, r.sp = spec, n, g, sp
	return g, nil
}

// pow2 formats n as 2^k when it is a power of two.
func pow2(n int64) string {
	if n >= 2 && n&(n-1) == 0 {
		return fmt.Sprintf("2^%d", int(math.Log2(float64(n))))
	}
	return strconv.FormatInt(n, 10)
}

// sizesString formats a list of sizes, runs of consecutive powers of two as
// 2^a..2^b.
func sizesString(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		isPow := func(v int) bool { return v >= 2 && v&(v-1) == 0 }
		for j+1 < len(ns) && isPow(ns[j]) && ns[j+1] == 2*ns[j] {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, pow2(int64(ns[i]))+".."+pow2(int64(ns[j])))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, pow2(int64(ns[k])))
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// String describes the parameters in one line: the fields that are set.
func (p Params) String() string {
	var parts []string
	switch {
	case len(p.Ns) > 0 && len(p.HeavyNs) > 0:
		parts = append(parts, "at m = n: n = "+sizesString(p.Ns))
	case len(p.Ns) > 0:
		parts = append(parts, "n = "+sizesString(p.Ns))
	}
	if p.N > 0 {
		parts = append(parts, "fixed n = "+pow2(int64(p.N)))
	}
	if len(p.HeavyNs) > 0 {
		parts = append(parts, fmt.Sprintf("at m = %dn: n = %s", p.Load, sizesString(p.HeavyNs)))
	} else if p.Load > 0 {
		parts = append(parts, fmt.Sprintf("m = %dn", p.Load))
	}
	if len(p.HyperNs) > 0 {
		parts = append(parts, "hypergraphs: n = "+sizesString(p.HyperNs))
	}
	if len(p.Cycles) > 0 {
		parts = append(parts, "stationary cycles n = "+sizesString(p.Cycles))
	}
	if len(p.Tori) > 0 {
		var s []string
		for _, l := range p.Tori {
			s = append(s, fmt.Sprintf("%d²", l))
		}
		parts = append(parts, "stationary tori n = "+strings.Join(s, ", "))
	}
	if p.Trials > 0 {
		parts = append(parts, analysis.Count(p.Trials, "trial"))
	}
	if p.Samples > 0 {
		parts = append(parts, fmt.Sprintf("%d Monte Carlo samples", p.Samples))
	}
	if p.Horizon > 0 {
		parts = append(parts, fmt.Sprintf("time %g/(1 − λ)", p.Horizon))
	}
	return strings.Join(parts, "; ")
}

// powers returns lo, lo·f, lo·f², … up to hi.
func powers(lo, hi, f int) []int {
	var ns []int
	for v := lo; v <= hi; v *= f {
		ns = append(ns, v)
	}
	return ns
}

// largest returns the largest n of ns.
func largest(ns []int) int { return slices.Max(ns) }
