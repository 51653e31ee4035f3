package main

import (
	"context"
	"errors"
	"time"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/study"
)

// The explorer's memory: one budget (explorer.Budget) for all requests,
// each reserving what it will hold before it builds a graph or runs a
// trial, worked out from its flags and the graph spec's Plan alone.

// budgetWait is how long a request waits for other runs to release the
// bytes it needs before it is refused as busy.
const budgetWait = 2 * time.Second

// demand is what a request will hold, from its flags alone: n as the
// graph spec plans it, m, and the bytes of the graph, the loads of the
// trials that run at once and the finished trials (results, of bytes).
type demand struct{ n, m, bytes, results int64 }

// demand works out the job's demand before anything is built. A flag it
// cannot read counts for nothing here: setup reports it.
func (j *job) demand() (demand, error) {
	o := &j.o
	descs, err := o.pf.descriptors()
	if err != nil || len(descs) != 1 {
		return demand{}, nil
	}
	desc := descs[0]
	params, err := o.pf.params(j.fset, descs)
	if err != nil {
		return demand{}, nil
	}
	gf, req, err := o.request(j.fset, desc, params)
	if err != nil {
		return demand{}, err
	}
	p, _ := study.Plan(req) // an --engine setup refuses counts for nothing here
	d := demand{n: gf.n}
	if desc.Uses&alloc.ParamGraph != 0 {
		if p.GraphErr != nil {
			return demand{}, usageError{p.GraphErr}
		}
		d.n, d.bytes = p.N, p.GraphBytes
	}
	d.m, _ = study.ParseCount(o.balls, d.n)
	every, _ := study.ParseCount(o.every, d.n)
	if every < 1 {
		every = max(1, d.m/20) // the picture's series
	}
	r := p.Memory
	r.Every, r.JSON = every, false
	d.results = r.HeldBytes()
	d.bytes += r.Bytes()
	return d, nil
}

// reserve takes need bytes of the server's budget, waiting up to
// budgetWait for other runs to finish.
func (s *server) reserve(ctx context.Context, need int64) (func(), error) {
	release, err := s.budget.Reserve(ctx, need, s.wait)
	switch {
	case errors.Is(err, explorer.ErrOverBudget):
		what := "--max-memory"
		if s.opt.maxMemory == "" {
			what = "the memory available"
		}
		return nil, usagef("this run needs about %s, more than %s (%s), which all this server's runs share; ask for fewer bins, balls or trials", graphgen.FormatBytes(need), what, graphgen.FormatBytes(s.budget.Total()))
	case errors.Is(err, explorer.ErrBusy):
		return nil, busyError{need: need, total: s.budget.Total()}
	}
	return release, err
}

// busyError refuses a run whose bytes other runs hold: a try later, not
// a bad request (503 for a download).
type busyError struct{ need, total int64 }

func (e busyError) Error() string {
	return "the server is busy: this run needs about " + graphgen.FormatBytes(e.need) + " of its memory budget of " + graphgen.FormatBytes(e.total) + ", which other runs hold; try again when they finish"
}

// buildJob sets the job up (building its graph) with s.build, and waits
// for it, unless ctx ends first: then it returns at once, and the
// job's bytes go back to the budget only when the build has returned,
// since until then the build holds them.
func (s *server) buildJob(ctx context.Context, j *job) error {
	done := make(chan error, 1)
	go func() { done <- s.build(ctx, j) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		release := j.release
		j.release = func() {}
		go func() {
			<-done
			release()
		}()
		return ctx.Err()
	}
}

// setupBuild is the server's build: run's setup, which builds the graph,
// and the graph again for the page's picture (n <= explorer.PictureMax).
// Both builds stop once ctx is done (the client has gone), so the job's
// reservation returns within a second.
func setupBuild(ctx context.Context, j *job) error {
	var err error
	if j.cfg, j.head, _, err = j.o.setupContext(ctx, j.fset, &j.notesBuf); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	j.buildGraph(ctx)
	return nil
}
