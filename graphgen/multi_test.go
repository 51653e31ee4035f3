package graphgen

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFromEdgesMulti: loops count 2 towards their vertex's degree and are
// listed twice in its row, parallel edges are kept, and EdgeList lists
// every edge once (u <= v).
func TestFromEdgesMulti(t *testing.T) {
	// 0–1 twice, a loop at 2 and at 0, 1–2.
	g, d, err := FromEdgesMulti(3, []uint32{1, 0, 0, 1, 2, 2, 0, 0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Multi() || g.Size() != 5 || d.SelfLoops != 2 || d.Duplicates != 1 {
		t.Errorf("multi %v, size %d, %+v", g.Multi(), g.Size(), d)
	}
	if got := []int{g.Degree(0), g.Degree(1), g.Degree(2)}; !slices.Equal(got, []int{4, 3, 3}) {
		t.Errorf("degrees %v, want [4 3 3]", got)
	}
	if l, p := g.LoopsAndParallel(); l != 2 || p != 1 {
		t.Errorf("LoopsAndParallel = %d, %d; want 2, 1", l, p)
	}
	if got := g.Neighbors(0); !slices.Equal(got, []uint32{0, 0, 1, 1}) {
		t.Errorf("row of 0: %v", got)
	}
	if got, want := g.EdgeList(), []uint32{0, 0, 0, 1, 0, 1, 1, 2, 2, 2}; !slices.Equal(got, want) {
		t.Errorf("edge list %v, want %v", got, want)
	}
	s, _, _ := FromEdges(3, []uint32{1, 0, 0, 1, 2, 2, 0, 0, 1, 2})
	if s.Multi() || s.Size() != 2 {
		t.Errorf("FromEdges: multi %v, size %d", s.Multi(), s.Size())
	}
}

// TestMultigraphRoundTrip: the permutation model's multigraph, listed (or
// streamed), written and read back (by the header's flag, through ReadGraph and the
// lean ReadEdges, and by the file: spec's multi key on a file without the
// header) is the same multigraph, its lines in the same order;
// Δ-regular with a loop counting 2. The
// formats that cannot mark a multigraph refuse it.
func TestMultigraphRoundTrip(t *testing.T) {
	p, err := NewPermutationRegular(200, 4, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	g, d, err := p.CSR()
	if err != nil {
		t.Fatal(err)
	}
	if c := p.CountShortCycles(2); d.SelfLoops != c[1] || d.SelfLoops == 0 {
		t.Fatalf("CSR: %d loops, CountShortCycles %d (this seed has a loop)", d.SelfLoops, c[1])
	}
	if g.Size() != 400 || g.RegularDegree() != 4 {
		t.Errorf("size %d, regular degree %d; want 400, 4", g.Size(), g.RegularDegree())
	}
	var b bytes.Buffer
	if err := WriteEdgeList(&b, g); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	var streamed bytes.Buffer
	if err := WriteEdgeListStream(&streamed, p); err != nil || streamed.String() != text {
		t.Errorf("WriteEdgeListStream of the implicit graph differs from WriteEdgeList of its CSR (%v)", err)
	}
	// The lines in the order of the permutations: u π_j(u) for u, then j.
	if l := g.Lines(); len(l) != 800 || l[2] != 0 || l[3] != uint32(p.Perm(1, 0)) || l[4] != 1 || l[5] != uint32(p.Perm(0, 1)) {
		t.Errorf("Lines begin %v", l[:6])
	}
	if first, _, _ := strings.Cut(text, "\n"); first != "# graphalloc edge list: n=200 edges=400 multi" {
		t.Errorf("header %q", first)
	}
	back, info, err := ReadGraph(strings.NewReader(text), "x.el")
	if err != nil {
		t.Fatal(err)
	}
	lean, _, err := ReadEdges(strings.NewReader(text), "x.el")
	if err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]Graph{"ReadGraph": back, "ReadEdges": lean} {
		c, ok := h.(*CSR)
		if !ok || !c.Multi() || !slices.Equal(c.EdgeList(), g.EdgeList()) || !slices.Equal(c.Lines(), g.Lines()) || c.RegularDegree() != 4 {
			t.Errorf("%s: %T, not the multigraph written", name, h)
		}
	}
	if !info.Multi || info.Edges != 400 || info.SelfLoops != d.SelfLoops || info.Duplicates != d.Duplicates {
		t.Errorf("FileInfo %+v; wrote %+v", info, d)
	}
	// Without the header, the file: spec's multi key.
	dir := t.TempDir()
	path := filepath.Join(dir, "x.el")
	_, body, _ := strings.Cut(text, "\n")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"file:" + path + ",multi", "file:" + path} {
		sp, err := ParseSpec(spec)
		if err != nil || sp.String() != spec {
			t.Fatalf("ParseSpec(%q) = %v (%q), %v", spec, sp, sp.String(), err)
		}
		h, _, err := sp.BuildEdges(0, nil, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, ok := h.(*CSR)
		if sp.Multi() != (ok && c.Multi() && h.Size() == 400) || (!sp.Multi() && h.Size() >= 400) {
			t.Errorf("%s: %T with %d edges", spec, h, h.Size())
		}
	}
	for _, format := range []string{"mtx", "dot", "graph6"} {
		if err := WriteFormat(&b, g, format, nil); err == nil || !strings.Contains(err.Error(), "multigraph") {
			t.Errorf("%s of a multigraph: %v", format, err)
		}
	}
}
