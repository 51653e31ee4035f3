package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/internal/infile"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// addDelete adds run's flags of the dynamic setting.
func (o *runOptions) addDelete(fs *pflag.FlagSet) {
	fs.StringVar(&o.del, "delete", "", "run with deletions: abku (a uniform ball leaves, one arrives), fifo (the oldest leaves, one arrives), random:beta=B or random:schedule=B:STEPS/.../B (insert with probability B, else delete from a uniform non-empty bin), file:PATH (a sequence: 'insert' or 'delete K' a line)")
	fs.StringVar(&o.steps, "steps", "", "steps of --delete (a count or a multiple of n; default 100n, or the whole sequence of file:PATH)")
}

// runDeletions runs the trials of cfg with the deletion model of --delete
// and writes the dynamic result.
func (o *runOptions) runDeletions(ctx context.Context, fs *pflag.FlagSet, cfg alloc.Config, head results.Config, trials []int, stdout, stderr io.Writer) error {
	n := int64(cfg.N)
	count := func(s string) (int64, error) { return study.ParseCount(s, n) }
	del, err := alloc.ParseDeletions(o.del, count)
	if err != nil {
		return usagef("--delete: %v", err)
	}
	for _, f := range []string{"batch", "profile", "per-vertex", "resume", "engine"} {
		if fs.Changed(f) {
			return usagef("--delete: --%s does not apply to a run with deletions", f)
		}
	}
	c := alloc.Dynamic{Process: cfg.Process, N: cfg.N, M: cfg.M, Del: del, Seed: cfg.Seed, Every: cfg.Every}
	switch del.Model {
	case alloc.DeleteSequence:
		if fs.Changed("balls") {
			return usagef("--delete: a sequence starts from empty bins: -m does not apply to file:PATH")
		}
		c.Del.Ops, c.M, c.Steps = o.ops, 0, int64(len(o.ops))
	case alloc.DeleteRandom:
		if !fs.Changed("balls") {
			c.M = 0 // the process of [BFKN25] starts empty
		}
	}
	if o.steps != "" {
		if c.Steps, err = count(o.steps); err != nil || c.Steps < 0 {
			return usagef("--steps: need a count >= 0 (e.g. 1e6, 2^20, 100n), got %q", o.steps)
		}
	} else if del.Model != alloc.DeleteSequence {
		c.Steps = alloc.DefaultStepsPerBin * n
	}
	if err := c.Check(); err != nil {
		return usageError{err}
	}
	var all []alloc.DynamicResult
	err = alloc.RunDynamic(ctx, c, trials, o.workers, func(r alloc.DynamicResult) error {
		all = append(all, r)
		return nil
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	slices.SortFunc(all, func(a, b alloc.DynamicResult) int { return a.Trial - b.Trial })
	q := analysis.DynamicQuery{Process: head.Process, D: head.D, Graph: head.Graph.Kind, N: n, M: c.M, MaxBalls: c.MostBalls(), Model: del.Model, Phases: del.Phases}
	file := &results.DynamicFile{Config: head, Delete: del.String(), Steps: c.Steps, Trials: all,
		Summary: results.DynamicSummary{Stats: results.SummarizeDynamic(all), Bounds: analysis.DynamicBounds(q)}}
	if del.Model == alloc.DeleteSequence {
		file.Delete = o.del
	}
	file.Config.M = c.M
	if len(all) > 0 || !interrupted {
		if err := outfile.Write(context.WithoutCancel(ctx), stdout, o.output, func(w io.Writer) error { return results.WriteDynamic(w, o.format, file) }); err != nil {
			return err
		}
	}
	if interrupted {
		return fmt.Errorf("interrupted: %d of %d trials finished", len(all), len(trials))
	}
	return nil
}

// readSequence reads the sequence of --delete file:PATH into o.ops, before
// the graph is built: a bad file is refused up front, and the memory
// estimate counts the sequence.
func (o *runOptions) readSequence(ctx context.Context) error {
	path, ok := strings.CutPrefix(o.del, "file:")
	if !ok || path == "" {
		return nil
	}
	f, closeFn, err := infile.Open(ctx, path)
	if err != nil {
		return inputError("--delete: ", err)
	}
	defer closeFn()
	if o.ops, err = alloc.ReadOps(f); err != nil {
		return usagef("--delete: %s: %v", path, err)
	}
	return nil
}
