package graphgen

import (
	"math/rand/v2"
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
