package graphgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	ybgraph "github.com/yourbasic/graph"
)

// checkCirculant fails t unless the implicit g is consistent: S sorted,
// distinct, closed under negation, without 0; Degree, Size and Visit
// agree; Visit lists sorted neighbours, each one an edge both ways. For
// n·Δ up to 10^6 it also checks the explicit copy.
func checkCirculant(t *testing.T, g Circulant, n, Delta int) {
	t.Helper()
	S := g.ConnectionSet()
	if g.Order() != n || len(S) != Delta || g.Size() != int64(n)*int64(Delta)/2 {
		t.Fatalf("order %d |S| %d size %d, want n=%d Delta=%d", g.Order(), len(S), g.Size(), n, Delta)
	}
	for i, s := range S {
		if s == 0 || int(s) >= n || (i > 0 && s <= S[i-1]) {
			t.Fatalf("S not sorted distinct in [1, n): %v", S)
		}
		if _, ok := slices.BinarySearch(S, uint32(n-int(s))); !ok {
			t.Fatalf("S not closed under negation: has %d, not %d", s, n-int(s))
		}
	}
	// Visit on a sample of vertices (all of them when n is small).
	step := max(1, n/2000)
	for v := 0; v < n; v += step {
		var row []int
		g.Visit(v, func(w int, _ int64) bool { row = append(row, w); return false })
		if len(row) != g.Degree(v) {
			t.Fatalf("Visit(%d) lists %d neighbours, Degree %d", v, len(row), g.Degree(v))
		}
		for i, w := range row {
			if (i > 0 && w <= row[i-1]) || w == v || w < 0 || w >= n {
				t.Fatalf("Visit(%d) = %v: not sorted distinct neighbours", v, row)
			}
			if !g.HasEdge(v, w) || !g.HasEdge(w, v) {
				t.Fatalf("Visit(%d) lists %d but HasEdge disagrees", v, w)
			}
		}
		// Early stop.
		calls := 0
		if Delta > 0 && !g.Visit(v, func(int, int64) bool { calls++; return true }) || calls > 1 {
			t.Fatalf("Visit(%d) did not stop early", v)
		}
	}
	if uint64(n)*uint64(Delta) > 1e6 {
		return
	}
	c, err := g.CSR()
	if err != nil {
		t.Fatal(err)
	}
	checkRegular(t, c, n, Delta)
	checkSimpleCSR(t, c)
	if got := len(ybgraph.Components(c)); got != g.Components() {
		t.Errorf("Components() = %d, yourbasic finds %d", g.Components(), got)
	}
}

func TestNewCirculant(t *testing.T) {
	// {1} gives the cycle.
	for _, n := range []int{3, 4, 10} {
		g, err := NewCirculant(n, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		checkCirculant(t, g, n, 2)
		c, _ := g.CSR()
		cyc, _ := Cycle(n)
		if !slices.Equal(c.EdgeList(), cyc.EdgeList()) {
			t.Errorf("circulant {±1} on %d is not the cycle", n)
		}
	}
	// {1, …, ⌊n/2⌋} gives K_n; negative and repeated jumps are fine.
	g, err := NewCirculant(9, []int{1, 2, 3, 4, -1, 13})
	if err != nil {
		t.Fatal(err)
	}
	checkCirculant(t, g, 9, 8)
	// {4} on Z_12: S = {4, 8}, four triangles.
	g, _ = NewCirculant(12, []int{4})
	checkCirculant(t, g, 12, 2)
	if g.Components() != 4 {
		t.Errorf("Cay(Z_12, {±4}) has %d components, want 4", g.Components())
	}
	for _, bad := range []struct {
		n     int
		jumps []int
	}{{0, nil}, {-3, nil}, {10, []int{10}}, {10, []int{0}}, {10, []int{3, -20}}} {
		if _, err := NewCirculant(bad.n, bad.jumps); err == nil {
			t.Errorf("NewCirculant(%d, %v) accepted", bad.n, bad.jumps)
		}
	}
}

func TestRandomCirculant(t *testing.T) {
	tests := []struct{ n, Delta int }{
		{1, 0}, {2, 1}, {10, 0}, {10, 3}, {10, 4}, {11, 4}, {10, 9}, {11, 10},
		{1000, 16}, {1000, 17}, {1000, 999}, {1001, 500},
		{1_000_000_000, 16}, // implicit: 64 bytes of graph
		{MaxOrder, 1000},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("n=%d/Delta=%d", tc.n, tc.Delta), func(t *testing.T) {
			g, err := RandomCirculant(tc.n, tc.Delta, rand.NewPCG(uint64(i), 3))
			if err != nil {
				t.Fatal(err)
			}
			checkCirculant(t, g, tc.n, tc.Delta)
		})
	}
	src := rand.NewPCG(1, 2)
	for _, bad := range [][2]int{{0, 0}, {10, 10}, {10, -1}, {11, 3}, {MaxOrder + 1, 2}} {
		if _, err := RandomCirculant(bad[0], bad[1], src); err == nil {
			t.Errorf("RandomCirculant(n=%d, Delta=%d) accepted", bad[0], bad[1])
		}
	}
	if _, err := RandomCirculant(10, 2, nil); err == nil {
		t.Error("nil source accepted")
	}
}

