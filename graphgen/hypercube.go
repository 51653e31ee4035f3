package graphgen

import (
	"fmt"
	"math/bits"
)

// MaxHypercubeDim is the largest dimension Hypercube accepts: 2^31
// vertices, the largest power of two not above MaxOrder.
const MaxHypercubeDim = 31

// Hypercube returns the dim-dimensional hypercube Q_dim: n = 2^dim vertices,
// v and w adjacent when their binary representations differ in exactly one
// bit (w = v XOR 2^i). It is dim-regular, bipartite and vertex-transitive,
// with dim·2^(dim−1) edges; its degree-normalised edge expansion is exactly
// 1/dim, attained by a half-cube {v : bit i of v is 0} (Harper's
// edge-isoperimetric inequality), and the spectral gap of its random walk
// is 2/dim.
//
// It takes O(n·dim) time and builds the sorted rows directly: the
// neighbours v−2^i (bits set in v, highest first) precede the neighbours
// v+2^i (bits clear, lowest first). It returns an error unless
// 0 <= dim <= MaxHypercubeDim.
func Hypercube(dim int) (*CSR, error) {
	return hypercube(nil, dim)
}

// hypercube is Hypercube, returning stop's error once it stops.
func hypercube(stop *stopper, dim int) (*CSR, error) {
	if dim < 0 || dim > MaxHypercubeDim {
		return nil, fmt.Errorf("graphgen: hypercube needs 0 <= dim <= %d, got dim=%d", MaxHypercubeDim, dim)
	}
	n := 1 << dim
	off := make([]int, n+1)
	for v := range off {
		off[v] = v * dim
	}
	adj := make([]uint32, n*dim)
	for v := range n {
		if stop.steps(uint32(dim)) {
			return nil, stop.err()
		}
		row := adj[v*dim : v*dim+dim]
		k := 0
		for i := dim - 1; i >= 0; i-- {
			if v>>i&1 == 1 {
				row[k] = uint32(v ^ 1<<i)
				k++
			}
		}
		for i := range dim {
			if v>>i&1 == 0 {
				row[k] = uint32(v | 1<<i)
				k++
			}
		}
	}
	return fromRows(off, adj), nil
}

// HypercubeDim returns dim such that n = 2^dim, or an error naming the
// nearest powers of two if n is not a power of two (or is below 1).
func HypercubeDim(n int) (int, error) {
	if n < 1 || n&(n-1) != 0 {
		lo := 1
		if n > 1 {
			lo = 1 << (bits.Len(uint(n)) - 1)
		}
		return 0, fmt.Errorf("graphgen: hypercube needs n a power of two, got n=%d (nearest: %d or %d)", n, lo, 2*lo)
	}
	return bits.TrailingZeros(uint(n)), nil
}
