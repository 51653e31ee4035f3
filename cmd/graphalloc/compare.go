package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/graphalloc/graphalloc/internal/progress"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

type compareOptions struct {
	runFlags
	plotFlags
	pf                            processFlags
	graphs                        []string
	graphList, bins, balls, shard string
	batch, maxMemory, resume      string
	expansion                     float64
}

func cmdCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o compareOptions
	fs := newFlags("compare", stdout, stderr)
	fs.StringArrayVarP(&o.graphs, graphFlagName, "g", nil, "a topology SPEC for -p graph; repeat for several (a SPEC may contain commas)")
	fs.StringVar(&o.graphList, "graphs", "", "topologies as a ';'-separated list: 'cycle;regular:degree=8'")
	o.pf.add(fs, alloc.Graphical{}.Name(), "processes, comma-separated: "+processList())
	fs.Float64Var(&o.expansion, "expansion", 0, "the edge expansion σ in (0, 1] of the one topology (-g) compared, for the bounds that need it")
	fs.StringVarP(&o.bins, "bins", "n", "2^16", "sizes n: a list 2^10,2^12, or a range 2^10..2^20 (n, 2n, 4n, … up to the end)")
	fs.StringVarP(&o.balls, "balls", "m", "n", "balls m per point: a count (1e6) or a multiple of n (n, 16n)")
	o.add(fs, study.DefaultTrials, "table, csv, json, jsonl (one line per point as it finishes)")
	addBatch(fs, &o.batch)
	addMaxMemory(fs, &o.maxMemory, "runs")
	fs.StringVar(&o.shard, "shard", "", "run only the grid points i with i mod K = I, as I/K")
	fs.StringVar(&o.resume, "resume", "", "skip the points FILE (an earlier output of this compare, json or jsonl) holds and finish the grid; with -f jsonl -o FILE the same file is continued")
	o.addPlot(fs, "the results")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	return o.run(ctx, fs, stdout, stderr)
}

func (o *compareOptions) grid(fs *pflag.FlagSet, stderr io.Writer) (study.Grid, results.GridConfig, error) {
	var g study.Grid
	var cfg results.GridConfig
	if err := o.checkTrials(); err != nil {
		return g, cfg, err
	}
	if err := o.checkPlot(fs); err != nil {
		return g, cfg, err
	}
	descs, err := o.pf.descriptors()
	if err != nil {
		return g, cfg, err
	}
	params, err := o.pf.params(fs, descs)
	if err != nil {
		return g, cfg, err
	}
	if err := checkParams(descs, params, stderr); err != nil {
		return g, cfg, err
	}
	req := study.GridRequest{Processes: descs, Graphs: append(o.graphs, strings.Split(o.graphList, ";")...),
		Bins: o.bins, Balls: o.balls, Batch: o.batch, BatchGiven: fs.Changed("batch"),
		Expansion: o.expansion, ExpansionSet: fs.Changed("expansion"), Params: params, TiesSet: fs.Changed("ties"),
		Trials: o.trials, Seed: o.seed, Workers: o.workers}
	if req.Shard.Index, req.Shard.Of, err = parseShard(o.shard); err != nil {
		return g, cfg, err
	}
	if err := distinctResume(o.output, o.resume, []outfile.File{o.plotFile()}, graphInputs(req.Graphs...)...); err != nil {
		return g, cfg, err
	}
	if g, err = req.Grid(); err != nil {
		return g, cfg, wrapUsage(err)
	}
	if err := g.Check(); err != nil {
		return g, cfg, usageError{err}
	}
	limit, err := parseMaxMemory(o.maxMemory)
	if err != nil {
		return g, cfg, err
	}
	if err := wrapUsage(g.Budget(limit, memorySources)); err != nil {
		return g, cfg, err
	}
	cfg = results.NewGridConfig(g, o.balls)
	cfg.Shard, cfg.Version = o.shard, Version
	return g, cfg, nil
}

func (o *compareOptions) run(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
	useMemoryLimit(o.maxMemory)
	g, cfg, err := o.grid(fs, stderr)
	if err != nil {
		return err
	}
	// Progress: the grid's trials and balls; graph building is not counted.
	var totalBalls int64
	pts := g.Points()
	for _, pt := range pts {
		totalBalls += g.Balls(pt.N) * int64(g.Trials)
	}
	bar := progress.New(stderr, "compare", len(pts)*g.Trials, totalBalls)
	defer bar.Done()
	g.Progress = func(t, _ int, b, _ int64) { bar.Set(t, b) }
	g.Building = func(spec string, n int) {
		if spec == "" {
			bar.Status("")
		} else {
			bar.Status(fmt.Sprintf("building %s at n=%d", spec, n))
		}
	}

	// --resume: keep the points an earlier output holds, run the rest.
	prev, err := results.ResumeGrid(ctx, o.resume, cfg, &g)
	if err != nil {
		return inputError("--resume: ", err)
	}
	rows := g.Done
	var stream *results.Stream
	if o.format == "jsonl" {
		s, closeFn, err := results.OpenGridStream(ctx, stdout, o.output, o.resume, prev, cfg)
		if err != nil {
			return err
		}
		defer closeFn()
		stream = s
	}
	skipped, err := study.Run(ctx, g, func(r study.Row) error {
		rows = append(rows, r)
		if stream != nil {
			return stream.Line("point", r)
		}
		return nil
	}, func(note string) {
		bar.Note(stderr, "graphalloc: "+note)
	})
	bar.Done()
	var skips []string
	for _, e := range skipped {
		skips = append(skips, e.Error())
		if err == nil {
			fmt.Fprintf(stderr, "graphalloc: skipped %s\n", e)
		}
	}
	if err != nil {
		var be *study.BuildError
		switch {
		case errors.As(err, &be):
			return usageError{fmt.Errorf("--graph %w", err)}
		case errors.Is(err, context.Canceled):
			f := &results.Grid{Config: cfg, Points: rows, Skipped: skips}
			return results.KeepInterrupted(ctx, stdout, o.output, o.format, len(rows), len(pts), "grid point", func(w io.Writer) error { return results.WriteGrid(w, o.format, f) })
		}
		return err
	}
	if err := o.plotShard(ctx, stderr, o.shard, len(rows) == 0, func() (*figure.Figure, error) { return study.GridFigure(rows) }); err != nil {
		return err
	}
	if stream != nil {
		return stream.Line("summary", results.GridSummary{Points: len(rows), Skipped: skips})
	}
	f := &results.Grid{Config: cfg, Points: rows, Skipped: skips}
	return outfile.Write(ctx, stdout, o.output, func(w io.Writer) error { return results.WriteGrid(w, o.format, f) })
}
