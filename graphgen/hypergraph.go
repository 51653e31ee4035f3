package graphgen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

// MaxHyperedges is the largest number of hyperedges a Hypergraph holds:
// hyperedges are numbered by uint32, and so a vertex degree fits one too.
const MaxHyperedges = MaxOrder

// MaxIncidences bounds the total size Σ|e| of a hypergraph's hyperedges
// (2^36 vertex slots, 256 GiB): a spec asking for more is refused before
// anything is allocated.
const MaxIncidences = 1 << 36

// Hypergraph is a compact, immutable hypergraph on the vertices 0..n-1:
// a list of hyperedges, each a non-empty set of distinct vertices, kept
// sorted ascending in one flat uint32 array. Hyperedge e is
// verts[off[e]:off[e+1]]; when every hyperedge has the same size s (an
// s-uniform hypergraph, as RandomUniformHypergraph makes) the offsets are
// not stored and hyperedge e is verts[e·s:(e+1)·s], which is what the
// hypergraph process samples from (one bounded draw and one contiguous
// read per ball). The same set may appear as several hyperedges: a
// repeated line of a file is drawn twice as often.
//
// Memory: 4·Σ|e| bytes of vertices, 8(k+1) of offsets unless uniform, and
// 4n of vertex degrees. Visit builds an incidence index (4·Σ|e| + 8(n+1)
// bytes) on its first call.
//
// A Hypergraph is a Graph, so that everything that takes a topology takes
// it: Order is n, Size the number of hyperedges k, Degree(v) the number
// of hyperedges that hold v, and Visit(v) the vertices sharing a hyperedge
// with v (the neighbours in the 2-section, each once). A graph is the
// 2-uniform hypergraph of its edges.
type Hypergraph struct {
	n                int
	rank             int // s if every hyperedge has s vertices (off is nil), else 0
	off              []int
	verts            []uint32
	k                int
	minRank, maxRank int
	deg              []uint32

	incOnce sync.Once
	incOff  []int    // the hyperedges holding v are inc[incOff[v]:incOff[v+1]]
	inc     []uint32 // built by Visit
}

var _ Graph = (*Hypergraph)(nil)

// FromHyperedges returns the hypergraph on n vertices whose k hyperedges
// are verts[off[e]:off[e+1]], e = 0..k-1 (off has k+1 entries, off[0] = 0,
// off[k] = len(verts)). Each hyperedge is sorted in place. It takes
// ownership of off and verts and O(n + Σ|e| log s) time, s the largest
// hyperedge.
//
// It returns an error if n is negative or above MaxOrder, if off is
// malformed, if a hyperedge is empty, names a vertex not below n or names
// a vertex twice, or if there are more than MaxHyperedges hyperedges.
func FromHyperedges(n int, off []int, verts []uint32) (*Hypergraph, error) {
	if n < 0 || n > MaxOrder {
		return nil, fmt.Errorf("graphgen: vertex count %d outside [0, %d]", n, MaxOrder)
	}
	if len(off) == 0 || off[0] != 0 || off[len(off)-1] != len(verts) {
		return nil, errors.New("graphgen: hyperedge offsets must start at 0 and end at len(verts)")
	}
	k := len(off) - 1
	if k > MaxHyperedges {
		return nil, fmt.Errorf("graphgen: %d hyperedges, more than %d", k, MaxHyperedges)
	}
	h := &Hypergraph{n: n, off: off, verts: verts, k: k}
	for e := range k {
		a, b := off[e], off[e+1]
		if b <= a {
			return nil, fmt.Errorf("graphgen: hyperedge %d is empty", e)
		}
		he := verts[a:b]
		slices.Sort(he)
		if int(he[len(he)-1]) >= n {
			return nil, fmt.Errorf("graphgen: hyperedge %d names vertex %d, not below n=%d", e, he[len(he)-1], n)
		}
		for i := 1; i < len(he); i++ {
			if he[i] == he[i-1] {
				return nil, fmt.Errorf("graphgen: hyperedge %d names vertex %d twice", e, he[i])
			}
		}
	}
	h.finish()
	return h, nil
}

// finish computes the ranks and degrees, and drops the offsets of a
// uniform hypergraph.
func (h *Hypergraph) finish() {
	h.deg = make([]uint32, h.n)
	for _, v := range h.verts {
		h.deg[v]++
	}
	if h.k == 0 {
		h.off = nil
		return
	}
	if h.off == nil {
		h.minRank, h.maxRank = h.rank, h.rank
		return
	}
	h.minRank, h.maxRank = h.off[1], h.off[1]
	for e := 1; e < h.k; e++ {
		s := h.off[e+1] - h.off[e]
		h.minRank, h.maxRank = min(h.minRank, s), max(h.maxRank, s)
	}
	if h.minRank == h.maxRank {
		h.rank, h.off = h.minRank, nil
	}
}

