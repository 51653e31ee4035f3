package main

import (
	"context"
	"io"

	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// cmdQueue runs the supermarket model: the flags bind to queue.Options,
// the run and its file are results.RunQueue's.
func cmdQueue(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o queue.Options
	var rf runFlags
	var maxMemory string
	fs := newFlags("queue", stdout, stderr)
	for _, f := range o.Flags() {
		fs.VarP(f.Value, f.Name, f.Short, f.Usage)
	}
	rf.add(fs, 4, "table, csv, json, jsonl")
	addMaxMemory(fs, &maxMemory, "runs")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := rf.checkTrials(); err != nil {
		return err
	}
	o.Seed = rf.seed
	c, err := o.Config()
	if err != nil {
		return usageError{err}
	}
	limit, err := parseMaxMemory(maxMemory)
	if err != nil {
		return err
	}
	b, build, err := study.QueueServers(&c, o.Graph, o.Bins, fs.Changed("bins"), limit, rf.trials, rf.workers, memorySources)
	if err != nil {
		return usageError{err}
	}
	if build {
		g, _, err := graphFlag{b}.buildContext(ctx, rf.seed, stderr)
		if err != nil {
			return err
		}
		c.Graph, c.N = g, int64(g.Order())
	}
	if err := c.Check(); err != nil {
		return usageError{err}
	}
	useMemoryLimit(maxMemory)
	head := results.NewQueueConfig(o, &c, o.Graph, rf.trials, Version)
	return results.RunQueue(ctx, stdout, rf.output, rf.format, c, head, b.Spec, rf.workers)
}
