package main

import (
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// Memory guard: before anything large is allocated, run estimates what the
// loads and the graph will take and refuses a run that cannot fit, with a
// message instead of the Go runtime's fatal "out of memory".

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
