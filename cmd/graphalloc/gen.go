package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// maxListEdges is the largest implicit graph gen lists: 2^27 edges take
// about 2 GiB as a CSR and several GB of text.
const maxListEdges = 1 << 27

// maxDOTEdges bounds DOT output, which gonum builds in memory and which is
// for drawing.
const maxDOTEdges = 1 << 22

type genOptions struct {
	sizeFlags
	output, format string
	seed           uint64
	gzip           bool
}

func cmdGen(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o genOptions
	fs := newFlags("gen", stdout, stderr)
	o.addSizes(fs, "", "graph SPEC or file to write (required)", false)
	addSeed(fs, &o.seed)
	fs.StringVarP(&o.output, "output", "o", "", "write to FILE (atomically) instead of stdout")
	fs.StringVar(&o.format, "format", "", "edgelist, mtx, dot or graph6 (default: from FILE's extension, else edgelist)")
	fs.BoolVar(&o.gzip, "gzip", false, "gzip the output (default: when FILE ends in .gz)")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if o.graph == "" {
		return usagef("gen: --graph is required (e.g. -g regular:degree=16)")
	}
	if err := checkOutput("--output", o.output); err != nil {
		return err
	}
	format := o.format
	if format == "" {
		format = formatFromName(o.output)
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
	g, info, err := gf.build(o.seed, stderr)
	if err != nil {
		return err
	}
	// A file's own ids go back out: by name in an edge list, or in a
	// names file beside a Matrix Market file unless they are its
	// indices 1..n already.
	names := info.File.Names()
	toStdout := o.output == "" || o.output == "-"
	namesFile := ""
	switch {
	case names == nil:
	case format == "mtx" && isIndices(names, 1):
	case format == "mtx" && toStdout:
		fmt.Fprintf(stderr, "graphalloc: warning: %s: Matrix Market numbers the vertices 1..n, and their names go to a file beside the output: give -o FILE to get FILE.names\n", gf.spec.Path)
	case format == "mtx":
		namesFile = namesPath(o.output)
	case format != "edgelist":
		fmt.Fprintf(stderr, "graphalloc: warning: %s: %s numbers the vertices 0..n-1 and drops the file's vertex names (edgelist keeps them, mtx writes them beside)\n", gf.spec.Path, format)
	}
	if format == "mtx" && namesFile == "" && !toStdout {
		if _, err := os.Stat(namesPath(o.output)); err == nil {
			fmt.Fprintf(stderr, "graphalloc: warning: %s is left from another graph (this one's vertices have no names): delete it\n", namesPath(o.output))
		}
	}
	if format != "edgelist" {
		names = nil
	}
	spec := gf.spec
	csr, err := listGraph(spec, g)
	if err != nil {
		return err
	}
	switch {
	case format == "graph6" && csr.Order() > graphgen.MaxGraph6Order:
		return usagef("gen: graph6 needs n <= %d (it stores the adjacency matrix), got n=%d; use edgelist or mtx", graphgen.MaxGraph6Order, csr.Order())
	case format == "dot" && csr.Size() > maxDOTEdges:
		return usagef("gen: DOT is for drawing small graphs (at most %d edges), got %d; use edgelist or mtx", maxDOTEdges, csr.Size())
	}
	write := func(w io.Writer) error {
		if compress {
			// Level 1: 5× faster than the default for 15% more bytes
			// on an edge list; graph files are written once and read
			// back by this tool.
			zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
			if err := writeGraph(zw, csr, format, names); err != nil {
				return err
			}
			return zw.Close()
		}
		return writeGraph(w, csr, format, names)
	}
	if err := writeOutput(stdout, o.output, write); err != nil || toStdout {
		return err
	}
	byName := ""
	if names != nil {
		byName = ", by the file's vertex names"
	}
	fmt.Fprintf(stderr, "graphalloc: wrote %s: n=%d, %d edges, %s%s%s\n", o.output, csr.Order(), csr.Size(), format, map[bool]string{true: ", gzip"}[compress], byName)
	if namesFile != "" {
		labels := info.File.Labels
		if err := writeOutput(stdout, namesFile, func(w io.Writer) error { return graphgen.WriteMatrixMarketNames(w, labels) }); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "graphalloc: wrote %s: the file's vertex names, one \"index name\" line for each of the %d Matrix Market indices\n", namesFile, len(labels))
	}
	return ctx.Err()
}

// listGraph returns g as a CSR, listing the implicit graphs (K_n as the
// circulant with every offset) unless they exceed maxListEdges.
func listGraph(spec graphgen.Spec, g graphgen.Graph) (*graphgen.CSR, error) {
	if csr, ok := g.(*graphgen.CSR); ok {
		return csr, nil
	}
	if g.Size() > maxListEdges {
		return nil, usagef("gen: %s on n=%d is implicit with %d edges, more than the %d gen lists (run simulates it without listing it)", spec, g.Order(), g.Size(), maxListEdges)
	}
	switch g := g.(type) {
	case graphgen.Circulant:
		return g.CSR()
	case graphgen.Complete:
		if g.Order() < 2 {
			return graphgen.FromIterator(g)
		}
		jumps := make([]int, g.Order()/2)
		for i := range jumps {
			jumps[i] = i + 1
		}
		c, err := graphgen.NewCirculant(g.Order(), jumps)
		if err != nil {
			return nil, err
		}
		return c.CSR()
	}
	return graphgen.FromIterator(g)
}

// formatFromName guesses the output format from a file name.
func formatFromName(name string) string {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	switch filepath.Ext(name) {
	case ".mtx":
		return "mtx"
	case ".dot", ".gv":
		return "dot"
	case ".g6", ".graph6":
		return "graph6"
	}
	return "edgelist"
}

// namesPath is the names file beside the Matrix Market file path: path,
// less a final .gz, with .names added. It is plain text.
func namesPath(path string) string {
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		path = path[:len(path)-3]
	}
	return path + ".names"
}

// isIndices reports whether names are the decimal numbers first, first+1, ….
func isIndices(names []string, first int) bool {
	for v, name := range names {
		if name != strconv.Itoa(first+v) {
			return false
		}
	}
	return true
}

// writeGraph writes g in format; an edge list by names if names is not nil.
func writeGraph(w io.Writer, g *graphgen.CSR, format string, names []string) error {
	switch format {
	case "mtx":
		return graphgen.WriteMatrixMarket(w, g)
	case "dot":
		return graphgen.WriteDOT(w, g)
	case "graph6":
		return graphgen.WriteGraph6(w, g)
	}
	if names != nil {
		return graphgen.WriteEdgeListNamed(w, g, names)
	}
	return graphgen.WriteEdgeList(w, g)
}
