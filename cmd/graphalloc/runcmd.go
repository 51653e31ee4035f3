package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

const runHelp = `Usage: graphalloc run [flags]

Simulate one allocation process: T independent trials of m balls into n bins.
Trial i draws its randomness from (--seed, i) alone, so the output is the same
whatever --workers is.

Memory per bin, per worker: 1 byte for one-choice, greedy and left from
n = 2^17 on while every load is below 255 (m up to about 250n), 4 bytes after
that, below 2^17 bins and for the other processes (8 for rank and weighted),
plus the graph. The level engine
(--engine levels: one-choice, greedy, left, unbalanced, one-plus-beta,
firstdiff, rank, graph on complete) keeps a count per load instead: a few
kilobytes whatever n, and n up to 2^62. By default (auto) runs use the per-bin
engine up to n = 2^32-1 and the level engine beyond; both engines give the
same distribution of results, not the same numbers for a seed.

Processes (-p):
  one-choice   a uniform bin
  greedy       Greedy[d]: d uniform bins, the least loaded wins
  left         Left[d]: one bin in each of d contiguous groups, ties to the left
  firstdiff    FirstDiff[d]: probe uniform bins until a load differs from the
               first probe's (at most --cap probes), the least loaded wins
  unbalanced   MaxOf[d]: d uniform bins, the MOST loaded wins
  one-plus-beta  (1+β): Greedy[2] with probability --beta, else one uniform bin
  rank         Rank[d], real d >= 1: the ball lands among the i heaviest bins
               with probability (i/n)^d
  graph        two-choice on a graph (-g): a uniform edge, the lesser loaded end
  grouped      2n/d groups of d/2 consecutive bins: the lighter of two uniform
               groups, then its least loaded bin (d even, d/2 dividing n)
  window       two uniform windows of d/2 consecutive bins (not aligned), the
               lighter window, then its least loaded bin
  weighted     Greedy[d] with balls weighted by --weights; real loads

Examples:
  graphalloc run                                  # Greedy[2], n = m = 2^16, 10 trials
  graphalloc run -p left -d 3 -n 2^20 -m 16n -t 20
  graphalloc run -p graph -g regular:degree=16 -n 1e5 -f json
  graphalloc run -p graph -g testdata/graphs/two_communities.txt --sample vertex
  graphalloc run -p one-choice -m 1000n --every 100n -f json -o heavy.json
  graphalloc run -p firstdiff -d 3 --cap 16 -n 2^20
  graphalloc run -p rank -d 2.5 -m 100n --every 10n -f json
  graphalloc run -p weighted --weights pareto:shape=3 -m 100n
  graphalloc run -n 1e10 -t 1                     # Greedy[2], n = m = 10^10: level engine, ~40 s

Flags:
`

// runOptions are the parsed flags of run.
type runOptions struct {
	pf                                               processFlags
	bins, balls, graph, format, output, shard, every string
	resume, maxMemory, engine                        string
	trials, workers                                  int
	profile                                          bool
	seed                                             uint64
}

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o runOptions
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stdout, runHelp)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	o.pf.add(fs, "greedy", "process: "+processList())
	fs.StringVarP(&o.bins, "bins", "n", "65536", "bins n (1e6, 2^20 allowed); for a graph file, its vertex count")
	fs.StringVarP(&o.balls, "balls", "m", "n", "balls m: 1e6, 2^20, or a multiple of n: n, 16n, 0.5n")
	fs.StringVarP(&o.graph, "graph", "g", "complete", "topology for -p graph: KIND[:key=value,...] with KIND one of "+strings.Join(graphgen.Kinds(), ", ")+", or file:PATH")
	fs.IntVarP(&o.trials, "trials", "t", 10, "independent trials")
	fs.Uint64VarP(&o.seed, "seed", "s", 1, "base seed; trial i depends only on (seed, i)")
	fs.IntVarP(&o.workers, "workers", "w", 0, "trials run in parallel (0: one per CPU); never changes results")
	fs.StringVarP(&o.format, "format", "f", "table", "output format: table, csv, json, jsonl")
	fs.StringVarP(&o.output, "output", "o", "", "write results to FILE (atomically) instead of stdout")
	fs.StringVar(&o.shard, "shard", "", "run only shard I of K of the trials, as I/K (0 <= I < K)")
	fs.StringVar(&o.every, "every", "", "record the gap and max-min every K balls (K or a multiple of n)")
	fs.BoolVar(&o.profile, "profile", false, "record each trial's sorted normalised load vector (load - m/n, as value/count pairs)")
	fs.StringVar(&o.maxMemory, "max-memory", "", "refuse runs estimated to need more memory than this (512M, 4G; default: the memory available)")
	fs.StringVar(&o.engine, "engine", "auto", "bins (a load per bin) or levels (a count per load: exchangeable processes on complete, n up to 2^62); auto: bins up to n = 2^32-1, levels beyond")
	fs.StringVar(&o.resume, "resume", "", "skip the trials FILE (an earlier output of this run, json or jsonl) holds and finish the run; with -f jsonl -o FILE the same file is continued")
	fs.SortFlags = false
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("run: unexpected argument %q", fs.Arg(0))
	}
	return o.run(ctx, fs, stdout, stderr)
}

