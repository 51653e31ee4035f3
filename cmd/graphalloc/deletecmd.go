package main

import (
	"context"
	"io"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// addDelete adds run's flags of the dynamic setting, study.DeleteFlags.
func (o *runOptions) addDelete(fs *pflag.FlagSet) {
	for _, f := range study.DeleteFlags {
		fs.StringVar(f.Field(&o.dyn), f.Name, "", f.Usage)
	}
}

// runDeletions runs the trials of cfg with the deletion model of --delete
// and writes the dynamic result.
func (o *runOptions) runDeletions(ctx context.Context, fs *pflag.FlagSet, cfg alloc.Config, head results.Config, trials []int, stdout io.Writer) error {
	c, err := o.dyn.Dynamic(cfg, fs.Changed)
	if err != nil {
		return usageError{err}
	}
	return results.RunDynamic(ctx, stdout, o.output, o.format, c, head, o.dyn.Delete, trials, o.workers)
}
