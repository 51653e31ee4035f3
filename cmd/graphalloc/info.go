package main

import (
	"context"
	"io"
	"math"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/internal/progress"
	"github.com/graphalloc/graphalloc/results"
)

type infoOptions struct {
	sizeFlags
	format, maxMemory string
	seed              uint64
	maxIter           int
	tol               float64
}

func cmdInfo(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o infoOptions
	fs := newFlags("info", stdout, stderr)
	o.addSizes(fs, "", "graph SPEC or file (required; a single argument also works)", false)
	addSeed(fs, &o.seed)
	fs.StringVarP(&o.format, "format", "f", "table", "output format: table or json")
	fs.IntVar(&o.maxIter, "max-iter", 3000, "Lanczos steps at most (setting it also lifts the work budget)")
	fs.Float64Var(&o.tol, "tol", 1e-4, "relative width of the spectral gap's interval wanted")
	addMaxMemory(fs, &o.maxMemory, "graphs")
	if err := parseFlags(fs, args, 1); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 1 && o.graph == "":
		o.graph = fs.Arg(0)
	case fs.NArg() > 0:
		return usagef("info: unexpected argument %q (the graph is in -g already)", fs.Arg(0))
	case o.graph == "":
		return usagef("info: --graph is required (a SPEC such as regular:degree=16, or a file)")
	}
	if err := checkFormat(o.format, "table", "json"); err != nil {
		return err
	}
	if o.maxIter < 1 {
		return usagef("--max-iter: need at least 1, got %d", o.maxIter)
	}
	if !(o.tol > 0 && o.tol < 1) {
		return usagef("--tol: need 0 < tol < 1, got %g", o.tol)
	}
	gf, err := parseGraph(o.graph, o.bins, fs.Changed("bins"), graphgen.MaxOrder, "the largest graph")
	if err != nil {
		return err
	}
	// What describing the graph takes beside it: counted before it is built
	// when the spec fixes its edges, else once built (CheckDescribe).
	describe, _ := analysis.PlannedDescribeBytes(gf.Spec, int(gf.N))
	if err := gf.budget(o.maxMemory, describe); err != nil {
		return err
	}
	g, info, err := gf.buildContext(ctx, o.seed, stderr)
	if err != nil {
		return err
	}
	spec := gf.Spec
	if err := wrapUsage(gf.CheckDescribe(g, memorySources)); err != nil {
		return err
	}
	if h, ok := g.(*graphgen.Hypergraph); ok {
		out := analysis.NewHyperInfo(spec, h, info)
		if !spec.FromFile() {
			out.Seed = o.seed
		}
		return writeInfo(stdout, o.format, out, func(w io.Writer) { out.WriteTable(w) })
	}
	opt := analysis.DescribeOptions{MaxIter: o.maxIter, Tol: o.tol, Context: ctx}
	bar := progress.New(stderr, "info", 0, 0) // nil unless stderr is a terminal
	defer bar.Done()
	opt.Progress = func(k int) { bar.Count(k, "passes over the graph", "spectral gap: Lanczos, then its certificate") }
	if fs.Changed("max-iter") {
		opt.MaxWork = math.MaxFloat64
	}
	out, err := analysis.NewInfo(spec, g, info, opt)
	if err != nil {
		return err
	}
	if !spec.FromFile() {
		out.Seed = o.seed
	}
	return writeInfo(stdout, o.format, out, func(w io.Writer) { out.WriteTable(w, o.tol) })
}

// writeInfo writes v to stdout as JSON, or its table.
func writeInfo(stdout io.Writer, format string, v any, table func(io.Writer)) error {
	return outfile.Write(context.Background(), stdout, "", func(w io.Writer) error {
		if format == "json" {
			return results.WriteJSON(w, v)
		}
		table(w)
		return nil
	})
}
