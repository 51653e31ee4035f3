package graphgen

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/encoding/graph6"
	"gonum.org/v1/gonum/graph/simple"
)

// ioMustGraph builds a graph from edges, failing the test on error.
func ioMustGraph(t testing.TB, n int, e []uint32) *CSR {
	t.Helper()
	g, _, err := FromEdges(n, e)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// ioTestGraphs are the graphs the round-trip tests write and read back.
func ioTestGraphs(t testing.TB) map[string]*CSR {
	// G(n=200, p=0.05) from a fixed seed: about 995 edges, some isolated
	// vertices unlikely but allowed.
	r := rand.New(rand.NewPCG(7, 0))
	var gnp []uint32
	for u := range 200 {
		for v := u + 1; v < 200; v++ {
			if r.Float64() < 0.05 {
				gnp = append(gnp, uint32(u), uint32(v))
			}
		}
	}
	return map[string]*CSR{
		"empty":                  ioMustGraph(t, 0, nil),
		"5 isolated vertices":    ioMustGraph(t, 5, nil),
		"path10 plus 2 isolated": ioMustGraph(t, 12, ioPath(10)),
		"isolated vertex 0":      ioMustGraph(t, 4, ioEdges([2]uint32{1, 2}, [2]uint32{2, 3})),
		"two K5 and a bridge":    ioMustGraph(t, 10, slices.Concat(ioClique(0, 5), ioEdges([2]uint32{4, 5}), ioClique(5, 10))),
		"G(200, 0.05)":           ioMustGraph(t, 200, gnp),
	}
}

func TestRoundTrip(t *testing.T) {
	gzipTo := func(t *testing.T, path string, write func(io.Writer, *CSR) error, g *CSR) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(f)
		if err := write(zw, g); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	formats := []struct {
		name string
		// roundTrip writes g and reads it back.
		roundTrip func(t *testing.T, g *CSR) (*CSR, *FileInfo, error)
		format    string
		gzip      bool
	}{
		{"edgelist", func(t *testing.T, g *CSR) (*CSR, *FileInfo, error) {
			var b bytes.Buffer
			if err := WriteEdgeList(&b, g); err != nil {
				t.Fatal(err)
			}
			return ReadEdgeList(&b, "g.txt")
		}, FormatEdgeList, false},
		{"edgelist.gz via LoadGraph", func(t *testing.T, g *CSR) (*CSR, *FileInfo, error) {
			path := filepath.Join(t.TempDir(), "g.txt.gz")
			gzipTo(t, path, WriteEdgeList, g)
			return LoadGraph(path)
		}, FormatEdgeList, true},
		{"mtx", func(t *testing.T, g *CSR) (*CSR, *FileInfo, error) {
			var b bytes.Buffer
			if err := WriteMatrixMarket(&b, g); err != nil {
				t.Fatal(err)
			}
			return ReadMatrixMarket(&b, "g.mtx")
		}, FormatMatrixMarket, false},
		{"mtx via ReadGraph", func(t *testing.T, g *CSR) (*CSR, *FileInfo, error) {
			var b bytes.Buffer
			if err := WriteMatrixMarket(&b, g); err != nil {
				t.Fatal(err)
			}
			return ReadGraph(&b, "g.mtx")
		}, FormatMatrixMarket, false},
		{"mtx.gz via LoadGraph", func(t *testing.T, g *CSR) (*CSR, *FileInfo, error) {
			// The name says nothing: detection is from the bytes.
			path := filepath.Join(t.TempDir(), "graph")
			gzipTo(t, path, WriteMatrixMarket, g)
			return LoadGraph(path)
		}, FormatMatrixMarket, true},
	}
	for name, g := range ioTestGraphs(t) {
		for _, f := range formats {
			t.Run(name+"/"+f.name, func(t *testing.T) {
				h, info, err := f.roundTrip(t, g)
				if err != nil {
					t.Fatal(err)
				}
				ioConsistent(t, h, info)
				ioSameGraph(t, g, h)
				if info.Format != f.format || info.Gzip != f.gzip || info.SelfLoops != 0 || info.Duplicates != 0 {
					t.Errorf("info %+v: want format %q gzip %v and nothing dropped", info, f.format, f.gzip)
				}
			})
		}
	}
}

func TestWriteFormats(t *testing.T) {
	// The path 0-1-2 and the isolated vertex 3.
	g := ioMustGraph(t, 4, ioPath(3))
	tests := []struct {
		name  string
		write func(io.Writer, *CSR) error
		want  string
	}{
		{"edge list", WriteEdgeList, "# graphalloc edge list: n=4 edges=2\n0 1\n1 2\n"},
		// Lower triangle, 1-based: {0,1} is 2 1 and {1,2} is 3 2.
		{"Matrix Market", WriteMatrixMarket,
			"%%MatrixMarket matrix coordinate pattern symmetric\n% written by graphalloc: 4 vertices, 2 edges\n4 4 2\n2 1\n3 2\n"},
		// n=4 is byte 63+4 = 'C'; the upper-triangle bits, column by column,
		// x01 x02 x12 x03 x13 x23 = 1 0 1 0 0 0 = 40, and 63+40 = 'g'.
		{"graph6", WriteGraph6, "Cg\n"},
		{"DOT", WriteDOT, "strict graph {\n\t// Node definitions.\n\t0;\n\t1;\n\t2;\n\t3;\n\n\t// Edge definitions.\n\t0 -- 1;\n\t1 -- 2;\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.write(&b, g); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("wrote\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}

func TestWriteGraph6Decodes(t *testing.T) {
	// K_4 is the textbook graph6 example "C~": 63+4 = 'C', six edge bits set, 63+63 = '~'.
	k4 := ioMustGraph(t, 4, ioClique(0, 4))
	var b strings.Builder
	if err := WriteGraph6(&b, k4); err != nil {
		t.Fatal(err)
	}
	if b.String() != "C~\n" {
		t.Errorf("K_4 as graph6 is %q, want %q", b.String(), "C~\n")
	}
	for name, g := range ioTestGraphs(t) {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteGraph6(&b, g); err != nil {
				t.Fatal(err)
			}
			s, ok := strings.CutSuffix(b.String(), "\n")
			if !ok || s == "" || !graph6.IsValid(graph6.Graph(s)) {
				t.Fatalf("invalid graph6 line %q", b.String())
			}
			// graph6.Graph is itself a gonum graph.Undirected on 0..n-1.
			h, _, err := FromGonum(graph6.Graph(s))
			if err != nil {
				t.Fatal(err)
			}
			ioSameGraph(t, g, h)
		})
	}
	t.Run("too large", func(t *testing.T) {
		big := ioMustGraph(t, MaxGraph6Order+1, nil)
		if err := WriteGraph6(io.Discard, big); err == nil {
			t.Errorf("no error for n=%d > MaxGraph6Order", big.Order())
		}
	})
}

func TestWriteDOTDecodes(t *testing.T) {
	for name, g := range ioTestGraphs(t) {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteDOT(&b, g); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b.Bytes(), []byte("strict graph {")) {
				t.Fatalf("DOT output starts %q", b.String()[:min(b.Len(), 20)])
			}
			// Every edge appears once as "u -- v;".
			if got := int64(bytes.Count(b.Bytes(), []byte(" -- "))); got != g.Size() {
				t.Errorf("%d edge statements, want %d", got, g.Size())
			}
			// The vertices are declared in order 0..n-1 before any edge, so a
			// fresh gonum graph numbers them the same way.
			dst := simple.NewUndirectedGraph()
			if err := dot.Unmarshal(b.Bytes(), dst); err != nil {
				t.Fatal(err)
			}
			h, _, err := FromGonum(dst)
			if err != nil {
				t.Fatal(err)
			}
			ioSameGraph(t, g, h)
		})
	}
}

