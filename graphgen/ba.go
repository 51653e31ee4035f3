package graphgen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// BarabasiAlbert returns a Barabási–Albert preferential-attachment graph
// [BA99] on the vertices 0..n-1 in which every vertex after the seed brings
// m edges, drawing randomness from src.
//
// # The model
//
// The seed is the clique K_{m+1} on the vertices 0..m. Then the vertices
// v = m+1, …, n−1 arrive in turn, and v is joined to m distinct earlier
// vertices, its targets, drawn one at a time from the graph G_{v−1} on
// 0..v−1 as it stood before v arrived: each draw picks u with probability
// deg(u) / 2|E(G_{v−1})| (linear preferential attachment), and a draw that
// repeats a target already chosen for v is redrawn. So the graph is simple
// (no loops, no multiple edges), connected, and has exactly
//
//	|E| = m(m+1)/2 + m(n−m−1) = m·n − m(m+1)/2
//
// edges; every vertex has degree at least m, and the last one exactly m.
// (The degrees of G_{v−1} are used for all m targets of v: the draws of v
// do not see v's own edges.) For n = m+1 the graph is K_{m+1}, the only
// regular case.
//
// Redrawing repeats changes the chance that a vertex of degree d becomes a
// target only by a relative O(m·d/|E|), so the degrees follow the law of
// the linear model [DMS00, BRST01]: the fraction of vertices of degree k
// tends to 2m(m+1) / (k(k+1)(k+2)), and the fraction of degree at least k
// to m(m+1) / (k(k+1)) ~ k^{−2}, for k >= m; the largest degree grows as
// m·√n.
//
// # Algorithm
//
// The repeated-nodes array of [BB05]: every edge {v, u} is stored as the two
// entries v, u of an array M, so that each vertex appears in M as many times
// as its degree, and a draw proportional to degree is one uniform index into
// the part of M written before v (one bounded 64-bit draw and one read).
// A repeated target is recognised by a per-vertex mark (the last vertex
// that chose it). Redraws are rare: a draw for v repeats a target with
// probability (the degrees of v's targets so far)/2|E(G_{v−1})|, which is
// O(m·log v / v) on average (a target drawn by degree has mean degree
// O(m·log v) under the k^{−3} law), so there are O(m²·log² n) in all
// (measured: 168 for n = 10^6 and m = 4, 2935 with m = 16). Each vertex's
// targets are sorted (m small), and the rows of the CSR are then filled in
// M's order, which leaves every row sorted: v's own targets first, then the
// later vertices that chose v, in the order they arrived. So the graph is
// built in O(n·m) expected time and 8|E| + 4n bytes besides the CSR's: M
// (8|E| bytes) and the marks (4n). With n = 10^6 and m = 4 it takes
// 0.22–0.25 s on one core (BenchmarkBarabasiAlbert; up to 0.4 s on a
// loaded machine), most of it in the random reads of M and the random
// writes into the rows.
//
// It returns an error unless 1 <= m < n <= MaxOrder, n·m <= math.MaxInt/4
// and src is non-nil.
//
// References:
//
//	[BA99]   A.-L. Barabási and R. Albert, Emergence of scaling in random
//	         networks, Science 286 (1999) 509–512.
//	[BB05]   V. Batagelj and U. Brandes, Efficient generation of large
//	         random networks, Phys. Rev. E 71 (2005) 036113.
//	[BRST01] B. Bollobás, O. Riordan, J. Spencer and G. Tusnády, The degree
//	         sequence of a scale-free random graph process, Random
//	         Structures Algorithms 18 (2001) 279–290.
//	[DMS00]  S. N. Dorogovtsev, J. F. F. Mendes and A. N. Samukhin,
//	         Structure of growing networks with preferential linking, Phys.
//	         Rev. Lett. 85 (2000) 4633–4636.
func BarabasiAlbert(n, m int, src rand.Source) (*CSR, error) {
	return barabasiAlbert(nil, n, m, src)
}

// barabasiAlbert is BarabasiAlbert, returning stop's error once it stops.
func barabasiAlbert(stop *stopper, n, m int, src rand.Source) (*CSR, error) {
	switch {
	case n < 0 || n > MaxOrder:
		return nil, fmt.Errorf("graphgen: ba needs 0 <= n <= %d, got n=%d", MaxOrder, n)
	case m < 1:
		return nil, fmt.Errorf("graphgen: ba needs m >= 1 (edges each new vertex brings), got m=%d", m)
	case m >= n:
		return nil, fmt.Errorf("graphgen: ba needs m < n (the seed is K_{m+1}), got m=%d n=%d", m, n)
	case uint64(n)*uint64(m) > math.MaxInt/4:
		return nil, fmt.Errorf("graphgen: ba with n=%d m=%d has n*m = %d edge ends, more than %d", n, m, uint64(n)*uint64(m), math.MaxInt/4)
	case src == nil:
		return nil, errors.New("graphgen: ba needs a random source, got nil")
	}
	E := baEdges(n, m)
	M := make([]uint32, 2*E)
	// The seed: vertex v <= m joins 0..v−1, its targets already sorted.
	k := 0
	for v := 1; v <= m; v++ {
		for u := range v {
			M[k], M[k+1] = uint32(v), uint32(u)
			k += 2
		}
	}
	mark := make([]uint32, n) // mark[u] = the last vertex v > m that chose u; 0 for none
	t := make([]uint32, m)    // v's targets
	for v := m + 1; v < n; v++ {
		if stop.stop() {
			return nil, stop.err()
		}
		base := uint64(k) // entries written before v: G_{v−1}
		for j := range t {
			var u uint32
			for {
				u = M[uint64n(src, base)]
				if mark[u] != uint32(v) {
					break
				}
			}
			mark[u] = uint32(v)
			t[j] = u
		}
		slices.Sort(t)
		for _, u := range t {
			M[k], M[k+1] = uint32(v), u
			k += 2
		}
	}

	// Rows: off[v+1] counts v's degree, min(v, m) edges of its own and
	// those of the later vertices that chose it; the prefix sums make
	// off[v] the start of row v.
	off := make([]int, n+1)
	for v := range n {
		off[v+1] = min(v, m)
	}
	for i := 1; i < len(M); i += 2 {
		off[M[i]+1]++
	}
	for v := range n {
		off[v+1] += off[v]
	}
	adj := make([]uint32, off[n])
	// In M's order row v receives its own sorted targets (all below v)
	// before any later vertex that chose it, and those in increasing
	// order: sorted rows.
	fillRows(off, adj, M)
	return fromRows(off, adj), nil
}

// baEdges is the edge count of BarabasiAlbert(n, m): m·n − m(m+1)/2, for
// 1 <= m < n.
func baEdges(n, m int) int64 {
	return int64(m)*int64(n) - int64(m)*int64(m+1)/2
}
