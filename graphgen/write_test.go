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
