package main

import (
	"context"
	"io"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
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
// (those --resume does not hold already), writes the dynamic result and
// draws its figure (--plot).
func (o *runOptions) runDeletions(ctx context.Context, fs *pflag.FlagSet, cfg alloc.Config, head results.Config, trials []int, stdout, stderr io.Writer) error {
	c, err := o.dyn.Dynamic(cfg, fs.Changed)
	if err != nil {
		return usageError{err}
	}
	head = results.DynamicConfig(c, head, o.dyn.Delete)
	prev, err := results.ResumeRun(ctx, o.resume, head)
	if err != nil {
		return inputError("--resume: ", err)
	}
	out := results.RunOutput{Head: head, Output: o.output, Format: o.format, Resume: o.resume, Progress: stderr}
	all, err := out.ExecuteDynamic(ctx, stdout, c, prev, trials, o.workers)
	if err != nil {
		return err
	}
	return o.plotShard(ctx, stderr, o.shard, len(all) == 0, func() (*figure.Figure, error) { return results.DynamicFigure(head, all), nil })
}
