package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
)

// maxListEdges is the largest implicit graph gen lists: 2^27 edges take
// about 2 GiB as a CSR and several GB of text. A larger one is written as
// an edge list while it is visited (genStream), up to maxStreamEdges:
// 2^32 edges, about 80 GB of text.
const (
	maxListEdges   = 1 << 27
	maxStreamEdges = 1 << 32
)

// maxDOTEdges bounds DOT output, which gonum builds in memory and which is
// for drawing.
const maxDOTEdges = 1 << 22

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
	if gf.spec.Hyper() {
		return usagef("gen: %s is a hypergraph; gen writes graphs (graphalloc info describes it, run -p %s simulates on it)", gf.spec, alloc.Describe(alloc.Hyper{}).Name)
	}
	if err := checkPlanned(gf, format); err != nil {
		return err
	}
	if err := gf.budget(o.maxMemory, listBytes(gf)); err != nil {
		return err
	}
	g, info, err := gf.buildContext(ctx, o.seed, stderr)
	if err != nil {
		return err
	}
	// A file's own ids go back out: by name in an edge list, or in a
	// names file beside a Matrix Market file unless they are its
	// indices 1..n already.
	names := info.File.Names()
	toStdout := outfile.IsStdout(o.output)
	noBeside := toStdout || outfile.InPlace(o.output) // no file beside a device
	namesFile := ""
	switch {
	case names == nil:
	case format == "mtx" && graphgen.IsIndices(names, 1):
	case format == "mtx" && noBeside:
		fmt.Fprintf(stderr, "graphalloc: warning: %s: Matrix Market numbers the vertices 1..n, and their names go to a file beside the output: give -o FILE to get FILE.names\n", gf.spec.Path)
	case format == "mtx":
		namesFile = graphgen.NamesPath(o.output)
	case format != "edgelist":
		fmt.Fprintf(stderr, "graphalloc: warning: %s: %s numbers the vertices 0..n-1 and drops the file's vertex names (edgelist keeps them, mtx writes them beside)\n", gf.spec.Path, format)
	}
	if format == "mtx" && namesFile == "" && !noBeside {
		if _, err := os.Stat(graphgen.NamesPath(o.output)); err == nil {
			fmt.Fprintf(stderr, "graphalloc: warning: %s is left from another graph (this one's vertices have no names): delete it\n", graphgen.NamesPath(o.output))
		}
	}
	if format != "edgelist" {
		names = nil
	}
	spec := gf.spec
	if g.Size() > maxListEdges {
		if g.Size() > maxStreamEdges {
			return usagef("gen: %s on n=%d is implicit with %d edges, more than the %d gen writes (run simulates it without listing it)", spec, g.Order(), g.Size(), int64(maxStreamEdges))
		}
		if format != "edgelist" {
			return usagef("gen: %s on n=%d is implicit with %d edges, more than the %d gen lists as %s (an edge list it writes as it goes; run simulates it without listing it)", spec, g.Order(), g.Size(), maxListEdges, format)
		}
		return genStream(ctx, g, o.output, compress, stdout, stderr)
	}
	csr, err := graphgen.ListContext(ctx, g)
	if err != nil {
		return err
	}
	if err := checkListed(spec, csr, format, names != nil); err != nil {
		return err
	}
	write := func(w io.Writer) error {
		if compress {
			// Level 1: 5× faster than the default for 15% more bytes
			// on an edge list; graph files are written once and read
			// back by this tool.
			zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
			if err := graphgen.WriteFormat(zw, csr, format, names); err != nil {
				return err
			}
			return zw.Close()
		}
		return graphgen.WriteFormat(w, csr, format, names)
	}
	if err := outfile.Write(ctx, stdout, o.output, write); err != nil || toStdout {
		return err
	}
	fmt.Fprintf(stderr, "graphalloc: wrote %s: n=%d, %d edges, %s%s%s\n", o.output, csr.Order(), csr.Size(), format, map[bool]string{true: ", gzip"}[compress], listedHow(csr, names != nil))
	if namesFile != "" {
		labels := info.File.Labels
		if err := outfile.Write(ctx, stdout, namesFile, func(w io.Writer) error { return graphgen.WriteMatrixMarketNames(w, labels) }); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "graphalloc: wrote %s: the file's vertex names, one \"index name\" line for each of the %d Matrix Market indices\n", namesFile, len(labels))
	}
	return ctx.Err()
}

