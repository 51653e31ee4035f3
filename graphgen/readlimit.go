package graphgen

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DeclaredOrderSlack and DeclaredOrderPerByte make the default rule for a
// declared order (see ReadOptions): a graph read from T bytes of text,
// after decompression, may have at most
// DeclaredOrderSlack + DeclaredOrderPerByte·T vertices.
//
// Every file that declares at most 65536 vertices passes, and so does
// every file whose vertices mostly have edges: an edge line takes at least
// 4 bytes ("1 2\n") and names at most 2 vertices, so the vertices with
// edges number at most T/2, a quarter of the allowance. What fails is a
// large order that the text does not back, a graph whose vertices are
// almost all isolated.
const (
	DeclaredOrderSlack   = 1 << 16
	DeclaredOrderPerByte = 2
)

// ReadOptions bound the memory a reader allocates. The zero value is what
// ReadGraph, ReadEdgeList, ReadMatrixMarket and LoadGraph use.
//
// A few bytes of a file declare sizes that would take gigabytes to honour:
// the Matrix Market size line "2000000000 2000000000 1" declares two
// billion vertices, the graphalloc header "n=4000000000 edges=1" four. So
// no reader allocates from a declared size. The edge array grows, a chunk
// at a time, with the edge lines actually read, and the id table with the
// ids read: T
// bytes of text cost O(T) memory. Only the graph, built once the whole
// file is read, has a size the file may declare, its order; and each
// vertex costs about 40 bytes to build (FileBytes) whether or not the file
// holds any text for it. So a declared order is checked, before anything
// that grows with it is allocated, against the file's size (by default:
// DeclaredOrderSlack) or against MaxBytes.
type ReadOptions struct {
	// MaxBytes, if positive, is the memory the reader may hold: reading
	// stops with an error once the edges read take more, and a graph
	// whose building would take more (FileBytes) is refused before it is
	// built. A declared order is then accepted whatever the file's size
	// if the graph fits. If MaxBytes is 0, the edges read are not
	// limited and a declared order must satisfy the default rule of
	// DeclaredOrderSlack. For ReadEdges and LoadEdges, MaxBytes bounds the
	// edges read and decides whether a regular graph is held as its CSR,
	// and a declared order must always satisfy the default rule: the
	// limit is then the memory a run leaves the graph, not a licence for
	// isolated vertices.
	MaxBytes int64
	// Context, if not nil, stops the read once it is done: the reader
	// polls it every few thousand lines, a FIFO's open (which waits for
	// a writer) and a read from a pipe or FIFO (which waits for data)
	// return at once, and the reader returns Context.Err(). The Load
	// functions need it to abandon a FIFO or a pipe; the Read functions
	// on another io.Reader stop between lines.
	Context context.Context
	// Multi keeps the loops and repeated edges of the file as edges of a
	// multigraph (FromEdgesMulti), as the graphalloc header's multi flag
	// does; the file: spec's multi key sets it.
	Multi bool

	lean bool // reading for ReadEdges: the graph takes LeanBytes
}

// FileBytes bounds what a reader allocates to build a graph on n vertices
// from m edge lines once they are read: the CSR's row offsets (8(n+1)
// bytes) and as much again (the counts FromEdges once kept beside them;
// kept in the bound, which the readers' messages quote), both directions
// of every edge and the flat edge array (16m, a bound: self-loops and
// duplicates are dropped), and the labels (a 16-byte string header per
// vertex and its decimal digits; an edge list with the graphalloc header
// has none).
func FileBytes(n int, m int64) int64 {
	return 16*int64(n+1) + 16*m + 16*int64(n) + int64(decimalLen(0, n))
}

// LeanBytes bounds what ReadEdges allocates, beside the edges it has read,
// to make a graph on n vertices from m edge lines: the degree table of 1
// byte a vertex (the edges become the graph in place).
func LeanBytes(n int, m int64) int64 { return int64(n) }

// checkOrder returns the error for a graph on n vertices from m edge
// lines that may not be built (nil if it may). held is what the reader
// holds already; decl, if not empty, names the declaration of n ("size
// line", "graphalloc header") on line declLine, and hint is added to the
// message when n is refused by the default rule.
func (o ReadOptions) checkOrder(lr *lineReader, n int, m, held int64, decl string, declLine int, hint string) error {
	need := FileBytes(n, m) + held
	if o.lean {
		need = LeanBytes(n, m) + held
	}
	if o.MaxBytes > 0 && !o.lean {
		if need <= o.MaxBytes {
			return nil
		}
		if decl == "" {
			return lr.errorf(0, "the graph on %d vertices would take about %s, more than the limit of %s", n, FormatBytes(need), FormatBytes(o.MaxBytes))
		}
		return lr.errorf(declLine, "%s declares %d vertices: the graph would take about %s, more than the limit of %s", decl, n, FormatBytes(need), FormatBytes(o.MaxBytes))
	}
	allowed := DeclaredOrderSlack + DeclaredOrderPerByte*lr.bytes
	if decl == "" || int64(n) <= allowed {
		// Ids read number at most 2 per edge line of at least 3 bytes.
		return nil
	}
	return lr.errorf(declLine, "%s declares %d vertices, but %d bytes of text back at most %d (%d + %d per byte): building that graph would take about %s, mostly for isolated vertices%s",
		decl, n, lr.bytes, allowed, DeclaredOrderSlack, DeclaredOrderPerByte, FormatBytes(need), hint)
}

