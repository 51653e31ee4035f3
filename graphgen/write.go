package graphgen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/encoding/graph6"
)

// Writers. None of them compresses: to write gzip, hand them a
// gzip.Writer and close it afterwards; ReadGraph and LoadGraph detect the
// compression from the bytes.

var errNilGraph = errors.New("graphgen: nil graph")

// writeEdges writes one line per edge of g, the endpoints shifted by base
// and swapped if swap is set, through a buffer.
func writeEdges(bw *bufio.Writer, g *CSR, base uint64, swap bool) {
	e := g.EdgeList()
	line := make([]byte, 0, 24)
	for k := 0; k < len(e); k += 2 {
		a, b := uint64(e[k])+base, uint64(e[k+1])+base
		if swap {
			a, b = b, a
		}
		line = strconv.AppendUint(line[:0], a, 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, b, 10)
		line = append(line, '\n')
		bw.Write(line) // a bufio.Writer keeps the first error for Flush
	}
}

// WriteEdgeList writes g as an edge list that ReadEdgeList reads back as
// the same graph: first the comment line
//
//	# graphalloc edge list: n=N edges=M
//
// then one line "u v" per edge with u < v, in increasing order. The header
// is what lets isolated vertices survive the round trip: an edge list
// proper only names vertices that have edges, and ReadEdgeList takes the
// header's N as the vertex count (other readers skip it as a comment).
// A graph of more than 65536 vertices that are almost all isolated reads
// back only under ReadOptions.MaxBytes: the default rule wants 1 byte of
// text for every 2 vertices beyond 65536 (see ReadOptions).
// It takes O(n + m) time and returns the first write error.
func WriteEdgeList(w io.Writer, g *CSR) error {
	if g == nil {
		return errNilGraph
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s n=%d edges=%d\n", edgeListHeader, g.Order(), g.Size())
	writeEdges(bw, g, 0, false)
	return bw.Flush()
}

// WriteMatrixMarket writes g as a Matrix Market coordinate file of a
// symmetric pattern matrix:
//
//	%%MatrixMarket matrix coordinate pattern symmetric
//	n n m
//
// then one entry "i j" per edge, 1-based, in the lower triangle (i > j),
// in column-major order. Isolated vertices are kept by the size line, so
// ReadMatrixMarket reads back the same graph (under ReadOptions.MaxBytes
// if it has more than 65536 vertices, almost all of them isolated, as for
// WriteEdgeList). It takes O(n + m) time and
// returns the first write error.
func WriteMatrixMarket(w io.Writer, g *CSR) error {
	if g == nil {
		return errNilGraph
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s matrix coordinate pattern symmetric\n", matrixMarketBanner)
	fmt.Fprintf(bw, "%% written by graphalloc: %d vertices, %d edges\n", g.Order(), g.Size())
	fmt.Fprintf(bw, "%d %d %d\n", g.Order(), g.Order(), g.Size())
	// EdgeList holds (u, v), u < v, sorted by u then v: as entries (v+1, u+1)
	// that is by column, then row.
	writeEdges(bw, g, 1, true)
	return bw.Flush()
}

// WriteDOT writes g in the Graphviz DOT language through gonum's
// encoding/dot: a "strict graph" listing the vertices 0..n-1 and then the
// edges "u -- v". The whole text is built in memory, O(n + m). It returns
// the encoder's or the first write error.
func WriteDOT(w io.Writer, g *CSR) error {
	if g == nil {
		return errNilGraph
	}
	b, err := dot.Marshal(g, "", "", "\t")
	if err != nil {
		return fmt.Errorf("graphgen: DOT encoding: %w", err)
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// MaxGraph6Order is the largest graph WriteGraph6 writes. graph6 stores the
// upper triangle of the adjacency matrix, n(n-1)/2 bits at 6 bits a byte, and
// gonum builds it in memory: at n = 65536 that is about 358 MB.
const MaxGraph6Order = 1 << 16

// WriteGraph6 writes g in McKay's graph6 format, one line, through gonum's
// encoding/graph6 (whose graph6.Graph type reads it back: see the tests).
// It is meant for small graphs: it takes O(n² + m) time and memory and
// returns an error if n > MaxGraph6Order, or the write error.
func WriteGraph6(w io.Writer, g *CSR) error {
	if g == nil {
		return errNilGraph
	}
	if g.Order() > MaxGraph6Order {
		return fmt.Errorf("graphgen: graph6 needs n <= %d (it stores the n(n-1)/2-bit adjacency matrix), got n=%d", MaxGraph6Order, g.Order())
	}
	_, err := io.WriteString(w, string(graph6.Encode(g))+"\n")
	return err
}
