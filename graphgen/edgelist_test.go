package graphgen

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	ybgraph "github.com/yourbasic/graph"
)

// The helpers of the graph file tests carry an io prefix.

// ioGraphsDir holds the small graph files shared by the tests and the CLI.
const ioGraphsDir = "../testdata/graphs"

// ioConsistent checks what every graph a reader returns must satisfy:
// the FileInfo agrees with the graph, the labels are distinct, the degrees
// sum to twice the edge count and the edge array is sorted with u < v.
func ioConsistent(t testing.TB, g *CSR, info *FileInfo) {
	t.Helper()
	if g == nil || info == nil {
		t.Fatalf("nil graph %v or info %v without an error", g, info)
	}
	// Labels is nil only for an edge list with the graphalloc header
	// (ioCheckWant and the round trips check which).
	noLabels := info.Labels == nil && info.Format == FormatEdgeList
	if info.Vertices != g.Order() || info.Edges != g.Size() || len(info.Labels) != g.Order() && !noLabels {
		t.Fatalf("info says %d vertices, %d edges, %d labels; graph has %d vertices, %d edges",
			info.Vertices, info.Edges, len(info.Labels), g.Order(), g.Size())
	}
	var sum int64
	for v := range g.Order() {
		sum += int64(g.Degree(v))
	}
	if sum != 2*g.Size() {
		t.Fatalf("degrees sum to %d, want 2*Size = %d", sum, 2*g.Size())
	}
	e := g.EdgeList()
	for k := 0; k < len(e); k += 2 {
		if e[k] >= e[k+1] || int(e[k+1]) >= g.Order() {
			t.Fatalf("edge %d is {%d, %d}: want u < v < n=%d", k/2, e[k], e[k+1], g.Order())
		}
		if k > 0 && (e[k-2] > e[k] || e[k-2] == e[k] && e[k-1] >= e[k+1]) {
			t.Fatalf("edges %d and %d out of order", k/2-1, k/2)
		}
	}
	seen := make(map[string]bool, len(info.Labels))
	for v, l := range info.Labels {
		if seen[l] {
			t.Fatalf("label %q of vertex %d repeats", l, v)
		}
		seen[l] = true
	}
	if info.SelfLoops < 0 || info.Duplicates < 0 || info.Lines < 0 {
		t.Fatalf("negative counts in %+v", info)
	}
}

// ioSameGraph fails unless a and b have the same vertices and edges.
func ioSameGraph(t testing.TB, a, b *CSR) {
	t.Helper()
	if a.Order() != b.Order() || !slices.Equal(a.EdgeList(), b.EdgeList()) {
		t.Fatalf("graphs differ:\n n=%d edges %v\n n=%d edges %v", a.Order(), a.EdgeList(), b.Order(), b.EdgeList())
	}
}

// ioEdges builds the flat edge array of pairs.
func ioEdges(pairs ...[2]uint32) []uint32 {
	e := make([]uint32, 0, 2*len(pairs))
	for _, p := range pairs {
		e = append(e, p[0], p[1])
	}
	return e
}

// ioPath returns the edges of the path 0-1-…-(n-1).
func ioPath(n int) []uint32 {
	var e []uint32
	for v := 0; v+1 < n; v++ {
		e = append(e, uint32(v), uint32(v+1))
	}
	return e
}

// ioClique returns the edges of the clique on vertices a..b-1, in order.
func ioClique(a, b int) []uint32 {
	var e []uint32
	for u := a; u < b; u++ {
		for v := u + 1; v < b; v++ {
			e = append(e, uint32(u), uint32(v))
		}
	}
	return e
}

// ioWant is what a graph file must read as. edges == nil skips the edge check.
type ioWant struct {
	format     string
	gzip       bool
	lines      int
	vertices   int
	edges      int64
	selfLoops  int64
	duplicates int64
	labels     []string // nil: "0".."n-1"
	header     bool     // a graphalloc header: Labels nil
	edgeList   []uint32
}

