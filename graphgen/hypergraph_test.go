package graphgen

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// sameHypergraph fails t unless a and b have the same order and the same
// hyperedges in the same order.
func sameHypergraph(t testing.TB, a, b *Hypergraph) {
	t.Helper()
	if a.Order() != b.Order() || a.Size() != b.Size() {
		t.Fatalf("n=%d k=%d, want n=%d k=%d", b.Order(), b.Size(), a.Order(), a.Size())
	}
	for e := range int(a.Size()) {
		if !slices.Equal(a.Hyperedge(e), b.Hyperedge(e)) {
			t.Fatalf("hyperedge %d is %v, want %v", e, b.Hyperedge(e), a.Hyperedge(e))
		}
	}
}

// hyperConsistent checks the invariants of h: sorted distinct vertices
// below n, ranks, degrees summing to the incidences.
func hyperConsistent(t testing.TB, h *Hypergraph) {
	t.Helper()
	var inc int64
	lo, hi := math.MaxInt, 0
	deg := make([]int, h.Order())
	for e := range int(h.Size()) {
		he := h.Hyperedge(e)
		if len(he) == 0 || !slices.IsSorted(he) || len(slices.Compact(slices.Clone(he))) != len(he) || int(he[len(he)-1]) >= h.Order() {
			t.Fatalf("hyperedge %d = %v: want sorted distinct vertices below %d", e, he, h.Order())
		}
		inc += int64(len(he))
		lo, hi = min(lo, len(he)), max(hi, len(he))
		for _, v := range he {
			deg[v]++
		}
	}
	if h.Size() == 0 {
		lo = 0
	}
	if l, u := h.Rank(); l != lo || u != hi || inc != h.Incidences() {
		t.Fatalf("Rank() = %d, %d, Incidences %d; want %d, %d, %d", l, u, h.Incidences(), lo, hi, inc)
	}
	for v, d := range deg {
		if h.Degree(v) != d {
			t.Fatalf("Degree(%d) = %d, want %d", v, h.Degree(v), d)
		}
	}
}

