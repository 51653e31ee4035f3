// Package infile opens the files a command reads so that an interrupt is
// heard while it waits on them: the open of a FIFO waits for a writer,
// and a read from a FIFO, a pipe or a terminal waits for data, both deaf
// to SIGINT in a plain os.Open and Read. A FIFO still waits for its writer
// (as cat does: the writer may come later), but no longer than ctx.
package infile

import (
	"context"
	"os"
	"syscall"
	"time"
)

// Open opens the file at path for reading under ctx: the open of a FIFO,
// and any read from a FIFO, a pipe or a terminal, return once ctx is done
// (the open with ctx.Err(); a read with a deadline error, which callers
// report as ctx.Err()). close releases both the file and that
// arrangement. A ctx that is never done gives a plain os.Open.
func Open(ctx context.Context, path string) (f *os.File, close func(), err error) {
	if ctx == nil || ctx.Done() == nil {
		f, err = os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	}
	if f, err = openCtx(ctx, path); err != nil {
		return nil, nil, err
	}
	// A deadline in the past wakes a blocked read on anything the runtime
	// polls (pipes, FIFOs, terminals); a regular file's reads do not
	// block, and the readers poll the context between lines.
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Unix(1, 0)) })
	return f, func() { stop(); f.Close() }, nil
}

// openCtx opens path, returning ctx.Err() if ctx is done first. Only a
// FIFO's open can wait: it is made on another goroutine, which a writer
// that opens and closes the FIFO at once releases when ctx wins (the open
// then succeeds, and its file is closed).
func openCtx(ctx context.Context, path string) (*os.File, error) {
	if st, err := os.Stat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
	}
	// O_NONBLOCK: the open fails at once (ENXIO) rather than waiting if
	// no reader is waiting any more.
	if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
	go func() {
		if r := <-done; r.f != nil {
			r.f.Close()
		}
	}()
	return nil, ctx.Err()
}