func ioCheckWant(t *testing.T, g *CSR, info *FileInfo, w ioWant) {
	t.Helper()
	ioConsistent(t, g, info)
	if info.Format != w.format || info.Gzip != w.gzip {
		t.Errorf("format %q gzip %v, want %q %v", info.Format, info.Gzip, w.format, w.gzip)
	}
	if info.Lines != w.lines || info.Vertices != w.vertices || info.Edges != w.edges ||
		info.SelfLoops != w.selfLoops || info.Duplicates != w.duplicates {
		t.Errorf("lines %d vertices %d edges %d self-loops %d duplicates %d, want %d %d %d %d %d",
			info.Lines, info.Vertices, info.Edges, info.SelfLoops, info.Duplicates,
			w.lines, w.vertices, w.edges, w.selfLoops, w.duplicates)
	}
	labels := w.labels
	if labels == nil && !w.header {
		labels = decimalLabels(w.vertices, 0)
	}
	if !slices.Equal(info.Labels, labels) || (info.Labels == nil) != w.header {
		t.Errorf("labels %q, want %q", info.Labels, labels)
	}
	if w.edgeList != nil && !slices.Equal(g.EdgeList(), w.edgeList) {
		t.Errorf("edges %v, want %v", g.EdgeList(), w.edgeList)
	}
}

func TestLoadGraphTestdata(t *testing.T) {
	tests := []struct {
		file string
		want ioWant
	}{
		// The counts are those documented at the top of each file.
		{"path10.txt", ioWant{format: "edgelist", lines: 10, vertices: 10, edges: 9, edgeList: ioPath(10)}},
		// The same bytes gzipped with gzip -n -9.
		{"path10.txt.gz", ioWant{format: "edgelist", gzip: true, lines: 10, vertices: 10, edges: 9, edgeList: ioPath(10)}},
		// K_{1,7}: 1 + 7 vertices, 7 edges, 2 comment lines.
		{"star.txt", ioWant{format: "edgelist", lines: 9, vertices: 8, edges: 7,
			edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 2}, [2]uint32{0, 3}, [2]uint32{0, 4}, [2]uint32{0, 5}, [2]uint32{0, 6}, [2]uint32{0, 7})}},
		// Two K_5, 10 edges each, and the bridge {4, 5}.
		{"two_communities.txt", ioWant{format: "edgelist", lines: 25, vertices: 10, edges: 21,
			edgeList: slices.Concat(ioClique(0, 5), ioEdges([2]uint32{4, 5}), ioClique(5, 10))}},
		// ids 1 2 3 42 1000 1000000007 -> 0..5; the cycle 1-2-3-42-1000000007-1000-1
		// becomes 0-1-2-3-5-4-0; 9 edge lines = 6 + 1 self-loop + 2 duplicates.
		{"messy.txt", ioWant{format: "edgelist", lines: 22, vertices: 6, edges: 6, selfLoops: 1, duplicates: 2,
			labels:   []string{"1", "2", "3", "42", "1000", "1000000007"},
			edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 4}, [2]uint32{1, 2}, [2]uint32{2, 3}, [2]uint32{3, 5}, [2]uint32{4, 5})}},
		// alice=0 bob=1 carol=2 dave=3 7=4: the triangle alice-bob-carol,
		// dave-alice and 7-dave.
		{"strings.txt", ioWant{format: "edgelist", lines: 8, vertices: 5, edges: 5,
			labels:   []string{"alice", "bob", "carol", "dave", "7"},
			edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 2}, [2]uint32{0, 3}, [2]uint32{1, 2}, [2]uint32{3, 4})}},
		// 6x6, 7 entries: the 5-cycle on 1..5 (0..4 here), the diagonal 3 3
		// and the stray 1 2; vertex 6 (5 here) isolated.
		// Zachary's karate club: members 1..34 -> 0..33, 6 comment lines.
		{"karate.txt", ioWant{format: "edgelist", lines: 84, vertices: 34, edges: 78, labels: decimalLabels(34, 1)}},
		{"small.mtx", ioWant{format: "mtx", lines: 13, vertices: 6, edges: 5, selfLoops: 1, duplicates: 1,
			labels:   []string{"1", "2", "3", "4", "5", "6"},
			edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 4}, [2]uint32{1, 2}, [2]uint32{2, 3}, [2]uint32{3, 4})}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(ioGraphsDir, tt.file)
			g, info, err := LoadGraph(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Name != path {
				t.Errorf("name %q, want %q", info.Name, path)
			}
			ioCheckWant(t, g, info, tt.want)
		})
	}
}