// checkPlanned refuses, before the graph is built, what checkListed would
// refuse once it is, where the spec's plan already tells the order and the
// edges: a graph6 or DOT file too large for its format.
func checkPlanned(gf graphFlag, format string) error {
	plan, err := gf.spec.Plan(int(gf.n))
	if err != nil || gf.spec.FromFile() {
		return nil // Build reports a bad spec; a file's size is known once read
	}
	switch {
	case format == "graph6" && plan.N > graphgen.MaxGraph6Order:
		return usagef("gen: graph6 needs n <= %d (it stores the adjacency matrix), got n=%d; use edgelist or mtx", graphgen.MaxGraph6Order, plan.N)
	case format == "dot" && plan.Edges > maxDOTEdges:
		return usagef("gen: DOT is for drawing small graphs (at most %d edges), got %d; use edgelist or mtx", maxDOTEdges, plan.Edges)
	}
	return nil
}

// checkListed refuses to write the listed graph csr of spec in format
// where that format cannot hold it: a multigraph but as an edge list by
// number, graph6 beyond MaxGraph6Order vertices, DOT beyond maxDOTEdges.
func checkListed(spec graphgen.Spec, csr *graphgen.CSR, format string, named bool) error {
	switch {
	case csr.Multi() && (format != "edgelist" || named):
		return usagef("gen: %s is a multigraph (loops or parallel edges), which only an edge list by vertex number keeps: use --format edgelist (its header marks it multi)", spec)
	case format == "graph6" && csr.Order() > graphgen.MaxGraph6Order:
		return usagef("gen: graph6 needs n <= %d (it stores the adjacency matrix), got n=%d; use edgelist or mtx", graphgen.MaxGraph6Order, csr.Order())
	case format == "dot" && csr.Size() > maxDOTEdges:
		return usagef("gen: DOT is for drawing small graphs (at most %d edges), got %d; use edgelist or mtx", maxDOTEdges, csr.Size())
	}
	return nil
}

// listedHow is what gen's report adds about the graph it wrote: by the
// file's vertex names (named), and a multigraph's loops and parallel edges.
func listedHow(csr *graphgen.CSR, named bool) string {
	how := ""
	if named {
		how = ", by the file's vertex names"
	}
	if csr.Multi() {
		loops, parallel := csr.LoopsAndParallel()
		how += fmt.Sprintf(", a multigraph (loops %d, parallel edges %d, kept; the header marks it multi)", loops, parallel)
	}
	return how
}

// genStream writes the implicit graph g, too large to list, as an edge
// list while it visits it (graphgen.WriteEdgeListStream): O(1) memory
// whatever its size. The permutation model's multigraph is written with
// its loops and parallel edges, its header marked multi: the bytes a
// listing would give (graphgen.WriteEdgeList of its CSR).
func genStream(ctx context.Context, g graphgen.Graph, output string, compress bool, stdout, stderr io.Writer) error {
	write := func(w io.Writer) error {
		if !compress {
			return graphgen.WriteEdgeListStream(w, g)
		}
		zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err := graphgen.WriteEdgeListStream(zw, g); err != nil {
			return err
		}
		return zw.Close()
	}
	if err := outfile.Write(ctx, stdout, output, write); err != nil || outfile.IsStdout(output) {
		return err
	}
	how := ""
	if _, multi := g.(graphgen.PermutationRegular); multi {
		how = " (a multigraph: loops and parallel edges kept; the header marks it multi)"
	}
	fmt.Fprintf(stderr, "graphalloc: wrote %s: n=%d, %d edges as visited%s, edgelist%s\n", output, g.Order(), g.Size(), how, map[bool]string{true: ", gzip"}[compress])
	return ctx.Err()
}

// listBytes is what gen holds beside the graph of gf: the CSR an implicit
// graph is listed into before it is written (8 bytes an edge and a
// vertex), unless it is streamed (more than maxListEdges).
func listBytes(gf graphFlag) int64 {
	if plan, err := gf.spec.Plan(int(gf.n)); err == nil && plan.Implicit && plan.Edges <= maxListEdges {
		return 8*plan.Edges + 8*int64(plan.N)
	}
	return 0
}
