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

// Execute runs the trials of cfg that prev (the earlier output --resume
// read, ResumeRun; nil if none) does not hold on workers goroutines and
// writes the file: JSON lines as each trial finishes, the other formats
// whole once every trial is done. On an interrupt (ctx done) the trials
// that finished are kept, and the error says how many and how to
// continue. It returns every trial of the file, in order, for the figure.
func (o RunOutput) Execute(ctx context.Context, stdout io.Writer, cfg alloc.Config, prev *Partial, trials []int, workers int) ([]alloc.Result, error) {
	var held []alloc.Result
	if prev != nil {
		held = prev.Trials
	}
	done, todo := splitDone(trials, held, resultTrial)
	run := func(ctx context.Context, todo []int, emit func(alloc.Result) error) error {
		return alloc.Run(ctx, cfg, todo, workers, emit)
	}
	return execute(ctx, o.lines(prev), stdout, done, todo, resultTrial, cfg.M, run, func(all []alloc.Result) (func(io.Writer) error, any, error) {
		sum, err := Summarize(o.Head, all)
		if err != nil {
			return nil, nil, err
		}
		sum.ByDegree = o.byDegree(prev, len(all))
		f := &File{Config: o.Head, Trials: all, Summary: sum}
		return func(w io.Writer) error { return Write(w, o.Format, f) }, sum, nil
	})
}

// ExecuteDynamic is Execute for c, a run with deletions, whose config
// o.Head is (DynamicConfig): prev is read from --resume as for a run
// without, and the file is a DynamicFile.
func (o RunOutput) ExecuteDynamic(ctx context.Context, stdout io.Writer, c alloc.Dynamic, prev *Partial, trials []int, workers int) ([]alloc.DynamicResult, error) {
	var held []alloc.DynamicResult
	if prev != nil {
		held = prev.Dynamic
	}
	done, todo := splitDone(trials, held, dynamicTrial)
	run := func(ctx context.Context, todo []int, emit func(alloc.DynamicResult) error) error {
		return alloc.RunDynamic(ctx, c, todo, workers, emit)
	}
	return execute(ctx, o.lines(prev), stdout, done, todo, dynamicTrial, c.M+c.Steps, run, func(all []alloc.DynamicResult) (func(io.Writer) error, any, error) {
		f, err := NewDynamicFile(o.Head, all)
		if err != nil {
			return nil, nil, err
		}
		return func(w io.Writer) error { return WriteDynamic(w, o.Format, f) }, f.Summary, nil
	})
}

// lines is the output of a run of trials as execute writes it: its
// config, where it goes in which format, the file --resume names and where
// that file stops (to continue it in place), and where progress is shown.
type lines struct {
	head                   any
	output, format, resume string
	at                     resumePoint
	progress               io.Writer
}

// lines is o's output, prev the file --resume read (nil if none).
func (o RunOutput) lines(prev *Partial) lines {
	l := lines{head: o.Head, output: o.Output, format: o.Format, resume: o.Resume, progress: o.Progress}
	if prev != nil {
		l.at = resumePoint{!prev.Complete, prev.Valid}
	}
	return l
}

// execute runs the trials todo with run, beside those done already (num
// reads a trial's number), and writes the file that file makes of every
// trial, with its summary (the last line of JSON lines): JSON lines as
// each trial finishes, continuing the --resume file in place when it is
// the output and cut short; the other formats whole at the end. work is a
// trial's balls (or steps, or events), for the progress shown. On an
// interrupt the finished trials are kept (KeepInterrupted). It returns
// every trial, in order. run, run --delete and queue write through it.
func execute[T any](ctx context.Context, l lines, stdout io.Writer, done []T, todo []int, num func(T) int, work int64,
	run func(context.Context, []int, func(T) error) error, file func([]T) (func(io.Writer) error, any, error)) ([]T, error) {
	var stream *Stream
	if l.format == "jsonl" {
		w, closeFn, err := openLines(ctx, stdout, l.output, l.resume, l.at, func(s *Stream) error { return writeHead(s, l.head, "trial", done) })
		if err != nil {
			return nil, err
		}
		defer closeFn()
		stream = NewStream(w)
	}
	all := append(make([]T, 0, len(done)+len(todo)), done...)                // an empty shard: a list, as every reader expects
	bar := progress.New(l.progress, "run", len(todo), int64(len(todo))*work) // nil unless a terminal
	err := run(ctx, todo, func(r T) error {
		all = append(all, r)
		bar.Add(work)
		if stream != nil {
			return stream.Line("trial", r)
		}
		return nil
	})
	bar.Done()
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return nil, err
	}
	slices.SortFunc(all, func(a, b T) int { return num(a) - num(b) })
	write, sum, err := file(all)
	if err != nil {
		return nil, err
	}
	switch {
	case interrupted:
		return nil, KeepInterrupted(ctx, stdout, l.output, l.format, len(all), len(done)+len(todo), "trial", write)
	case stream != nil:
		return all, stream.Line("summary", sum)
	}
	return all, outfile.Write(ctx, stdout, l.output, write)
}

// byDegree is the load against the degree over the file's total trials:
// the per-vertex gathering's when it saw them all, or, for a resumed run,
// the earlier file's by_degree over its trials merged with the gathering's
// over the new ones; nil when neither covers every trial.
func (o RunOutput) byDegree(prev *Partial, total int) []DegreeStat {
	pv := o.PerVertex
	switch {
	case pv == nil:
		return nil
	case pv.Trials() == total:
		return pv.ByDegree()
	case prev == nil || len(prev.ByDegree) == 0 || prev.ByDegree[0].Trials != len(prev.Trials) || len(prev.Trials)+pv.Trials() != total:
		return nil
	case pv.Trials() == 0:
		return prev.ByDegree
	}
	merged, ok := MergeByDegree([][]DegreeStat{prev.ByDegree, pv.ByDegree()})
	if !ok {
		return nil
	}
	return merged
}