// edgeBuf holds the edges a reader has read, (u, v) as two uint32, in a
// list of chunks: the first chunks double from 64 values up to edgeChunk,
// and the others have edgeChunk each. It grows with the edge lines read,
// never with what a header declares, so reading T bytes holds O(T) memory;
// a grown buffer is never copied, so it holds at most 8 bytes an edge plus
// one chunk, and fromChunks builds the graph from the chunks as they are.
type edgeBuf struct {
	chunks [][]uint32
	held   int64 // the capacity of the chunks, in uint32s
	limit  int64 // ReadOptions.MaxBytes
}

// edgeChunk is the length of a full chunk of an edgeBuf: 512 KiB, 65536
// edges.
const edgeChunk = 1 << 17

// add appends the edge (u, v), or returns an error message if the buffer
// would outgrow the limit.
func (b *edgeBuf) add(u, v uint32) string {
	k := len(b.chunks) - 1
	if k < 0 || len(b.chunks[k]) == cap(b.chunks[k]) {
		c := min(max(b.held, 64), edgeChunk)
		if b.limit > 0 && 4*(b.held+c) > b.limit {
			c = 2
			if 4*(b.held+c) > b.limit {
				return fmt.Sprintf("the %d edge lines read so far take more than the limit of %s", b.edges(), FormatBytes(b.limit))
			}
		}
		b.chunks = append(b.chunks, make([]uint32, 0, c))
		b.held += c
		k++
	}
	b.chunks[k] = append(b.chunks[k], u, v)
	return ""
}

// graph builds the CSR on n vertices from the edges held, releasing the
// chunks as it goes, and the FileInfo of a file called name, of the given
// format, lines long, with these labels, a multigraph if multi: the end
// of ReadEdgeList and ReadMatrixMarket. Once stop stops it returns stop's
// error.
func (b *edgeBuf) graph(name, format string, lines, n int, labels []string, multi bool, stop *stopper) (*CSR, *FileInfo, error) {
	var listed []uint32 // a multigraph's lines, in order (CSR.Lines)
	if multi {
		listed = make([]uint32, 0, 2*b.edges())
		for _, c := range b.chunks {
			listed = append(listed, c...)
		}
	}
	g, d, err := fromChunks(n, b.chunks, true, multi, stop)
	b.chunks = nil
	if err := stop.err(); err != nil {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, &ParseError{Name: name, Err: err}
	}
	g.lines = listed
	return g, &FileInfo{Name: name, Format: format, Lines: lines, Vertices: n, Edges: g.Size(),
		SelfLoops: d.SelfLoops, Duplicates: d.Duplicates, Labels: labels, Multi: multi}, nil
}

// edges is the number of edges held.
func (b *edgeBuf) edges() int64 {
	k := len(b.chunks) - 1
	if k < 0 {
		return 0
	}
	return (b.held - int64(cap(b.chunks[k])-len(b.chunks[k]))) / 2
}

// bytes is the memory the buffer holds.
func (b *edgeBuf) bytes() int64 { return 4 * b.held }

// FormatBytes formats a byte count for a message: 3 significant digits
// and a binary unit ("1.5 GiB").
func FormatBytes(b int64) string {
	x := float64(b)
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if x < 1024 || u == "TiB" {
			return fmt.Sprintf("%.3g %s", x, u)
		}
		x /= 1024
	}
	return ""
}

// decimalLen is the number of decimal digits of first, first+1, …,
// first+n-1 (non-negative), in O(log) time.
func decimalLen(first, n int) int {
	total := 0
	lo, end := first, first+n
	width, next := 1, 10
	for next <= lo {
		width, next = width+1, next*10
	}
	for lo < end {
		hi := min(end, next)
		total += (hi - lo) * width
		lo, width, next = hi, width+1, next*10
	}
	return total
}

// decimalLabels returns the n strings first, first+1, …, slicing them all
// from one backing string so that a large n costs two allocations, not n:
// 16 bytes a label and its digits.
func decimalLabels(n, first int) []string {
	labels := make([]string, n)
	var b strings.Builder
	b.Grow(decimalLen(first, n))
	var digits [20]byte
	for v := range n {
		b.Write(strconv.AppendInt(digits[:0], int64(first+v), 10))
	}
	all := b.String()
	start, width, next := 0, 1, 10
	for next <= first {
		width, next = width+1, next*10
	}
	for v := range n {
		if first+v == next {
			width, next = width+1, next*10
		}
		labels[v] = all[start : start+width]
		start += width
	}
	return labels
}

// ReadGraph is the package's ReadGraph under these options.
func (o ReadOptions) ReadGraph(r io.Reader, name string) (*CSR, *FileInfo, error) {
	return o.readCSR(r, name)
}

// LoadGraph is the package's LoadGraph under these options.
func (o ReadOptions) LoadGraph(path string) (*CSR, *FileInfo, error) {
	return load(o, path, o.readCSR)
}
