package results

import (
	"context"
	"io"

	"github.com/graphalloc/graphalloc/internal/outfile"
)

// resumePoint is where an earlier JSON-lines output read for --resume
// stops: whether it is cut short (no summary line), and the bytes up to
// the end of its last complete line.
type resumePoint struct {
	cut   bool
	valid int64
}

// openLines opens a JSON-lines output: stdout, a new file output, or,
// when resume names the same file and that file is cut short (at), the
// file continued after its last complete line. A new output starts with
// the lines start writes (the config, the units done already). The
// caller closes it with the function.
func openLines(ctx context.Context, stdout io.Writer, output, resume string, at resumePoint, start func(*Stream) error) (io.Writer, func() error, error) {
	if at.cut && !outfile.IsStdout(output) && SameFile(output, resume) {
		f, err := Reopen(output, at.valid)
		if err != nil {
			return nil, nil, err
		}
		return f, f.Close, nil
	}
	var w io.Writer = stdout
	closeFn := func() error { return nil }
	if !outfile.IsStdout(output) {
		f, err := outfile.Create(ctx, output)
		if err != nil {
			return nil, nil, err
		}
		w, closeFn = f, f.Close
	}
	if err := start(NewStream(w)); err != nil {
		closeFn()
		return nil, nil, err
	}
	return w, closeFn, nil
}

// writeHead writes the config line and a line under key for each of the
// items done already: how a JSON-lines file starts.
func writeHead[T any](s *Stream, config any, key string, items []T) error {
	if err := s.Line("config", config); err != nil {
		return err
	}
	for _, r := range items {
		if err := s.Line(key, r); err != nil {
			return err
		}
	}
	return nil
}
