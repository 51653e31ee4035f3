package study

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/internal/infile"
)

// DeleteOptions are a run's flags of the dynamic setting as the command
// line gives them (`run --delete MODEL --steps S`), and the sequence of
// file:PATH once ReadSequence has read it.
type DeleteOptions struct {
	Delete, Steps string
	Ops           []alloc.Op
}

// DeleteFlag is a flag of DeleteOptions: its name, help and the field it
// binds.
type DeleteFlag struct {
	Name, Usage string
	Field       func(*DeleteOptions) *string
}

// DeleteFlags are run's flags of the dynamic setting, in the order its
// help shows them; the command binds each by name.
var DeleteFlags = []DeleteFlag{
	{Name: "delete", Field: func(o *DeleteOptions) *string { return &o.Delete },
		Usage: "run with deletions: abku (a uniform ball leaves, one arrives), fifo (the oldest leaves, one arrives), random:beta=B or random:schedule=B:STEPS/.../B (insert with probability B, else delete from a uniform non-empty bin), file:PATH (a sequence: 'insert' or 'delete K' a line), masking:survivors=S[,fillers=F] (an oblivious sequence that drives Greedy[2] on 4 bins to m/4 + Θ(√m))"},
	{Name: "steps", Field: func(o *DeleteOptions) *string { return &o.Steps },
		Usage: "steps of --delete (a count or a multiple of n; default 100n, or the whole sequence of file:PATH or masking)"},
}

// DeleteExcludes are the flags of run that a run with deletions refuses:
// the dynamic engine runs neither batches, profiles, per-vertex sums nor
// the level engine.
var DeleteExcludes = []string{"batch", "profile", "per-vertex", "engine"}

// ReadSequence checks o (Check), then reads the sequence of --delete
// file:PATH into o.Ops, or builds that of --delete masking:survivors=S
// (alloc.MaskingOps), before the graph is built, so that a bad model or
// file is refused up front and the memory estimate counts the sequence;
// nothing more for another model. Its errors name --delete.
func (o *DeleteOptions) ReadSequence(ctx context.Context, changed func(string) bool) error {
	if err := o.Check(changed); err != nil {
		return err
	}
	if spec, ok := strings.CutPrefix(o.Delete, "masking:"); ok {
		s, f, err := alloc.ParseMasking(spec)
		if err == nil {
			o.Ops, err = alloc.MaskingOps(s, f)
		}
		if err != nil {
			return fmt.Errorf("--delete: %w", err)
		}
		return nil
	}
	path, ok := strings.CutPrefix(o.Delete, "file:")
	if !ok || path == "" {
		return nil
	}
	f, closeFn, err := infile.Open(ctx, path)
	if err != nil {
		return fmt.Errorf("--delete: %w", err)
	}
	defer closeFn()
	if o.Ops, err = alloc.ReadOps(f); err != nil {
		return fmt.Errorf("--delete: %s: %w", path, err)
	}
	return nil
}

// Check refuses, before any work, a --delete model that does not parse
// (its step counts read with n = 1: their form, not their size) and a
// flag of DeleteExcludes given with it (changed reports whether a flag
// was); Dynamic checks the rest once n is known.
func (o *DeleteOptions) Check(changed func(string) bool) error {
	if o.Delete == "" {
		return nil
	}
	if _, err := alloc.ParseDeletions(o.Delete, func(s string) (int64, error) { return ParseCount(s, 1) }); err != nil {
		return fmt.Errorf("--delete: %w", err)
	}
	for _, f := range DeleteExcludes {
		if changed(f) {
			return fmt.Errorf("--delete: --%s does not apply to a run with deletions", f)
		}
	}
	return nil
}

// Dynamic returns the run with deletions of o from the static run cfg: a
// sequence starts from empty bins and runs its operations, random
// deletions start from empty bins unless -m is given (changed reports
// whether a flag was), and the steps are --steps or their default. Its
// errors name the flag; a flag of DeleteExcludes given is one.
func (o *DeleteOptions) Dynamic(cfg alloc.Config, changed func(string) bool) (alloc.Dynamic, error) {
	n := int64(cfg.N)
	count := func(s string) (int64, error) { return ParseCount(s, n) }
	if err := o.Check(changed); err != nil {
		return alloc.Dynamic{}, err
	}
	del, err := alloc.ParseDeletions(o.Delete, count)
	if err != nil {
		return alloc.Dynamic{}, fmt.Errorf("--delete: %w", err)
	}
	c := alloc.Dynamic{Process: cfg.Process, N: cfg.N, M: cfg.M, Del: del, Seed: cfg.Seed, Every: cfg.Every}
	switch del.Model {
	case alloc.DeleteSequence:
		if changed("balls") {
			return c, fmt.Errorf("--delete: a sequence starts from empty bins: -m does not apply to file:PATH or masking")
		}
		c.Del.Ops, c.M, c.Steps = o.Ops, 0, int64(len(o.Ops))
	case alloc.DeleteRandom:
		if !changed("balls") {
			c.M = 0 // the process of [BFKN25] starts empty
		}
	}
	if o.Steps != "" {
		if c.Steps, err = count(o.Steps); err != nil || c.Steps < 0 {
			return c, fmt.Errorf("--steps: need a count >= 0 (e.g. 1e6, 2^20, 100n), got %q", o.Steps)
		}
	} else if del.Model != alloc.DeleteSequence {
		c.Steps = alloc.DefaultStepsPerBin * n
	}
	return c, c.Check()
}
