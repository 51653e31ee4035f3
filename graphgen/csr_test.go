package graphgen

import (
	"math"
	"slices"
	"testing"

	ybgraph "github.com/yourbasic/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

func TestFromEdges(t *testing.T) {
	// Edges {0,1} twice (once reversed), a self-loop at 2, and {1,3}.
	g, d, err := FromEdges(5, []uint32{0, 1, 1, 0, 2, 2, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	if d.SelfLoops != 1 || d.Duplicates != 1 {
		t.Errorf("dropped %+v, want 1 self-loop and 1 duplicate", d)
	}
	if g.Order() != 5 || g.Size() != 2 {
		t.Errorf("order %d size %d, want 5 and 2", g.Order(), g.Size())
	}
	if !slices.Equal(g.EdgeList(), []uint32{0, 1, 1, 3}) {
		t.Errorf("edge list %v", g.EdgeList())
	}
	if !slices.Equal(g.Neighbors(1), []uint32{0, 3}) || g.Degree(4) != 0 || g.Degree(2) != 0 {
		t.Errorf("rows wrong: N(1)=%v", g.Neighbors(1))
	}
	if !g.HasEdge(3, 1) || g.HasEdge(0, 3) || g.HasEdge(-1, 0) || g.HasEdge(0, 9) {
		t.Error("HasEdge wrong")
	}
	for _, bad := range []struct {
		n int
		e []uint32
	}{{-1, nil}, {2, []uint32{0}}, {2, []uint32{0, 2}}} {
		if _, _, err := FromEdges(bad.n, bad.e); err == nil {
			t.Errorf("FromEdges(%d, %v) accepted", bad.n, bad.e)
		}
	}
}

// TestInterop runs gonum's and yourbasic's algorithms on a CSR and converts
// both ways.
func TestInterop(t *testing.T) {
	// Two components: a triangle and an edge, plus an isolated vertex.
	g, _, _ := FromEdges(6, []uint32{0, 1, 1, 2, 2, 0, 3, 4})
	if cc := topo.ConnectedComponents(g); len(cc) != 3 {
		t.Errorf("gonum sees %d components, want 3", len(cc))
	}
	if cc := ybgraph.Components(g); len(cc) != 3 {
		t.Errorf("yourbasic sees %d components, want 3", len(cc))
	}
	// gonum → CSR with non-contiguous ids.
	u := simple.NewUndirectedGraph()
	for _, e := range [][2]int64{{10, 20}, {20, 30}, {30, 10}, {40, 50}} {
		u.SetEdge(simple.Edge{F: simple.Node(e[0]), T: simple.Node(e[1])})
	}
	h, ids, err := FromGonum(u)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids, []int64{10, 20, 30, 40, 50}) || h.Size() != 4 || !h.HasEdge(3, 4) {
		t.Errorf("FromGonum: ids %v size %d", ids, h.Size())
	}
	// yourbasic → CSR.
	m := ybgraph.New(4)
	m.AddBoth(0, 1)
	m.AddBoth(1, 2)
	m.Add(3, 0) // a directed arc becomes an edge
	k, err := FromIterator(m)
	if err != nil {
		t.Fatal(err)
	}
	if k.Size() != 3 || !k.HasEdge(0, 3) {
		t.Errorf("FromIterator: size %d", k.Size())
	}
	// CSR → yourbasic immutable copy and back.
	back, err := FromIterator(ybgraph.Sort(g))
	if err != nil || !slices.Equal(back.EdgeList(), g.EdgeList()) {
		t.Errorf("yourbasic round trip changed the graph: %v", err)
	}
	if g.Node(7) != nil || g.Edge(0, 3) != nil || g.Edge(0, 1) == nil || g.From(9).Len() != 0 || g.From(1).Len() != 2 {
		t.Error("gonum accessors wrong")
	}
}

func TestClassic(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 10} {
		c, err := Cycle(n)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]int64{0: 0, 1: 0, 2: 1, 3: 3, 10: 10}[n]
		if c.Size() != want {
			t.Errorf("C_%d has %d edges, want %d", n, c.Size(), want)
		}
		k, _ := NewComplete(n)
		if k.Size() != int64(n*(n-1)/2) {
			t.Errorf("K_%d has %d edges", n, k.Size())
		}
		var seen int
		k.Visit(0, func(w int, _ int64) bool { seen++; return false })
		if n > 0 && seen != n-1 {
			t.Errorf("K_%d: vertex 0 visits %d neighbours", n, seen)
		}
	}
	// n(n−1)/2 for n = 2^32 − 1 is 2^63 − 3·2^31 + 1; n(n−1) is not an int64.
	if k, _ := NewComplete(MaxOrder); k.Size() != math.MaxInt64-3<<31+2 {
		t.Errorf("K_n, n = 2^32 − 1: %d edges", k.Size())
	}
	if _, err := NewComplete(-1); err == nil {
		t.Error("K_-1 accepted")
	}
	if _, err := Cycle(-1); err == nil {
		t.Error("C_-1 accepted")
	}
}

// TestCompleteSize: K_n's edge count is exact up to MaxOrder (where
// n(n−1) overflows an int64 but n(n−1)/2 does not) and, beyond, the
// saturated math.MaxInt64, never a wrapped negative count.
func TestCompleteSize(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want int64
	}{
		{0, 0}, {1, 0}, {2, 1}, {5, 10}, {6, 15},
		{MaxOrder, 9223372030412324865}, // (2^32 − 1)(2^31 − 1)
		{MaxOrder + 1, math.MaxInt64},
		{10_000_000_000, math.MaxInt64},
	} {
		if got := Complete(tc.n).Size(); got != tc.want {
			t.Errorf("K_%d: Size() = %d, want %d", tc.n, got, tc.want)
		}
	}
}
