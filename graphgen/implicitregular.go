package graphgen

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// FeistelRounds is the number of rounds of the Feistel networks behind
// PermutationRegular. It is even: FeistelForward and FeistelInverse take
// the rounds in pairs, one on each half.
const FeistelRounds = 6

// FeistelKey is the key of one keyed bijection: for each round a key k and
// an odd multiplier c, as k_0, c_0, k_1, c_1, ….
type FeistelKey [2 * FeistelRounds]uint64

// FeistelForward applies the Feistel network with key k to x, a value of 2w
// bits (0 < w <= 31): x is split into halves l = x >> w and r = x mod 2^w,
// and each round i xors into one half the round function
// F_i(y) = ((y XOR k_i)·c_i mod 2^64) >> (64 − w) of the other, alternately
// l ^= F_0(r), r ^= F_1(l), …. Each round is a bijection of the 2w-bit
// values whatever F_i, so the network is one; with random round keys it is
// a pseudo-random permutation [Luby, Rackoff 1988]. It is arithmetic only,
// and FeistelInverse undoes it.
func FeistelForward(x uint64, k *FeistelKey, w uint) uint64 {
	mask := uint64(1)<<w - 1
	l, r := x>>w, x&mask
	s := 64 - w
	for i := 0; i < len(k); i += 4 { // rounds i/2 and i/2+1
		l ^= (r ^ k[i]) * k[i+1] >> s
		r ^= (l ^ k[i+2]) * k[i+3] >> s
	}
	return l<<w | r
}

// FeistelInverse is the inverse of FeistelForward: the rounds in reverse.
func FeistelInverse(x uint64, k *FeistelKey, w uint) uint64 {
	mask := uint64(1)<<w - 1
	l, r := x>>w, x&mask
	s := 64 - w
	for i := len(k) - 4; i >= 0; i -= 4 {
		r ^= (l ^ k[i+2]) * k[i+3] >> s
		l ^= (r ^ k[i]) * k[i+1] >> s
	}
	return l<<w | r
}

// PermutationRegular is a random Δ-regular multigraph in the permutation
// model, stored implicitly: for even Δ = 2d it is the union of d
// pseudo-random permutations π_0, …, π_{d−1} of the vertices 0..n−1, the
// edges being {u, π_j(u)} for every u and j, so the neighbours of u are
// π_j(u) and π_j⁻¹(u), j < d. Each π_j is a keyed bijection: a Feistel
// network (FeistelForward) on the 4^w >= n values of 2w bits, 4^w the
// smallest power of 4 not below n, restricted to 0..n−1 by cycle walking
// (π_j(u) is the first of F(u), F(F(u)), … below n: a bijection of
// 0..n−1, found after 4^w/n < 4 steps on average) [Black, Rogaway 2002].
// The graph stores only n, w and d keys: 96·d bytes whatever n, so n may
// be as large as MaxImplicitOrder (vertex ids are 64-bit; w <= 20).
//
// It is a multigraph. A fixed point π_j(u) = u is a loop, which counts 2
// towards the degree of u; two permutations that join u and v, or a
// 2-cycle of one, give a multiple edge. Visit reports each neighbour with
// its multiplicity, so every vertex has exactly Δ neighbours and the graph
// n·Δ/2 edges. For uniform random permutations the numbers of cycles of
// lengths 1, 2, …, k (loops, pairs of parallel edges, triangles, …) tend
// to independent Poisson variables with means a(k)/(2k),
// a(k) = (2d−1)^k − 1 + 2d for even k and (2d−1)^k + 1 for odd k, the
// number of cyclically reduced words of length k in d free generators
// [Bollobás 1988; Wormald 1999, §2.3]: about d loops and d² − d/2 parallel
// pairs in all, whatever n, against n·d edges. That is the one difference
// at finite n from the uniform random Δ-regular simple graph
// (RandomRegular), and it is rare: the model is contiguous to the uniform
// one as n → ∞ — every property that holds with probability tending to 1
// in one holds so in the other [Janson 1995; Greenhill, Janson, Kim,
// Wormald 2002] — so w.h.p. statements about random regular graphs (their
// expansion, and the bounds of the graphical allocation process on them)
// hold for both. CountShortCycles counts the defects of a given graph.
// The Feistel permutations are pseudo-random, not uniform; the tests
// check the cycle counts above and the spectral gap against the uniform
// model's.
//
// Its spectrum is near Ramanujan w.h.p.: every eigenvalue of the
// adjacency matrix but Δ is at most 2√(Δ−1) + o(1) in absolute value
// [Friedman 2008], so the spectral gap of the random walk tends to
// 1 − 2√(Δ−1)/Δ.
//
// The zero PermutationRegular is the empty graph. It is immutable; copies
// share the keys.
type PermutationRegular struct {
	n    int
	w    uint
	keys []FeistelKey
}

