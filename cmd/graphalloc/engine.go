package main

import (
	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The two engines of `run` (--engine, README.md):
//
//   - bins: a load per bin (alloc.Bins), any process and topology; one byte
//     a bin while every load is below 255, four after; n ≤ 2^32 − 1, and
//     n ≤ 2^40 for the graph processes on the implicit graphs
//     (graphgen.Spec.OrderLimit).
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

// levelsCapable reports whether the level engine can run process d with
// parameters p (their sampling rule) on -g graph (the descriptor says
// which processes, and on which graphs and samplers).
func levelsCapable(d *alloc.Descriptor, p alloc.Params, graph string) bool {
	p.Graph = nil
	if d.Uses&alloc.ParamGraph != 0 {
		sp, err := graphgen.ParseSpec(graph)
		if err != nil || sp.Kind != "complete" {
			return false
		}
		p.Graph = graphgen.Complete(2)
	}
	return d.Levels(p)
}

// chooseEngine checks --engine and returns whether the run uses the level
// engine, and the largest n it allows.
func chooseEngine(engine string, d *alloc.Descriptor, p alloc.Params, graph string, n int64) (levels bool, maxN int64, err error) {
	capable := levelsCapable(d, p, graph)
	maxN = graphgen.MaxOrder
	switch {
	case d.Uses&alloc.ParamGraph != 0:
		// The graph's own limit: 2^62 for K_n, which the level engine
		// runs at any n; 2^40 for the implicit graphs with 64-bit ids.
		// The per-bin engine's loops hold K_n's vertices as uint32, so
		// K_n beyond 2^32 − 1 needs the level engine.
		if sp, err := graphgen.ParseSpec(graph); err == nil {
			maxN = int64(sp.OrderLimit())
		}
		if maxN > graphgen.MaxImplicitOrder && (!capable || engine == "bins") {
			maxN = graphgen.MaxOrder
		}
	case capable && engine != "bins":
		maxN = alloc.MaxLevelBins
	}
	switch engine {
	case "auto":
		return capable && n > graphgen.MaxOrder, maxN, nil
	case "bins":
		return false, maxN, nil
	case "levels":
		if !capable {
			return false, maxN, usagef("--engine levels: runs the exchangeable processes, and graph processes on -g complete with edge or vertex sampling only, not -p %s -g %s --sample %v", d.Name, graph, p.Sample)
		}
		return true, maxN, nil
	}
	return false, maxN, usagef("--engine: unknown engine %q (allowed: bins, levels; the default, auto, picks one)", engine)
}

// binsLimit returns the largest -n of the run and what bounds it, for the
// --bins error.
func binsLimit(engine string, d *alloc.Descriptor, p alloc.Params, graph string) (int64, string) {
	_, maxN, _ := chooseEngine(engine, d, p, graph, 0)
	switch {
	case maxN == graphgen.MaxImplicitOrder:
		return maxN, "2^40 for an implicit graph"
	case maxN > graphgen.MaxOrder:
		return maxN, "2^62 with the level engine"
	case levelsCapable(d, p, graph) && d.Uses&alloc.ParamGraph == 0:
		return maxN, "2^62 with --engine levels"
	case d.Uses&alloc.ParamGraph != 0:
		return maxN, "2^32 − 1 for a graph with stored ids; 2^40 for regular:…,implicit, torus:…,implicit and hypercube:implicit"
	}
	return maxN, "the per-bin engine's limit"
}
