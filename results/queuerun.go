package results

import (
	"context"
	"errors"
	"io"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/queue"
)

// NewQueueConfig is the head of the file of c, run from options o on
// graph (a spec; ignored unless o.Process is graph).
func NewQueueConfig(o queue.Options, c *queue.Config, graph string, trials int, version string) QueueConfig {
	h := QueueConfig{Process: o.Process, D: c.D, N: c.N, Lambda: c.Lambda, Time: c.Time, Warmup: o.Warmup, Sample: c.Sample.String(),
		Engine: c.EngineUsed().String(), Start: o.Start, Batches: c.Batches, Every: c.Every, Seed: c.Seed, Trials: trials, Version: version}
	if h.Batches == 0 {
		h.Batches = queue.DefaultBatches
	}
	if c.Sample != queue.Uniform {
		h.Graph = graph
	}
	return h
}

// RunQueue runs trials 0..T−1 of c on workers goroutines and writes the
// file to output (stdout if "" or "-") in format: JSON lines as each trial
// finishes, the other formats once all have. On an interrupt (ctx done)
// the trials that finished are written, and the error says how many.
// spec is c's graph's spec, for the predictions.
func RunQueue(ctx context.Context, stdout io.Writer, output, format string, c queue.Config, head QueueConfig, spec graphgen.Spec, workers int) error {
	var stream *Stream
	if format == "jsonl" {
		w := stdout
		if !outfile.IsStdout(output) {
			f, err := outfile.Create(ctx, output)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		stream = NewStream(w)
		if err := stream.Line("config", head); err != nil {
			return err
		}
	}
	trials := make([]int, head.Trials)
	for i := range trials {
		trials[i] = i
	}
	var all []queue.Trial
	err := queue.Run(ctx, c, trials, workers, func(t queue.Trial) error {
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
	f := &QueueFile{Config: head, Trials: all, Summary: QueueSummaryOf(&c, spec, all)}
	if stream == nil {
		return writeWhole(ctx, stdout, output, interrupted, len(all), head.Trials, func(w io.Writer) error { return WriteQueue(w, format, f) })
	}
	if interrupted {
		return interruptedTrials(len(all), head.Trials, output)
	}
	return stream.Line("summary", f.Summary)
}