// TestKarateClub checks testdata/graphs/karate.txt against the well-known
// degrees of Zachary's karate club (34 members, 78 edges): member 34 has
// 17 friends, member 1 has 16, and the whole sequence is the published one.
func TestKarateClub(t *testing.T) {
	g, info, err := LoadGraph(filepath.Join(ioGraphsDir, "karate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ioConsistent(t, g, info)
	// Degrees of members 1..34.
	want := []int{16, 9, 10, 6, 3, 4, 4, 4, 5, 2, 3, 1, 2, 5, 2, 2, 2, 2, 2, 3, 2, 2, 2, 5, 3, 3, 2, 4, 3, 4, 4, 6, 12, 17}
	if g.Order() != 34 || g.Size() != 78 || info.SelfLoops != 0 || info.Duplicates != 0 || info.Lines != 84 {
		t.Fatalf("%d vertices, %d edges, %d lines (%d self-loops, %d duplicates dropped); want 34, 78, 84, none",
			g.Order(), g.Size(), info.Lines, info.SelfLoops, info.Duplicates)
	}
	for v := range 34 {
		if info.Labels[v] != strconv.Itoa(v+1) || g.Degree(v) != want[v] {
			t.Errorf("vertex %d (label %s): degree %d, member %d has %d", v, info.Labels[v], g.Degree(v), v+1, want[v])
		}
	}
	if !ybgraph.Connected(g) {
		t.Error("not connected")
	}
}

func TestLoadGraphBadFiles(t *testing.T) {
	tests := []struct {
		file string
		want string // the message after the path
		is   error  // errors.Is target, if any
	}{
		{"bad_field.txt", ":4: expected two vertex ids, got 1 field", nil},
		// The stream is cut inside the deflate data; the complete lines before
		// the cut (how many depends on the compressor) are read first.
		{"truncated.txt.gz", ": read error (file truncated?): unexpected EOF", io.ErrUnexpectedEOF},
		// An ELF-like header: the first line holds NUL bytes.
		{"garbage.bin", ":1: NUL byte: binary data, not a text edge list", nil},
		// Line 6 of a 10x10 matrix names row 12.
		{"bad_index.mtx", ":6: vertex 12 beyond declared size 10", nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(ioGraphsDir, "bad", tt.file)
			// ReadEdges reads as ReadGraph does, and fails alike.
			if g, info, err := LoadEdges(path); err == nil || g != nil || info != nil || !strings.HasSuffix(err.Error(), tt.want) {
				t.Errorf("LoadEdges: got graph %v info %v error %v, want only the error ...%q", g, info, err, tt.want)
			}
			g, info, err := LoadGraph(path)
			if err == nil || g != nil || info != nil {
				t.Fatalf("got graph %v info %v error %v, want only an error", g, info, err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Name != path {
				t.Errorf("error %v is not a *ParseError naming %s", err, path)
			}
			if !strings.HasPrefix(err.Error(), path) || !strings.HasSuffix(err.Error(), tt.want) {
				t.Errorf("error %q, want %q + ...%q", err, path, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, _, err := LoadGraph(filepath.Join(ioGraphsDir, "no-such-file.txt"))
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("error %v, want os.ErrNotExist", err)
		}
	})
}

func TestReadEdgeList(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  ioWant // format "edgelist" is implied
	}{
		{"numeric order", "5 1000000000000\n7 5\n",
			// 5 < 7 < 10^12: the example of the doc comment.
			ioWant{lines: 2, vertices: 3, edges: 2, labels: []string{"5", "7", "1000000000000"},
				edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 2})}},
		{"ids beyond uint64", "99999999999999999999 18446744073709551616\n18446744073709551615 3\n",
			// 3 < 2^64-1 (the largest uint64) < 2^64 < 10^20-1.
			ioWant{lines: 2, vertices: 4, edges: 2,
				labels:   []string{"3", "18446744073709551615", "18446744073709551616", "99999999999999999999"},
				edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{2, 3})}},
		{"leading zeros", "007 7\n007 0008\n0000000000000000000000000000000000000000000000000042 42\n",
			// 007 = 7 makes a self-loop, and so does 42 with 50 leading zeros.
			ioWant{lines: 3, vertices: 3, edges: 1, selfLoops: 2, labels: []string{"7", "8", "42"},
				edgeList: ioEdges([2]uint32{0, 1})}},
		{"ids in both lookup tables", "1034 1\n2 3\n1038 5\n1034 4\n",
			// 1034 is first seen while the dense table stops at
			// denseLimit(0) = 1024, and found again after the table has
			// grown past it (1038 < denseLimit(4) = 1040 goes there).
			ioWant{lines: 4, vertices: 7, edges: 4, labels: []string{"1", "2", "3", "4", "5", "1034", "1038"},
				edgeList: ioEdges([2]uint32{0, 5}, [2]uint32{1, 2}, [2]uint32{3, 5}, [2]uint32{4, 6})}},
		{"strings in order of first appearance", "b a\nc b\n",
			ioWant{lines: 2, vertices: 3, edges: 2, labels: []string{"b", "a", "c"},
				edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 2})}},
		{"one string id makes every id a string", "10 x\n2 10\n-1 2\n",
			// -1 is not a non-negative integer, x is not a number.
			ioWant{lines: 3, vertices: 4, edges: 3, labels: []string{"10", "x", "2", "-1"},
				edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{0, 2}, [2]uint32{2, 3})}},
		{"unicode ids", "é ü\nü 東京\n",
			ioWant{lines: 2, vertices: 3, edges: 2, labels: []string{"é", "ü", "東京"},
				edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{1, 2})}},
		{"directed input symmetrised", "1 2\n2 1\n2 3\n",
			// 2 1 repeats 1 2 reversed: one duplicate.
			ioWant{lines: 3, vertices: 3, edges: 2, duplicates: 1, labels: []string{"1", "2", "3"}}},
		{"CRLF, BOM, no final newline", "\xef\xbb\xbf1 2\r\n\r\n2 3",
			ioWant{lines: 3, vertices: 3, edges: 2, labels: []string{"1", "2", "3"}}},
		{"trailing comments, a weight and a timestamp", "1 2 # one\n1 3 % two\n1 4 0.5 1262304000 # w t\n",
			ioWant{lines: 3, vertices: 4, edges: 3, labels: []string{"1", "2", "3", "4"}}},
		{"empty input", "", ioWant{}},
		{"only comments and blanks", "# a\n\n% b\n  \t\n", ioWant{lines: 4}},
		{"header keeps isolated vertices", "# graphalloc edge list: n=5 edges=1\n1 3\n",
			// n=5 from the header: 0, 2 and 4 are isolated; ids are taken as they are.
			ioWant{lines: 2, vertices: 5, edges: 1, edgeList: ioEdges([2]uint32{1, 3}), header: true}},
		{"header with no edges", "# graphalloc edge list: n=3 edges=0\n", ioWant{lines: 1, vertices: 3, header: true}},
		{"header counts edge lines, not edges", "# graphalloc edge list: n=2 edges=3 future=yes\n0 1\n1 0\n1 1\n",
			// 3 edge lines: 1 edge, 1 duplicate, 1 self-loop; unknown keys ignored.
			ioWant{lines: 4, vertices: 2, edges: 1, selfLoops: 1, duplicates: 1, header: true}},
		{"header after the first edge is a comment", "1 2\n# graphalloc edge list: n=9 edges=5\n",
			ioWant{lines: 2, vertices: 2, edges: 1, labels: []string{"1", "2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ReadEdgeList(strings.NewReader(tt.input), "g.txt")
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.format = FormatEdgeList
			ioCheckWant(t, g, info, want)
		})
	}
}