var _ Graph = PermutationRegular{}

// NewPermutationRegular returns the random Delta-regular multigraph on
// 0..n−1 of the permutation model, its Delta/2 permutations keyed by draws
// from src (2·FeistelRounds draws each). It takes O(Delta) time and memory.
// It returns an error unless 1 <= n <= MaxImplicitOrder, Delta is even with
// 2 <= Delta < n, and src is non-nil.
func NewPermutationRegular(n, Delta int, src rand.Source) (PermutationRegular, error) {
	switch {
	case n < 1 || n > MaxImplicitOrder:
		return PermutationRegular{}, fmt.Errorf("graphgen: implicit regular needs 1 <= n <= %d, got n=%d", MaxImplicitOrder, n)
	case Delta < 2 || Delta%2 == 1 || Delta >= n:
		return PermutationRegular{}, fmt.Errorf("graphgen: implicit regular needs an even degree 2 <= Delta < n, got n=%d Delta=%d", n, Delta)
	case src == nil:
		return PermutationRegular{}, errors.New("graphgen: implicit regular needs a random source, got nil")
	}
	keys := make([]FeistelKey, Delta/2)
	for j := range keys {
		for i := range FeistelRounds {
			keys[j][2*i] = src.Uint64()
			keys[j][2*i+1] = src.Uint64() | 1
		}
	}
	return PermutationRegular{n: n, w: feistelHalf(n), keys: keys}, nil
}

// feistelHalf returns w >= 1 with 4^w the smallest power of 4 not below
// n (and at least 4).
func feistelHalf(n int) uint {
	b := uint(bits.Len64(uint64(n - 1))) // 2^b >= n
	return max((b+1)/2, 1)
}

// Order returns n.
func (g PermutationRegular) Order() int { return g.n }

// Size returns n·Δ/2, loops and multiple edges included.
func (g PermutationRegular) Size() int64 { return int64(g.n) * int64(len(g.keys)) }

// Degree returns Δ for every vertex (a loop counts 2).
func (g PermutationRegular) Degree(int) int { return 2 * len(g.keys) }

// RegularDegree returns Δ, as CSR.RegularDegree does: g is Δ-regular by
// construction, so no scan of its degrees is needed.
func (g PermutationRegular) RegularDegree() int { return 2 * len(g.keys) }

// Multi returns true: g is a multigraph (its loops and parallel edges are
// edges), as CSR.Multi reports for its listing.
func (PermutationRegular) Multi() bool { return true }

// Permutations returns d = Δ/2.
func (g PermutationRegular) Permutations() int { return len(g.keys) }

// Half returns w, the half-width of the Feistel networks: they permute the
// 4^w values of 2w bits.
func (g PermutationRegular) Half() uint { return g.w }

// Keys returns the keys of the d permutations. They are shared with g and
// must not be modified.
func (g PermutationRegular) Keys() []FeistelKey { return g.keys }

// Perm returns π_j(u), 0 <= j < d, 0 <= u < n, in O(1) expected time.
func (g PermutationRegular) Perm(j, u int) int {
	k, n := &g.keys[j], uint64(g.n)
	x := FeistelForward(uint64(u), k, g.w)
	for x >= n {
		x = FeistelForward(x, k, g.w)
	}
	return int(x)
}

// Inverse returns π_j⁻¹(u), 0 <= j < d, 0 <= u < n, in O(1) expected time.
func (g PermutationRegular) Inverse(j, u int) int {
	k, n := &g.keys[j], uint64(g.n)
	x := FeistelInverse(uint64(u), k, g.w)
	for x >= n {
		x = FeistelInverse(x, k, g.w)
	}
	return int(x)
}

// Visit calls do for π_0(v), π_0⁻¹(v), π_1(v), π_1⁻¹(v), … in that order,
// each neighbour as often as it is one (a loop twice), and stops early
// returning true if do returns true. It implements yourbasic's
// graph.Iterator, in O(Δ) expected time.
func (g PermutationRegular) Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool) {
	for j := range g.keys {
		if do(g.Perm(j, v), 0) || do(g.Inverse(j, v), 0) {
			return true
		}
	}
	return false
}

