package graphgen

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// List returns g as a CSR: g itself if it is one, else its edges listed
// (K_n as the circulant with every offset, the permutation-model regular
// graph as the multigraph it is: PermutationRegular.CSR). An implicit
// graph can have more
// edges than memory holds: the caller bounds g.Size() first.
func List(g Graph) (*CSR, error) {
	return ListContext(context.Background(), g)
}

// ListContext is List that stops once ctx is done and returns ctx.Err():
// listing an implicit graph of 2^27 edges takes seconds.
func ListContext(ctx context.Context, g Graph) (*CSR, error) {
	if csr, ok := g.(*CSR); ok {
		return csr, nil
	}
	switch g := g.(type) {
	case Circulant:
		return g.CSR()
	case PermutationRegular:
		c, _, err := g.csr(newStopper(ctx))
		return c, err
	case Complete:
		if g.Order() < 2 {
			return fromIterator(g, nil)
		}
		jumps := make([]int, g.Order()/2)
		for i := range jumps {
			jumps[i] = i + 1
		}
		c, err := NewCirculant(g.Order(), jumps)
		if err != nil {
			return nil, err
		}
		return c.CSR()
	}
	return fromIterator(g, newStopper(ctx))
}

// FormatFromName guesses a graph file's format from its name: mtx, dot,
// graph6 or edgelist (a final .gz is ignored).
func FormatFromName(name string) string {
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

// NamesPath is the names file beside the Matrix Market file path: path,
// less a final .gz, with .names added. It is plain text.
func NamesPath(path string) string {
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		path = path[:len(path)-3]
	}
	return path + ".names"
}

// IsIndices reports whether names are the decimal numbers first, first+1, ….
func IsIndices(names []string, first int) bool {
	for v, name := range names {
		if name != strconv.Itoa(first+v) {
			return false
		}
	}
	return true
}

// WriteFormat writes g in format (edgelist, mtx, dot or graph6); an edge
// list by names if names is not nil. A multigraph (CSR.Multi) is written
// only as an edge list by number, the one format that marks it (see
// WriteEdgeList); the others return an error saying so.
func WriteFormat(w io.Writer, g *CSR, format string, names []string) error {
	if g != nil && g.Multi() && (format != "edgelist" || names != nil) {
		return errMultiFormat(format, names != nil)
	}
	switch format {
	case "mtx":
		return WriteMatrixMarket(w, g)
	case "dot":
		return WriteDOT(w, g)
	case "graph6":
		return WriteGraph6(w, g)
	}
	if names != nil {
		return WriteEdgeListNamed(w, g, names)
	}
	return WriteEdgeList(w, g)
}

// errMultiFormat is the error for writing a multigraph in a format that
// would lose its loops and parallel edges.
func errMultiFormat(format string, named bool) error {
	if named {
		format = "edgelist by vertex names"
	}
	return fmt.Errorf("graphgen: the graph is a multigraph (loops or parallel edges), which %s would not keep: write it as an edge list (its graphalloc header marks it multi)", format)
}
