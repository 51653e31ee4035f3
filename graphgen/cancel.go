package graphgen

import (
	"context"
	"io"
	"os"

	"github.com/graphalloc/graphalloc/internal/infile"
)

// stopEvery is how many steps (lines read, vertices or edges made) pass
// between two looks at a context: a few microseconds of work at most, so
// that a cancelled build or read returns well within a second, and the
// look itself, an atomic load, costs nothing beside a step.
const stopEvery = 4096

// stopper polls a context every stopEvery calls of stop. A nil stopper
// never stops, so the exported generators and readers without a context
// pass nil and pay one comparison a step.
type stopper struct {
	ctx context.Context
	k   uint32
}

// newStopper returns a stopper for ctx, or nil if ctx can never be done.
func newStopper(ctx context.Context) *stopper {
	if ctx == nil || ctx.Done() == nil {
		return nil
	}
	return &stopper{ctx: ctx}
}

// stop counts a step and reports, every stopEvery steps, whether the
// context is done.
func (s *stopper) stop() bool { return s.steps(1) }

// steps counts k steps at once (a block of draws) and reports, once
// stopEvery steps have passed since it last looked, whether the context
// is done. It is small enough to be inlined into the loops it counts the
// steps of (a reader's line, a row), so a step costs an addition and a
// comparison.
func (s *stopper) steps(k uint32) bool {
	if s == nil {
		return false
	}
	s.k += k
	return s.k >= stopEvery && s.look()
}

// look starts a new count of steps and reports whether the context is
// done. It is kept out of line so that steps stays within the inlining
// budget.
//
//go:noinline
func (s *stopper) look() bool {
	s.k = 0
	return s.ctx.Err() != nil
}

// err is the context's error: what a stopped generator or reader returns.
func (s *stopper) err() error {
	if s == nil {
		return nil
	}
	return s.ctx.Err()
}

// ctxErr returns the context's error in place of err once the context is
// done: a read cut short by cancellation fails with whatever the
// interrupted read saw (a deadline, a truncated stream), which is not the
// reason.
func (o ReadOptions) ctxErr(err error) error {
	if err != nil && o.Context != nil && o.Context.Err() != nil {
		return o.Context.Err()
	}
	return err
}

// open opens the file at path for reading under o.Context
// (infile.Open): the open of a FIFO, which waits for a writer, and any read
// from a FIFO, a pipe or a terminal, which waits for data, return once the
// context is done. close releases both the file and that arrangement.
func (o ReadOptions) open(path string) (f *os.File, close func(), err error) {
	return infile.Open(o.Context, path)
}

// load opens the file at path (open) and reads it with read, naming it by
// its path; a read cut short by the context fails with ctxErr's error.
func load[T any](o ReadOptions, path string, read func(io.Reader, string) (T, *FileInfo, error)) (T, *FileInfo, error) {
	f, closeFile, err := o.open(path)
	if err != nil {
		var none T
		return none, nil, err
	}
	defer closeFile()
	v, info, err := read(f, path)
	return v, info, o.ctxErr(err)
}
