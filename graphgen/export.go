package graphgen

import (
	"compress/gzip"
	"fmt"
	"io"
)

// The limits of writing a graph out. An implicit graph of at most
// MaxListEdges edges (about 2 GiB as a CSR, several GB of text) is listed
// and then written; a larger one is written as an edge list while it is
// visited (WriteEdgeListStream), up to MaxStreamEdges (about 80 GB of
// text). DOT, which gonum builds in memory and which is for drawing,
// holds at most MaxDOTEdges.
const (
	MaxListEdges   = 1 << 27
	MaxStreamEdges = 1 << 32
	MaxDOTEdges    = 1 << 22
)

// CheckPlanned refuses, before the graph of spec is built on n vertices,
// what CheckListed would refuse once it is, where the spec's plan already
// tells the order and the edges: a graph6 or DOT file too large for its
// format. A bad spec is left to Build, a file's size to CheckListed.
func CheckPlanned(spec Spec, n int, format string) error {
	plan, err := spec.Plan(n)
	if err != nil || spec.FromFile() {
		return nil
	}
	return checkFormatSize(format, plan.N, plan.Edges)
}

// CheckListed refuses to write csr, the listed graph of spec, in format
// where that format cannot hold it: a multigraph but as an edge list by
// number (named: by the file's vertex names), graph6 beyond
// MaxGraph6Order vertices, DOT beyond MaxDOTEdges edges.
func CheckListed(spec Spec, csr *CSR, format string, named bool) error {
	if csr.Multi() && (format != "edgelist" || named) {
		return fmt.Errorf("%s is a multigraph (loops or parallel edges), which only an edge list by vertex number keeps: use --format edgelist (its header marks it multi)", spec)
	}
	return checkFormatSize(format, csr.Order(), csr.Size())
}

// checkFormatSize refuses a graph of n vertices and m edges that format
// cannot hold.
func checkFormatSize(format string, n int, m int64) error {
	switch {
	case format == "graph6" && n > MaxGraph6Order:
		return fmt.Errorf("graph6 needs n <= %d (it stores the adjacency matrix), got n=%d; use edgelist or mtx", MaxGraph6Order, n)
	case format == "dot" && m > MaxDOTEdges:
		return fmt.Errorf("DOT is for drawing small graphs (at most %d edges), got %d; use edgelist or mtx", MaxDOTEdges, m)
	}
	return nil
}

// CheckStream refuses an implicit graph g of spec too large to list
// (more than MaxListEdges edges) that cannot be streamed either: beyond
// MaxStreamEdges, or in a format other than an edge list.
func CheckStream(spec Spec, g Graph, format string) error {
	if g.Size() > MaxStreamEdges {
		return fmt.Errorf("%s on n=%d is implicit with %d edges, more than the %d gen writes (run simulates it without listing it)", spec, g.Order(), g.Size(), int64(MaxStreamEdges))
	}
	if format != "edgelist" {
		return fmt.Errorf("%s on n=%d is implicit with %d edges, more than the %d gen lists as %s (an edge list it writes as it goes; run simulates it without listing it)", spec, g.Order(), g.Size(), MaxListEdges, format)
	}
	return nil
}

// ListBytes is what writing the graph of spec on n vertices holds beside
// the graph: the CSR an implicit graph is listed into (8 bytes an edge
// and a vertex), unless it is streamed.
func ListBytes(spec Spec, n int) int64 {
	if plan, err := spec.Plan(n); err == nil && plan.Implicit && plan.Edges <= MaxListEdges {
		return 8*plan.Edges + 8*int64(plan.N)
	}
	return 0
}

// ListedHow is what a report of the written graph csr adds: by the file's
// vertex names (named), and a multigraph's loops and parallel edges.
func ListedHow(csr *CSR, named bool) string {
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

// StreamedHow is what a report of the streamed graph g adds: the
// permutation model's multigraph, written with its loops and parallel
// edges.
func StreamedHow(g Graph) string {
	if _, multi := g.(PermutationRegular); multi {
		return " (a multigraph: loops and parallel edges kept; the header marks it multi)"
	}
	return ""
}

// WriteGzip is write to w, through gzip if compress: level 1, 5× faster
// than the default for 15% more bytes on an edge list, since graph files
// are written once and read back by this module.
func WriteGzip(w io.Writer, compress bool, write func(io.Writer) error) error {
	if !compress {
		return write(w)
	}
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err := write(zw); err != nil {
		return err
	}
	return zw.Close()
}