// ioFailWriter fails every write.
type ioFailWriter struct{}

var ioErrWrite = errors.New("disk full")

func (ioFailWriter) Write([]byte) (int, error) { return 0, ioErrWrite }

func TestWriteErrors(t *testing.T) {
	g := ioMustGraph(t, 3, ioPath(3))
	writers := []struct {
		name  string
		write func(io.Writer, *CSR) error
	}{
		{"edge list", WriteEdgeList},
		{"Matrix Market", WriteMatrixMarket},
		{"DOT", WriteDOT},
		{"graph6", WriteGraph6},
	}
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			if err := w.write(ioFailWriter{}, g); !errors.Is(err, ioErrWrite) {
				t.Errorf("write error %v, want %v", err, ioErrWrite)
			}
			if err := w.write(io.Discard, nil); err == nil {
				t.Error("no error for a nil graph")
			}
		})
	}
}

// ioNamedEdges returns the edges of g by name, each as "a b" with a < b,
// sorted, and the names of its isolated vertices, sorted: g as a graph on
// its names, whatever its numbering.
func ioNamedEdges(g *CSR, names []string) (edges, isolated []string) {
	e := g.EdgeList()
	for k := 0; k < len(e); k += 2 {
		a, b := names[e[k]], names[e[k+1]]
		edges = append(edges, min(a, b)+" "+max(a, b))
	}
	for v := range g.Order() {
		if g.Degree(v) == 0 {
			isolated = append(isolated, names[v])
		}
	}
	slices.Sort(edges)
	slices.Sort(isolated)
	return edges, isolated
}

