package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

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
	g, _, err := gf.build(o.seed, stderr)
	if err != nil {
		return err
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
			if err := writeGraph(zw, csr, format); err != nil {
				return err
			}
			return zw.Close()
		}
		return writeGraph(w, csr, format)
	}
	if err := writeOutput(stdout, o.output, write); err != nil || o.output == "" || o.output == "-" {
		return err
	}
	fmt.Fprintf(stderr, "graphalloc: wrote %s: n=%d, %d edges, %s%s\n", o.output, csr.Order(), csr.Size(), format, map[bool]string{true: ", gzip"}[compress])
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

func writeGraph(w io.Writer, g *graphgen.CSR, format string) error {
	switch format {
	case "mtx":
		return graphgen.WriteMatrixMarket(w, g)
	case "dot":
		return graphgen.WriteDOT(w, g)
	case "graph6":
		return graphgen.WriteGraph6(w, g)
	}
	return graphgen.WriteEdgeList(w, g)
}
