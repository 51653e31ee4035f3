// Package infile opens the files a command reads so that neither opening
// nor reading can hang it: a FIFO with no writer, or one whose writer
// never writes, would block open(2) or read(2) for ever, deaf to SIGINT.
package infile

import (
	"context"
	"os"
	"syscall"
	"time"
)

// Open opens path for reading without blocking on a FIFO that has no
// writer (O_NONBLOCK: a FIFO whose writer never comes then reads as
// empty), and ties reads to ctx: once ctx is done, a read blocked on a
// FIFO or a pipe returns an error at once (Go's poller holds such files,
// and a read deadline in the past wakes it). Regular files ignore
// O_NONBLOCK and read as usual. The returned stop releases the tie to
// ctx; call it, then Close.
func Open(ctx context.Context, path string) (f *os.File, stop func() bool, err error) {
	f, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	stop = context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	return f, stop, nil
}
