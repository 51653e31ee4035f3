package results

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/internal/progress"
)

// RunOutput is the output of `graphalloc run`: its file's config, where
// it goes (stdout if "" or "-") in which format, the file --resume
// continues, the per-vertex gathering (nil if none) and where progress is
// shown (a terminal's stderr; nowhere otherwise).
type RunOutput struct {
	Head                   Config
	Output, Format, Resume string
	PerVertex              *PerVertex
	Progress               io.Writer
}

// Execute runs the trials of cfg that ResumeRun left to do (done are those
// the earlier output prev holds) on workers goroutines and writes the
// file: JSON lines as each trial finishes, the other formats whole once
// every trial is done. On an interrupt (ctx done) the trials that finished
// are kept, and the error says how many and how to continue. It returns
// every trial of the file, in order, for the figure.
func (o RunOutput) Execute(ctx context.Context, stdout io.Writer, cfg alloc.Config, prev *Partial, done []alloc.Result, trials []int, workers int) ([]alloc.Result, error) {
	var stream *Stream
	if o.Format == "jsonl" {
		w, closeFn, err := OpenStream(ctx, stdout, o.Output, o.Resume, prev, o.Head, done)
		if err != nil {
			return nil, err
		}
		defer closeFn()
		stream = NewStream(w)
	}
	all := done
	bar := progress.New(o.Progress, "run", len(trials), int64(len(trials))*cfg.M) // nil unless a terminal
	err := alloc.Run(ctx, cfg, trials, workers, func(r alloc.Result) error {
		all = append(all, r)
		bar.Add(cfg.M)
		if stream != nil {
			return stream.Trial(r)
		}
		return nil
	})
	bar.Done()
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return nil, err
	}
	slices.SortFunc(all, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	sum, err := Summarize(o.Head, all)
	if err != nil {
		return nil, err
	}
	if o.PerVertex != nil && o.PerVertex.Trials() == len(all) {
		sum.ByDegree = o.PerVertex.ByDegree()
	}
	write := func(w io.Writer) error { return Write(w, o.Format, &File{Config: o.Head, Trials: all, Summary: sum}) }
	switch {
	case interrupted:
		return nil, KeepInterrupted(ctx, stdout, o.Output, o.Format, len(all), len(done)+len(trials), "trial", write)
	case stream != nil:
		return all, stream.Summary(sum)
	}
	return all, outfile.Write(ctx, stdout, o.Output, write)
}
