package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/graphalloc/graphalloc/internal/progress"

	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/study"
)

type studyOptions struct {
	runFlags
	plotFlags
	full, tiny bool
	maxMemory  string
}

func cmdStudy(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o studyOptions
	fs := newFlags("study", stdout, stderr)
	fs.BoolVar(&o.full, "full", false, "run the paper-scale size instead of the default")
	fs.BoolVar(&o.tiny, "tiny", false, "run the tiny size the tests use (seconds; too small to show anything)")
	o.add(fs, 0, "table, csv, json")
	o.addPlot(fs, "the study's figure")
	addMaxMemory(fs, &o.maxMemory, "points")
	if err := parseFlags(fs, args, 1); err != nil {
		return err
	}
	if err := checkFormat(o.format, "table", "csv", "json"); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		if o.plot != "" || o.full || o.tiny {
			return usagef("study: name a study to run (studies: %s)", strings.Join(study.StudyNames(), ", "))
		}
		return outfile.Write(ctx, stdout, o.output, study.WriteList)
	}
	if fs.NArg() > 1 {
		return usagef("study: unexpected argument %q", fs.Arg(1))
	}
	s, err := study.Lookup(fs.Arg(0))
	if err != nil {
		return usageError{err}
	}
	size, err := study.SizeOf(o.full, o.tiny)
	if err != nil {
		return usageError{err}
	}
	if o.trials < 0 {
		return usagef("--trials: need at least 1 trial, got %d", o.trials)
	}
	if err := o.check(); err != nil {
		return err
	}
	if err := o.checkPlot(fs); err != nil {
		return err
	}
	if err := distinct(outfile.Outputs(o.output, o.plotFile())...); err != nil {
		return err
	}
	p := s.Params(size)
	if o.trials > 0 {
		p.Trials = o.trials
	}
	limit, err := parseMaxMemory(o.maxMemory)
	if err != nil {
		return err
	}
	useMemoryLimit(o.maxMemory)
	// The memory available (or --max-memory), at least a byte when there
	// is one (0 turns the check off).
	if l, _, ok := memorySources.LimitOf(limit); ok {
		limit = max(l, 1)
	}

	st := progress.New(stderr, "study "+s.Name, 0, 0)
	defer st.Done()
	rep, err := s.Run(ctx, p, study.Options{
		Seed:      o.seed,
		Workers:   o.workers,
		Progress:  st.Point,
		Note:      func(line string) { st.Note(stderr, "graphalloc: "+line) },
		MaxMemory: limit,
	})
	st.Done()
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("study %s interrupted", s.Name)
	case errors.Is(err, study.ErrMemory):
		return usagef("%v; use a smaller size, fewer trials, or raise --max-memory", err)
	}
	if err != nil {
		return err
	}
	if o.plot != "" {
		if rep.Figure == nil || len(rep.Figure.Panels) == 0 {
			return fmt.Errorf("study %s has no figure", s.Name)
		}
		if err := o.drawPlot(ctx, rep.Figure); err != nil {
			return err
		}
	}
	return outfile.Write(ctx, stdout, o.output, func(w io.Writer) error { return rep.Write(w, o.format) })
}
