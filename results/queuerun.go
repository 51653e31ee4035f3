package results

import (
	"context"
	"io"

	"github.com/graphalloc/graphalloc/graphgen"
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
// the file as run does (execute): JSON lines as each trial finishes
// (continuing prev's file when it is the output and cut short), the other
// formats whole once every trial is done; on an interrupt (ctx done) the
// trials that finished are kept, and the error says how many and how to
// continue. It returns the file written, every trial in order.
func (o QueueOutput) Execute(ctx context.Context, stdout io.Writer, c queue.Config, prev *QueuePartial, done []queue.Trial, trials []int, workers int) (*QueueFile, error) {
	l := lines{head: o.Head, output: o.Output, format: o.Format, resume: o.Resume, at: prev.at()}
	run := func(ctx context.Context, todo []int, emit func(queue.Trial) error) error {
		return queue.Run(ctx, c, todo, workers, emit)
	}
	var f *QueueFile
	_, err := execute(ctx, l, stdout, done, trials, func(t queue.Trial) int { return t.Trial }, 0, run, func(all []queue.Trial) (func(io.Writer) error, any, error) {
		f = &QueueFile{Config: o.Head, Trials: all, Summary: QueueSummaryOf(&c, o.Spec, all)}
		return func(w io.Writer) error { return WriteQueue(w, o.Format, f) }, f.Summary, nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}
