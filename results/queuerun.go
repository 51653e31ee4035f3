package results

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/queue"
)

// NewQueueConfig is the head of the file of c, run from options o on
// graph (a spec; ignored unless o.Process is graph), of its shard ("I/K",
// "" for the whole run).
func NewQueueConfig(o queue.Options, c *queue.Config, graph string, trials int, shard, version string) QueueConfig {
	h := QueueConfig{Process: o.Process, D: c.D, N: c.N, Lambda: c.Lambda, Time: c.Time, Warmup: o.Warmup, Sample: c.Sample.String(),
		Engine: c.EngineUsed().String(), Start: o.Start, Batches: c.Batches, Every: c.Every, Seed: c.Seed, Trials: trials,
		Shard: shard, Version: version}
	if h.Batches == 0 {
		h.Batches = queue.DefaultBatches
	}
	if c.Sample != queue.Uniform {
		h.Graph = graph
	}
	return h
}

// QueueOutput is the output of `graphalloc queue`: its file's config,
// the spec of its graph (for the predictions), where it goes (stdout if
// "" or "-") in which format, and the file --resume continues.
type QueueOutput struct {
	Head                   QueueConfig
	Spec                   graphgen.Spec
	Output, Format, Resume string
}

// Execute runs the trials of c that ResumeQueue left to do (done are
// those the earlier output prev holds) on workers goroutines and writes
// the file: JSON lines as each trial finishes (continuing prev's file
// when it is the output and cut short), the other formats whole once
// every trial is done. On an interrupt (ctx done) the trials that
// finished are kept, and the error says how many and how to continue
// (KeepInterrupted). It returns the file written, every trial in order.
func (o QueueOutput) Execute(ctx context.Context, stdout io.Writer, c queue.Config, prev *QueuePartial, done []queue.Trial, trials []int, workers int) (*QueueFile, error) {
	var stream *Stream
	if o.Format == "jsonl" {
		w, closeFn, err := openLines(ctx, stdout, o.Output, o.Resume, prev.at(), func(s *Stream) error { return writeHead(s, o.Head, "trial", done) })
		if err != nil {
			return nil, err
		}
		defer closeFn()
		stream = NewStream(w)
	}
	all := append([]queue.Trial{}, done...)
	err := queue.Run(ctx, c, trials, workers, func(t queue.Trial) error {
		all = append(all, t)
		if stream != nil {
			return stream.Line("trial", t)
		}
		return nil
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return nil, err
	}
	slices.SortFunc(all, func(a, b queue.Trial) int { return a.Trial - b.Trial })
	f := &QueueFile{Config: o.Head, Trials: all, Summary: QueueSummaryOf(&c, o.Spec, all)}
	write := func(w io.Writer) error { return WriteQueue(w, o.Format, f) }
	switch {
	case interrupted:
		return nil, KeepInterrupted(ctx, stdout, o.Output, o.Format, len(all), len(done)+len(trials), "trial", write)
	case stream != nil:
		return f, stream.Line("summary", f.Summary)
	}
	return f, outfile.Write(ctx, stdout, o.Output, write)
}
