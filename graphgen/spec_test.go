package graphgen

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		in, canon, kind string
	}{
		{"complete", "complete", "complete"},
		{"cycle:n=10", "cycle:n=10", "cycle"},
		{"regular:degree=16", "regular:degree=16", "regular"},
		{"regular:n=100,degree=4", "regular:degree=4,n=100", "regular"},
		{"regular:eps=0.5", "regular:eps=0.5", "regular"},
		{"file:a/b.txt", "file:a/b.txt", "file"},
		{"data/g.txt", "file:data/g.txt", "file"},
		{"g.mtx", "file:g.mtx", "file"},
		{"g.edges.gz", "file:g.edges.gz", "file"},
	}
	for _, tc := range cases {
		s, err := ParseSpec(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if s.Kind != tc.kind || s.String() != tc.canon {
			t.Errorf("%q: kind %q canon %q, want %q %q", tc.in, s.Kind, s.String(), tc.kind, tc.canon)
		}
	}
	bad := map[string]string{
		"":                          "empty",
		"moebius":                   "unknown graph kind",
		"regular:deg=3":             "no key",
		"regular:degree":            "not key=value",
		"regular:degree=3,degree=4": "twice",
		"file:":                     "needs a path",
	}
	for in, want := range bad {
		_, err := ParseSpec(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one mentioning %q", in, err, want)
		}
	}
}

func TestSpecBuild(t *testing.T) {
	cases := []struct {
		spec   string
		n      int
		order  int
		edges  int64
		degree int
	}{
		{"complete", 10, 10, 45, 9},
		{"cycle", 10, 10, 10, 2},
		{"cycle:n=7", 100, 7, 7, 2},
		{"regular:degree=4", 100, 100, 200, 4},
		// ⌈101^0.5⌉ = 11 is odd and n = 101 is odd: adjusted to 12.
		{"regular:eps=0.5", 101, 101, 101 * 12 / 2, 12},
		// ⌈100^0.5⌉ = 10.
		{"regular:eps=0.5", 100, 100, 500, 10},
		{"regular:eps=1", 10, 10, 45, 9},
		{"file:../testdata/graphs/path10.txt", 0, 10, 9, -1},
	}
	for _, tc := range cases {
		s, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		g, info, err := s.Build(tc.n, rand.NewPCG(1, 2))
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if g.Order() != tc.order || g.Size() != tc.edges || info.Degree != tc.degree || info.N != tc.order || info.Edges != tc.edges {
			t.Errorf("%s n=%d: order %d size %d degree %d, want %d %d %d", tc.spec, tc.n, g.Order(), g.Size(), info.Degree, tc.order, tc.edges, tc.degree)
		}
		if tc.degree >= 0 {
			for v := 0; v < g.Order(); v++ {
				if g.Degree(v) != tc.degree {
					t.Fatalf("%s: vertex %d has degree %d", tc.spec, v, g.Degree(v))
				}
			}
		}
	}
	for _, bad := range []string{"regular:degree=3", "regular", "regular:eps=0", "regular:eps=1.5", "regular:degree=2,eps=0.5", "regular:degree=-1", "cycle:n=-1"} {
		s, err := ParseSpec(bad)
		if err != nil {
			continue
		}
		if _, _, err := s.Build(5, rand.NewPCG(1, 2)); err == nil {
			t.Errorf("%s on n=5 built without error", bad)
		}
	}
}

