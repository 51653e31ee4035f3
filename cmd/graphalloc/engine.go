package main

import (
	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The two engines of `run` (--engine, README.md):
//
//   - bins: a load per bin (alloc.Bins), any process and topology; one byte
//     a bin while every load is below 255, four after; n ≤ 2^32 − 1.
//   - levels: how many bins hold each load (alloc.Levels), for the
//     exchangeable processes on the complete graph; memory independent of n,
//     n ≤ 2^62.
//
// Both give the same law of every result, but not the same numbers for a
// seed. auto keeps the per-bin engine wherever it can run, so that a run
// that worked before the level engine existed prints what it printed then,
// and takes the level engine only beyond 2^32 − 1 bins. --engine levels
// forces it, which pays from about n = 2^24 on (the loads no longer fit in
// the caches: BENCHMARKS.md) and whenever n bytes per worker would not fit
// in memory.

// levelsProcesses are the -p names the level engine runs (graph only on
// the complete graph).
var levelsProcesses = map[string]bool{
	"one-choice": true, "greedy": true, "left": true, "unbalanced": true,
	"one-plus-beta": true, "firstdiff": true, "rank": true,
}

// levelsCapable reports whether the level engine can run -p process -g graph.
func levelsCapable(process, graph string) bool {
	if process == "graph" {
		sp, err := graphgen.ParseSpec(graph)
		return err == nil && sp.Kind == "complete"
	}
	return levelsProcesses[process]
}

// chooseEngine checks --engine and returns whether the run uses the level
// engine, and the largest n it allows.
func chooseEngine(engine, process, graph string, n int64) (levels bool, maxN int64, err error) {
	capable := levelsCapable(process, graph)
	maxN = graphgen.MaxOrder
	if capable && engine != "bins" && process != "graph" {
		maxN = alloc.MaxLevelBins
	}
	switch engine {
	case "auto":
		return capable && n > graphgen.MaxOrder, maxN, nil
	case "bins":
		return false, maxN, nil
	case "levels":
		if !capable {
			return false, maxN, usagef("--engine levels: runs one-choice, greedy, left, unbalanced, one-plus-beta, firstdiff, rank, and graph on -g complete only, not -p %s -g %s", process, graph)
		}
		return true, maxN, nil
	}
	return false, maxN, usagef("--engine: unknown engine %q (allowed: bins, levels; the default, auto, picks one)", engine)
}

// binsLimit returns the largest -n of the run and what bounds it, for the
// --bins error.
func binsLimit(engine, process, graph string) (int64, string) {
	_, maxN, _ := chooseEngine(engine, process, graph, 0)
	switch {
	case maxN > graphgen.MaxOrder:
		return maxN, "2^62 with the level engine"
	case levelsCapable(process, graph) && process != "graph":
		return maxN, "2^62 with --engine levels"
	}
	return maxN, "the per-bin engine's limit"
}
