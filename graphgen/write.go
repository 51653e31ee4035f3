package graphgen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/encoding/graph6"
)

// Writers. None of them compresses: to write gzip, hand them a
// gzip.Writer and close it afterwards; ReadGraph and LoadGraph detect the
// compression from the bytes.

var errNilGraph = errors.New("graphgen: nil graph")

// multiFlag is the field of the graphalloc header that marks a multigraph.
func multiFlag(multi bool) string {
	if multi {
		return " " + headerMulti
	}
	return ""
}

// writeEdges writes one line per pair of e, the endpoints shifted by base
// and swapped if swap is set, through a buffer.
func writeEdges(bw *bufio.Writer, e []uint32, base uint64, swap bool) {
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
		if _, err := bw.Write(line); err != nil {
			return // a bufio.Writer keeps the first error for Flush
		}
	}
}

// WriteEdgeList writes g as an edge list that ReadEdgeList reads back as
// the same graph: first the comment line
//
//	# graphalloc edge list: n=N edges=M
//
// then one line "u v" per edge with u < v, in increasing order. A
// multigraph (CSR.Multi) gets the header
//
//	# graphalloc edge list: n=N edges=M multi
//
// and one line per edge, in the order and orientation of its Lines (for
// the permutation model's multigraph: "u π_j(u)" for each u, then j): a
// loop is the line "v v", and k parallel edges are k lines; the readers
// keep them, and that order, because of the flag (older readers ignore it
// and read the simple graph beneath). The header
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
	fmt.Fprintf(bw, "%s n=%d edges=%d%s\n", edgeListHeader, g.Order(), g.Size(), multiFlag(g.Multi()))
	e := g.EdgeList()
	if g.Lines() != nil {
		e = g.Lines()
	}
	writeEdges(bw, e, 0, false)
	return bw.Flush()
}

// WriteEdgeListStream writes any graph as an edge list while it visits
// it, holding O(1) memory, for implicit graphs too large to list as a CSR
// first: the header "# graphalloc edge list: n=N edges=M", M being the
// number of lines that follow, then for each u in increasing order a line
// "u w" for each neighbour w > u, in the order Visit reports them. A
// multigraph's parallel edges become repeated lines; a graph that says it
// is a multigraph (a Multi method returning true, as a multigraph CSR
// does) also gets a line "u u" for every two times Visit reports u as its
// own neighbour (a loop) and the header's multi flag, so that the file
// reads back as the multigraph itself (see WriteEdgeList). The
// permutation model is written as WriteEdgeList writes its CSR (List):
// "u π_j(u)" for each u, then j. Otherwise it visits the graph twice, to count the lines and to
// write them, in O(n + m) time; for a simple graph whose Visit reports
// the neighbours in increasing order (a CSR), the bytes are those of
// WriteEdgeList. It returns the first write error.
func WriteEdgeListStream(w io.Writer, g Graph) error {
	if g == nil {
		return errNilGraph
	}
	if p, ok := g.(PermutationRegular); ok {
		return writePermutationStream(w, p)
	}
	mg, ok := g.(interface{ Multi() bool })
	multi := ok && mg.Multi()
	n := g.Order()
	// visit calls line for each line of u: each w > u, and each second
	// time u itself in a multigraph.
	visit := func(u int, line func(v int) bool) {
		self := false
		g.Visit(u, func(v int, _ int64) bool {
			switch {
			case v > u:
				return line(v)
			case v == u && multi:
				if self = !self; !self {
					return line(v)
				}
			}
			return false
		})
	}
	var lines int64
	for u := range n {
		visit(u, func(int) bool { lines++; return false })
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s n=%d edges=%d%s\n", edgeListHeader, n, lines, multiFlag(multi))
	line := make([]byte, 0, 24)
	// A failed (or cancelled) write stops the visit: a bufio.Writer keeps
	// the first error for Flush.
	var werr error
	for u := 0; u < n && werr == nil; u++ {
		visit(u, func(v int) bool {
			line = strconv.AppendUint(line[:0], uint64(u), 10)
			line = append(line, ' ')
			line = strconv.AppendUint(line, uint64(v), 10)
			line = append(line, '\n')
			_, werr = bw.Write(line)
			return werr != nil
		})
	}
	return bw.Flush()
}

// writePermutationStream is WriteEdgeListStream for the permutation model:
// its n·d edges in the order of PermutationRegular.CSR's Lines, "u π_j(u)"
// for each u, then j, under the header marked multi — the bytes
// WriteEdgeList writes of that CSR.
func writePermutationStream(w io.Writer, g PermutationRegular) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s n=%d edges=%d%s\n", edgeListHeader, g.Order(), g.Size(), multiFlag(true))
	line := make([]byte, 0, 48)
	for u := range g.Order() {
		for j := range g.Permutations() {
			line = strconv.AppendUint(line[:0], uint64(u), 10)
			line = append(line, ' ')
			line = strconv.AppendUint(line, uint64(g.Perm(j, u)), 10)
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return bw.Flush() // the first error, which bw keeps
			}
		}
	}
	return bw.Flush()
}