// TestWriteEdgeListNamed: a graph written by name reads back as the same
// graph, numbered the same, with the same names; a self-loop line is
// written only for a vertex that nothing else can bring in at its place.
func TestWriteEdgeListNamed(t *testing.T) {
	type named struct {
		g     *CSR
		names []string
		loops int64 // self-loop lines written; -1: not checked
	}
	cases := map[string]named{}
	for _, file := range []string{"strings.txt", "messy.txt", "star.txt", "karate.txt"} {
		g, info, err := LoadGraph(filepath.Join(ioGraphsDir, file))
		if err != nil {
			t.Fatal(err)
		}
		// messy.txt's self-loop 42 42 is not needed: 42 has edges.
		cases[file] = named{g, info.Labels, 0}
	}
	// A vertex whose only line was a self-loop keeps its name, and its
	// place in the order of appearance.
	g, info, err := ReadEdgeList(strings.NewReader("a b\nc c\nb d\n"), "loop.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases["isolated c"] = named{g, info.Labels, 1}
	// G(200, 0.05), names shuffled: the vertices with no smaller neighbour
	// not joined to the next need a loop each.
	r := rand.New(rand.NewPCG(3, 3))
	gnp := ioTestGraphs(t)["G(200, 0.05)"]
	names := make([]string, gnp.Order())
	for v, p := range r.Perm(len(names)) {
		names[v] = "v" + strconv.Itoa(p) + "·é" // any printable UTF-8
	}
	cases["G(200, 0.05) shuffled"] = named{gnp, names, -1}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteEdgeListNamed(&b, tc.g, tc.names); err != nil {
				t.Fatal(err)
			}
			h, info, err := ReadEdgeList(&b, "named.txt")
			if err != nil {
				t.Fatal(err)
			}
			ioConsistent(t, h, info)
			ioSameGraph(t, tc.g, h)
			if !slices.Equal(info.Labels, tc.names) {
				t.Errorf("labels %q, want %q", info.Labels, tc.names)
			}
			if info.Duplicates != 0 || tc.loops >= 0 && info.SelfLoops != tc.loops {
				t.Errorf("%d self-loop and %d duplicate lines, want %d and 0", info.SelfLoops, info.Duplicates, tc.loops)
			}
		})
	}
	// The text itself: strings.txt's edges, each vertex brought in at its
	// place (alice with bob, as the file did).
	var b strings.Builder
	g, info, _ = LoadGraph(filepath.Join(ioGraphsDir, "strings.txt"))
	if err := WriteEdgeListNamed(&b, g, info.Labels); err != nil {
		t.Fatal(err)
	}
	want := "# written by graphalloc: 5 vertices, 5 edges, by name\nalice bob\nalice carol\nbob carol\nalice dave\ndave 7\n"
	if b.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteMatrixMarketNames(t *testing.T) {
	var b strings.Builder
	if err := WriteMatrixMarketNames(&b, []string{"alice", "bob", "7", "0"}); err != nil {
		t.Fatal(err)
	}
	if want := "1 alice\n2 bob\n3 7\n4 0\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	if err := WriteMatrixMarketNames(ioFailWriter{}, []string{"a"}); !errors.Is(err, ioErrWrite) {
		t.Errorf("write error %v, want %v", err, ioErrWrite)
	}
}

