package main

import (
	"runtime"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// Memory guard: before anything large is allocated, run estimates what the
// loads and the graph will take and refuses a run that cannot fit, with a
// message instead of the Go runtime's fatal "out of memory".

// addMaxMemory defines --max-memory on fs.
func addMaxMemory(fs *pflag.FlagSet, dst *string) {
	fs.StringVar(dst, "max-memory", "", "refuse runs estimated to need more memory than this (512M, 4G; default: the memory available)")
}

// parseMaxMemory reads --max-memory: 0 when it is not given.
func parseMaxMemory(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := study.ParseBytes(s)
	if err != nil {
		return 0, usagef("--max-memory: %v", err)
	}
	return v, nil
}

// gridMemory estimates the most memory one point of grid g holds at once:
// its graph, as planned (the grid builds one graph at a time), and the
// loads of the trials that run together, with a batch in progress.
func gridMemory(g study.Grid) int64 {
	workers := int64(g.Workers)
	if workers <= 0 {
		workers = int64(runtime.NumCPU())
	}
	running := min(workers, int64(g.Trials))
	var most int64
	for _, pt := range g.Points() {
		d, err := alloc.Lookup(pt.Process)
		if err != nil {
			continue
		}
		n, graph := int64(pt.N), int64(0)
		if pt.Graph != "" {
			sp, err := graphgen.ParseSpec(pt.Graph)
			if err != nil {
				continue
			}
			p, err := sp.Plan(pt.N)
			if err != nil {
				continue // Run reports it at its point
			}
			graph = p.BuildBytes
			if p.N > 0 {
				n = int64(p.N)
			}
		}
		loads := int64(d.LoadBytes(g.Params, n, g.Balls(pt.N), g.Batch)) * n
		if g.Batch > 1 {
			loads += 4 * min(g.Batch, n)
		}
		most = max(most, graph+loads*running)
	}
	return most
}

// checkMemory refuses a run whose estimate exceeds limit (or, if limit is
// 0, the available memory).
func checkMemory(need, limit int64) error {
	what := "the memory available"
	if limit == 0 {
		limit = study.AvailableMemory()
	} else {
		what = "--max-memory"
	}
	if limit > 0 && need > limit {
		return usagef("this run needs about %s, more than %s (%s); use fewer workers, a smaller n, or raise --max-memory", graphgen.FormatBytes(need), what, graphgen.FormatBytes(limit))
	}
	return nil
}
