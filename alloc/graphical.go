package alloc

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Sampling is how the graphical process draws its two candidate bins.
type Sampling uint8

const (
	// SampleEdge draws a uniformly random edge {u, v}. On a non-regular
	// graph this weights each vertex by its degree.
	SampleEdge Sampling = iota
	// SampleVertex draws a uniform vertex u, then a uniform neighbour v of
	// u. An isolated u takes the ball itself.
	SampleVertex
)

// String returns "edge" or "vertex".
func (s Sampling) String() string {
	if s == SampleVertex {
		return "vertex"
	}
	return "edge"
}

// ParseSampling parses "edge" or "vertex".
func ParseSampling(s string) (Sampling, error) {
	switch s {
	case "edge":
		return SampleEdge, nil
	case "vertex":
		return SampleVertex, nil
	}
	return SampleEdge, fmt.Errorf("alloc: unknown sampling rule %q (allowed: edge, vertex)", s)
}

// Graphical is the two-choice process on a graph G whose vertices are the
// bins [Kenthapadi, Panigrahy 2006; Peres, Talwar, Wieder 2015]: each ball
// draws an edge {u, v} of G (by Sample) and goes to the lesser loaded
// endpoint. On the complete graph it is Greedy[2] without replacement.
//
// For m = n the maximum load is log log n + O(1/ε) + O(1) on almost regular
// graphs of degree n^ε, and on Δ-regular graphs between
// log log n + log n / log(Δ log n) and
// log log n + O(log n / log(Δ / log⁴ n)) + O(1) [KP06]; for any m the gap is
// O(log n / σ) with σ the edge expansion [PTW15].
//
// Ties: TiesRandom (the default) gives a tied ball to either endpoint with
// probability 1/2; TiesLeft gives it to the endpoint with the smaller id for
// SampleEdge, to the sampled vertex u for SampleVertex.
//
// G must be a *graphgen.CSR, a graphgen.Complete, a graphgen.Circulant, a
// graphgen.PermutationRegular or a graphgen.Lattice; the simulator runs a
// loop specialised to each (the last two on one-byte loads too).
type Graphical struct {
	G      graphgen.Graph
	Sample Sampling
	Ties   Ties
}

var _ Process = Graphical{}

var graphicalDescriptor = Descriptor{
	Name:     "graph",
	Synopsis: "two-choice on a graph (-g): a uniform edge, the lesser loaded end",
	Uses:     ParamGraph | ParamSample,
	D:        2,
	Family:   FamilyGraph,
	BinBytes: 4,
	levels:   onComplete,
	meanField: func(p Params) (MeanField, bool) {
		// An edge of K_n is two distinct uniform bins: Greedy[2] up to
		// O(1/n).
		if !onComplete(p) {
			return MeanField{}, false
		}
		return MeanField{Family: FamilyGreedy, D: 2}, true
	},
	build: func(p Params) Rule { return Graphical{G: p.Graph, Sample: p.Sample, Ties: p.Ties} },
}

// Name returns the command-line name, "graph".
func (Graphical) Name() string { return graphicalDescriptor.Name }

// String returns "graph".
func (p Graphical) String() string { return p.Name() }

// Check requires G to be a supported graph with n vertices that has an edge
// to sample.
func (p Graphical) Check(n int) error {
	if p.G == nil {
		return errors.New("alloc: graph process needs a graph")
	}
	if p.G.Order() != n {
		return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", p.G.Order(), n)
	}
	if err := checkBins(p.Name(), n); err != nil {
		return err
	}
	switch g := p.G.(type) {
	case *graphgen.CSR:
		if g.Size() == 0 {
			return errors.New("alloc: graph process needs a graph with at least one edge")
		}
	case graphgen.Complete:
		if n < 2 {
			return errors.New("alloc: graph process needs a graph with at least one edge, complete graph has n=1")
		}
	case graphgen.Circulant:
		if g.Size() == 0 {
			return errors.New("alloc: graph process needs a graph with at least one edge, circulant has degree 0")
		}
	case *graphgen.Hypergraph:
		return errors.New("alloc: graph process runs on graphs, not hypergraphs: use the hyper process (a uniform hyperedge, its least loaded vertex)")
	case graphgen.PermutationRegular, graphgen.Lattice:
		if p.G.Size() == 0 {
			return errors.New("alloc: graph process needs a graph with at least one edge")
		}
	default:
		return fmt.Errorf("alloc: graph process does not support graphs of type %T", p.G)
	}
	return nil
}

