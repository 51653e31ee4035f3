package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/study"
)

type genOptions struct {
	sizeFlags
	output, format, maxMemory string
	seed                      uint64
	gzip                      bool
}

func cmdGen(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o genOptions
	fs := newFlags("gen", stdout, stderr)
	o.addSizes(fs, "", "graph SPEC or file to write (required)", false)
	addSeed(fs, &o.seed)
	fs.StringVarP(&o.output, "output", "o", "", outputHelp)
	fs.StringVar(&o.format, "format", "", "edgelist, mtx, dot or graph6 (default: from FILE's extension, else edgelist)")
	fs.BoolVar(&o.gzip, "gzip", false, "gzip the output (default: when FILE ends in .gz)")
	addMaxMemory(fs, &o.maxMemory, "graphs")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if o.graph == "" {
		return usagef("gen: --graph is required (e.g. -g regular:degree=16)")
	}
	if err := checkOutput("--output", o.output); err != nil {
		return err
	}
	if err := distinct(append(outfile.Outputs(o.output), graphInputs(o.graph)...)...); err != nil {
		return err
	}
	format := o.format
	if format == "" {
		format = graphgen.FormatFromName(o.output)
	}
	switch format {
	case "edgelist", "mtx", "dot", "graph6":
	default:
		return usagef("--format: unknown format %q (allowed: edgelist, mtx, dot, graph6)", o.format)
	}
	compress := o.gzip || (!fs.Changed("gzip") && strings.HasSuffix(strings.ToLower(o.output), ".gz"))

	gf, err := parseGraph(o.graph, o.bins, fs.Changed("bins"), graphgen.MaxOrder, "the largest graph")
	if err != nil {
		return err
	}
	if gf.Spec.Hyper() {
		return usagef("gen: %s is a hypergraph; gen writes graphs (graphalloc info describes it, run -p %s simulates on it)", gf.Spec, alloc.Describe(alloc.Hyper{}).Name)
	}
	if err := graphgen.CheckPlanned(gf.Spec, int(gf.N), format); err != nil {
		return usagef("gen: %v", err)
	}
	if err := gf.budget(o.maxMemory, graphgen.ListBytes(gf.Spec, int(gf.N))); err != nil {
		return err
	}
	g, info, err := gf.buildContext(ctx, o.seed, stderr)
	if err != nil {
		return err
	}
	// A file's own ids go back out: by name in an edge list, or in a
	// names file beside a Matrix Market file unless they are its
	// indices 1..n already.
	toStdout := outfile.IsStdout(o.output)
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	names, namesFile, warnings := study.GenNames(info.File.Names(), format, o.output, gf.Spec.Path, toStdout || outfile.InPlace(o.output), exists)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "graphalloc: warning:", w)
	}
	spec := gf.Spec
	if g.Size() > graphgen.MaxListEdges {
		if err := graphgen.CheckStream(spec, g, format); err != nil {
			return usagef("gen: %v", err)
		}
		return genStream(ctx, g, o.output, compress, stdout, stderr)
	}
	csr, err := graphgen.ListContext(ctx, g)
	if err != nil {
		return err
	}
	if err := graphgen.CheckListed(spec, csr, format, names != nil); err != nil {
		return usagef("gen: %v", err)
	}
	write := func(w io.Writer) error {
		return graphgen.WriteGzip(w, compress, func(w io.Writer) error { return graphgen.WriteFormat(w, csr, format, names) })
	}
	if err := outfile.Write(ctx, stdout, o.output, write); err != nil || toStdout {
		return err
	}
	fmt.Fprintf(stderr, "graphalloc: wrote %s: n=%d, %d edges, %s%s%s\n", o.output, csr.Order(), csr.Size(), format, map[bool]string{true: ", gzip"}[compress], graphgen.ListedHow(csr, names != nil))
	if namesFile != "" {
		labels := info.File.Labels
		if err := outfile.Write(ctx, stdout, namesFile, func(w io.Writer) error { return graphgen.WriteMatrixMarketNames(w, labels) }); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "graphalloc: wrote %s: the file's vertex names, one \"index name\" line for each of the %d Matrix Market indices\n", namesFile, len(labels))
	}
	return ctx.Err()
}

// genStream writes the implicit graph g, too large to list, as an edge
// list while it visits it (graphgen.WriteEdgeListStream): O(1) memory
// whatever its size. The permutation model's multigraph is written with
// its loops and parallel edges, its header marked multi: the bytes a
// listing would give (graphgen.WriteEdgeList of its CSR).
func genStream(ctx context.Context, g graphgen.Graph, output string, compress bool, stdout, stderr io.Writer) error {
	write := func(w io.Writer) error {
		return graphgen.WriteGzip(w, compress, func(w io.Writer) error { return graphgen.WriteEdgeListStream(w, g) })
	}
	if err := outfile.Write(ctx, stdout, output, write); err != nil || outfile.IsStdout(output) {
		return err
	}
	fmt.Fprintf(stderr, "graphalloc: wrote %s: n=%d, %d edges as visited%s, edgelist%s\n", output, g.Order(), g.Size(), graphgen.StreamedHow(g), map[bool]string{true: ", gzip"}[compress])
	return ctx.Err()
}
