package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/results"
)

// queueOptions are the flags of queue; the model, its engines and its
// measurements are the queue package's, the files results'.
type queueOptions struct {
	runFlags
	process, graph, sample, bins, warmup, engine, start, maxMemory string
	d, batches                                                     int
	lambda, time, every                                            float64
}

// cmdQueue runs the supermarket model.
func cmdQueue(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o queueOptions
	fs := newFlags("queue", stdout, stderr)
	fs.StringVarP(&o.process, "process", "p", "greedy", "greedy (d uniform queues), one-choice (d = 1) or graph (candidates from -g by --sample)")
	fs.IntVarP(&o.d, "choices", "d", 2, "candidates of a job (greedy, graph --sample vertex)")
	fs.StringVarP(&o.graph, graphFlagName, "g", "complete", "topology for -p graph: KIND[:key=value,...] or file:PATH")
	fs.StringVar(&o.sample, "sample", "edge", "-p graph: edge (both ends of a uniform edge) or vertex (the job's vertex and d-1 uniform neighbours)")
	fs.StringVarP(&o.bins, "bins", "n", "65536", "servers n: 1e6, 2^20; for a graph file, its vertex count")
	fs.Float64Var(&o.lambda, "lambda", 0.9, "arrival rate per server λ, 0 < λ < 1 (service rate 1)")
	fs.Float64Var(&o.time, "time", 100, "simulated time, in mean service times")
	fs.StringVar(&o.warmup, "warmup", "auto", "time discarded before measuring: auto (MSER) or a time")
	fs.StringVar(&o.engine, "engine", "auto", "servers (a queue length each) or levels (counts per length: uniform sampling or complete, n up to 2^62); auto: levels where they apply")
	fs.StringVar(&o.start, "start", "empty", "empty, or fixed (lengths drawn from the fixed point of d uniform choices)")
	fs.IntVar(&o.batches, "batches", queue.DefaultBatches, "time batches for MSER and the batch-means intervals")
	fs.Float64Var(&o.every, "every", 0, "record the state every DT time units (a series)")
	o.add(fs, 4, "table, csv, json, jsonl")
	addMaxMemory(fs, &o.maxMemory, "runs")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	c, head, err := o.config(ctx, fs.Changed("bins"), stderr)
	if err != nil {
		return err
	}
	useMemoryLimit(o.maxMemory)
	return o.execute(ctx, c, head, stdout)
}

// config checks the flags and builds the run's config and its file's head.
func (o *queueOptions) config(ctx context.Context, binsSet bool, stderr io.Writer) (queue.Config, results.QueueConfig, error) {
	c := queue.Config{D: o.d, Lambda: o.lambda, Time: o.time, Warmup: -1, Batches: o.batches, Every: o.every, Seed: o.seed}
	var err error
	if err := checkFormat(o.format, results.Formats...); err != nil {
		return c, results.QueueConfig{}, err
	}
	if err := o.check(); err != nil {
		return c, results.QueueConfig{}, err
	}
	switch {
	case !(o.lambda > 0 && o.lambda < 1):
		return c, results.QueueConfig{}, usagef("--lambda: need 0 < λ < 1 (λ ≥ 1 has no steady state), got %g", o.lambda)
	case !(o.time > 0) || o.time > 1e15:
		return c, results.QueueConfig{}, usagef("--time: need a positive time up to 1e15, got %g", o.time)
	case o.trials < 1:
		return c, results.QueueConfig{}, usagef("--trials: need at least 1 trial, got %d", o.trials)
	case o.warmup != "auto":
		if c.Warmup, err = strconv.ParseFloat(o.warmup, 64); err != nil || !(c.Warmup >= 0) {
			return c, results.QueueConfig{}, usagef("--warmup: need auto or a time >= 0, got %q", o.warmup)
		}
	}
	if c.Engine, err = queue.ParseEngine(o.engine); err != nil {
		return c, results.QueueConfig{}, usagef("--engine: %v", err)
	}
	if o.start == "fixed" {
		c.Start = queue.StartFixed
	} else if o.start != "empty" {
		return c, results.QueueConfig{}, usagef("--start: need empty or fixed, got %q", o.start)
	}
	head := results.QueueConfig{Process: o.process, D: o.d, Lambda: o.lambda, Time: o.time, Warmup: o.warmup, Sample: "uniform",
		Start: o.start, Batches: c.Batches, Every: o.every, Seed: o.seed, Trials: o.trials, Version: Version}
	if head.Batches == 0 {
		head.Batches = queue.DefaultBatches
	}
	switch o.process {
	case "one-choice":
		c.D, head.D = 1, 1
	case "greedy":
	case "graph":
		if c.Sample, err = queue.ParseSampler(o.sample); err != nil {
			return c, head, usagef("--sample: %v", err)
		}
		head.Sample, head.Graph = o.sample, o.graph
	default:
		return c, head, usagef("--process: the supermarket model takes greedy, one-choice or graph (a job joins the shortest of its candidates), got %q", o.process)
	}
	if c.N, err = o.servers(ctx, &c, binsSet, stderr); err != nil {
		return c, head, err
	}
	if err := c.Check(); err != nil {
		return c, head, usageError{err}
	}
	head.N, head.Engine = c.N, c.EngineUsed().String()
	return c, head, nil
}

