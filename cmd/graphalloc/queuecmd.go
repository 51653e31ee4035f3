package main

import (
	"bytes"
	"context"
	"io"

	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// queueJob is a parsed queue command line: the flags bind to
// queue.Options, the servers are study.QueueServers', the run and its
// file results.RunQueue's. serve's /api/queue runs it too.
type queueJob struct {
	o         queue.Options
	rf        runFlags
	maxMemory string
	c         queue.Config
	b         study.GraphBuild
	build     bool // b is a graph to build
	notes     bytes.Buffer
}

// parseQueue parses and checks the flags of queue, and plans its servers.
func parseQueue(args []string, stdout, stderr io.Writer) (*queueJob, error) {
	j := &queueJob{}
	fs := newFlags("queue", stdout, stderr)
	for _, f := range j.o.Flags() {
		fs.VarP(f.Value, f.Name, f.Short, f.Usage)
	}
	j.rf.add(fs, 4, "table, csv, json, jsonl")
	addMaxMemory(fs, &j.maxMemory, "runs")
	if err := parseFlags(fs, args, 0); err != nil {
		return j, err
	}
	if err := j.rf.checkTrials(); err != nil {
		return j, err
	}
	j.o.Seed = j.rf.seed
	c, err := j.o.Config()
	if err != nil {
		return j, usageError{err}
	}
	limit, err := parseMaxMemory(j.maxMemory)
	if err != nil {
		return j, err
	}
	j.b, j.build, err = study.QueueServers(&c, j.o.Graph, j.o.Bins, fs.Changed("bins"), limit, j.rf.trials, j.rf.workers, memorySources)
	j.c = c
	return j, wrapUsage(err)
}

// Build builds the graph of -p graph and checks the run.
func (j *queueJob) Build(ctx context.Context) (*explorer.QueueRun, error) {
	c := j.c
	if j.build {
		g, _, err := graphFlag{j.b}.buildContext(ctx, j.rf.seed, &j.notes)
		if err != nil {
			return nil, err
		}
		c.Graph, c.N = g, int64(g.Order())
	}
	if err := c.Check(); err != nil {
		return nil, usageError{err}
	}
	head := results.NewQueueConfig(j.o, &c, j.o.Graph, j.rf.trials, Version)
	return &explorer.QueueRun{Config: c, Head: head, Spec: j.b.Spec, Trials: j.rf.trials, Workers: j.rf.workers, Notes: j.notes.String()}, nil
}

// Demand is the run's demand before its graph is built.
func (j *queueJob) Demand() explorer.Demand {
	n, events, bytes := study.QueueDemand(j.c, j.b, j.build, j.rf.trials, j.rf.workers)
	return explorer.Demand{N: n, M: events, Bytes: bytes, Trials: j.rf.trials}
}

// cmdQueue runs the supermarket model.
func cmdQueue(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	j, err := parseQueue(args, stdout, stderr)
	if err != nil {
		return err
	}
	r, err := j.Build(ctx)
	io.Copy(stderr, &j.notes)
	if err != nil {
		return err
	}
	useMemoryLimit(j.maxMemory)
	return results.RunQueue(ctx, stdout, j.rf.output, j.rf.format, r.Config, r.Head, r.Spec, j.rf.workers)
}

// ParseQueue parses a request's queue flags with queue's parser, under
// serve's --max-memory.
func (p runPlanner) ParseQueue(args []string) (explorer.QueueJob, error) {
	if p.maxMemory != "" {
		args = append(args, "--max-memory="+p.maxMemory)
	}
	return parseQueue(args, io.Discard, io.Discard) // the keys are --key=value: never --help
}
