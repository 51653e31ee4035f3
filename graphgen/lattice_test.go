package graphgen

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLatticeMatchesCSR checks that the implicit torus and hypercube have
// the vertices, degrees, edges and neighbour sets of Torus and Hypercube.
func TestLatticeMatchesCSR(t *testing.T) {
	for _, tc := range []struct {
		name      string
		dim, side int // side 0: the hypercube
	}{
		{"cycle", 1, 7}, {"torus 2x5", 2, 5}, {"torus 3x4", 3, 4}, {"torus side 2", 3, 2},
		{"torus side 1", 2, 1}, {"hypercube 0", 0, 0}, {"hypercube 5", 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g Lattice
			var c *CSR
			var err error
			if tc.side == 0 {
				g, err = NewHypercubeLattice(tc.dim)
				if err == nil {
					c, err = Hypercube(tc.dim)
				}
			} else {
				g, err = NewTorusLattice(tc.dim, tc.side)
				if err == nil {
					c, err = Torus(tc.dim, tc.side)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Order() != c.Order() || g.Size() != c.Size() {
				t.Fatalf("order %d size %d, CSR %d %d", g.Order(), g.Size(), c.Order(), c.Size())
			}
			for v := range g.Order() {
				var row []uint32
				g.Visit(v, func(w int, _ int64) bool { row = append(row, uint32(w)); return false })
				slices.Sort(row)
				if !slices.Equal(row, c.Neighbors(v)) || len(row) != g.Degree(v) {
					t.Fatalf("vertex %d: %v, CSR %v, degree %d", v, row, c.Neighbors(v), g.Degree(v))
				}
			}
		})
	}
	if g, err := NewTorusLattice(1, 1<<33); err != nil || g.Order() != 1<<33 {
		t.Errorf("cycle on 2^33 vertices: %v, order %d", err, g.Order())
	}
	if _, err := NewTorusLattice(2, 1<<21); err == nil {
		t.Error("torus on 2^42 vertices: no error")
	}
}

// TestSpecImplicit checks the bare implicit flag, its canonical form, and
// that Plan and Build agree on the implicit kinds, beyond MaxOrder for the
// lattices.
func TestSpecImplicit(t *testing.T) {
	for _, tc := range []struct {
		spec string
		n    int
		want int
	}{
		{"regular:degree=16,implicit", 1 << 20, 1 << 20},
		{"torus:dim=2,implicit", 1000, 1024},
		{"torus:dim=1,implicit", 1 << 33, 1 << 33},
		{"hypercube:implicit", 1 << 33, 1 << 33},
	} {
		sp, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := ParseSpec(sp.String()); again.String() != sp.String() {
			t.Errorf("%s: String %q does not round-trip", tc.spec, sp.String())
		}
		p, err := sp.Plan(tc.n)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		g, info, err := sp.Build(tc.n, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if !p.Implicit || p.N != tc.want || g.Order() != tc.want || info.Edges != p.Edges || g.Degree(0) != p.MaxDegree {
			t.Errorf("%s: plan %+v, built order %d edges %d degree %d", tc.spec, p, g.Order(), info.Edges, g.Degree(0))
		}
	}
	for _, bad := range []string{"regular:degree=16,implicit=yes", "regular:degree=3,implicit", "cycle:implicit", "torus:dim=2,implicit,implicit"} {
		sp, err := ParseSpec(bad)
		if err == nil {
			_, err = sp.Plan(100)
		}
		if err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
