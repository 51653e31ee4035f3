package graphgen

import (
	"fmt"
	"math"
)

// Complete is the complete graph K_n on the vertices 0..n-1. It is implicit:
// it stores nothing but n, so it serves any n up to MaxCompleteOrder (the
// simulators sample its edges directly, never listing the n(n-1)/2 of
// them; the per-bin engine holds a load per vertex, the level engine
// none).
type Complete int

// MaxCompleteOrder is the most vertices a Complete may have, 2^62: the
// level engine's limit, as K_n stores nothing.
const MaxCompleteOrder = 1 << 62

var _ Graph = Complete(0)

// NewComplete returns K_n, or an error if n is outside [0, MaxCompleteOrder].
func NewComplete(n int) (Complete, error) {
	if n < 0 || n > MaxCompleteOrder {
		return 0, fmt.Errorf("graphgen: complete graph needs 0 <= n <= %d, got n=%d", MaxCompleteOrder, n)
	}
	return Complete(n), nil
}

// Order returns n.
func (g Complete) Order() int { return int(g) }

// Size returns n(n-1)/2, halving the even factor first: n(n−1) itself
// overflows an int64 from n ≈ 3.04·10^9 on. n(n−1)/2 fits up to MaxOrder;
// for a larger K_n it may be more than an int64 holds, and Size returns
// math.MaxInt64, which no graph of at most MaxOrder vertices reaches.
func (g Complete) Size() int64 {
	n := int64(g)
	if n > MaxOrder {
		return math.MaxInt64
	}
	if n%2 == 0 {
		return n / 2 * (n - 1)
	}
	return n * ((n - 1) / 2)
}

// Degree returns n-1.
func (g Complete) Degree(int) int { return int(g) - 1 }

// Visit calls do for every vertex other than v, in increasing order.
func (g Complete) Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool) {
	for w := 0; w < int(g); w++ {
		if w != v && do(w, 0) {
			return true
		}
	}
	return false
}

// Cycle returns the cycle C_n: the edges {v, v+1 mod n}. For n = 1 it is a
// single vertex, for n = 2 a single edge (the simple graph has no double
// edge); n must lie in [0, MaxOrder].
func Cycle(n int) (*CSR, error) {
	return cycle(nil, n)
}

// cycle is Cycle, returning stop's error once it stops.
func cycle(stop *stopper, n int) (*CSR, error) {
	if n < 0 || n > MaxOrder {
		return nil, fmt.Errorf("graphgen: cycle needs 0 <= n <= %d, got n=%d", MaxOrder, n)
	}
	e := make([]uint32, 0, 2*n)
	for v := 0; v+1 < n; v++ {
		e = append(e, uint32(v), uint32(v+1))
	}
	if n > 2 {
		e = append(e, uint32(n-1), 0)
	}
	g, _, err := fromChunks(n, [][]uint32{e}, false, false, stop)
	return g, err
}