// WriteEdgeListNamed writes g as an edge list with the vertex v called
// names[v], one line "names[u] names[v]" per edge {u, v}, after the
// comment line
//
//	# written by graphalloc: N vertices, M edges, by name
//
// (which readers skip: it is not the graphalloc header, whose ids are the
// vertex numbers), such that ReadEdgeList reads it back as g itself: the
// same edges, the same numbering, and FileInfo.Labels equal to names.
//
// The reader numbers integer ids in numeric order and any others in order
// of first appearance, so the lines come by larger endpoint v = 0..n-1,
// each v's edges {u, v}, u < v, by increasing u, and the first of them
// brings v in after 0..v-1. A vertex with no smaller neighbour is brought
// in by the line "names[v] names[v+1]" if v+1 is a neighbour, and
// otherwise by the self-loop line "names[v] names[v]", which the reader
// counts in FileInfo.SelfLoops and drops once it has made the vertex.
// Such lines are needed only where the numbering is by appearance (some
// name is not an integer), and then only for vertices that were brought
// in by a self-loop when g was read from a file; and for every vertex
// without edges, which an edge list can name in no other way. If the
// names are all integers the numbering is theirs, g's own when they
// increase with v (as the labels of a file of integer ids do).
//
// Names are the FileInfo.Labels of a file read, or any other ids an edge
// list can hold. It returns an error, before writing anything, unless
// len(names) is g.Order() and the names are distinct non-empty tokens of
// valid UTF-8 without spaces, tabs or control bytes, not starting with '#'
// or '%' (which begin a comment), and not an integer with leading zeros
// (which a reader takes for the integer: "007" is "7"). It takes
// O(n log Δ + m) time and returns the first write error.
func WriteEdgeListNamed(w io.Writer, g *CSR, names []string) error {
	if g == nil {
		return errNilGraph
	}
	if g.Multi() {
		return errMultiFormat("edgelist", true)
	}
	if err := checkNames(g.Order(), names); err != nil {
		return err
	}
	byAppearance := false
	for _, name := range names {
		if strings.Trim(name, "0123456789") != "" {
			byAppearance = true
			break
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "# written by graphalloc: %d vertices, %d edges, by name\n", g.Order(), g.Size())
	line := func(u, v int) {
		bw.WriteString(names[u])
		bw.WriteByte(' ')
		bw.WriteString(names[v])
		bw.WriteByte('\n')
	}
	in := -1     // the largest vertex brought in so far
	paired := -1 // the v whose line "v v+1" brought v+1 in with it
	for v := range g.Order() {
		row := g.Neighbors(v)
		lower, _ := slices.BinarySearch(row, uint32(v)) // row[:lower] < v
		if v > in {
			switch {
			case lower > 0: // the first edge below brings v in
			case byAppearance && lower < len(row) && row[lower] == uint32(v+1):
				line(v, v+1)
				paired, in = v, v+1
			case byAppearance || len(row) == 0:
				line(v, v)
			}
			in = max(in, v)
		}
		for _, u := range row[:lower] {
			if int(u) == paired && paired == v-1 {
				continue // written as v's introduction
			}
			line(int(u), v)
		}
	}
	return bw.Flush()
}

// WriteMatrixMarketNames writes the names of the vertices of a graph that
// WriteMatrixMarket writes, the file that goes beside it: one line
// "i names[i-1]" for each Matrix Market index i = 1..n, in order, nothing
// else. The names must satisfy what WriteEdgeListNamed asks of them
// (distinct tokens without white space, so that every line splits in
// two); n is len(names). It returns an error, before writing anything,
// for a bad name, or the first write error.
func WriteMatrixMarketNames(w io.Writer, names []string) error {
	if err := checkNames(len(names), names); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	line := make([]byte, 0, 64)
	for i, name := range names {
		line = strconv.AppendInt(line[:0], int64(i)+1, 10)
		line = append(line, ' ')
		line = append(line, name...)
		line = append(line, '\n')
		bw.Write(line)
	}
	return bw.Flush()
}

// checkNames returns an error unless names holds n distinct names that an
// edge list reader reads back as themselves.
func checkNames(n int, names []string) error {
	if len(names) != n {
		return fmt.Errorf("graphgen: %d names for %d vertices", len(names), n)
	}
	seen := make(map[string]int, n)
	for v, name := range names {
		if msg := badName(name); msg != "" {
			return fmt.Errorf("graphgen: name %q of vertex %d %s", name, v, msg)
		}
		if u, dup := seen[name]; dup {
			return fmt.Errorf("graphgen: vertices %d and %d are both named %q", u, v, name)
		}
		seen[name] = v
	}
	return nil
}

// badName says why an edge list could not hold name as a vertex id, or
// returns "" if it can.
func badName(name string) string {
	switch {
	case name == "":
		return "is empty"
	case name[0] == '#' || name[0] == '%':
		return "starts a comment"
	case !utf8.ValidString(name):
		return "is not valid UTF-8"
	case len(name) > 1 && name[0] == '0' && strings.Trim(name, "0123456789") == "":
		return "is an integer with leading zeros, which a reader takes for " + strings.TrimLeft(name[:len(name)-1], "0") + name[len(name)-1:]
	}
	for i := range len(name) {
		// The reader's separators, ' ' and \t\r\v\f, and the control
		// bytes it refuses in an id.
		if c := name[i]; c == ' ' || c < 0x20 || c == 0x7f {
			return "holds white space or a control byte"
		}
	}
	return ""
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
	if g.Multi() {
		return errMultiFormat("mtx", false)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s matrix coordinate pattern symmetric\n", matrixMarketBanner)
	fmt.Fprintf(bw, "%% written by graphalloc: %d vertices, %d edges\n", g.Order(), g.Size())
	fmt.Fprintf(bw, "%d %d %d\n", g.Order(), g.Order(), g.Size())
	// EdgeList holds (u, v), u < v, sorted by u then v: as entries (v+1, u+1)
	// that is by column, then row.
	writeEdges(bw, g.EdgeList(), 1, true)
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
	if g.Multi() {
		return errMultiFormat("dot", false)
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
	if g.Multi() {
		return errMultiFormat("graph6", false)
	}
	if g.Order() > MaxGraph6Order {
		return fmt.Errorf("graphgen: graph6 needs n <= %d (it stores the n(n-1)/2-bit adjacency matrix), got n=%d", MaxGraph6Order, g.Order())
	}
	_, err := io.WriteString(w, string(graph6.Encode(g))+"\n")
	return err
}
