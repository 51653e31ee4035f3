package alloc

import (
	"errors"
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Hyper is balanced allocation on a hypergraph H whose vertices are the
// bins [God08]: each ball draws a uniformly random hyperedge of H and goes
// to a least loaded vertex of it, reading every vertex of the hyperedge.
// A graph is the 2-uniform hypergraph of its edges, and there Hyper is the
// graph process with edge sampling; on the complete s-uniform hypergraph
// (every s-subset once) a uniform hyperedge is s distinct uniform bins,
// and Hyper is Greedy[s] without replacement.
//
// [God08] lets each ball i have a random set of bins B_i, with arbitrary
// correlations, and proves a maximum load O(1) w.h.p. at m = n (more
// generally m = O(n)) when |B_i| = Ω(log n) and the sets are balanced:
// every bin lies in B_i with about the same probability, here
// deg(v)/k ≈ s/n for every vertex, s the mean hyperedge size and k the
// number of hyperedges (a hypergraph whose degrees are all close to the
// mean). A uniform hyperedge of a fixed hypergraph is such a B_i. For
// hyperedges of constant size no such bound holds in general; on the
// complete s-uniform hypergraph the maximum load is
// ln ln n / ln s ± O(1) [ABKU99]. docs/theory.md, section "Hypergraphs".
//
// Why a process of its own, and not the graph process on a hypergraph:
// the graph process has two choices by definition, its bounds [KP06;
// PTW15; BF22] are stated for graphs and read their degree and
// expansion, and its sampling rules (edge, vertex) have no single meaning
// on hyperedges; Hyper's number of choices is the hyperedge size and its
// bound is [God08]'s. The graph process refuses a hypergraph and names
// this one; on graphs it is unchanged.
//
// Ties: [God08] places the ball in "the least loaded bin" of B_i without
// fixing a rule; TiesRandom (the default) picks uniformly among the tied
// vertices (one bounded draw, only when two or more tie); TiesLeft gives
// the ball to the tied vertex with the smallest number.
type Hyper struct {
	H    *graphgen.Hypergraph
	Ties Ties
}

var hyperDescriptor = Descriptor{
	Name:     "hyper",
	Synopsis: "balanced allocation on a hypergraph (-g hyper:FILE or hypergraph:rank=s,edges=k): a uniform hyperedge, its least loaded vertex",
	Uses:     ParamGraph,
	Family:   FamilyHyper,
	BinBytes: 1,
	choices: func(p Params) float64 {
		// The mean hyperedge size: the probes of an average ball (p.D
		// without the hypergraph, as when a saved run is summarised).
		if h, ok := p.Graph.(*graphgen.Hypergraph); ok && h.Size() > 0 {
			return float64(h.Incidences()) / float64(h.Size())
		}
		return p.D
	},
	build: func(p Params) Rule {
		h, _ := p.Graph.(*graphgen.Hypergraph)
		return Hyper{H: h, Ties: p.Ties}
	},
}

// Name returns the command-line name, "hyper".
func (Hyper) Name() string { return hyperDescriptor.Name }

// String returns "hyper[s]" for an s-uniform hypergraph, "hyper[a..b]"
// for hyperedges of a to b vertices.
func (p Hyper) String() string {
	if p.H == nil {
		return p.Name()
	}
	lo, hi := p.H.Rank()
	if lo == hi {
		return fmt.Sprintf("%s[%d]", p.Name(), lo)
	}
	return fmt.Sprintf("%s[%d..%d]", p.Name(), lo, hi)
}

// Check requires a hypergraph on n vertices with a hyperedge.
func (p Hyper) Check(n int) error {
	if p.H == nil {
		return errors.New("alloc: hyper process needs a hypergraph (graphgen.Hypergraph: -g hyper:FILE or hypergraph:rank=s,edges=k; for a graph use the graph process)")
	}
	if p.H.Order() != n {
		return fmt.Errorf("alloc: hypergraph has %d vertices but the run has n=%d bins", p.H.Order(), n)
	}
	if err := checkBins(p.Name(), n); err != nil {
		return err
	}
	if p.H.Size() == 0 {
		return errors.New("alloc: hyper process needs a hypergraph with at least one hyperedge")
	}
	return nil
}

// Place throws m balls, |e| probes each for the hyperedge e drawn.
func (p Hyper) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	random := p.Ties.resolve(TiesRandom) == TiesRandom
	verts := p.H.Vertices()
	if s := p.H.Uniform(); s > 0 {
		b.place(m,
			func(L []uint8, m int64) int64 { return hyperUniform(L, m, verts, s, random, r) },
			func(L []uint32, m int64) int64 { return hyperUniform(L, m, verts, s, random, r) })
		return Stats{Probes: m * int64(s), MaxProbes: min(m, 1) * int64(s)}
	}
	off := p.H.Offsets()
	var st Stats
	add := func(k int64, t Stats) int64 { // the balls placed, after adding up their stats
		st.Add(t)
		return k
	}
	b.place(m,
		func(L []uint8, m int64) int64 { return add(hyperGeneral(L, m, verts, off, random, r)) },
		func(L []uint32, m int64) int64 { return add(hyperGeneral(L, m, verts, off, random, r)) })
	return st
}

