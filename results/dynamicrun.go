package results

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/internal/outfile"
)

// RunDynamic runs the trials of c, a run with deletions, on workers
// goroutines and writes its file to output (stdout if "" or "-") in
// format once they are done; on an interrupt (ctx done) the trials that
// finished are written, and the error says how many. head is the static
// run's config; del is --delete as given, which names a sequence's file.
// The bounds are those of the process, model and graph that ran.
func RunDynamic(ctx context.Context, stdout io.Writer, output, format string, c alloc.Dynamic, head Config, del string, trials []int, workers int) error {
	var all []alloc.DynamicResult
	err := alloc.RunDynamic(ctx, c, trials, workers, func(r alloc.DynamicResult) error {
		all = append(all, r)
		return nil
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	file := DynamicFileOf(c, head, del, all)
	return writeWhole(ctx, stdout, output, interrupted, len(all), len(trials), func(w io.Writer) error { return WriteDynamic(w, format, file) })
}

// DynamicFileOf is the file of the trials all of c, a run with deletions:
// head is the static run's config, del is --delete as given (which names a
// sequence's file). The bounds are those of the process, model and graph
// that ran.
func DynamicFileOf(c alloc.Dynamic, head Config, del string, all []alloc.DynamicResult) *DynamicFile {
	q := analysis.DynamicQuery{Process: head.Process, D: head.D, N: int64(c.N), M: c.M,
		MaxBalls: c.MostBalls(), Model: c.Del.Model, Phases: c.Del.Phases}
	file := &DynamicFile{Config: head, Delete: c.Del.String(), Steps: c.Steps, Trials: all,
		Summary: DynamicSummary{Stats: SummarizeDynamic(all), Bounds: analysis.DynamicBounds(q)}}
	if c.Del.Model == alloc.DeleteSequence {
		file.Delete = del
	}
	file.Config.M = c.M
	return file
}

// writeWhole writes an output that is written whole once its trials are
// done: all of them, or on an interrupt those that finished (the
// interrupt asked for this write: it is not cancelled), and then returns
// the interrupt's error (interruptedTrials).
func writeWhole(ctx context.Context, stdout io.Writer, output string, interrupted bool, done, total int, write func(io.Writer) error) error {
	if !interrupted || done > 0 {
		if err := outfile.Write(context.WithoutCancel(ctx), stdout, output, write); err != nil {
			return err
		}
	}
	if interrupted {
		return interruptedTrials(done, total, output)
	}
	return nil
}

// interruptedTrials is the error of an interrupted run of trials that
// cannot be resumed: how many of total finished, and where they are.
func interruptedTrials(done, total int, output string) error {
	where := "printed above"
	if !outfile.IsStdout(output) {
		where = "they are in " + output
	}
	if done == 0 {
		where = "nothing to write"
	}
	return fmt.Errorf("interrupted: %d of %d trials finished; %s", done, total, where)
}
