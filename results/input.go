package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/infile"
	"github.com/graphalloc/graphalloc/study"
)

// MaxLine is the longest line a result file may hold, 64 MiB: a JSON-lines
// record (a trial with its load counts and series, a grid point) and a
// line of an indented JSON file are far shorter, so a longer line means
// the input is not a result file, and reading stops there instead of
// buffering it whole.
const MaxLine = 64 << 20

// unknownInputLimit is InputLimit where the memory available is unknown.
const unknownInputLimit = 1 << 30

// InputLimit is the most bytes of result files a command reads: an eighth
// of the memory available (study.AvailableMemory), since the bytes (twice,
// for a moment, when a pipe's chunks are joined), the values decoded from
// them and the output encoded from those are held at once, with the
// garbage collector's headroom; at least MaxLine, and unknownInputLimit if
// the memory available is unknown.
func InputLimit() int64 {
	avail := study.AvailableMemory()
	if avail <= 0 {
		return unknownInputLimit
	}
	return max(avail/8, MaxLine)
}

// ReadInput reads the result file at path, refusing what cannot be one
// before it is buffered whole: a directory or a device (/dev/zero), a
// regular file of more than limit bytes, and, from a pipe or a FIFO, more
// than limit bytes, a line longer than MaxLine or a NUL byte (result files
// are text). The error names path as given; reading stops with ctx's
// error when ctx is done.
func ReadInput(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, closeFile, err := infile.Open(ctx, path)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted while waiting for a writer to open %s: %w", path, ctx.Err())
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	defer closeFile()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	switch mode := st.Mode(); {
	case mode.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a result file", path)
	case mode&os.ModeDevice != 0:
		return nil, fmt.Errorf("%s is a device, not a result file", path)
	case mode.IsRegular() && st.Size() > limit:
		return nil, fmt.Errorf("%s holds %s, more than the %s a result file may (an eighth of the memory available)",
			path, graphgen.FormatBytes(st.Size()), graphgen.FormatBytes(limit))
	}
	chunk := int64(1 << 20)
	if st.Mode().IsRegular() {
		chunk = st.Size() + 1
	}
	return readBounded(path, ctxReader{ctx, f}, limit, MaxLine, chunk)
}

// readBounded reads r to its end, refusing more than limit bytes, a line
// longer than maxLine and a NUL byte, as soon as it sees them. It reads
// in chunks of chunk bytes (the size of a regular file and one more byte
// reads it in one), joined once at the end, so that a long input never
// holds the spare capacity of a doubling slice.
func readBounded(name string, r io.Reader, limit int64, maxLine int, chunk int64) ([]byte, error) {
	var chunks [][]byte
	total, lineStart := int64(0), int64(0) // lineStart: offset of the line being read
	for {
		buf := make([]byte, min(chunk, limit+1-total))
		k, err := io.ReadFull(r, buf)
		buf = buf[:k]
		if i := bytes.IndexByte(buf, 0); i >= 0 {
			return nil, fmt.Errorf("%s: a NUL byte at offset %d: not a result file (they are JSON text)", name, total+int64(i))
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			lineStart = total + int64(i) + 1
		}
		total += int64(k)
		chunks = append(chunks, buf)
		switch {
		case total > limit:
			return nil, fmt.Errorf("%s: more than %s, the most a result file may hold (an eighth of the memory available)",
				name, graphgen.FormatBytes(limit))
		case total-lineStart > int64(maxLine):
			return nil, fmt.Errorf("%s: a line longer than %s: not a result file", name, graphgen.FormatBytes(int64(maxLine)))
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			if len(chunks) == 1 {
				return chunks[0], nil
			}
			return bytes.Join(chunks, nil), nil
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			return nil, fmt.Errorf("interrupted while reading %s: %w", name, err)
		case err != nil:
			return nil, fmt.Errorf("cannot read %s: %v", name, err)
		}
	}
}

// readStep is the most one Read of ctxReader asks for: 16 MiB, a few
// milliseconds, so that an interrupt is heard at once.
const readStep = 16 << 20

// ctxReader reads from r in steps of at most readStep bytes, failing with
// ctx's error once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p[:min(len(p), readStep)])
	if err != nil && c.ctx.Err() != nil {
		err = c.ctx.Err() // the read deadline infile.Open sets when ctx ends
	}
	return n, err
}