// CSR lists g as a multigraph CSR (FromEdgesMulti): the n·d edges
// {u, π_j(u)}, loops and parallel edges kept, so that every vertex has
// degree Δ (a loop counting 2) and the walk D⁻¹A is the one that the
// graph process samples. The returned Dropped counts its loops (the fixed
// points of the π_j) and parallel edges, none dropped. It takes
// O(n·Δ log Δ) time and 8(n + 1) + 4·n·Δ bytes, with 4·n·Δ more while
// it is built; it returns an error if n > MaxOrder.
func (g PermutationRegular) CSR() (*CSR, Dropped, error) { return g.csr(nil) }

// csr is CSR, stopping once stop stops (ListContext).
func (g PermutationRegular) csr(stop *stopper) (*CSR, Dropped, error) {
	if g.n > MaxOrder {
		return nil, Dropped{}, fmt.Errorf("graphgen: implicit regular graph on %d vertices is too large to list (at most %d)", g.n, MaxOrder)
	}
	d := len(g.keys)
	e := make([]uint32, 0, 2*g.n*d)
	for u := range g.n {
		if stop.steps(uint32(d)) {
			return nil, Dropped{}, stop.err()
		}
		for j := range d {
			e = append(e, uint32(u), uint32(g.Perm(j, u)))
		}
	}
	return fromEdgesMulti(g.n, e, stop)
}

// CountShortCycles returns c with c[k] the number of cycles of length k,
// 1 <= k <= K: c[1] the loops, c[2] the pairs of parallel edges, [k] for k >= 3 the cycles on k
// distinct vertices, each counted once per set of edges. It takes
// O(n·d·(2d−1)^(K−1)) time and 8·n·d bytes, for tests and diagnostics on
// small graphs: the means for uniform permutations are in
// PermutationRegular's doc.
func (g PermutationRegular) CountShortCycles(K int) []int64 {
	n, d := g.n, len(g.keys)
	// fwd[u·d+j] = π_j(u), inv likewise; edge (u, j) is u → π_j(u).
	fwd, inv := make([]uint32, n*d), make([]uint32, n*d)
	for u := range n {
		for j := range d {
			fwd[u*d+j] = uint32(g.Perm(j, u))
		}
	}
	for u := range n {
		for j := range d {
			inv[int(fwd[u*d+j])*d+j] = uint32(u)
		}
	}
	c := make([]int64, K+1)
	if K >= 1 {
		for u := range n {
			for j := range d {
				if int(fwd[u*d+j]) == u {
					c[1]++
				}
			}
		}
	}
	// Closed walks from their least vertex s through vertices above s,
	// distinct, never leaving by the edge they came in on: each cycle of
	// length k >= 2 is found twice, once per direction.
	path := make([]uint32, 0, K)
	var walk func(s, v uint32, in int, depth int)
	walk = func(s, v uint32, in int, depth int) {
		for j := range d {
			for dir := range 2 {
				var w uint32
				var e int
				if dir == 0 {
					w, e = fwd[int(v)*d+j], int(v)*d+j
				} else {
					w = inv[int(v)*d+j]
					e = int(w)*d + j
				}
				if e == in || w < s || (w == v) {
					continue
				}
				if w == s {
					if depth+1 >= 2 && depth+1 <= K {
						c[depth+1]++
					}
					continue
				}
				if depth+1 >= K {
					continue
				}
				dup := false
				for _, p := range path {
					if p == w {
						dup = true
						break
					}
				}
				if dup {
					continue
				}
				path = append(path, w)
				walk(s, w, e, depth+1)
				path = path[:len(path)-1]
			}
		}
	}
	for s := range n {
		path = append(path[:0], uint32(s))
		walk(uint32(s), uint32(s), -1, 0)
	}
	for k := 2; k <= K; k++ {
		c[k] /= 2
	}
	return c
}

// PermutationCycleMean returns a(k)/(2k), the limiting mean number of
// cycles of length k >= 1 in the union of d uniform random permutations
// and their inverses (see PermutationRegular).
func PermutationCycleMean(d, k int) float64 {
	a := 1.0
	for range k {
		a *= float64(2*d - 1)
	}
	if k%2 == 0 {
		a += float64(2*d - 1)
	} else {
		a++
	}
	return a / float64(2*k)
}