func TestFromHyperedges(t *testing.T) {
	h, err := FromHyperedges(5, []int{0, 3, 4, 6}, []uint32{4, 0, 2, 1, 3, 0})
	if err != nil {
		t.Fatal(err)
	}
	hyperConsistent(t, h)
	if lo, hi := h.Rank(); lo != 1 || hi != 3 || h.Uniform() != 0 || !slices.Equal(h.Hyperedge(0), []uint32{0, 2, 4}) {
		t.Fatalf("rank %d..%d uniform %d, e0 %v", lo, hi, h.Uniform(), h.Hyperedge(0))
	}
	// Visit is the 2-section: 0 shares {0,2,4} and {0,3}.
	var nb []int
	h.Visit(0, func(w int, _ int64) bool { nb = append(nb, w); return false })
	if !slices.Equal(nb, []int{2, 3, 4}) {
		t.Fatalf("Visit(0) = %v, want [2 3 4]", nb)
	}
	u, err := FromHyperedges(4, []int{0, 2, 4}, []uint32{3, 1, 0, 2})
	if err != nil || u.Uniform() != 2 || u.Offsets() != nil {
		t.Fatalf("2-uniform: %v, uniform %d", err, u.Uniform())
	}
	for _, tc := range []struct {
		name  string
		n     int
		off   []int
		verts []uint32
		want  string
	}{
		{"empty hyperedge", 3, []int{0, 1, 1}, []uint32{0}, "hyperedge 1 is empty"},
		{"out of range", 3, []int{0, 2}, []uint32{0, 3}, "names vertex 3, not below n=3"},
		{"repeat", 3, []int{0, 3}, []uint32{1, 0, 1}, "names vertex 1 twice"},
		{"bad offsets", 3, []int{1, 2}, []uint32{0, 1}, "offsets must start at 0"},
		{"negative n", -1, []int{0}, nil, "vertex count -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromHyperedges(tc.n, tc.off, tc.verts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRandomUniformHypergraph checks the shape and, over many
// hyperedges, that every s-subset is equally likely: on n = 6, s = 3
// there are C(6,3) = 20 subsets, each drawn with probability 1/20; the
// chi-squared statistic with 19 degrees of freedom exceeds 43.8 with
// probability 0.001.
func TestRandomUniformHypergraph(t *testing.T) {
	const n, s, k = 6, 3, 20000
	h, err := RandomUniformHypergraph(n, s, k, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	hyperConsistent(t, h)
	if h.Uniform() != s || h.Size() != k {
		t.Fatalf("uniform %d size %d", h.Uniform(), h.Size())
	}
	count := map[[3]uint32]int{}
	for e := range k {
		count[[3]uint32(h.Hyperedge(e))]++
	}
	if len(count) != 20 {
		t.Fatalf("%d distinct subsets, want 20", len(count))
	}
	var chi2 float64
	for _, c := range count {
		d := float64(c) - k/20.0
		chi2 += d * d / (k / 20.0)
	}
	if chi2 > 43.8 {
		t.Fatalf("chi-squared %.1f over 20 subsets, above the 0.001 point 43.8", chi2)
	}
	again, _ := RandomUniformHypergraph(n, s, k, rand.NewPCG(1, 2))
	sameHypergraph(t, h, again)
	for _, bad := range [][3]int{{0, 1, 1}, {5, 6, 1}, {5, 0, 1}, {5, 2, -1}} {
		if _, err := RandomUniformHypergraph(bad[0], bad[1], bad[2], rand.NewPCG(1, 2)); err == nil {
			t.Errorf("n=%d s=%d k=%d: no error", bad[0], bad[1], bad[2])
		}
	}
}

func TestReadHypergraph(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		n       int
		edges   [][]uint32
		labels  []string
		repeats int64
	}{
		{"integers relabelled", "10 30 20\n# comment\n\n% also\n30 5 # rest\n", 4,
			[][]uint32{{1, 2, 3}, {0, 3}}, []string{"5", "10", "20", "30"}, 0},
		{"strings by appearance", "b a\tc\r\nc\n", 3,
			[][]uint32{{0, 1, 2}, {2}}, []string{"b", "a", "c"}, 0},
		{"repeats dropped", "1 2 1 2 3\n", 3, [][]uint32{{0, 1, 2}}, []string{"1", "2", "3"}, 2},
		{"header keeps isolated", "# graphalloc hypergraph: n=5 edges=2\n0 4\n2 1 0\n", 5,
			[][]uint32{{0, 4}, {0, 1, 2}}, []string{"0", "1", "2", "3", "4"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := tc.in
				if gz {
					in = ioGzip(in)
				}
				h, fi, err := ReadHypergraph(strings.NewReader(in), "x")
				if err != nil {
					t.Fatal(err)
				}
				hyperConsistent(t, h)
				if h.Order() != tc.n || int(h.Size()) != len(tc.edges) || fi.Gzip != gz || fi.Format != FormatHyper ||
					fi.Edges != h.Size() || fi.Repeats != tc.repeats || !slices.Equal(fi.Labels, tc.labels) {
					t.Fatalf("n=%d k=%d info %+v", h.Order(), h.Size(), fi)
				}
				for e, want := range tc.edges {
					if !slices.Equal(h.Hyperedge(e), want) {
						t.Fatalf("hyperedge %d = %v, want %v", e, h.Hyperedge(e), want)
					}
				}
			}
		})
	}
}

func TestReadHypergraphErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"binary", "1 2\n3 \x00\n", "x:2: control byte"},
		{"header range", "# graphalloc hypergraph: n=3 edges=1\n0 3\n", "x:2: vertex \"3\" is not an integer below n=3"},
		{"header count", "# graphalloc hypergraph: n=3 edges=2\n0 1\n", "found 1 hyperedge lines, the graphalloc header on line 1 declares 2"},
		{"header malformed", "# graphalloc hypergraph: n=x edges=1\n", "x:1: malformed graphalloc header field"},
		{"header huge", "# graphalloc hypergraph: n=4294967295 edges=1\n0\n", "x:1: graphalloc header declares 4294967295 vertices, but"},
		{"long line", strings.Repeat("1 ", MaxLineBytes), "x:1: line longer than"},
		{"gzip cut", ioGzip("1 2 3\n")[:12], "x:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, fi, err := ReadHypergraph(strings.NewReader(tc.in), "x")
			var pe *ParseError
			if err == nil || !errors.As(err, &pe) || h != nil || fi != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *ParseError saying %q", err, tc.want)
			}
		})
	}
	// A limit stops the reading.
	_, _, err := ReadOptions{MaxBytes: 1 << 10}.ReadHypergraph(strings.NewReader(strings.Repeat("1 2 3 4\n", 1000)), "x")
	if err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Fatalf("limit: %v", err)
	}
}

