package main

import (
	"bytes"
	"cmp"
	"context"
	"io"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// queueJob is a parsed queue command line: the flags bind to
// queue.Options, the servers are study.QueueServers', the run and its
// file results.QueueOutput's. serve's /api/queue runs it too.
type queueJob struct {
	plotFlags
	o                        queue.Options
	rf                       runFlags
	maxMemory, shard, resume string
	c                        queue.Config
	b                        study.GraphBuild
	build                    bool // b is a graph to build
	notes                    bytes.Buffer
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
	fs.StringVar(&j.shard, "shard", "", "run only shard I of K of the trials, as I/K (0 <= I < K); merge joins the shards' files")
	fs.StringVar(&j.resume, "resume", "", "skip the trials FILE (an earlier output of this run, json or jsonl) holds and finish the run; with -f jsonl -o FILE the same file is continued")
	j.addPlot(fs, "the run's figure (the tails s_i beside the predictions; with --every, the mean queue against the time)")
	if err := parseFlags(fs, args, 0); err != nil {
		return j, err
	}
	_, _, err := parseShard(j.shard)
	limit, merr := parseMaxMemory(j.maxMemory)
	if err := cmp.Or(j.rf.checkTrials(), err, merr, j.checkPlot(fs), distinctResume(j.rf.output, j.resume, []outfile.File{j.plotFile()}, graphInputs(j.o.Graph)...)); err != nil {
		return j, err
	}
	j.o.Seed = j.rf.seed
	c, err := j.o.Config()
	if err != nil {
		return j, usageError{err}
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
	head := results.NewQueueConfig(j.o, &c, j.o.Graph, j.rf.trials, j.shard, Version)
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
	prev, done, todo, err := results.ResumeQueue(ctx, j.resume, r.Head)
	if err != nil {
		return inputError("--resume: ", err)
	}
	f, err := results.QueueOutput{Head: r.Head, Spec: r.Spec, Output: j.rf.output, Format: j.rf.format, Resume: j.resume}.Execute(ctx, stdout, r.Config, prev, done, todo, j.rf.workers)
	if err != nil {
		return err
	}
	return j.plotShard(ctx, stderr, j.shard, len(f.Trials) == 0, func() (*figure.Figure, error) { return results.QueueFigure(f) })
}

// ParseQueue parses a request's queue flags with queue's parser, under
// serve's --max-memory.
func (p runPlanner) ParseQueue(args []string) (explorer.QueueJob, error) {
	if p.maxMemory != "" {
		args = append(args, "--max-memory="+p.maxMemory)
	}
	return parseQueue(args, io.Discard, io.Discard) // the keys are --key=value: never --help
}
