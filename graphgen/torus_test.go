package graphgen

import (
	"fmt"
	"testing"

	ybgraph "github.com/yourbasic/graph"
)

// checkSimpleCSR fails t unless g is a consistent simple graph: rows
// strictly increasing, no loops, symmetric, and the flat edge list holding
// each edge once as (u, v), u < v, in lexicographic order.
func checkSimpleCSR(t testing.TB, g *CSR) {
	t.Helper()
	n := g.Order()
	var sum int64
	for v := range n {
		row := g.Neighbors(v)
		sum += int64(len(row))
		for i, w := range row {
			if int(w) >= n || int(w) == v {
				t.Fatalf("row %d holds %d (n=%d)", v, w, n)
			}
			if i > 0 && w <= row[i-1] {
				t.Fatalf("row %d not strictly increasing: %v", v, row)
			}
			if !g.HasEdge(int(w), v) {
				t.Fatalf("edge {%d, %d} missing from row %d", v, w, w)
			}
		}
	}
	e := g.EdgeList()
	if sum != 2*g.Size() || int64(len(e)) != 2*g.Size() {
		t.Fatalf("degree sum %d, edge list %d entries, Size %d", sum, len(e), g.Size())
	}
	for k := 0; k < len(e); k += 2 {
		if e[k] >= e[k+1] || !g.HasEdge(int(e[k]), int(e[k+1])) {
			t.Fatalf("edge list entry %d: (%d, %d)", k/2, e[k], e[k+1])
		}
		if k > 0 && (e[k-2] > e[k] || e[k-2] == e[k] && e[k-1] >= e[k+1]) {
			t.Fatalf("edge list not sorted at entry %d", k/2)
		}
	}
}

// connected reports whether g has exactly one component (yourbasic).
func connected(g ybgraph.Iterator) bool { return len(ybgraph.Components(g)) == 1 }

func TestTorus(t *testing.T) {
	tests := []struct {
		dim, side int
		n, degree int // side^dim; 2·dim for side >= 3, dim for side 2, 0 for side 1
	}{
		{1, 1, 1, 0},
		{1, 2, 2, 1}, // K_2
		{1, 5, 5, 2}, // C_5
		{2, 1, 1, 0},
		{2, 2, 4, 2}, // C_4 = Q_2
		{3, 2, 8, 3}, // Q_3
		{2, 3, 9, 4},
		{2, 4, 16, 4},
		{3, 3, 27, 6},
		{2, 7, 49, 4},
		{4, 5, 625, 8},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("dim=%d/side=%d", tc.dim, tc.side), func(t *testing.T) {
			g, err := Torus(tc.dim, tc.side)
			if err != nil {
				t.Fatal(err)
			}
			checkRegular(t, g, tc.n, tc.degree)
			checkSimpleCSR(t, g)
			if !connected(g) {
				t.Error("not connected")
			}
			// Brute force: adjacent iff the coordinates differ in exactly
			// one axis, by ±1 mod side.
			for v := range tc.n {
				for w := range tc.n {
					diff, step := 0, true
					for a, b := v, w; a > 0 || b > 0; a, b = a/tc.side, b/tc.side {
						if x, y := a%tc.side, b%tc.side; x != y {
							diff++
							d := (x - y + tc.side) % tc.side
							step = step && (d == 1 || d == tc.side-1)
						}
					}
					if want := diff == 1 && step; g.HasEdge(v, w) != want {
						t.Fatalf("HasEdge(%d, %d) = %v, want %v", v, w, !want, want)
					}
				}
			}
		})
	}
	for _, bad := range [][2]int{{0, 3}, {2, 0}, {-1, 2}, {33, 2}, {2, 70000}, {3, 1700}} {
		if _, err := Torus(bad[0], bad[1]); err == nil {
			t.Errorf("Torus(dim=%d, side=%d) accepted", bad[0], bad[1])
		}
	}
}

func TestTorusSide(t *testing.T) {
	tests := []struct{ n, dim, want int }{
		{0, 2, 1}, {1, 5, 1}, {2, 1, 2}, {1000, 2, 32}, {1024, 2, 32}, {1025, 2, 33},
		{27, 3, 3}, {28, 3, 4}, {65536, 3, 41}, {65536, 4, 16}, {1 << 20, 2, 1024},
		{MaxOrder, 1, MaxOrder}, {MaxOrder, 2, 65536}, {MaxOrder, 32, 2}, {125, 3, 5}, {124, 3, 5}, {126, 3, 6},
	}
	for _, tc := range tests {
		if got := TorusSide(tc.n, tc.dim); got != tc.want {
			t.Errorf("TorusSide(%d, %d) = %d, want %d", tc.n, tc.dim, got, tc.want)
		}
	}
}

// BenchmarkTorus: the 2- and 4-dimensional tori on 2^20 vertices.
func BenchmarkTorus(b *testing.B) {
	for _, c := range []struct{ dim, side int }{{2, 1024}, {4, 32}} {
		b.Run(fmt.Sprintf("n=2^20/dim=%d", c.dim), func(b *testing.B) {
			var edges int64
			for b.Loop() {
				g, err := Torus(c.dim, c.side)
				if err != nil {
					b.Fatal(err)
				}
				edges = g.Size()
			}
			b.ReportMetric(float64(edges)*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
		})
	}
}