func TestReadEdgeListErrors(t *testing.T) {
	long := strings.Repeat("1", MaxLineBytes) + " 2\n"
	tests := []struct {
		name  string
		input string
		want  string // the whole message
	}{
		{"one field", "1 2\n3\n", "g.txt:2: expected two vertex ids, got 1 field"},
		{"comma-separated", "1,2\n", "g.txt:1: expected two vertex ids, got 1 field (ids are separated by spaces or tabs, not commas)"},
		{"one field before a comment", "1 2\n3 # 4\n", "g.txt:2: expected two vertex ids, got 1 field"},
		{"a word after the ids", "1 2 0.5\n1 3 x\n",
			`g.txt:2: extra field "x" is not a number: an edge line is "u v", then at most a weight and a timestamp (numbers) and a # comment`},
		{"three numbers after the ids", "1 2 0.5 7 # ok\n1 3 0.5 7 9\n",
			`g.txt:2: extra field "9" after the weight and timestamp: an edge line is "u v", then at most a weight and a timestamp (numbers) and a # comment`},
		{"a CSV row with spaces", "alice, bob, 2021-01-01\n",
			`g.txt:1: extra field "2021-01-01" is not a number: an edge line is "u v", then at most a weight and a timestamp (numbers) and a # comment`},
		{"NUL byte", "1 2\n\x00\x01 2\n", "g.txt:2: NUL byte: binary data, not a text edge list"},
		{"control byte", "a\x01 b\n", "g.txt:1: control byte 0x01 in vertex id: binary data, not a text edge list"},
		{"invalid UTF-8", "# ok\n\xff\xfe 1\n", "g.txt:2: vertex id is not valid UTF-8: binary data, not a text edge list"},
		{"line too long", "1 2\n" + long, "g.txt:2: line longer than 65536 bytes"},
		{"Matrix Market", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n",
			"g.txt:1: this is a Matrix Market file, not an edge list: read it with ReadMatrixMarket or ReadGraph"},
		{"header: id not below n", "# graphalloc edge list: n=3 edges=1\n1 3\n",
			`g.txt:2: vertex "3" is not an integer below n=3 declared by the graphalloc header on line 1`},
		{"header: string id", "# graphalloc edge list: n=3 edges=1\n\n0 a\n",
			`g.txt:3: vertex "a" is not an integer below n=3 declared by the graphalloc header on line 1`},
		{"header: fewer edge lines", "# graphalloc edge list: n=3 edges=2\n0 1\n",
			"g.txt:2: found 1 edge lines, the graphalloc header on line 1 declares 2 (file truncated or edited?)"},
		{"header: more edge lines", "# graphalloc edge list: n=3 edges=0\n0 1\n# end\n",
			"g.txt:3: found 1 edge lines, the graphalloc header on line 1 declares 0 (file truncated or edited?)"},
		{"header: malformed n", "# x\n# graphalloc edge list: n=x edges=1\n",
			`g.txt:2: malformed graphalloc header field "n=x": want "# graphalloc edge list: n=N edges=M"`},
		{"header: n=", "# graphalloc edge list: n= edges=0\n",
			`g.txt:1: malformed graphalloc header field "n=": want "# graphalloc edge list: n=N edges=M"`},
		{"header: no edges", "# graphalloc edge list: n=3\n",
			`g.txt:1: malformed graphalloc header: want "# graphalloc edge list: n=N edges=M"`},
		{"header: n too large", "# graphalloc edge list: n=4294967296 edges=0\n",
			"g.txt:1: graphalloc header declares n=4294967296, more than the 4294967295 vertices a graph can have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ReadEdgeList(strings.NewReader(tt.input), "g.txt")
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v,\nwant %s", err, tt.want)
			}
			if g != nil || info != nil {
				t.Errorf("got graph %v and info %v with the error", g, info)
			}
		})
	}
	t.Run("read error", func(t *testing.T) {
		// The partial line "3 4" before the failure must not become an edge.
		errDisk := errors.New("disk on fire")
		s := NewEdgeScanner(io.MultiReader(strings.NewReader("1 2\n3 4"), iotest.ErrReader(errDisk)), "g.txt")
		var n int
		for s.Scan() {
			n++
		}
		if n != 1 {
			t.Errorf("scanned %d edges, want 1", n)
		}
		var pe *ParseError
		if err := s.Err(); !errors.Is(err, errDisk) || !errors.As(err, &pe) || pe.Line != 2 ||
			err.Error() != "g.txt:2: read error: disk on fire" {
			t.Errorf("error %v, want g.txt:2: read error: disk on fire", err)
		}
	})
}