// TestRandomCirculantUniform: the connection set is uniform over the
// symmetric subsets of its size, checked by χ² over every such subset, on
// both sampling paths: selection sampling (n = 10, Δ = 4: 2 of the 4 pairs,
// 6 sets; n = 10, Δ = 5: the same with 5 added) and Floyd's algorithm
// (n = 36, Δ = 4: 2 of 17 pairs, 136 sets).
func TestRandomCirculantUniform(t *testing.T) {
	tests := []struct {
		n, Delta, sets int // sets = C(⌊(n−1)/2⌋, ⌊Δ/2⌋)
	}{
		{10, 4, 6}, {10, 5, 6}, {36, 4, 136},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n=%d/Delta=%d", tc.n, tc.Delta), func(t *testing.T) {
			src := rand.NewPCG(uint64(tc.n), uint64(tc.Delta))
			counts := map[string]int{}
			for range tc.sets * samplesPerGraph() {
				g, err := RandomCirculant(tc.n, tc.Delta, src)
				if err != nil {
					t.Fatal(err)
				}
				counts[fmt.Sprint(g.ConnectionSet())]++
			}
			if len(counts) != tc.sets {
				t.Fatalf("saw %d distinct sets, want %d", len(counts), tc.sets)
			}
			var cs []int
			for _, c := range counts {
				cs = append(cs, c)
			}
			checkUniformCounts(t, cs)
		})
	}
}

// TestCirculantEigenvalue: the character x_u = cos(2πju/n) is an
// eigenvector of the adjacency matrix with eigenvalue Eigenvalue(j).
func TestCirculantEigenvalue(t *testing.T) {
	g, err := RandomCirculant(60, 7, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	n := g.Order()
	for j := range n {
		lam := g.Eigenvalue(j)
		if j == 0 && lam != 7 {
			t.Errorf("λ_0 = %g, want Δ = 7", lam)
		}
		if d := lam - g.Eigenvalue(n-j); j > 0 && math.Abs(d) > 1e-12 {
			t.Errorf("λ_%d − λ_%d = %g", j, n-j, d)
		}
		for u := range n {
			var ax float64
			g.Visit(u, func(w int, _ int64) bool {
				ax += math.Cos(2 * math.Pi * float64(j*w) / float64(n))
				return false
			})
			if x := math.Cos(2 * math.Pi * float64(j*u) / float64(n)); math.Abs(ax-lam*x) > 1e-9 {
				t.Fatalf("j=%d u=%d: (Ax)_u = %g, λx_u = %g", j, u, ax, lam*x)
			}
		}
	}
}

func BenchmarkRandomCirculant(b *testing.B) {
	b.Run("n=1e9/Delta=16", func(b *testing.B) {
		src := rand.NewPCG(1, 2)
		for b.Loop() {
			if _, err := RandomCirculant(1e9, 16, src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
