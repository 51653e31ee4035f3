// Package study runs comparisons: a grid of topologies × processes × sizes,
// each point a seeded set of trials, reduced to a row that puts the
// measured maximum load beside the theory — the fluid-limit prediction and
// the bounds of docs/theory.md that apply — and, optionally, a figure.
// It is what `graphalloc compare` calls; a notebook or a cluster job can
// call it the same way:
//
//	g := study.Grid{
//		Processes: []string{"graph"},
//		Graphs:    []graphgen.Spec{graphgen.MustParseSpec("regular:degree=16"), graphgen.MustParseSpec("cycle")},
//		Ns:        []int{1 << 12, 1 << 14},
//		Params:    alloc.Params{D: 2},
//		Trials:    20,
//		Seed:      1,
//	}
//	_, err := study.Run(ctx, g, func(r study.Row) error {
//		fmt.Println(r.Topology, r.N, r.MaxLoad.Mean, r.MaxLoad.CI95)
//		return nil
//	}, nil)
//
// # Why a package of its own
//
// A grid needs the three other packages: graphgen to build each topology,
// alloc to run the trials, analysis for the statistics, the fluid limits and
// the bounds. analysis is the mathematics (it reads alloc's process
// families and measures graphgen's graphs, but runs no trial), and alloc is
// the simulation engine, which has no business knowing the bounds; the
// command line is meant to be a thin layer over library calls. So the grid
// lives here, beside them. From the module, study imports graphgen, alloc,
// analysis and figure; beyond it, gonum's stat and distuv and
// yourbasic/graph. It builds figures and never draws them (figure/render
// does), so that results, which reads and writes the result files and
// imports study for its rows, links no plotting package.
//
// # Reproducibility
//
// A row is exactly what `graphalloc run` prints for the same point: each
// graph is built once per (SPEC, n) from alloc.NewRand(alloc.DeriveSeed(seed,
// alloc.StreamGraph, 0)), and a point's trials are trials 0..T−1 of seed
// seed, so trial i depends on (seed, i) alone and the rows are the same for
// any number of workers.
//
// # Planning a run
//
// Plan works out a run before anything is built: the order of its graph,
// the engine (ChooseEngine: the per-bin engine, or the level engine for
// the exchangeable processes on K_n) and the memory it will hold
// (RunMemory). run calls it, and so does the explorer before it reserves a
// request's memory. The memory guard (MemorySources.Check) refuses what
// will not fit, and GraphBuild builds a command's graph under it.
//
// # Topology and the bounds
//
// The bounds of a graphical point need what is known of the graph: Δ if it
// is regular, the minimum degree, ε for a regular:eps spec, the size of a
// dense core and the fraction of the edges it holds. GraphQuery measures
// them on a built graph; SpecQuery reads them from a spec without building
// (so that the bounds of a graph with 2^30 vertices cost nothing).
//
// # Figures
//
// GridFigure turns rows into a figure.Figure: the max load against n (log₂
// axis) per series with the bound curves, keyed by the letters of the
// grid's table, or per series on a categorical axis when the rows share one
// n; and the measured load tails against the fluid limits. A study's Report
// holds its own Figure. render.Draw (package figure/render) draws either as
// PNG, SVG or PDF; compare --plot draws GridFigure with the default options.
//
// # Studies
//
// A Study reproduces one published result as one call (Studies lists the
// eleven; `graphalloc study NAME` runs one): it runs its points at the sizes
// of Params — Default in seconds, Full at the source papers' scale, Tiny for
// tests — and returns a Report of tables, findings computed from them (a
// growth exponent with its Student-t interval from FitLine, a drift with
// its interval) and a Figure. Reports are deterministic by seed and
// independent of the number of workers; docs/studies/NAME.md shows each one
// with the command that printed it.
package study