// TestHypergraphRoundTrip writes a random hypergraph, and one that is not
// uniform and has isolated vertices, and reads them back.
func TestHypergraphRoundTrip(t *testing.T) {
	r, err := RandomUniformHypergraph(200, 7, 300, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := FromHyperedges(10, []int{0, 1, 4, 6}, []uint32{9, 0, 5, 2, 2, 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []*Hypergraph{r, mixed} {
		var b bytes.Buffer
		if err := WriteHypergraph(&b, h); err != nil {
			t.Fatal(err)
		}
		back, fi, err := ReadHypergraph(&b, "round trip")
		if err != nil {
			t.Fatal(err)
		}
		sameHypergraph(t, h, back)
		if fi.Vertices != h.Order() || fi.Names() != nil {
			t.Fatalf("info %+v", fi)
		}
	}
}

// TestHypergraphSpec: Plan describes what Build makes, for both kinds.
func TestHypergraphSpec(t *testing.T) {
	for _, tc := range []struct {
		spec string
		n    int
	}{
		{"hypergraph:rank=4,edges=5000", 1 << 12},
		{"hypergraph:rank=16,edges=100,n=16", 0},
		{"hyper:../testdata/graphs/hyper.txt", 0},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseSpec(tc.spec)
			if err != nil || !s.Hyper() {
				t.Fatalf("%v %q", err, s)
			}
			p, err := s.Plan(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			g, info, total := buildMeasured(t, s, tc.n)
			h, ok := g.(*Hypergraph)
			if !ok || !p.Hyper {
				t.Fatalf("built %T, plan Hyper %v", g, p.Hyper)
			}
			hyperConsistent(t, h)
			lo, hi := h.Rank()
			if s.FromFile() {
				if p.N != -1 || p.MinRank != -1 || info.File == nil || p.Bytes < h.Incidences() {
					t.Fatalf("file plan %+v, info %+v", p, info)
				}
				return
			}
			if p.N != h.Order() || p.Edges != h.Size() || info.Edges != h.Size() || p.MinRank != lo || p.MaxRank != hi {
				t.Fatalf("plan n=%d k=%d rank %d..%d; built n=%d k=%d rank %d..%d", p.N, p.Edges, p.MinRank, p.MaxRank, h.Order(), h.Size(), lo, hi)
			}
			if want := float64(h.Incidences()) / float64(h.Order()); math.Abs(p.MeanDegree-want) > 1e-9 {
				t.Fatalf("mean degree %g, want %g", p.MeanDegree, want)
			}
			if p.Regular != (lo == h.Order()) {
				t.Fatalf("regular %v", p.Regular)
			}
			checkPlanBytes(t, p, total, hyperBytes(h.Order(), h.Size(), h.Incidences(), h.Uniform() > 0))
		})
	}
	for _, tc := range []struct {
		spec string
		n    int
		want string
	}{
		{"hypergraph:rank=4", 10, "needs rank=s and edges=k"},
		{"hypergraph:rank=11,edges=1", 10, "rank=11 needs 1 <= rank <= n = 10"},
		{"hypergraph:rank=0,edges=1", 10, "rank=0 needs"},
		{"hypergraph:rank=2,edges=0", 10, "needs at least one hyperedge"},
		{"hypergraph:rank=4096,edges=4294967295", 1 << 20, "vertex slots, more than"},
	} {
		s, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Plan(tc.n); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// FuzzReadHypergraph reads arbitrary bytes as a hypergraph file. It must
// never panic; an error must be a *ParseError naming the input; a
// hypergraph must be consistent, count every hyperedge line, survive a
// WriteHypergraph round trip, and the reader must stay within
// ioAllocBound of the text it read whatever a header declares.
func FuzzReadHypergraph(f *testing.F) {
	for _, s := range []string{
		"1 2 3\n2 3\n",
		"# c\n% d\n\na\tb c w\nb a\nc c c\n",
		"5 1000000000000 18446744073709551616 007 7\n",
		"# graphalloc hypergraph: n=4 edges=1\n0 3 2\n",
		"# graphalloc hypergraph: n=4294967295 edges=1\n0 1\n",
		"# graphalloc hypergraph: n=3 edges=4000000000\n0\n",
		"\xef\xbb\xbf1 2\r\n",
		"1\n",
		"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff",
		ioGzip("1 2 3 4 5 6 7 8\n"),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var h *Hypergraph
		var fi *FileInfo
		var err error
		alloc := ioMeasure(func() { h, fi, err = ReadHypergraph(bytes.NewReader(data), "fuzz") })
		n := 0
		if h != nil {
			n = h.Order()
		}
		if bound := ioAllocBound(ioTextLen(data), n); alloc > bound {
			t.Fatalf("allocated %d bytes for %d bytes of text and %d vertices, more than %d", alloc, ioTextLen(data), n, bound)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "fuzz") || h != nil || fi != nil {
				t.Fatalf("error %v (%T) with hypergraph %v", err, err, h)
			}
			return
		}
		hyperConsistent(t, h)
		if fi.Edges != h.Size() || fi.Vertices != n || len(fi.Labels) != n {
			t.Fatalf("info %+v for n=%d k=%d", fi, n, h.Size())
		}
		var b bytes.Buffer
		if err := WriteHypergraph(&b, h); err != nil {
			t.Fatal(err)
		}
		back, _, err := ReadOptions{MaxBytes: 1 << 30}.ReadHypergraph(&b, "round trip")
		if err != nil {
			t.Fatal(err)
		}
		sameHypergraph(t, h, back)
	})
}

// ioMeasure returns what f allocated (runtime.MemStats.TotalAlloc).
func ioMeasure(f func()) int64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return int64(after.TotalAlloc - before.TotalAlloc)
}