// Place throws m balls, two probes each (one when SampleVertex hits an
// isolated vertex).
func (p Graphical) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	random := p.Ties.resolve(TiesRandom) == TiesRandom
	probes := 2 * m
	switch g := p.G.(type) {
	case *graphgen.CSR:
		if p.Sample == SampleVertex {
			probes -= graphVertex(b.wide(), m, g.Offsets(), g.Adjacency(), random, r)
		} else {
			graphEdge(b.wide(), m, g.EdgeList(), random, r)
		}
	case graphgen.Complete:
		// On K_n a uniform vertex and a uniform neighbour is a uniform
		// ordered pair of distinct vertices, and so is a uniformly
		// oriented uniform edge: the sampling rules coincide, but the
		// left tie rule names a different winner.
		completeGraph(b.wide(), m, random, p.Sample == SampleVertex, r)
	case graphgen.Circulant:
		// Regular: a uniform vertex and a uniform incident edge is a
		// uniform edge, so again the sampling rules coincide.
		circulantGraph(b.wide(), m, g.ConnectionSet(), random, p.Sample == SampleVertex, r)
	case graphgen.PermutationRegular, graphgen.Lattice:
		implicitGraph(b, m, g, random, p.Sample == SampleVertex, r) // implicitgraph.go
		return Stats{Probes: probes, MaxProbes: min(m, 1) * 2}
	}
	runtime.KeepAlive(b) // b.wide() may be mapped memory, freed once b is unreachable
	b.balls += m
	return Stats{Probes: probes, MaxProbes: min(m, 1) * 2}
}

// graphEdge places m balls at the lesser loaded end of uniform edges of the
// flat edge array e. With random ties each edge is oriented by a fair coin
// (from r's coin buffer) and the first end wins ties.
func graphEdge(L []uint32, m int64, e []uint32, random bool, r *Rand) {
	if pipelined(len(e), 4) || pipelined(len(L), 4) {
		graphEdgePiped(L, m, e, random, r) // the same balls, cache misses overlapped
		return
	}
	ne := uint64(len(e) / 2)
	s, coins, nc := r.state, r.coins, r.ncoins
	for k := int64(0); k < m; k++ {
		var x uint64
		s, x = below(s, ne)
		u, v := e[2*x], e[2*x+1]
		if random {
			if nc == 0 {
				s, coins = next(s)
				nc = 64
			}
			if coins&1 != 0 {
				u, v = v, u
			}
			coins >>= 1
			nc--
		}
		lu, lv := L[u], L[v]
		c, mn := u, lu
		if lv < lu {
			c, mn = v, lv
		}
		L[c] = mn + 1
	}
	r.state, r.coins, r.ncoins = s, coins, nc
}

// graphVertex places m balls by a uniform vertex and a uniform neighbour of
// it, and returns how many balls found an isolated vertex (one probe).
func graphVertex(L []uint32, m int64, off []int, adj []uint32, random bool, r *Rand) (isolated int64) {
	n := uint64(len(L))
	s, coins, nc := r.state, r.coins, r.ncoins
	for k := int64(0); k < m; k++ {
		var u uint64
		s, u = below(s, n)
		deg := uint64(off[u+1] - off[u])
		if deg == 0 {
			L[u]++
			isolated++
			continue
		}
		var j uint64
		s, j = below(s, deg)
		v := uint64(adj[uint64(off[u])+j])
		lu, lv := L[u], L[v]
		c, mn := u, lu
		if lv < lu {
			c, mn = v, lv
		}
		if random && lv == lu {
			if nc == 0 {
				s, coins = next(s)
				nc = 64
			}
			if coins&1 != 0 {
				c = v
			}
			coins >>= 1
			nc--
		}
		L[c] = mn + 1
	}
	r.state, r.coins, r.ncoins = s, coins, nc
	return isolated
}

// completeGraph places m balls on K_n: u uniform, v uniform among the other
// n-1 vertices. With left ties the smaller id wins (edge sampling) or u does
// (vertex sampling).
func completeGraph(L []uint32, m int64, random, vertexFirst bool, r *Rand) {
	n := uint64(len(L))
	s := r.state
	for k := int64(0); k < m; k++ {
		var u, v uint64
		s, u = below(s, n)
		s, v = below(s, n-1)
		if v >= u {
			v++
		}
		if !random && !vertexFirst && v < u {
			u, v = v, u
		}
		// With random ties the pair (u, v) is already a uniformly
		// random ordering of the edge, so the first end winning ties
		// is a fair coin.
		lu, lv := L[u], L[v]
		c, mn := u, lu
		if lv < lu {
			c, mn = v, lv
		}
		L[c] = mn + 1
	}
	r.state = s
}

// circulantGraph places m balls on the circulant graph with connection set
// S on len(L) vertices: u uniform, s uniform in S, v = u + s mod n. Each
// edge {a, b} arises from (a, b−a) and (b, a−b) (or (a, n/2) and (b, n/2)),
// so the edge is uniform and its orientation a fair coin; ties are handled
// as in completeGraph.
func circulantGraph(L []uint32, m int64, S []uint32, random, vertexFirst bool, r *Rand) {
	n := uint64(len(L))
	d := uint64(len(S))
	s := r.state
	for k := int64(0); k < m; k++ {
		var u, j uint64
		s, u = below(s, n)
		s, j = below(s, d)
		v := u + uint64(S[j])
		if v >= n {
			v -= n
		}
		if !random && !vertexFirst && v < u {
			u, v = v, u
		}
		lu, lv := L[u], L[v]
		c, mn := u, lu
		if lv < lu {
			c, mn = v, lv
		}
		L[c] = mn + 1
	}
	r.state = s
}