// servers parses -n and, for -p graph, builds the graph within the memory
// guard, setting c.Graph; it returns n.
func (o *queueOptions) servers(ctx context.Context, c *queue.Config, binsSet bool, stderr io.Writer) (int64, error) {
	limit, err := parseMaxMemory(o.maxMemory)
	if err != nil {
		return 0, err
	}
	spec := "complete"
	if c.Sample != queue.Uniform {
		spec = o.graph
	}
	maxN, why := int64(queue.MaxServers), "the servers engine's 32-bit ids"
	if sp, err := graphgen.ParseSpec(spec); err == nil && sp.Kind == "complete" && c.Engine != queue.EngineServers {
		maxN, why = queue.MaxLevelServers, "the level engine"
	}
	gf, err := parseGraph(spec, o.bins, binsSet, maxN, why)
	if err != nil {
		return 0, err
	}
	parallel := min(o.trials, max(o.workers, 1))
	if o.workers == 0 {
		parallel = o.trials
	}
	if c.Sample == queue.Uniform {
		c.N = gf.n
		return gf.n, checkMemory(c.Memory(parallel), limit)
	}
	probe := *c
	probe.N = gf.n
	gf.memLeft, gf.extra, gf.lean = limit, probe.Memory(parallel), c.Sample == queue.Edge
	g, _, err := gf.buildContext(ctx, o.seed, stderr)
	if err != nil {
		return 0, err
	}
	c.Graph = g
	return int64(g.Order()), nil
}

// execute runs the trials and writes the file: JSON lines as each trial
// finishes, the other formats once all have (or, on an interrupt, those
// that finished).
func (o *queueOptions) execute(ctx context.Context, c queue.Config, head results.QueueConfig, stdout io.Writer) error {
	var stream *results.Stream
	if o.format == "jsonl" {
		w := stdout
		if !outfile.IsStdout(o.output) {
			f, err := outfile.Create(ctx, o.output)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		stream = results.NewStream(w)
		if err := stream.Line("config", head); err != nil {
			return err
		}
	}
	trials := make([]int, o.trials)
	for i := range trials {
		trials[i] = i
	}
	var all []queue.Trial
	err := queue.Run(ctx, c, trials, o.workers, func(t queue.Trial) error {
		all = append(all, t)
		if stream != nil {
			return stream.Line("trial", t)
		}
		return nil
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	f := &results.QueueFile{Config: head, Trials: all, Summary: results.QueueSummaryOf(&c, o.spec(c), all)}
	switch {
	case stream != nil && !interrupted:
		return stream.Line("summary", f.Summary)
	case stream == nil && (!interrupted || len(all) > 0):
		wctx := ctx
		if interrupted {
			wctx = context.WithoutCancel(ctx)
		}
		if err := outfile.Write(wctx, stdout, o.output, func(w io.Writer) error { return results.WriteQueue(w, o.format, f) }); err != nil {
			return err
		}
	}
	if interrupted {
		return fmt.Errorf("interrupted: %d of %d trials finished, written above", len(all), o.trials)
	}
	return nil
}

// spec is the graph's spec (complete for uniform sampling: the fixed point
// is the same).
func (o *queueOptions) spec(c queue.Config) graphgen.Spec {
	sp, _ := graphgen.ParseSpec(o.graph)
	if c.Sample == queue.Uniform {
		sp, _ = graphgen.ParseSpec("complete")
	}
	return sp
}