func TestEdgeScanner(t *testing.T) {
	input := "# graphalloc edge list: n=7 edges=2\n% c\n\n1 2 -2.5e-3\n  3\t4 # x\n"
	s := NewEdgeScanner(strings.NewReader(input), "g.txt")
	type edge struct {
		u, v string
		line int
	}
	var got []edge
	for s.Scan() {
		u, v := s.Edge()
		got = append(got, edge{string(u), string(v), s.Line()})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	// The edges are on lines 4 and 5, tokens as written.
	want := []edge{{"1", "2", 4}, {"3", "4", 5}}
	if !slices.Equal(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
	if n, m, ok := s.Declared(); n != 7 || m != 2 || !ok {
		t.Errorf("Declared() = %d, %d, %v, want 7, 2, true", n, m, ok)
	}
	if s.Line() != 5 || s.Scan() {
		t.Errorf("after the end: line %d, want 5, and Scan must stay false", s.Line())
	}
}

func TestReadGraphDetection(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		io.WriteString(w, s)
		w.Close()
		return b.String()
	}
	const mtx = "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n"
	cut := gz(strings.Repeat("1 2\n", 1000))
	cut = cut[:len(cut)-4] // drop the length from the trailer
	tests := []struct {
		name   string
		input  string
		format string
		gzip   bool
		n      int    // vertices
		err    string // whole error message, "" for none
	}{
		{"edge list", "1 2\n", FormatEdgeList, false, 2, ""},
		{"gzip edge list", gz("1 2\n2 3\n"), FormatEdgeList, true, 3, ""},
		{"Matrix Market", mtx, FormatMatrixMarket, false, 3, ""},
		{"gzip Matrix Market", gz(mtx), FormatMatrixMarket, true, 3, ""},
		{"Matrix Market after a BOM, lower case", "\xef\xbb\xbf%%matrixmarket MATRIX Coordinate pattern general\n2 2 0\n", FormatMatrixMarket, false, 2, ""},
		{"%% but not Matrix Market", "%%Matrix\n1 2\n", FormatEdgeList, false, 2, ""},
		{"empty", "", FormatEdgeList, false, 0, ""},
		{"empty gzip stream", gz(""), FormatEdgeList, true, 0, ""},
		{"gzip magic only", "\x1f\x8b", "", false, 0, "g: gzip header cut short (file truncated?): unexpected EOF"},
		{"bad gzip header", "\x1f\x8bxxxxxxxxxxxxxxxx", "", false, 0, "g: bad gzip header: gzip: invalid header"},
		{"truncated gzip trailer", cut, "", false, 0, "g:1001: read error (file truncated?): unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ReadGraph(strings.NewReader(tt.input), "g")
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || g != nil || info != nil {
					t.Fatalf("got %v, %v, error %v, want only the error %s", g, info, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ioConsistent(t, g, info)
			if info.Format != tt.format || info.Gzip != tt.gzip || g.Order() != tt.n {
				t.Errorf("format %q gzip %v n=%d, want %q %v %d", info.Format, info.Gzip, g.Order(), tt.format, tt.gzip, tt.n)
			}
		})
	}
}

// FuzzReadEdgeList reads arbitrary bytes as an edge list (plain or gzip,
// through ReadGraph). It must never panic; an error must be a *ParseError
// naming the input; a graph must be consistent, account for every edge line,
// and survive a WriteEdgeList round trip unchanged. Whatever the bytes
// declare, the reader must stay within ioAllocBound of the text it read and
// the graph it made, and a declared order within the default rule.
func FuzzReadEdgeList(f *testing.F) {
	for _, s := range []string{
		"1 2\n2 3\n",
		"# c\n% d\n\na\tb w\nb a\nc c\n",
		"5 1000000000000\n18446744073709551616 007\n",
		"# graphalloc edge list: n=4 edges=1\n0 3\n",
		"\xef\xbb\xbf1 2\r\n",
		"1\n",
		"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff",
		// Sizes declared in a few bytes: 2^32-1 and 2·10^9 vertices,
		// 4·10^18 entries, and an id that a dense table would span.
		"# graphalloc edge list: n=4294967295 edges=1\n0 1\n",
		ioHugeMTX,
		"%%MatrixMarket matrix coordinate pattern general\n3 3 4000000000000000000\n1 2\n",
		"4000000000 1\n",
		ioGzip(ioHugeMTX),
	} {
		f.Add([]byte(s))
	}
	for _, file := range []string{"messy.txt", "strings.txt", "path10.txt.gz"} {
		b, err := os.ReadFile(filepath.Join(ioGraphsDir, file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, info, alloc, err := ioReadMeasured(func() (*CSR, *FileInfo, error) {
			return ReadGraph(bytes.NewReader(data), "fuzz")
		})
		text := ioTextLen(data)
		ioCheckAlloc(t, alloc, text, g)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "fuzz") || g != nil || info != nil {
				t.Fatalf("error %v (%T) with graph %v", err, err, g)
			}
			return
		}
		ioConsistent(t, g, info)
		if lines := ioPrescan(data); info.Edges+info.SelfLoops+info.Duplicates != lines {
			t.Fatalf("%d edges + %d self-loops + %d duplicates, but %d edge lines",
				info.Edges, info.SelfLoops, info.Duplicates, lines)
		}
		var b bytes.Buffer
		if err := WriteEdgeList(&b, g); err != nil {
			t.Fatal(err)
		}
		// The written file may be shorter than data (comments, long ids
		// gone), so its declared order may exceed what its own size backs:
		// read it back under a memory limit instead.
		h, _, err := ioRoundTrip.ReadEdgeList(&b, "round trip")
		if err != nil {
			t.Fatal(err)
		}
		ioSameGraph(t, g, h)
	})
}

// ioHugeMTX is the 77-byte file whose size line declares 2·10^9 vertices,
// which once made the reader allocate 16 GiB and die.
const ioHugeMTX = "%%MatrixMarket matrix coordinate pattern general\n2000000000 2000000000 1\n1 2\n"

// ioRoundTrip reads back what a fuzz target wrote: a graph read from a
// fuzz input fits well within 1 GiB.
var ioRoundTrip = ReadOptions{MaxBytes: 1 << 30}

// ioAllocBound is what the fuzz targets allow a reader to allocate in all
// (runtime.MemStats.TotalAlloc) for text bytes of text, after decompression,
// making a graph on n vertices (0 on error):
//
//	64·text + 48·n + 256 KiB
//
// The text term covers the edge array, the id table and the edges and
// labels of the graph; the vertex term a declared order's isolated vertices,
// which have no text (offsets and FromEdges' counts, 8 bytes each, and a
// 16-byte label); the constant the two 64 KiB line buffers and gzip's
// reader. Measured (TestReadAllocation): at most 42 bytes a byte of text
// (6000 edge lines of two one-character ids), 38 a vertex (a size line
// declaring 65536 vertices) and 170 KiB for a gzip stream of 4 bytes. With
// the default rule n <= 65536 + 2·text, the bound is at most
// 160·text + 3.3 MiB: it grows with the text read, never with a declared size.
func ioAllocBound(text int64, n int) int64 { return 64*text + 48*int64(n) + 256<<10 }

// ioReadMeasured calls read and returns its results and what it allocated.
func ioReadMeasured(read func() (*CSR, *FileInfo, error)) (*CSR, *FileInfo, int64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g, info, err := read()
	runtime.ReadMemStats(&after)
	return g, info, int64(after.TotalAlloc - before.TotalAlloc), err
}

// ioCheckAlloc fails if a read of text bytes that made g (nil on error)
// allocated more than ioAllocBound, or made more vertices than the default
// rule allows.
func ioCheckAlloc(t testing.TB, alloc, text int64, g *CSR) {
	t.Helper()
	if msg := ioAllocProblem(alloc, text, g); msg != "" {
		t.Fatal(msg)
	}
}

// ioAllocProblem says what ioCheckAlloc fails on, or returns "".
func ioAllocProblem(alloc, text int64, g *CSR) string {
	n := 0
	if g != nil {
		n = g.Order()
	}
	if bound := ioAllocBound(text, n); alloc > bound {
		return fmt.Sprintf("allocated %d bytes for %d bytes of text and %d vertices, more than the bound %d", alloc, text, n, bound)
	}
	if int64(n) > DeclaredOrderSlack+DeclaredOrderPerByte*text {
		return fmt.Sprintf("%d vertices from %d bytes of text", n, text)
	}
	return ""
}

// ioTextLen is the number of bytes of text in data, decompressed if it is
// gzip (up to the first error, as a reader sees it).
func ioTextLen(data []byte) int64 {
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return int64(len(data))
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return 0
	}
	n, _ := io.Copy(io.Discard, zr)
	return n
}

