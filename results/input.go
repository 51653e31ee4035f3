package results

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// MaxLine is the longest line a result file may hold, 64 MiB: a JSON-lines
// record (a trial with its load counts and series, a grid point) and a
// line of an indented JSON file are far shorter, so a longer line means
// the input is not a result file, and reading stops there instead of
// buffering it whole.
const MaxLine = 64 << 20

// minInputLimit is the least InputLimit allows, whatever the memory
// available says: every result file graphalloc writes for a run that fits
// in memory is far smaller.
const minInputLimit = 256 << 20

// InputLimit is the most bytes of result files a command reads: a quarter
// of the memory available (study.AvailableMemory), since the bytes, the
// values decoded from them and the output encoded from those are held at
// once; at least minInputLimit.
func InputLimit() int64 {
	return max(study.AvailableMemory()/4, minInputLimit)
}

// ReadInput reads the result file at path, refusing what cannot be one
// before it is buffered whole: a directory or a device (/dev/zero), a
// regular file of more than limit bytes, and, from a pipe or a FIFO, more
// than limit bytes, a line longer than MaxLine or a NUL byte (result files
// are text). The error names path as given.
func ReadInput(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	defer f.Close()
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
		return nil, fmt.Errorf("%s holds %s, more than the %s a result file may (a quarter of the memory available)",
			path, graphgen.FormatBytes(st.Size()), graphgen.FormatBytes(limit))
	}
	return readBounded(path, f, limit, MaxLine)
}

// readBounded reads r to its end, refusing more than limit bytes, a line
// longer than maxLine and a NUL byte, as soon as it sees them.
func readBounded(name string, r io.Reader, limit int64, maxLine int) ([]byte, error) {
	var b []byte
	buf := make([]byte, 64<<10)
	lineStart := 0 // offset in b of the line being read
	for {
		k, err := r.Read(buf)
		chunk := buf[:k]
		if i := bytes.IndexByte(chunk, 0); i >= 0 {
			return nil, fmt.Errorf("%s: a NUL byte at offset %d: not a result file (they are JSON text)", name, len(b)+i)
		}
		if int64(len(b)+k) > limit {
			return nil, fmt.Errorf("%s: more than %s, the most a result file may hold (a quarter of the memory available)",
				name, graphgen.FormatBytes(limit))
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			lineStart = len(b) + i + 1
		}
		b = append(b, chunk...)
		if len(b)-lineStart > maxLine {
			return nil, fmt.Errorf("%s: a line longer than %s: not a result file", name, graphgen.FormatBytes(int64(maxLine)))
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", name, err)
		}
	}
}
