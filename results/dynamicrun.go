package results

import (
	"context"
	"fmt"
	"io"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/internal/outfile"
)

// DynamicConfig is the config of the file of c, a run with deletions,
// from head, the config of the run without: c's deletion model (for a
// sequence del, --delete as given, which names its file or masking
// spec), its steps, and its initial balls.
func DynamicConfig(c alloc.Dynamic, head Config, del string) Config {
	head.Delete, head.Steps, head.M = c.Del.String(), c.Steps, c.M
	if c.Del.Model == alloc.DeleteSequence {
		head.Delete = del
	}
	return head
}

// writeWhole writes an output that is written whole once its trials are
// done: all of them, or on an interrupt those that finished (the
// interrupt asked for this write: it is not cancelled), and then returns
// the interrupt's error (interruptedTrials).
func writeWhole(ctx context.Context, stdout io.Writer, output string, interrupted bool, done, total int, write func(io.Writer) error) error {
	if !interrupted || done > 0 {
		if err := outfile.Write(context.WithoutCancel(ctx), stdout, output, write); err != nil {
			return err
		}
	}
	if interrupted {
		return interruptedTrials(done, total, output)
	}
	return nil
}

// interruptedTrials is the error of an interrupted run of trials that
// cannot be resumed: how many of total finished, and where they are.
func interruptedTrials(done, total int, output string) error {
	where := "printed above"
	if !outfile.IsStdout(output) {
		where = "they are in " + output
	}
	if done == 0 {
		where = "nothing to write"
	}
	return fmt.Errorf("interrupted: %d of %d trials finished; %s", done, total, where)
}
