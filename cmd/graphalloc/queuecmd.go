package main

import (
	"context"
	"io"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/results"
)

// cmdQueue runs the supermarket model: the flags bind to queue.Options,
// the run and its file are results.RunQueue's.
func cmdQueue(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o queue.Options
	var rf runFlags
	var graph, bins, maxMemory string
	fs := newFlags("queue", stdout, stderr)
	fs.StringVarP(&o.Process, "process", "p", alloc.Greedy{}.Name(), "greedy (d uniform queues), one-choice (d = 1) or graph (candidates from -g by --sample)")
	fs.IntVarP(&o.D, "choices", "d", 2, "candidates of a job (greedy, graph --sample vertex)")
	fs.StringVarP(&graph, graphFlagName, "g", "complete", "topology for -p graph: KIND[:key=value,...] or file:PATH")
	fs.StringVar(&o.Sample, "sample", "edge", "-p graph: edge (both ends of a uniform edge) or vertex (the job's vertex and d-1 uniform neighbours)")
	fs.StringVarP(&bins, "bins", "n", "65536", "servers n: 1e6, 2^20; for a graph file, its vertex count")
	fs.Float64Var(&o.Lambda, "lambda", 0.9, "arrival rate per server λ, 0 < λ < 1 (service rate 1)")
	fs.Float64Var(&o.Time, "time", 100, "simulated time, in mean service times")
	fs.StringVar(&o.Warmup, "warmup", "auto", "time discarded before measuring: auto (MSER) or a time")
	fs.StringVar(&o.Engine, "engine", "auto", "servers (a queue length each) or levels (counts per length: uniform sampling or complete, n up to 2^62); auto: levels where they apply")
	fs.StringVar(&o.Start, "start", "empty", "empty, or fixed (lengths drawn from the fixed point of d uniform choices)")
	fs.IntVar(&o.Batches, "batches", queue.DefaultBatches, "time batches for MSER and the batch-means intervals")
	fs.Float64Var(&o.Every, "every", 0, "record the state every DT time units (a series)")
	rf.add(fs, 4, "table, csv, json, jsonl")
	addMaxMemory(fs, &maxMemory, "runs")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(rf.format, results.Formats...); err != nil {
		return err
	}
	if err := rf.check(); err != nil {
		return err
	}
	if rf.trials < 1 {
		return usagef("--trials: need at least 1 trial, got %d", rf.trials)
	}
	o.Seed = rf.seed
	c, err := o.Config()
	if err != nil {
		return usageError{err}
	}
	if c.Sample == queue.Uniform {
		graph = "complete" // the predictions' graph
	}
	spec, err := queueServers(ctx, &c, graph, bins, fs.Changed("bins"), maxMemory, rf, stderr)
	if err != nil {
		return err
	}
	if err := c.Check(); err != nil {
		return usageError{err}
	}
	useMemoryLimit(maxMemory)
	head := results.NewQueueConfig(o, &c, graph, rf.trials, Version)
	return results.RunQueue(ctx, stdout, rf.output, rf.format, c, head, spec, rf.workers)
}

// queueServers parses -n and, for -p graph, builds the graph within the
// memory guard, setting c.N and c.Graph; it returns the graph's spec.
func queueServers(ctx context.Context, c *queue.Config, graph, bins string, binsSet bool, maxMemory string, rf runFlags, stderr io.Writer) (graphgen.Spec, error) {
	limit, err := parseMaxMemory(maxMemory)
	if err != nil {
		return graphgen.Spec{}, err
	}
	maxN, why := int64(queue.MaxServers), "the servers engine's 32-bit ids"
	if sp, err := graphgen.ParseSpec(graph); err == nil && sp.Kind == "complete" && c.Engine != queue.EngineServers {
		maxN, why = queue.MaxLevelServers, "the level engine"
	}
	gf, err := parseGraph(graph, bins, binsSet, maxN, why)
	if err != nil {
		return gf.Spec, err
	}
	parallel := rf.trials
	if rf.workers > 0 {
		parallel = min(rf.trials, rf.workers)
	}
	c.N = gf.N
	if c.Sample == queue.Uniform {
		return gf.Spec, wrapUsage(memorySources.Check("this run", c.Memory(parallel), "", limit))
	}
	probe := *c // the engine, for the estimate: levels on complete
	if gf.Spec.Kind == "complete" {
		probe.Graph = graphgen.Complete(gf.N)
	}
	gf.MaxMemory, gf.Extra, gf.Lean = limit, probe.Memory(parallel), c.Sample == queue.Edge
	g, _, err := gf.buildContext(ctx, rf.seed, stderr)
	if err != nil {
		return gf.Spec, err
	}
	c.Graph, c.N = g, int64(g.Order())
	return gf.Spec, nil
}
