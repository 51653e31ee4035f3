package study

import (
	"fmt"
	"runtime"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The two engines of a run (alloc.Config.Engine; the CLI's --engine):
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
// seed. auto keeps the per-bin engine wherever it can run, so that a seed
// gives the same numbers at every n up to 2^32 − 1 bins, and takes the
// level engine only beyond. levels forces it, which pays from about
// n = 2^24 on (where the loads do not fit in the caches:
// BENCHMARKS.md) and whenever n bytes per worker would not fit in memory.

// LevelsCapable reports whether the level engine can run process d with
// parameters p (their sampling rule) on the topology graph (the
// descriptor says which processes, and on which graphs and samplers).
func LevelsCapable(d *alloc.Descriptor, p alloc.Params, graph graphgen.Spec) bool {
	p.Graph = nil
	if d.Uses&alloc.ParamGraph != 0 {
		if graph.Kind != "complete" {
			return false
		}
		p.Graph = graphgen.Complete(2)
	}
	return d.Levels(p)
}

// ChooseEngine checks engine (auto, bins or levels) and returns whether a
// run of d on graph with n bins uses the level engine, and the largest n
// it allows. Its errors name the CLI's --engine, whose values they are.
func ChooseEngine(engine string, d *alloc.Descriptor, p alloc.Params, graph graphgen.Spec, n int64) (levels bool, maxN int64, err error) {
	capable := LevelsCapable(d, p, graph)
	maxN = graphgen.MaxOrder
	switch {
	case d.Uses&alloc.ParamGraph != 0:
		// The graph's own limit: 2^62 for K_n, which the level engine
		// runs at any n; 2^40 for the implicit graphs with 64-bit ids.
		// The per-bin engine's loops hold K_n's vertices as uint32, so
		// K_n beyond 2^32 − 1 needs the level engine.
		maxN = int64(graph.OrderLimit())
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
			return false, maxN, fmt.Errorf("--engine levels: runs the exchangeable processes, and graph processes on -g complete with edge or vertex sampling only, not -p %s -g %s --sample %v", d.Name, graph, p.Sample)
		}
		return true, maxN, nil
	}
	return false, maxN, fmt.Errorf("--engine: unknown engine %q (allowed: bins, levels; the default, auto, picks one)", engine)
}

// BinsLimit returns the largest n of a run and what bounds it, for the
// message that refuses a larger one.
func BinsLimit(engine string, d *alloc.Descriptor, p alloc.Params, graph graphgen.Spec) (int64, string) {
	_, maxN, _ := ChooseEngine(engine, d, p, graph, 0)
	switch {
	case maxN == graphgen.MaxImplicitOrder:
		return maxN, "2^40 for an implicit graph"
	case maxN > graphgen.MaxOrder:
		return maxN, "2^62 with the level engine"
	case LevelsCapable(d, p, graph) && d.Uses&alloc.ParamGraph == 0:
		return maxN, "2^62 with --engine levels"
	case d.Uses&alloc.ParamGraph != 0:
		return maxN, "2^32 − 1 for a graph with stored ids; 2^40 for regular:…,implicit, torus:…,implicit and hypercube:implicit"
	}
	return maxN, "the per-bin engine's limit"
}

// RunRequest is a run as its settings give it, before its graph is built:
// the counts are those of ParseCount (1e6, 16n), read once n is known.
type RunRequest struct {
	Process *alloc.Descriptor
	Params  alloc.Params
	Engine  string        // auto, bins or levels (ChooseEngine)
	Spec    graphgen.Spec // the topology; ignored by a process without a graph
	N       int64         // the bins asked for (a spec's own n= overrides it)
	// Balls, Batch and Every are counts or multiples of n; a bad one
	// counts as none here, and is refused once n is known.
	Balls, Batch, Every string
	Profile             bool
	Workers             int // trials at once; ≤ 0: one a CPU
	Trials              int
	Held                int64 // the trials whose results are held until the output is written
	JSON                bool  // the output is a json file, encoded whole
	// Delete is a run's deletion model as alloc.ParseDeletions reads it
	// ("" for none), Steps its steps ("" for the default, DefaultStepsPerBin·n,
	// or a sequence's operations) and Ops the operations of its sequence.
	Delete, Steps string
	Ops           int64
}

// RunPlan is what a run will hold and how it will run, worked out before
// anything is built.
type RunPlan struct {
	// N is the order of the graph as its spec plans it (a spec's n=
	// overrides the bins asked for); Regular reports a regular graph.
	N       int64
	Regular bool
	Levels  bool // the level engine runs it
	// GraphBytes is what building the graph holds, lean when the process
	// draws only uniform edges; 0 for a process without a graph. Graph is
	// the spec's whole plan (K_n's for a process without a graph).
	GraphBytes int64
	Graph      graphgen.Plan
	// GraphErr is the spec's refusal of n, which building the graph
	// reports again.
	GraphErr error
	// Memory is the estimate of the run beside its graph and per-vertex
	// sums.
	Memory RunMemory
}

// Plan works out a run from its request: the order of its graph, the
// engine (ChooseEngine, whose error it returns) and the memory estimate.
// One function holds this so that a run, the explorer's reservation and
// the checks before either agree on what a run needs.
func Plan(r RunRequest) (RunPlan, error) {
	spec, graph := r.Spec, r.Process.Uses&alloc.ParamGraph != 0
	if !graph {
		spec = graphgen.Spec{Kind: "complete"}
	}
	p := RunPlan{N: r.N}
	gp, err := spec.Plan(int(r.N))
	p.Graph = gp
	if err == nil && gp.N > 0 {
		p.N, p.Regular = int64(gp.N), gp.Regular
	}
	if graph {
		p.GraphErr = err
		p.GraphBytes = gp.BuildBytes
		if r.Process.EdgesOnly(r.Params) {
			p.GraphBytes = gp.LeanBytes
		}
	}
	// The engine, from the n asked for: the level engine runs only on
	// K_n, whose order is n, and holds no loads.
	p.Levels, _, err = ChooseEngine(r.Engine, r.Process, r.Params, r.Spec, p.N)
	p.Memory = r.Memory(p.N, p.Levels)
	return p, err
}

// Memory returns the estimate of the run on n bins (levels: the level
// engine), less the graph and the per-vertex sums: the loads of each
// trial that runs at once, and the results of the held trials.
func (r RunRequest) Memory(n int64, levels bool) RunMemory {
	workers := int64(r.Workers)
	if workers <= 0 {
		workers = int64(runtime.NumCPU())
	}
	m, _ := ParseCount(r.Balls, n)
	batch, _ := ParseCount(r.Batch, n)
	every, _ := ParseCount(r.Every, n)
	rm := RunMemory{Process: r.Process, Params: r.Params, N: n, M: m, Batch: batch, Every: every,
		Profile: r.Profile, Levels: levels, Running: min(workers, int64(r.Trials)), Held: r.Held, JSON: r.JSON}
	if r.Delete != "" {
		count := func(s string) (int64, error) { return ParseCount(s, n) }
		del, _ := alloc.ParseDeletions(r.Delete, count)
		rm.Delete, rm.Ops = del.Model, r.Ops
		rm.Steps = alloc.DefaultStepsPerBin * n
		if del.Model == alloc.DeleteSequence {
			rm.Steps = r.Ops
		}
		if st, err := count(r.Steps); err == nil && r.Steps != "" {
			rm.Steps = st
		}
	}
	return rm
}
