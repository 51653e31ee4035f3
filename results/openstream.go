package results

import (
	"context"
	"io"

	"github.com/graphalloc/graphalloc/internal/outfile"
)

// OpenStream opens the JSON-lines output of a run: stdout, a new file
// output, or, when resume names the same file and prev (read from it) is
// cut short, that file continued after its last complete line. A new
// stream starts with the config head and the trials done already (of a
// run with deletions or without). The
// caller writes through the writer and closes it with the function.
func OpenStream[T any](ctx context.Context, stdout io.Writer, output, resume string, prev *Partial, head Config, done []T) (io.Writer, func() error, error) {
	continuing := prev != nil && !prev.Complete && !outfile.IsStdout(output) && SameFile(output, resume)
	var w io.Writer = stdout
	closeFn := func() error { return nil }
	switch {
	case continuing:
		f, err := Reopen(output, prev.Valid)
		if err != nil {
			return nil, nil, err
		}
		return f, f.Close, nil
	case !outfile.IsStdout(output):
		f, err := outfile.Create(ctx, output)
		if err != nil {
			return nil, nil, err
		}
		w, closeFn = f, f.Close
	}
	s := NewStream(w)
	if err := s.Config(head); err != nil {
		closeFn()
		return nil, nil, err
	}
	for _, r := range done {
		if err := s.Line("trial", r); err != nil {
			closeFn()
			return nil, nil, err
		}
	}
	return w, closeFn, nil
}