func (o *runOptions) run(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
	switch o.format {
	case "table", "csv", "json", "jsonl":
	default:
		return usagef("--format: unknown format %q (allowed: table, csv, json, jsonl)", o.format)
	}
	if o.trials < 1 {
		return usagef("--trials: need at least 1 trial, got %d", o.trials)
	}
	descs, err := o.pf.descriptors()
	if err != nil {
		return err
	}
	if len(descs) > 1 {
		return usagef("--process: run takes one process, got %q (compare runs several)", o.pf.process)
	}
	desc := descs[0]
	params, err := o.pf.params(fs, descs)
	if err != nil {
		return err
	}
	if err := checkParams(descs, params); err != nil {
		return err
	}
	usesGraph := desc.Uses&alloc.ParamGraph != 0
	var n int64
	if !usesGraph || fs.Changed("bins") || !isFileSpec(o.graph) {
		if n, err = parseCount(o.bins, 0); err != nil {
			return usagef("--bins: %v", err)
		}
		if maxN, why := binsLimit(o.engine, desc, o.graph); n < 1 || n > maxN {
			return usagef("--bins: need 1 <= n <= %d (%s), got %d", maxN, why, n)
		}
	}
	var memLimit int64
	if o.maxMemory != "" {
		if memLimit, err = parseBytes(o.maxMemory); err != nil {
			return usagef("--max-memory: %v", err)
		}
	}
	// Per-bin loads: 4 bytes a bin for each worker that runs at once.
	binBytes := func(n int64) int64 {
		w := int64(o.workers)
		if w <= 0 {
			w = int64(runtime.NumCPU())
		}
		return int64(desc.BinBytes) * n * min(w, int64(o.trials))
	}
	graphName := "complete"
	var topo *study.Topology
	if usesGraph {
		spec, err := graphgen.ParseSpec(o.graph)
		if err != nil {
			return usagef("--graph: %v", err)
		}
		if err := checkMemory(graphBytes(spec, n)+binBytes(n), memLimit); err != nil {
			return err
		}
		g, info, err := spec.Build(int(n), alloc.NewRand(alloc.DeriveSeed(o.seed, alloc.StreamGraph, 0)))
		if err != nil {
			return usageError{err}
		}
		if fs.Changed("bins") && int64(g.Order()) != n {
			if spec.Kind == "file" {
				return usagef("--bins: n=%d but graph %s has %d vertices", n, spec, g.Order())
			}
			// A torus rounds n to a power of its side; its note says so.
		}
		topo = study.Measure(spec, g)
		n = int64(g.Order())
		params.Graph = g
		graphName = spec.String()
		for _, note := range info.Notes {
			fmt.Fprintf(stderr, "graphalloc: %s: %s\n", spec, note)
		}
		if info.File != nil && (info.File.SelfLoops > 0 || info.File.Duplicates > 0) {
			fmt.Fprintf(stderr, "graphalloc: %s: dropped %d self-loops and %d duplicate edges\n", spec.Path, info.File.SelfLoops, info.File.Duplicates)
		}
	}
	m, err := parseCount(o.balls, n)
	if err != nil {
		return usagef("--balls: %v", err)
	}
	var every int64
	if o.every != "" {
		if every, err = parseCount(o.every, n); err != nil || every < 1 {
			return usagef("--every: need a positive count, got %q", o.every)
		}
	}
	levels, _, err := chooseEngine(o.engine, desc, o.graph, n)
	if err != nil {
		return err
	}
	if !usesGraph && !levels {
		if err := checkMemory(binBytes(n), memLimit); err != nil {
			return err
		}
	}
	p, err := desc.New(params)
	if err != nil {
		return usageError{err}
	}
	cfg := alloc.Config{Process: p, N: int(n), M: m, Seed: o.seed, Every: every, Profile: o.profile}
	if levels {
		cfg.Engine = alloc.EngineLevels
	}
	if err := cfg.Check(); err != nil {
		return usageError{err}
	}
	trials, err := shardTrials(o.shard, o.trials)
	if err != nil {
		return usagef("--shard: %v", err)
	}

	head := newRunConfig(study.Setting{Process: desc, Params: params, N: n, M: m, Topology: topo})
	head.Graph, head.Seed, head.Trials, head.Shard = graphName, o.seed, o.trials, o.shard
	head.Every, head.Profile = every, o.profile
	if levels {
		head.Engine = alloc.EngineLevels.String()
	}

	// --resume: keep the trials an earlier output holds, run the rest.
	var results []alloc.Result
	var prev *runFile
	if o.resume != "" {
		if prev, err = readRunFile(o.resume); err != nil {
			return usagef("--resume: %v", err)
		}
		if err := sameRun(prev.Config, head); err != nil {
			return usagef("--resume: %s is the output of another run: %v", o.resume, err)
		}
		var todo []int
		results, todo = splitDone(trials, prev.Trials)
		trials = todo
	}

	// jsonl streams each trial as it finishes; the other formats are
	// written whole, atomically, once every trial is done.
	var stream *bufio.Writer
	var streamFile *os.File
	if o.format == "jsonl" {
		w := stdout
		continuing := prev != nil && !prev.Complete && o.output != "" && sameFile(o.output, o.resume)
		if continuing {
			// Append to the interrupted file after its last complete line.
			if streamFile, err = truncateTo(o.output, prev.Valid); err != nil {
				return err
			}
			defer streamFile.Close()
			w = streamFile
		} else if o.output != "" {
			if streamFile, err = os.Create(o.output); err != nil {
				return err
			}
			defer streamFile.Close()
			w = streamFile
		}
		stream = bufio.NewWriter(w)
		if !continuing {
			if err := writeJSONLine(stream, map[string]any{"config": head}); err != nil {
				return err
			}
			for _, r := range results {
				if err := writeJSONLine(stream, map[string]any{"trial": r}); err != nil {
					return err
				}
			}
		}
	}
	done := len(results)
	bar := newProgress(stderr, "run", len(trials), int64(len(trials))*m) // nil unless stderr is a terminal
	err = alloc.Run(ctx, cfg, trials, o.workers, func(r alloc.Result) error {
		results = append(results, r)
		bar.add(m)
		if stream != nil {
			return writeJSONLine(stream, map[string]any{"trial": r})
		}
		return nil
	})
	bar.done()
	if err != nil {
		if stream != nil {
			stream.Flush()
		}
		if errors.Is(err, context.Canceled) {
			msg := fmt.Sprintf("interrupted: %d of %d trials finished", len(results), done+len(trials))
			if stream != nil && o.output != "" {
				msg += fmt.Sprintf("; they are in %s, continue with --resume %s", o.output, o.output)
			}
			return errors.New(msg)
		}
		return err
	}
	slices.SortFunc(results, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	sum := summarize(head, results)
	switch o.format {
	case "jsonl":
		if err := writeJSONLine(stream, map[string]any{"summary": sum}); err != nil {
			return err
		}
		if err := stream.Flush(); err != nil {
			return err
		}
		if streamFile != nil {
			return streamFile.Close()
		}
		return nil
	}
	b, err := renderRun(o.format, head, results, sum)
	if err != nil {
		return err
	}
	return writeOutput(stdout, o.output, b)
}

// isFileSpec reports whether a --graph value names a file.
func isFileSpec(s string) bool {
	sp, err := graphgen.ParseSpec(s)
	return err == nil && sp.Kind == "file"
}

// shardTrials returns the trials of shard "I/K": those i with i mod K = I.
func shardTrials(shard string, t int) ([]int, error) {
	i, k := 0, 1
	if shard != "" {
		is, ks, ok := strings.Cut(shard, "/")
		var e1, e2 error
		i, e1 = strconv.Atoi(is)
		k, e2 = strconv.Atoi(ks)
		if !ok || e1 != nil || e2 != nil || k < 1 || i < 0 || i >= k {
			return nil, fmt.Errorf("want I/K with 0 <= I < K, got %q", shard)
		}
	}
	var trials []int
	for j := i; j < t; j += k {
		trials = append(trials, j)
	}
	return trials, nil
}

func writeJSONLine(w *bufio.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Write(b)
	w.WriteByte('\n')
	return w.Flush()
}

// writeOutput writes b to stdout, or to path atomically: to a temporary
// file in the same directory, then renamed, so that an interrupted run never
// leaves a partial file under the final name.
func writeOutput(stdout io.Writer, path string, b []byte) error {
	if path == "" {
		_, err := stdout.Write(b)
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// runConfig is the "config" object of the JSON output (README.md).
type runConfig struct {
	Process string  `json:"process"`
	D       float64 `json:"d"`
	N       int64   `json:"n"`
	M       int64   `json:"m"`
	Graph   string  `json:"graph"`
	Sample  string  `json:"sample,omitempty"`
	// MinDegree and MaxDegree describe the graph of a graph run, so
	// that the summary (and merge) can be computed from the file alone.
	MinDegree *int `json:"min_degree,omitempty"`
	MaxDegree *int `json:"max_degree,omitempty"`
	// Core and CoreFraction describe the dense core of a nonregular graph.
	Core         *int     `json:"core,omitempty"`
	CoreFraction *float64 `json:"core_fraction,omitempty"`
	Ties         string   `json:"ties"`
	Seed         uint64   `json:"seed"`
	Trials       int      `json:"trials"`
	Shard        string   `json:"shard,omitempty"`
	Every        int64    `json:"every,omitempty"`
	Profile      bool     `json:"profile,omitempty"`
	Version      string   `json:"version"`
	// The parameters of one process each: β of one-plus-beta, the probe
	// cap of firstdiff (the default resolved), the weights of weighted.
	Beta    *float64 `json:"beta,omitempty"`
	Cap     int      `json:"cap,omitempty"`
	Weights string   `json:"weights,omitempty"`
	// Engine is "levels" for a run of the level engine, omitted for the
	// per-bin engine.
	Engine string `json:"engine,omitempty"`
}

type runJSON struct {
	Config  runConfig      `json:"config"`
	Trials  []alloc.Result `json:"trials"`
	Summary runSummary     `json:"summary"`
}

type statJSON struct {
	Mean   float64        `json:"mean"`
	Std    float64        `json:"std"`
	Min    float64        `json:"min"`
	Max    float64        `json:"max"`
	CI95   [2]float64     `json:"ci95"`
	Counts map[string]int `json:"counts,omitempty"`
}

type boundJSON struct {
	Name    string   `json:"name"`
	Value   *float64 `json:"value"` // null: the bound has no value
	Kind    string   `json:"kind"`
	Formula string   `json:"formula"`
	Base    string   `json:"base"`
}

type runSummary struct {
	MaxLoad statJSON    `json:"max_load"`
	Gap     statJSON    `json:"gap"`
	Probes  float64     `json:"probes_per_ball"`
	Bounds  []boundJSON `json:"bounds"`
	Fluid   *fluidJSON  `json:"fluid,omitempty"`
	// notApplicable lists the bounds whose assumptions fail here, for
	// the table; the JSON keeps to the bounds that apply.
	notApplicable []analysis.Bound
}

// fluidJSON is the mean-field prediction beside the measurement: the tails
// s_i (fraction of bins with load ≥ i as n → ∞) and the max load they
// predict at this n.
type fluidJSON struct {
	Process   string    `json:"process"`
	Tails     []float64 `json:"tails"`
	PredMax   int       `json:"predicted_max_load"`
	PMaxAtLst []float64 `json:"p_max_at_least"`
}

func toStat(s analysis.Summary) statJSON {
	return statJSON{Mean: s.Mean, Std: s.Std, Min: s.Min, Max: s.Max, CI95: s.CI95, Counts: s.Counts}
}

// newRunConfig is the config block of a run of s (the fields that describe
// the process and the graph; the caller adds seed, trials and the rest).
func newRunConfig(s study.Setting) runConfig {
	d := s.Process
	c := runConfig{
		Process: d.Name, D: d.Choices(s.Params), N: s.N, M: s.M, Graph: "complete",
		Ties: d.TiesFor(s.Params).String(), Version: Version,
	}
	if d.Uses&alloc.ParamBeta != 0 {
		b := s.Params.Beta
		c.Beta = &b
	}
	if d.Uses&alloc.ParamCap != 0 {
		c.Cap = s.Params.Cap
		if c.Cap == 0 {
			c.Cap = alloc.DefaultFirstDiffCap(int(c.D))
		}
	}
	if d.Uses&alloc.ParamWeights != 0 {
		c.Weights = s.Params.Weights.String()
	}
	if t := s.Topology; t != nil {
		c.Sample = s.Params.Sample.String()
		lo, hi := t.Degree.Min, t.Degree.Max
		c.MinDegree, c.MaxDegree = &lo, &hi
		if t.Core > 0 {
			core, f := t.Core, t.CoreFraction
			c.Core, c.CoreFraction = &core, &f
		}
	}
	return c
}

// setting is the study.Setting a config describes: what merge and resume
// summarise from a file alone.
func (c runConfig) setting() (study.Setting, error) {
	d, err := alloc.Lookup(c.Process)
	if err != nil {
		return study.Setting{}, err
	}
	p := alloc.Params{D: c.D, Cap: c.Cap}
	if c.Beta != nil {
		p.Beta = *c.Beta
	}
	if c.Weights != "" {
		if p.Weights, err = alloc.ParseWeights(c.Weights); err != nil {
			return study.Setting{}, err
		}
	}
	if c.Sample != "" {
		if p.Sample, err = alloc.ParseSampling(c.Sample); err != nil {
			return study.Setting{}, err
		}
	}
	if c.Ties != "" {
		if p.Ties, err = alloc.ParseTies(c.Ties); err != nil {
			return study.Setting{}, err
		}
	}
	s := study.Setting{Process: d, Params: p, N: c.N, M: c.M}
	if d.Uses&alloc.ParamGraph != 0 && c.MinDegree != nil && c.MaxDegree != nil {
		sp, err := graphgen.ParseSpec(c.Graph)
		if err != nil {
			return study.Setting{}, err
		}
		s.Topology = &study.Topology{Spec: sp, Degree: study.Degrees{Min: *c.MinDegree, Max: *c.MaxDegree}}
		if c.Core != nil && c.CoreFraction != nil {
			s.Topology.Core, s.Topology.CoreFraction = *c.Core, *c.CoreFraction
		}
	}
	return s, nil
}

// summarize computes the summary block from the config and the trials
// alone (study.Summarize: the statistics, fluid prediction and bounds every
// command reports).
func summarize(c runConfig, rs []alloc.Result) runSummary {
	set, err := c.setting()
	if err != nil {
		return runSummary{Bounds: []boundJSON{}}
	}
	sum := study.Summarize(set, rs)
	s := runSummary{MaxLoad: toStat(sum.MaxLoad), Gap: toStat(sum.Gap), Probes: sum.Probes, Bounds: []boundJSON{}, notApplicable: sum.NotApplicable}
	if f := sum.Fluid; f != nil {
		s.Fluid = &fluidJSON{Process: f.Process, Tails: f.Tails, PredMax: f.PredictedMaxLoad, PMaxAtLst: f.PMaxAtLeast}
	}
	for _, b := range sum.Bounds {
		bj := boundJSON{Name: b.Name, Kind: b.Kind, Formula: b.Formula, Base: b.Base}
		if !b.NoValue {
			bj.Value = &b.Value
		}
		s.Bounds = append(s.Bounds, bj)
	}
	return s
}