// The loops below return the balls placed: on one-byte loads they stop
// before a ball that would raise a load to 255 (see full), with r as before
// that ball.

// hyperUniform places m balls on the s-uniform hypergraph whose hyperedge
// e is verts[e·s:(e+1)·s].
// Written by hand, as hyperGeneral: a ball's candidates are a hyperedge
// of varying size (hyperBall), a shape of its own.
func hyperUniform[T uint8 | uint32](L []T, m int64, verts []uint32, s int, random bool, r *Rand) int64 {
	k := uint64(len(verts) / s)
	st := r.state
	for i := int64(0); i < m; i++ {
		st0 := st
		var e uint64
		st, e = below(st, k)
		lo := e * uint64(s)
		var ok bool
		if st, ok = hyperBall(L, verts[lo:lo+uint64(s)], random, st); !ok {
			r.state = st0
			return i
		}
	}
	r.state = st
	return m
}

// hyperGeneral places m balls on the hypergraph whose hyperedge e is
// verts[off[e]:off[e+1]], and returns the balls placed and their stats.
func hyperGeneral[T uint8 | uint32](L []T, m int64, verts []uint32, off []int, random bool, r *Rand) (int64, Stats) {
	k := uint64(len(off) - 1)
	st := r.state
	var probes, most int64
	for i := int64(0); i < m; i++ {
		st0 := st
		var e uint64
		st, e = below(st, k)
		he := verts[off[e]:off[e+1]]
		var ok bool
		if st, ok = hyperBall(L, he, random, st); !ok {
			r.state = st0
			return i, Stats{Probes: probes, MaxProbes: most}
		}
		probes += int64(len(he))
		most = max(most, int64(len(he)))
	}
	r.state = st
	return m, Stats{Probes: probes, MaxProbes: most}
}

// hyperBall places one ball at a least loaded vertex of he and returns the
// generator's state: the least load first (branch-free), then the tied
// vertices are counted and, with random ties and two or more of them, the
// x-th is taken for x uniform below their count (one draw, and none when
// the least load is unique). It reports false, and places nothing, when the
// ball would raise a one-byte load to 255.
func hyperBall[T uint8 | uint32](L []T, he []uint32, random bool, st uint64) (uint64, bool) {
	c, mn, st := hyperChoose(L, he, random, st)
	if full(L, uint64(mn)) {
		return st, false
	}
	L[c] = mn + 1
	return st, true
}

// hyperChoose is hyperBall's choice: it returns the vertex of he that takes
// the ball, its load and the generator's state, and writes nothing.
func hyperChoose[T uint8 | uint32](L []T, he []uint32, random bool, st uint64) (uint32, T, uint64) {
	mn := L[he[0]]
	for _, v := range he[1:] {
		mn = min(mn, L[v])
	}
	c, tied := uint32(0), uint64(0)
	for _, v := range he {
		if L[v] == mn {
			if tied == 0 {
				c = v
			}
			tied++
		}
	}
	if random && tied > 1 {
		var x uint64
		st, x = below(st, tied)
		for _, v := range he {
			if L[v] == mn {
				if x == 0 {
					c = v
					break
				}
				x--
			}
		}
	}
	return c, mn, st
}

// rule returns the hypergraph process's rule for the batched driver (see
// rule): each ball draws its hyperedge and, on a tie, its tie as Place's
// loops do (hyperUniform, hyperGeneral, hyperBall), and takes the same
// vertex.
func (p Hyper) rule(int) rule {
	g := hyperRule{verts: p.H.Vertices(), random: p.Ties.resolve(TiesRandom) == TiesRandom}
	if s := p.H.Uniform(); s > 0 {
		g.s = s
	} else {
		g.off = p.H.Offsets()
	}
	return g
}

// hyperRule is Hyper as a rule: hyperedge e is verts[e·s:(e+1)·s] on an
// s-uniform hypergraph (s > 0), else verts[off[e]:off[e+1]].
type hyperRule struct {
	verts  []uint32
	off    []int
	s      int
	random bool
}

func (g hyperRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	var k uint64
	if g.s > 0 {
		k = uint64(len(g.verts) / g.s)
	} else {
		k = uint64(len(g.off) - 1)
	}
	st := r.state
	var probes, most int64
	for i := int64(0); i < m; i++ {
		var e uint64
		st, e = below(st, k)
		var he []uint32
		if g.s > 0 {
			lo := e * uint64(g.s)
			he = g.verts[lo : lo+uint64(g.s)]
		} else {
			he = g.verts[g.off[e]:g.off[e+1]]
		}
		var c, l uint32
		c, l, st = hyperChoose(L, he, g.random, st)
		put(L, out, i, uint64(c), l)
		probes += int64(len(he))
		most = max(most, int64(len(he)))
	}
	r.state = st
	return Stats{Probes: probes, MaxProbes: most}
}