// ioGzip returns s gzip-compressed.
func ioGzip(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	io.WriteString(w, s)
	w.Close()
	return b.String()
}

// ioPrescan reads data as ReadGraph would, with the scanners alone, and
// returns the number of edge lines or declared entries.
func ioPrescan(data []byte) (lines int64) {
	var r io.Reader = bytes.NewReader(data)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return 0
		}
		r = zr
	}
	br := bufio.NewReaderSize(r, MaxLineBytes)
	head, _ := br.Peek(len(bom) + len(matrixMarketBanner))
	if isMatrixMarketBanner(bytes.TrimPrefix(head, []byte(bom))) {
		h, _ := NewMatrixMarketScanner(br, "").Header()
		return h.Entries
	}
	s := NewEdgeScanner(br, "")
	for s.Scan() {
		lines++
	}
	return lines
}

// ioEdgeListText returns an edge list of m random edges on n vertices, one
// "u v" line each, with ids prefixed by prefix (so "" gives integer ids).
func ioEdgeListText(n, m int, prefix string, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0))
	var b bytes.Buffer
	b.WriteString("# benchmark input\n")
	for range m {
		fmt.Fprintf(&b, "%s%d %s%d\n", prefix, r.IntN(n), prefix, r.IntN(n))
	}
	return b.Bytes()
}

