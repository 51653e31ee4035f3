package graphgen

import (
	"fmt"
	"math/bits"
)

// MaxImplicitOrder is the most vertices an implicit graph that names its
// vertices may have, 2^40: the implicit torus and hypercube (Lattice) and
// the permutation-model regular graph (PermutationRegular) store no
// adjacency and index vertices with 64 bits, so only the loads of their
// bins limit n (n = 10^10 at one byte a bin takes 10 GB). Spec.OrderLimit
// says which specs reach it.
const MaxImplicitOrder = 1 << 40

// MaxLatticeOrder is the most vertices a Lattice may have: MaxImplicitOrder.
const MaxLatticeOrder = MaxImplicitOrder

// Lattice is the torus of Torus, or the hypercube of Hypercube, without
// adjacency: it stores dim and side, and finds the neighbours of
// v = Σ x_i·side^i by arithmetic, v ± side^i with the wrap across the seam
// (v XOR 2^i for the hypercube). The vertices, the edges and the spectrum
// are those of Torus(dim, side) (Hypercube(dim) is Torus(dim, 2)); only
// the order in which Visit lists the neighbours differs from the CSR's
// sorted rows, and the simulators sample it by a rule of their own, so a
// run on it gives different numbers for a seed than on the CSR, with the
// same law. Its memory is O(dim) whatever n, up to MaxLatticeOrder.
//
// The zero Lattice is the empty graph.
type Lattice struct {
	n, dim, side int
}

var _ Graph = Lattice{}

// NewTorusLattice returns the implicit torus of the given dimension and
// side. It returns an error unless dim >= 1, side >= 1 and
// side^dim <= MaxLatticeOrder.
func NewTorusLattice(dim, side int) (Lattice, error) {
	n, err := latticeOrder(dim, side, MaxLatticeOrder)
	if err != nil {
		return Lattice{}, err
	}
	return Lattice{n: n, dim: dim, side: side}, nil
}

// NewHypercubeLattice returns the implicit hypercube Q_dim. It returns an
// error unless 0 <= dim <= 40.
func NewHypercubeLattice(dim int) (Lattice, error) {
	if dim < 0 || dim > 62 || 1<<dim > MaxLatticeOrder {
		return Lattice{}, fmt.Errorf("graphgen: implicit hypercube needs 0 <= dim <= %d, got dim=%d", bits.Len(MaxLatticeOrder)-1, dim)
	}
	return Lattice{n: 1 << dim, dim: dim, side: 2}, nil
}

// Order returns n = side^dim.
func (g Lattice) Order() int { return g.n }

// Dim returns the dimension, Side the side (2 for a hypercube).
func (g Lattice) Dim() int  { return g.dim }
func (g Lattice) Side() int { return g.side }

// Degree returns 2·dim for side >= 3, dim for side 2, 0 for side 1.
func (g Lattice) Degree(int) int {
	switch g.side {
	case 1:
		return 0
	case 2:
		return g.dim
	}
	return 2 * g.dim
}

// RegularDegree returns Δ = Degree(0), as CSR.RegularDegree does (0 for
// side 1, which has no edge): g is regular by construction, so no scan of
// its degrees is needed.
func (g Lattice) RegularDegree() int { return g.Degree(0) }

// Size returns n·Δ/2.
func (g Lattice) Size() int64 { return int64(g.n) * int64(g.Degree(0)) / 2 }

// Visit calls do for v + side^i and then v − side^i (mod side along axis
// i), i = 0..dim−1 (only the first for side 2), and stops early returning
// true if do returns true. It takes O(dim) time.
func (g Lattice) Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool) {
	if g.side == 1 {
		return false
	}
	stride := 1
	for range g.dim {
		x := v / stride % g.side
		up, down := v+stride, v-stride
		if x == g.side-1 {
			up -= g.side * stride
		}
		if x == 0 {
			down += g.side * stride
		}
		if do(up, 0) {
			return true
		}
		if g.side > 2 && do(down, 0) {
			return true
		}
		stride *= g.side
	}
	return false
}

// latticeOrder returns side^dim, or an error if the parameters are out of
// range or the torus would have more than limit vertices.
func latticeOrder(dim, side, limit int) (int, error) {
	if dim < 1 || side < 1 {
		return 0, fmt.Errorf("graphgen: torus needs dim >= 1 and side >= 1, got dim=%d side=%d", dim, side)
	}
	n := 1
	for range dim {
		if n > limit/side {
			return 0, fmt.Errorf("graphgen: torus with side=%d dim=%d has side^dim > %d vertices", side, dim, limit)
		}
		n *= side
	}
	return n, nil
}