// TestWriteNamesErrors: names an edge list could not read back as
// themselves are refused before anything is written.
func TestWriteNamesErrors(t *testing.T) {
	g := ioMustGraph(t, 3, ioPath(3))
	cases := []struct {
		names []string
		want  string
	}{
		{[]string{"a", "b"}, "graphgen: 2 names for 3 vertices"},
		{[]string{"a", "", "c"}, `graphgen: name "" of vertex 1 is empty`},
		{[]string{"a", "#b", "c"}, "starts a comment"},
		{[]string{"a", "%b", "c"}, "starts a comment"},
		{[]string{"a", "b c", "d"}, "white space"},
		{[]string{"a", "b\tc", "d"}, "white space"},
		{[]string{"a", "b\x00", "d"}, "control byte"},
		{[]string{"a", "\xff", "d"}, "not valid UTF-8"},
		{[]string{"a", "007", "d"}, `name "007" of vertex 1 is an integer with leading zeros, which a reader takes for 7`},
		{[]string{"a", "00", "d"}, "which a reader takes for 0"},
		{[]string{"x", "y", "x"}, `graphgen: vertices 0 and 2 are both named "x"`},
	}
	for _, tc := range cases {
		var b strings.Builder
		err := WriteEdgeListNamed(&b, g, tc.names)
		if err == nil || !strings.Contains(err.Error(), tc.want) || b.Len() != 0 {
			t.Errorf("%q: error %v, wrote %q; want only an error containing %q", tc.names, err, b.String(), tc.want)
		}
		if len(tc.names) == 3 {
			if err := WriteMatrixMarketNames(&b, tc.names); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: Matrix Market names error %v, want one containing %q", tc.names, err, tc.want)
			}
		}
	}
	// Good names: "0" alone, integers beyond uint64, any printable UTF-8.
	if err := WriteEdgeListNamed(io.Discard, g, []string{"0", "123456789012345678901234567890", "Zoë"}); err != nil {
		t.Error(err)
	}
	if err := WriteEdgeListNamed(ioFailWriter{}, g, []string{"a", "b", "c"}); !errors.Is(err, ioErrWrite) {
		t.Errorf("write error %v, want %v", err, ioErrWrite)
	}
	if err := WriteEdgeListNamed(io.Discard, nil, nil); err == nil {
		t.Error("no error for a nil graph")
	}
}

// TestFileInfoNames: the ids of a file are names unless they are the
// vertex numbers 0..n-1 or Matrix Market's indices.
func TestFileInfoNames(t *testing.T) {
	for file, want := range map[string][]string{
		"path10.txt":  nil, // ids 0..9
		"star.txt":    nil,
		"small.mtx":   nil, // indices 1..6
		"strings.txt": {"alice", "bob", "carol", "dave", "7"},
		"messy.txt":   {"1", "2", "3", "42", "1000", "1000000007"},
	} {
		_, info, err := LoadGraph(filepath.Join(ioGraphsDir, file))
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Names(); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s: names %q, want %q", file, got, want)
		}
	}
	// Integer ids from 1: names, for an edge list.
	_, info, _ := ReadEdgeList(strings.NewReader("1 2\n2 3\n"), "g.txt")
	if got := info.Names(); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("ids 1..3: names %q", got)
	}
	if (*FileInfo)(nil).Names() != nil {
		t.Error("names of a nil FileInfo")
	}
}

// TestWriteEdgeListStream: on a CSR the streaming writer writes
// WriteEdgeList's bytes; on the permutation model's multigraph it writes
// the parallel edges as repeated lines and each loop once, marks the
// header multi, and the file reads back as the multigraph List builds.
func TestWriteEdgeListStream(t *testing.T) {
	reg, _, _ := RandomRegular(100, 5, rand.NewPCG(1, 1))
	path, _, _ := ReadEdgeList(strings.NewReader("0 1\n1 2\n2 3\n"), "p")
	for _, g := range []*CSR{reg, path} {
		var want, got bytes.Buffer
		if err := WriteEdgeList(&want, g); err != nil {
			t.Fatal(err)
		}
		if err := WriteEdgeListStream(&got, g); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("CSR on %d vertices: the streamed bytes differ from WriteEdgeList's", g.Order())
		}
	}
	// The first seed whose graph has a loop and a parallel edge.
	for seed := uint64(0); ; seed++ {
		if seed == 100 {
			t.Fatal("no seed below 100 gives a loop and a parallel edge")
		}
		g, err := NewPermutationRegular(50, 4, rand.NewPCG(seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		c := g.CountShortCycles(2)
		if c[1] == 0 || c[2] == 0 {
			continue
		}
		var b bytes.Buffer
		if err := WriteEdgeListStream(&b, g); err != nil {
			t.Fatal(err)
		}
		back, info, err := ReadEdgeList(&b, "stream")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := List(g) // the multigraph: loops and parallel edges kept
		if !want.Multi() || !back.Multi() || !slices.Equal(back.EdgeList(), want.EdgeList()) || back.Order() != 50 {
			t.Errorf("seed %d: read back a different graph (multi %v)", seed, back.Multi())
		}
		// n·d = 100 edges, every line one: the loops and the repeats kept.
		if !info.Multi || info.Edges != 100 || info.SelfLoops != c[1] || info.Duplicates < 1 {
			t.Errorf("seed %d: %d edges, %d loops, %d parallel kept; %d loops, %d parallel pairs",
				seed, info.Edges, info.SelfLoops, info.Duplicates, c[1], c[2])
		}
		return
	}
}
