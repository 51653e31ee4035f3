// Package outfile writes graphalloc's output files in the way each kind of
// target needs.
//
// A regular file, or a path that does not exist yet, is written
// atomically: to a temporary file in the same directory, renamed over the
// path once complete, so that a reader never sees half a file and a
// failed or interrupted write leaves the old content. The temporary file is
// unnamed where the system allows it (Linux's O_TMPFILE, given a name only
// for the rename), so that not even a SIGKILL leaves one behind.
//
// A device (/dev/null, a terminal, /dev/full) or a FIFO cannot be replaced
// without destroying it: it is opened as it is, without creating or
// truncating, and the output streamed into it. So is a path to an open
// descriptor (/dev/stdout, /dev/fd/N), a regular file truncated as a
// shell's redirection does. "-" is standard output.
//
// A symbolic link is followed, a dangling one to the path it names, and
// its final target written by the rules above: the link is kept.
//
// Check and Distinct run before a command does any work: the first that
// an output can be written, the second that no output names an input or
// another output, whatever names the two files go by.
package outfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// IsStdout reports whether path means standard output: "" or "-".
func IsStdout(path string) bool { return path == "" || path == "-" }

// ErrInterrupted is the error of a write stopped by its context's
// cancellation (it matches context.Canceled with errors.Is).
var ErrInterrupted error = interrupted{}

type interrupted struct{}

func (interrupted) Error() string        { return "interrupted" }
func (interrupted) Is(target error) bool { return target == context.Canceled }

// bufSize is the buffer between a writer and its file: large writes, and a
// cancellation noticed at least once a MiB.
const bufSize = 1 << 20

// Write writes what write produces to path, stdout if path is "" or "-",
// by the rules of the package doc. It stops, with ErrInterrupted, at the
// first write after ctx is cancelled; an atomic target then keeps its old
// content and no temporary file. The error names path as given.
func Write(ctx context.Context, stdout io.Writer, path string, write func(io.Writer) error) error {
	if IsStdout(path) {
		return write(ctxWriter{ctx, stdout})
	}
	if err := writeFile(ctx, path, write); err != nil {
		return cannotWrite(path, err)
	}
	return nil
}

// cannotWrite is the error of a write to path, which names the path once,
// as the user gave it.
func cannotWrite(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}

func writeFile(ctx context.Context, path string, write func(io.Writer) error) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.inPlace() {
		f, err := openInPlace(ctx, t)
		if err != nil {
			return err
		}
		werr := fill(ctx, f, write)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return werr
	}
	a, err := createAtomic(t.path)
	if err != nil {
		return err
	}
	if err := fill(ctx, a.f, write); err != nil {
		a.abort()
		return err
	}
	return a.commit()
}

// fill runs write into f through a buffer that stops at ctx's
// cancellation.
func fill(ctx context.Context, f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(ctxWriter{ctx, f}, bufSize)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// Create opens path for a stream that is written as it goes and must
// survive an interruption (JSON lines that --resume continues): a regular
// or new file is created or truncated in place, not atomically; a device
// or FIFO is opened as it is. Symbolic links are followed.
func Create(ctx context.Context, path string) (*os.File, error) {
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if t.inPlace() {
		return openInPlace(ctx, t)
	}
	return os.Create(t.path)
}

// Check reports, before any work, whether path can be written: not a
// directory, and, for an atomic target, in a directory that takes new
// files. It creates nothing that outlives it. Devices and FIFOs are not
// opened (a FIFO would wait for its reader): their errors come with the
// write.
func Check(path string) error {
	if IsStdout(path) {
		return nil
	}
	t, err := resolve(path)
	if err != nil {
		return cannotWrite(path, err)
	}
	if t.exists && t.mode.IsDir() {
		return fmt.Errorf("%s is a directory; name a file in it", path)
	}
	if t.inPlace() {
		return nil
	}
	a, err := createAtomic(t.path)
	if err != nil {
		return cannotWrite(path, err)
	}
	a.abort()
	return nil
}

// InPlace reports whether path is written in place (a device, a FIFO, an
// open descriptor, or a symlink to one), where a file beside it, such as
// gen's FILE.mtx.names, has no place: beside /dev/null is /dev.
func InPlace(path string) bool {
	t, err := resolve(path)
	return err == nil && t.inPlace()
}

// target is a path with its symbolic links resolved.
type target struct {
	path   string      // the final target
	exists bool        // whether it exists
	mode   os.FileMode // its type, if it exists
	// fd: path is a process's open descriptor (/proc/self/fd/1, which
	// /dev/stdout and /dev/fd/1 lead to), written in place whatever it
	// is, as a shell's "> /dev/stdout" does.
	fd bool
}

// inPlace reports whether the target is written as it is: a descriptor, or
// an existing file that is neither regular nor a directory.
func (t target) inPlace() bool {
	return t.fd || (t.exists && !t.mode.IsRegular() && !t.mode.IsDir())
}

// maxLinks is how many symbolic links resolve follows, as Linux's
// MAXSYMLINKS.
const maxLinks = 40

// resolve follows path's symbolic links to the file they end at, or, for
// a dangling link, to the path it names. Links in the directories on the
// way need no resolving: the kernel follows them on open and rename.
func resolve(path string) (target, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if errors.Is(err, os.ErrNotExist) {
			return target{path: path}, nil
		}
		if err != nil {
			return target{}, err
		}
		if st.Mode()&os.ModeSymlink == 0 {
			return target{path: path, exists: true, mode: st.Mode()}, nil
		}
		if isDescriptor(path) {
			st, err := os.Stat(path)
			if err != nil {
				return target{}, err
			}
			return target{path: path, exists: true, mode: st.Mode(), fd: true}, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return target{}, err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return target{}, fmt.Errorf("more than %d symbolic links", maxLinks)
}

// isDescriptor reports whether the symbolic link path is one of /proc's
// links to a process's open files: its target ("pipe:[7]", or a file that
// may have been deleted) is not a path to follow.
func isDescriptor(path string) bool {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	return err == nil && strings.HasPrefix(dir, "/proc/")
}

// openInPlace opens the existing device or FIFO t for writing; a
// descriptor that is a regular file is truncated, as a shell's
// redirection does. Opening a
// FIFO waits for a reader: a cancelled ctx stops the wait (the open itself
// is left to finish, or not, in its goroutine).
func openInPlace(ctx context.Context, t target) (*os.File, error) {
	flag := os.O_WRONLY
	if t.mode.IsRegular() {
		flag |= os.O_TRUNC
	}
	if t.mode&os.ModeNamedPipe == 0 {
		return os.OpenFile(t.path, flag, 0)
	}
	type opened struct {
		f   *os.File
		err error
	}
	c := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(t.path, flag, 0)
		c <- opened{f, err}
	}()
	select {
	case o := <-c:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-c; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ErrInterrupted
	}
}

// ctxWriter writes to w until ctx is cancelled.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, ErrInterrupted
	}
	return c.w.Write(p)
}
