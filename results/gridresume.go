package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/study"
)

// GridPartial is a grid's file read to resume the grid (compare
// --resume): the config and points it holds, whether it is complete, and
// where its complete lines end.
type GridPartial struct {
	Grid     *Grid
	Complete bool  // JSON, or JSON lines that end with the summary
	Valid    int64 // bytes up to the end of the last complete line (JSON lines)
}

// ReadGridFile reads a grid's file (JSON or JSON lines) from path, within
// InputLimit (ReadInput). A JSON-lines file may end in a partial line,
// left by a grid killed mid-write: it is ignored, as Parse ignores a run's.
func ReadGridFile(ctx context.Context, path string) (*GridPartial, error) {
	b, err := ReadInput(ctx, path, InputLimit())
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s: empty file, not the output of graphalloc compare", path)
	}
	valid := int64(len(b))
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`{"`)) {
		valid = int64(bytes.LastIndexByte(b, '\n') + 1)
	}
	if !IsGrid(b[:valid]) {
		return nil, fmt.Errorf("%s: not the json or jsonl output of graphalloc compare", path)
	}
	g, complete, err := parseGrid(path, b[:valid])
	if err != nil {
		return nil, err
	}
	return &GridPartial{Grid: g, Complete: complete, Valid: valid}, nil
}

// ResumeGrid reads path, an earlier output of grid g whose config is
// cfg, and sets g.Done to the points it holds, so that study.Run runs the
// others; it returns the file read, or nil when path is "". A file of
// another grid, or holding a point that is not g's, is an error.
func ResumeGrid(ctx context.Context, path string, cfg GridConfig, g *study.Grid) (*GridPartial, error) {
	if path == "" {
		return nil, nil
	}
	prev, err := ReadGridFile(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := SameGrid(prev.Grid.Config, cfg); err != nil {
		return nil, fmt.Errorf("%s is the output of another compare: %v", path, err)
	}
	g.Done = prev.Grid.Points
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return prev, nil
}

// KeepInterrupted keeps what an interrupted run or grid finished and
// returns the error that says how to go on (Interrupted): JSON lines hold
// their units already; another format is written whole with the done
// units (write), a write the interrupt asked for and does not cancel.
func KeepInterrupted(ctx context.Context, stdout io.Writer, output, format string, done, total int, unit string, write func(io.Writer) error) error {
	if format != "jsonl" && done > 0 {
		if err := outfile.Write(context.WithoutCancel(ctx), stdout, output, write); err != nil {
			return err
		}
	}
	return errors.New(Interrupted(done, total, unit, output, format))
}

// Interrupted is the message of an interrupted run or grid: done of its
// total units (trials, grid points) finished, where they are, and how to
// continue. An output file in json or jsonl holds them, and --resume
// continues from it; a table or csv file, or stdout, only shows them.
func Interrupted(done, total int, unit, output, format string) string {
	msg := fmt.Sprintf("interrupted: %d of %s finished", done, analysis.Count(total, unit))
	switch {
	case done > 0 && !outfile.IsStdout(output) && (format == "json" || format == "jsonl"):
		msg += fmt.Sprintf("; they are in %s, continue with --resume %s", output, output)
	case done > 0 && !outfile.IsStdout(output):
		msg += fmt.Sprintf("; they are in %s (to be able to resume, run with -f jsonl -o FILE)", output)
	case done > 0:
		msg += "; printed above (to be able to resume, run with -f jsonl -o FILE)"
	}
	return msg
}

// SameGrid reports how the configs of two grids differ, nil when they
// are one grid's (and one shard's).
func SameGrid(a, b GridConfig) error { return sameConfig(a, b) }

// OpenGridStream opens the JSON-lines output of a grid: stdout, a new
// file output, or, when resume names the same file and prev (read from
// it) is cut short, that file continued after its last complete line. A
// new stream starts with the config head and the points of prev. The
// caller closes it with the function.
func OpenGridStream(ctx context.Context, stdout io.Writer, output, resume string, prev *GridPartial, head GridConfig) (*Stream, func() error, error) {
	var at resumePoint
	var done []study.Row
	if prev != nil {
		at, done = resumePoint{!prev.Complete, prev.Valid}, prev.Grid.Points
	}
	w, closeFn, err := openLines(ctx, stdout, output, resume, at, func(s *Stream) error { return writeHead(s, head, "point", done) })
	if err != nil {
		return nil, nil, err
	}
	return NewStream(w), closeFn, nil
}