// RandomUniformHypergraph returns the random s-uniform hypergraph on n
// vertices with k hyperedges, each an independent uniform s-subset of
// [n] (so the same set may be drawn twice). Each subset is the first s
// entries of a partial Fisher–Yates shuffle of a permutation of [n]; a
// shuffle started from any permutation gives a uniform s-sequence of
// distinct vertices, so the permutation is not reset between hyperedges.
// The degrees are Binomial(k, s/n), mean k·s/n.
//
// It takes O(n + k·s log s) time and 4k·s + 8n bytes (the vertices, the
// degrees and the permutation). It returns an error unless
// 1 <= s <= n <= MaxOrder, 0 <= k <= MaxHyperedges and k·s <= MaxIncidences.
func RandomUniformHypergraph(n, s, k int, src rand.Source) (*Hypergraph, error) {
	return randomUniformHypergraph(nil, n, s, k, src)
}

// randomUniformHypergraph is RandomUniformHypergraph, returning stop's
// error once it stops.
func randomUniformHypergraph(stop *stopper, n, s, k int, src rand.Source) (*Hypergraph, error) {
	switch {
	case n < 1 || n > MaxOrder:
		return nil, fmt.Errorf("graphgen: hypergraph needs 1 <= n <= %d, got n=%d", MaxOrder, n)
	case s < 1 || s > n:
		return nil, fmt.Errorf("graphgen: hypergraph:rank=%d needs 1 <= rank <= n = %d", s, n)
	case k < 0 || k > MaxHyperedges:
		return nil, fmt.Errorf("graphgen: hypergraph:edges=%d needs 0 <= edges <= %d", k, int64(MaxHyperedges))
	case uint64(k)*uint64(s) > MaxIncidences:
		return nil, fmt.Errorf("graphgen: hypergraph:rank=%d,edges=%d has %d vertex slots, more than %d", s, k, uint64(k)*uint64(s), int64(MaxIncidences))
	}
	r := rand.New(src)
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	verts := make([]uint32, k*s)
	for e := range k {
		if stop.stop() {
			return nil, stop.err()
		}
		he := verts[e*s : (e+1)*s]
		for i := range s {
			j := i + int(r.Uint64N(uint64(n-i)))
			perm[i], perm[j] = perm[j], perm[i]
			he[i] = perm[i]
		}
		slices.Sort(he)
	}
	h := &Hypergraph{n: n, rank: s, verts: verts, k: k}
	h.finish()
	return h, nil
}

// Order returns the number of vertices n.
func (h *Hypergraph) Order() int { return h.n }

// Size returns the number of hyperedges k.
func (h *Hypergraph) Size() int64 { return int64(h.k) }

// Degree returns the number of hyperedges that hold v.
func (h *Hypergraph) Degree(v int) int { return int(h.deg[v]) }

// Rank returns the least and the greatest hyperedge size (0, 0 without
// hyperedges).
func (h *Hypergraph) Rank() (lo, hi int) { return h.minRank, h.maxRank }

// Uniform returns s if every hyperedge has s vertices, else 0.
func (h *Hypergraph) Uniform() int { return h.rank }

// Incidences returns Σ|e|, the total size of the hyperedges.
func (h *Hypergraph) Incidences() int64 { return int64(len(h.verts)) }

// Vertices returns the flat vertex array and Offsets the offsets (nil for
// a uniform hypergraph): hyperedge e is Vertices()[Offsets()[e]:Offsets()[e+1]],
// or Vertices()[e·s:(e+1)·s] with s = Uniform(). They must not be modified.
func (h *Hypergraph) Vertices() []uint32 { return h.verts }

// Offsets: see Vertices.
func (h *Hypergraph) Offsets() []int { return h.off }

// Hyperedge returns the vertices of hyperedge e, sorted ascending; the
// slice must not be modified.
func (h *Hypergraph) Hyperedge(e int) []uint32 {
	if h.off == nil {
		return h.verts[e*h.rank : (e+1)*h.rank]
	}
	return h.verts[h.off[e]:h.off[e+1]]
}

// Visit calls do for each vertex w ≠ v that shares a hyperedge with v,
// once each, in increasing order; it stops and returns true as soon as do
// returns true. The first call builds the incidence index; a call costs
// O(Σ|e| log) over the hyperedges e holding v.
func (h *Hypergraph) Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool) {
	h.incOnce.Do(h.buildIncidence)
	var nb []uint32
	for _, e := range h.inc[h.incOff[v]:h.incOff[v+1]] {
		for _, w := range h.Hyperedge(int(e)) {
			if int(w) != v {
				nb = append(nb, w)
			}
		}
	}
	slices.Sort(nb)
	for i, w := range nb {
		if i > 0 && nb[i-1] == w {
			continue
		}
		if do(int(w), 1) {
			return true
		}
	}
	return false
}

// buildIncidence lists the hyperedges at each vertex.
func (h *Hypergraph) buildIncidence() {
	h.incOff = make([]int, h.n+1)
	for v, d := range h.deg {
		h.incOff[v+1] = h.incOff[v] + int(d)
	}
	h.inc = make([]uint32, len(h.verts))
	next := slices.Clone(h.incOff[:h.n])
	for e := range h.k {
		for _, v := range h.Hyperedge(e) {
			h.inc[next[v]] = uint32(e)
			next[v]++
		}
	}
}

// hyperBytes is the memory of a hypergraph on n vertices with k
// hyperedges of total size inc: the vertices, the offsets unless
// uniform, and the degrees.
func hyperBytes(n int, k, inc int64, uniform bool) int64 {
	b := 4*inc + 4*int64(n)
	if !uniform {
		b += 8 * (k + 1)
	}
	return b
}
