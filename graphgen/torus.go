package graphgen

import "math"

// Torus returns the dim-dimensional torus (discrete torus, toroidal grid)
// with side vertices along each axis: the Cartesian product of dim cycles
// C_side, n = side^dim vertices. Vertex v has coordinates
// (x_0, …, x_{dim−1}) with v = Σ x_i·side^i, and is adjacent to the
// vertices that differ by ±1 (mod side) in exactly one coordinate.
//
// For side >= 3 the graph is 2·dim-regular; for side = 2 the steps +1 and
// −1 reach the same vertex, the simple graph keeps one edge, and the torus
// is the hypercube Q_dim (dim-regular); for side = 1 it is a single vertex.
// The one-dimensional torus is the cycle C_side. Tori are vertex-transitive
// and poor expanders: for even side >= 4 the cut into the half-tori
// {x_0 < side/2} and {x_0 >= side/2} crosses 2n/side edges, so the
// degree-normalised edge expansion is at most 2/(dim·side); greedy
// allocation on tori is conjectured to have a polynomial gap [Bansal,
// Feldheim 2022].
//
// It takes O(n·dim) time, building the sorted rows directly (no sorting of
// an edge list), and about 24·n·dim bytes for side >= 3. It returns an error
// unless dim >= 1, side >= 1 and side^dim <= MaxOrder.
func Torus(dim, side int) (*CSR, error) {
	return torus(nil, dim, side)
}

// torus is Torus, returning stop's error once it stops.
func torus(stop *stopper, dim, side int) (*CSR, error) {
	n, err := torusOrder(dim, side)
	if err != nil {
		return nil, err
	}
	deg := 2 * dim
	switch side {
	case 1:
		deg = 0
	case 2:
		deg = dim
	}
	off := make([]int, n+1)
	for v := range off {
		off[v] = v * deg
	}
	adj := make([]uint32, n*deg)
	if deg == 0 {
		return fromRows(off, adj), nil
	}
	// x holds the coordinates of v, advanced like an odometer.
	x := make([]int, dim)
	stride := make([]int, dim)
	stride[0] = 1
	for i := 1; i < dim; i++ {
		stride[i] = stride[i-1] * side
	}
	wrap := make([]int, dim) // (side−1)·side^i: the jump across the seam
	for i := range dim {
		wrap[i] = (side - 1) * stride[i]
	}
	for v := range n {
		if stop.steps(uint32(deg)) {
			return nil, stop.err()
		}
		row := adj[v*deg : v*deg+deg]
		k := 0
		for i := range dim {
			up, down := v+stride[i], v-stride[i]
			if x[i] == side-1 {
				up = v - wrap[i]
			}
			if x[i] == 0 {
				down = v + wrap[i]
			}
			row[k] = uint32(up)
			k++
			if side > 2 {
				row[k] = uint32(down)
				k++
			}
		}
		sortShortRow(row)
		for i := range dim {
			if x[i]++; x[i] < side {
				break
			}
			x[i] = 0
		}
	}
	return fromRows(off, adj), nil
}

// torusOrder returns side^dim, or an error if the parameters are out of
// range or the torus would have more than MaxOrder vertices.
func torusOrder(dim, side int) (int, error) { return latticeOrder(dim, side, MaxOrder) }

// TorusSide returns ⌈n^{1/dim}⌉, the smallest side with side^dim >= n: the
// side of the torus a spec "torus:dim=k" builds for n vertices. It is exact
// (integer arithmetic, not a rounded power). n <= 1 gives 1; dim must be
// at least 1.
func TorusSide(n, dim int) int {
	if n <= 1 || dim < 1 {
		return 1
	}
	s := int(math.Ceil(math.Pow(float64(n), 1/float64(dim))))
	// The floating-point root may be off by one either way.
	for s > 1 && powAtLeast(s-1, dim, n) {
		s--
	}
	for !powAtLeast(s, dim, n) {
		s++
	}
	return s
}

// powAtLeast reports whether s^dim >= n, without overflow.
func powAtLeast(s, dim, n int) bool {
	p := 1
	for range dim {
		if p >= (n+s-1)/s {
			return true // p·s >= n already
		}
		p *= s
	}
	return p >= n
}