// BenchmarkReadEdgeList reads 10^6 random edges on 2^17 vertices from
// memory and reports edge lines per second.
func BenchmarkReadEdgeList(b *testing.B) {
	const (
		n = 1 << 17
		m = 1_000_000
	)
	for _, ids := range []struct{ name, prefix string }{{"int", ""}, {"string", "v"}} {
		b.Run(fmt.Sprintf("m=10^6/ids=%s", ids.name), func(b *testing.B) {
			data := ioEdgeListText(n, m, ids.prefix, 1)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				g, _, err := ReadEdgeList(bytes.NewReader(data), "bench")
				if err != nil || g.Order() > n {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
		})
	}
}

func ExampleReadEdgeList() {
	const text = `# a directed, messy edge list
10 30
30 10
30 30
20 10 0.5
`
	g, info, err := ReadEdgeList(strings.NewReader(text), "example.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d vertices, %d edges; dropped %d self-loop, %d duplicate\n",
		info.Vertices, info.Edges, info.SelfLoops, info.Duplicates)
	fmt.Println("labels:", info.Labels, "edges:", g.EdgeList())

	_, _, err = ReadEdgeList(strings.NewReader("1 2\n3\n"), "bad.txt")
	fmt.Println(err)
	// Output:
	// 3 vertices, 2 edges; dropped 1 self-loop, 1 duplicate
	// labels: [10 20 30] edges: [0 1 0 2]
	// bad.txt:2: expected two vertex ids, got 1 field
}

// TestTwoNumbers: the scanner's fast path takes exactly the lines of two
// runs of digits and one space, and splits them as the general path does.
func TestTwoNumbers(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"0 1", true}, {"12345678901234567890123 7", true}, {"007 7", true},
		{"", false}, {"1", false}, {"1 ", false}, {" 1 2", false}, {"1  2", false}, {"1\t2", false},
		{"1 2 ", false}, {"1 2 3", false}, {"1 2#", false}, {"a 2", false}, {"1 b", false}, {"1 -2", false},
		{"1 2\x00", false}, {"١ 2", false},
	} {
		u, v, ok := twoNumbers([]byte(tc.line))
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.line, ok, tc.ok)
			continue
		}
		if ok {
			f, rest := nextField([]byte(tc.line))
			g, rest := nextField(rest)
			if string(u) != string(f) || string(v) != string(g) || len(rest) != 0 {
				t.Errorf("%q: split as %q %q, the general path %q %q", tc.line, u, v, f, g)
			}
		}
	}
}