// TestSpecFamilies builds every generated kind through its spec.
func TestSpecFamilies(t *testing.T) {
	cases := []struct {
		spec   string
		n      int
		order  int
		edges  int64 // -1: random
		degree int   // BuildInfo.Degree
		notes  int
	}{
		{"torus", 1000, 1024, 2048, 4, 1}, // dim 2 by default, side ⌈√1000⌉ = 32
		{"torus:dim=2", 1024, 1024, 2048, 4, 0},
		{"torus:dim=3,side=4", 10, 64, 192, 6, 1},
		{"torus:dim=3,side=4,n=64", 10, 64, 192, 6, 0},
		{"torus:dim=1", 7, 7, 7, 2, 0},
		{"torus:dim=4,side=2", 0, 16, 32, 4, 1}, // Q_4
		{"hypercube", 1024, 1024, 5120, 10, 0},
		{"hypercube:dim=3", 8, 8, 12, 3, 0},
		{"hypercube:n=16", 999, 16, 32, 4, 0},
		{"gnp:p=1", 20, 20, 190, -1, 0},
		{"gnp:p=0", 20, 20, 0, -1, 1},           // a note: 20 isolated vertices
		{"gnp:degree=4", 1000, 1000, -1, -1, 1}, // a note: its isolated vertices (16 for this seed)
		{"circulant:degree=6", 1000, 1000, 3000, 6, 0},
		{"circulant:degree=7,n=1000000000", 5, 1e9, 3.5e9, 7, 0},
		{"nonregular:mindeg=3,core=10", 100, 100, -1, -1, 0},
		{"ba:m=3", 1000, 1000, 2994, -1, 0}, // 3·1000 − 3·4/2
		{"ba:m=2,n=50", 7, 50, 97, -1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			g, info, err := s.Build(tc.n, rand.NewPCG(1, 2))
			if err != nil {
				t.Fatal(err)
			}
			if g.Order() != tc.order || info.N != tc.order || info.Edges != g.Size() || info.Degree != tc.degree || len(info.Notes) != tc.notes {
				t.Errorf("order %d (info %d) size %d (info %d) degree %d notes %q; want %d vertices, degree %d, %d notes",
					g.Order(), info.N, g.Size(), info.Edges, info.Degree, info.Notes, tc.order, tc.degree, tc.notes)
			}
			if tc.edges >= 0 && g.Size() != tc.edges {
				t.Errorf("%d edges, want %d", g.Size(), tc.edges)
			}
			switch s.Kind {
			case "gnp":
				if info.P < 0 || info.P > 1 || (s.Params["degree"] == "4" && info.P != 4.0/999) {
					t.Errorf("P = %g", info.P)
				}
			case "nonregular":
				if info.Nonregular == nil || info.Nonregular.Core != 10 || info.Nonregular.CoreFraction <= 0 {
					t.Errorf("Nonregular = %+v", info.Nonregular)
				}
			case "torus", "hypercube":
				if info.Dim < 1 || info.Side < 1 {
					t.Errorf("Dim %d Side %d", info.Dim, info.Side)
				}
			}
		})
	}
	bad := map[string]string{
		"hypercube":                        "power of two",
		"hypercube:dim=40":                 "dim",
		"hypercube:dim=3,n=10":             "sets n=10",
		"torus:dim=0":                      "dim",
		"torus:dim=2,side=100000":          "vertices",
		"torus:side=3,n=10":                "sets n=10",
		"gnp":                              "p=P or degree=D",
		"gnp:p=2":                          "0 <= p <= 1",
		"gnp:p=0.1,degree=3":               "not both",
		"gnp:degree=200":                   "degree",
		"circulant":                        "degree=D",
		"circulant:degree=3,n=11":          "n even",
		"circulant:degree=100":             "degree < n = 100",
		"nonregular:mindeg=3":              "mindeg=δ and core=c",
		"nonregular:mindeg=3,core=3":       "core >= mindeg+1",
		"nonregular:mindeg=3,core=-4":      "integer",
		"nonregular:mindeg=3,core=9,n=100": "even",
		"ba":                               "ba needs m=K",
		"ba:m=0":                           "m >= 1",
		"ba:m=100":                         "m < n = 100",
		"ba:m=-2":                          "integer",
	}
	// ⌈100^(1/9)⌉ = 2 and 2^9 = 512 > 200; ⌈10^(1/3)⌉ = 3 and 27 > 20.
	bad["torus:dim=9"] = "set side= explicitly or use a smaller dim"
	bad["torus:dim=3,n=10"] = "(side=2 gives 8)"
	for in, want := range bad {
		s, err := ParseSpec(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if _, _, err := s.Build(100, rand.NewPCG(1, 2)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q on n=100: error %v, want one mentioning %q", in, err, want)
		}
	}
	for in, want := range map[string]string{
		"torus:side=3,dims=2": "keys: n, dim, side",
		"gnp:q=0.1":           "keys: n, p, degree",
		"ba:k=3":              "keys: n, m",
		"circ:degree=3":       "ba, circulant, complete, cycle, file, gnp, hyper, hypercube, hypergraph, nonregular, regular, torus",
	} {
		if _, err := ParseSpec(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one mentioning %q", in, err, want)
		}
	}
}

// TestBuildFileWithoutEdges: a graph file without an edge is an error that
// says "FILE has no edges" and why, and wraps ErrNoEdges.
func TestBuildFileWithoutEdges(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		file, content, why string
	}{
		{"empty.txt", "", "it is empty"},
		{"empty.txt.gz", ioGzip(""), "it is empty once decompressed"},
		{"comment.txt", "# nothing\n", "its one line is a comment or blank"},
		{"comments.txt", "# a\n% b\n\n", "its 3 lines are all comments or blank"},
		{"loop.txt", "7 7\n", "its one edge line is a self-loop, which is dropped"},
		{"loops.txt", "1 1\n2 2\n1 1\n", "its 3 edge lines are all self-loops, which are dropped"},
		{"header.txt", "# graphalloc edge list: n=5 edges=0\n", "its graphalloc header declares n=5 edges=0"},
		{"zero.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 0\n", "its size line declares 0 entries"},
		{"loops.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 1\n3 3\n", "its 2 edge lines are all self-loops, which are dropped"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			g, info, err := Spec{Kind: "file", Path: path}.Build(0, nil)
			want := "graphgen: " + path + " has no edges: " + tt.why
			if err == nil || err.Error() != want || !errors.Is(err, ErrNoEdges) || g != nil || info != nil {
				t.Fatalf("got %v, error %v,\nwant only the error %s", g, err, want)
			}
		})
	}
}
