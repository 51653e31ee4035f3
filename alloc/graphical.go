package alloc

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Sampling is how the graphical process and the two-sample rules draw
// their candidate bins: SampleEdge, SampleVertex, or SampleWalk(L), a
// non-backtracking walk of L steps (the walk's length in the bits above the
// kind; see SampleWalk).
type Sampling uint32

const (
	// SampleEdge draws a uniformly random edge {u, v}. On a non-regular
	// graph this weights each vertex by its degree.
	SampleEdge Sampling = iota
	// SampleVertex draws a uniform vertex u, then a uniform neighbour v of
	// u. An isolated u takes the ball itself.
	SampleVertex
	// sampleWalk is the kind of SampleWalk.
	sampleWalk
)

// String returns "edge", "vertex" or "walk:len=L".
func (s Sampling) String() string {
	if l, ok := s.Walk(); ok {
		return fmt.Sprintf("walk:len=%d", l)
	}
	if s == SampleVertex {
		return "vertex"
	}
	return "edge"
}

// ParseSampling parses "edge", "vertex" or "walk:len=L" (0 <= L <=
// MaxWalk).
func ParseSampling(s string) (Sampling, error) {
	switch s {
	case "edge":
		return SampleEdge, nil
	case "vertex":
		return SampleVertex, nil
	}
	if v, ok := strings.CutPrefix(s, "walk:len="); ok {
		l, err := strconv.Atoi(v)
		if err != nil || l < 0 || l > MaxWalk {
			return SampleEdge, fmt.Errorf("alloc: walk sampling needs a length 0 <= L <= %d, got %q", MaxWalk, s)
		}
		return SampleWalk(l), nil
	}
	return SampleEdge, fmt.Errorf("alloc: unknown sampling rule %q (allowed: edge, vertex, walk:len=L)", s)
}

// Graphical is the two-choice process on a graph (Graph) whose vertices are
// the bins [Kenthapadi, Panigrahy 2006; Peres, Talwar, Wieder 2015]: each
// ball draws an edge {u, v} of the graph (by Sample) and goes to the lesser loaded
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
// SampleEdge, to the sampled vertex u for SampleVertex. Under SampleWalk
// the tie is among the visited vertices: uniform among the distinct tied
// ones, or under TiesLeft the first visited.
//
// Graphical (1+β) [PTW15]: with OneMinusBeta = 1 − β > 0, each ball draws
// its edge as above and, with probability β, goes to the lesser loaded end;
// otherwise it goes to a uniform end of the edge, whatever the loads. For
// β = 1 (OneMinusBeta = 0, the zero value) it is the two-choice process
// above. Its gap is O(log n / (βσ)) on a regular graph of edge expansion σ
// (the form of [PTW15]'s theorem for a (1+β) mixture of the graphical
// process; docs/theory.md), and on the complete graph it is (1+β) up to
// O(1/n): its fluid limit is OnePlusBeta's. Randomness: each ball draws a
// 64-bit coin x first, then its edge as the two-choice loop does, then one
// fair coin from the coin buffer (a tie under vertex sampling draws its coin
// after that); it takes the one-choice step iff x < ⌊(1−β)·2^64⌋, going to
// the end the fair coin names (u on 0, v on 1). With β = 1 no coin is drawn:
// the draws, and the loads, are those of the two-choice loops.
//
// Under SampleWalk(L) the process is Pourmiri's random-walk process and
// graphical (1+β) its mixture with one-choice (see SampleWalk).
//
// G must be a *graphgen.CSR, a graphgen.Complete, a graphgen.Circulant, a
// graphgen.PermutationRegular, a graphgen.Lattice, or under edge sampling a
// *graphgen.EdgeArray (a graph file held as its edge array alone, from
// which the process draws the edges it would draw from the file's CSR);
// the simulator runs a loop specialised to each, on one-byte loads as well as four-byte ones
// (see Bins; β < 1 runs the process's rule, see rule, on the generic driver
// and four-byte loads, but under walk sampling on either).
type Graphical struct {
	Graph  graphgen.Graph
	Sample Sampling
	Ties   Ties
	// OneMinusBeta is 1 − β of graphical (1+β), in [0, 1): the
	// probability that a ball goes to a uniform end of its edge instead of
	// the lesser loaded one. The zero value is β = 1, two-choice.
	OneMinusBeta float64
}

var graphicalDescriptor = Descriptor{
	Name:     "graph",
	Synopsis: "two-choice on a graph (-g): a uniform edge, the lesser loaded end; with --beta β, that end with probability β, else a uniform end (graphical (1+β))",
	Uses:     ParamGraph | ParamSample | ParamBeta,
	D:        2,
	Family:   FamilyGraph,
	// Compact loads on every graph (Place) and under walk sampling;
	// graphical (1+β) on the other samplers, and a regular multigraph
	// file drawn from its lines, run on four bytes a bin.
	BinBytes: 1,
	compactUpTo: func(p Params) float64 {
		_, walk := p.Sample.Walk()
		if graphBeta(p) < 1 && !walk {
			return 0
		}
		if c, ok := p.Graph.(*graphgen.CSR); ok && !walk && multiLines(c) != nil {
			return 0 // drawn from its lines by implicitRule, on four bytes a bin
		}
		return compactBound
	},
	// Two-choice on the implicit regular graph (Place, implicitGraph).
	packed: func(p Params) bool {
		_, implicit := p.Graph.(graphgen.PermutationRegular)
		_, walk := p.Sample.Walk()
		return implicit && graphBeta(p) == 1 && !walk
	},
	levels: unwalkedComplete,
	// On K_n (Descriptor.MeanField holds the graph to it) an edge is two
	// distinct uniform bins, and a non-backtracking walk of L steps visits
	// L + 1 distinct uniform bins but with probability O(L²/n) (v_i =
	// v_{i−3} or earlier), the ball going to the least loaded: Greedy[2],
	// or Greedy[L+1] under walk sampling, up to O(1/n) [Pou19 for the
	// walk; Mitzenmacher 1996 for the limit]; walk:len=0 is one-choice.
	// Graphical (1+β) takes, with probability 1 − β, a uniform end of its
	// edge (under walk sampling the walk's uniform start v_0): the mixture
	// ds_i/dt = (1−β)(s_{i−1} − s_i) + β(s_{i−1}^d − s_i^d), d = 2 or L + 1.
	meanField: func(_ *Descriptor, p Params) (MeanField, bool) {
		d := 2
		if l, walk := p.Sample.Walk(); walk {
			d = l + 1
		}
		switch beta := graphBeta(p); {
		case d == 1:
			return MeanField{Family: FamilyOneChoice, D: 1}, true
		case beta < 1:
			return MeanField{Family: FamilyOnePlusBeta, D: d, Beta: beta}, true
		}
		return MeanField{Family: FamilyGreedy, D: d}, true
	},
	build: func(p Params) Rule {
		return Graphical{Graph: p.Graph, Sample: p.Sample, Ties: p.Ties, OneMinusBeta: 1 - graphBeta(p)}
	},
}

// graphBeta is the β of the graph process with p: Params.Beta if
// Params.GraphBeta is set, else 1 (two-choice).
func graphBeta(p Params) float64 {
	if p.GraphBeta {
		return p.Beta
	}
	return 1
}

// Name returns the command-line name, "graph".
func (Graphical) Name() string { return graphicalDescriptor.Name }

// Beta returns β = 1 − OneMinusBeta.
func (p Graphical) Beta() float64 { return 1 - p.OneMinusBeta }

// String returns "graph", or "graph (1+β), β = B" for β < 1.
func (p Graphical) String() string {
	if p.OneMinusBeta != 0 {
		return fmt.Sprintf("%s (1+β), β = %g", p.Name(), p.Beta())
	}
	return p.Name()
}

// Check requires G to be a supported graph with n vertices that has an edge
// to sample, and 0 ≤ OneMinusBeta < 1 (0 < β ≤ 1: with β = 0 no ball
// would compare loads).
func (p Graphical) Check(n int) error {
	if p.Graph == nil {
		return errors.New("alloc: graph process needs a graph")
	}
	if !(p.OneMinusBeta >= 0 && p.OneMinusBeta < 1) {
		return fmt.Errorf("alloc: %s needs 0 < beta <= 1 (graphical (1+β); β = 0 never compares loads), got beta=%g", p.Name(), p.Beta())
	}
	if p.Graph.Order() != n {
		return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", p.Graph.Order(), n)
	}
	if err := checkBins(p.Name(), n); err != nil {
		return err
	}
	if _, ok := p.Sample.Walk(); ok {
		return checkWalk(p.Name(), p.Graph)
	}
	switch g := p.Graph.(type) {
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
	case *graphgen.EdgeArray:
		return checkEdgeArray(p.Name(), g, p.Sample)
	case *graphgen.Hypergraph:
		return errors.New("alloc: graph process runs on graphs, not hypergraphs: use the hyper process (a uniform hyperedge, its least loaded vertex)")
	case graphgen.PermutationRegular, graphgen.Lattice:
		if p.Graph.Size() == 0 {
			return errors.New("alloc: graph process needs a graph with at least one edge")
		}
		if p.OneMinusBeta > 0 && uint64(n) > math.MaxUint32 {
			return fmt.Errorf("alloc: graphical (1+β) on an implicit graph needs at most 2^32 − 1 vertices, got n=%d (two-choice, β = 1, goes to 2^40)", n)
		}
	default:
		return fmt.Errorf("alloc: graph process does not support graphs of type %T", p.Graph)
	}
	return nil
}

// Place throws m balls, two probes each (one when SampleVertex hits an
// isolated vertex; L + 1 under SampleWalk(L), one for a one-choice step of
// graphical (1+β)).
func (p Graphical) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	if _, walk := p.Sample.Walk(); p.OneMinusBeta != 0 || walk {
		return placeRule(b, p.rule(b.N()), m, r) // graphical (1+β), walk sampling
	}
	random := p.Ties.resolve(TiesRandom) == TiesRandom
	probes := 2 * m
	vertexFirst := p.Sample == SampleVertex
	// Every loop runs on one-byte loads as well as four-byte ones
	// (Bins.place): it stops before a ball that would raise a load to
	// 255, with the generator and coin buffer as before that ball, and
	// the four-byte loop places the rest, so the loads are the same
	// whichever form held them.
	switch g := p.Graph.(type) {
	case *graphgen.CSR:
		if multiLines(g) != nil {
			return placeRule(b, p.rule(b.N()), m, r) // the permutation model's draws (implicitRule)
		}
		if vertexFirst {
			off, adj := g.Offsets(), g.Adjacency()
			var isolated int64
			b.place(m,
				func(L []uint8, m int64) int64 {
					k, i := graphVertex(L, m, off, adj, random, r)
					isolated += i
					return k
				},
				func(L []uint32, m int64) int64 {
					k, i := graphVertex(L, m, off, adj, random, r)
					isolated += i
					return k
				})
			probes -= isolated
		} else if D := uint64(g.RegularDegree()); D > 0 {
			// A regular graph samples half-edges of its rows: no edge
			// array.
			adj, leftEdge := g.Adjacency(), !random
			b.place(m,
				func(L []uint8, m int64) int64 { return regularEdge(L, m, adj, D, leftEdge, r) },
				func(L []uint32, m int64) int64 { return regularEdge(L, m, adj, D, leftEdge, r) })
		} else {
			graphEdges(b, m, g.EdgeList(), random, r)
		}
	case graphgen.Complete:
		// On K_n a uniform vertex and a uniform neighbour is a uniform
		// ordered pair of distinct vertices, and so is a uniformly
		// oriented uniform edge: the sampling rules coincide, but the
		// left tie rule names a different winner.
		b.place(m,
			func(L []uint8, m int64) int64 { return completeGraph(L, m, random, vertexFirst, r) },
			func(L []uint32, m int64) int64 { return completeGraph(L, m, random, vertexFirst, r) })
	case graphgen.Circulant:
		// Regular: a uniform vertex and a uniform incident edge is a
		// uniform edge, so again the sampling rules coincide.
		S := g.ConnectionSet()
		b.place(m,
			func(L []uint8, m int64) int64 { return circulantGraph(L, m, S, random, vertexFirst, r) },
			func(L []uint32, m int64) int64 { return circulantGraph(L, m, S, random, vertexFirst, r) })
	case graphgen.PermutationRegular, graphgen.Lattice:
		implicitGraph(b, m, g, random, vertexFirst, r) // implicitgraph.go
	case *graphgen.EdgeArray:
		graphEdges(b, m, g.EdgeList(), random, r)
		runtime.KeepAlive(g) // its array may be a mapping that g's cleanup releases
	}
	return Stats{Probes: probes, MaxProbes: min(m, 1) * 2}
}

// graphEdges places m balls on b by graphEdge, on the flat edge array e of
// a CSR or an EdgeArray.
func graphEdges(b *Bins, m int64, e []uint32, random bool, r *Rand) {
	b.place(m,
		func(L []uint8, m int64) int64 { return graphEdge(L, m, e, random, r) },
		func(L []uint32, m int64) int64 { return graphEdge(L, m, e, random, r) })
}

// checkEdgeArray requires edge sampling of a graph held as its edge array
// alone, with an edge: every other rule needs the rows.
func checkEdgeArray(name string, g *graphgen.EdgeArray, s Sampling) error {
	if s != SampleEdge {
		return fmt.Errorf("alloc: %s with %s sampling needs the graph's rows: this one is held as its edge array alone (graphgen.ReadEdges), read it with graphgen.LoadGraph", name, s)
	}
	if g.Size() == 0 {
		return fmt.Errorf("alloc: %s needs a graph with at least one edge", name)
	}
	return nil
}

// The Place loops of the graph process (graphEdge, regularEdge,
// graphVertex, completeGraph, circulantGraph) are generated from one
// template, by gen_loops.go into zloops_place.go: they stop before a ball
// that would raise a one-byte load to 255 (see full), leave r as it was
// before that ball, and return the balls placed; on four-byte loads they
// place all m.

// rule returns the graph process's rule on its graph for the batched
// driver and for graphical (1+β) (see rule).
func (p Graphical) rule(int) rule {
	g := graphRule{random: p.Ties.resolve(TiesRandom) == TiesRandom, vertexFirst: p.Sample == SampleVertex}
	if p.OneMinusBeta > 0 {
		g.lazy, g.thr = true, uint64(math.Ldexp(p.OneMinusBeta, 64)) // exact, below 2^64 for 1 − β < 1
	}
	if l, ok := p.Sample.Walk(); ok {
		return walkRule{w: newWalker(p.Graph, l), lazy: g.lazy, thr: g.thr, random: g.random}
	}
	switch gr := p.Graph.(type) {
	case *graphgen.CSR:
		if multiLines(gr) != nil {
			return newImplicitRule(g, gr) // implicitgraph.go
		}
		if p.Sample == SampleVertex {
			return vertexRule{g, gr.Offsets(), gr.Adjacency()}
		}
		if D := gr.RegularDegree(); D > 0 {
			return regularEdgeRule{g, gr.Adjacency(), uint64(D)}
		}
		return edgeRule{g, gr.EdgeList()}
	case *graphgen.EdgeArray:
		return edgeRule{g, gr.EdgeList()}
	case graphgen.Complete:
		return completeRule{g}
	case graphgen.Circulant:
		return circulantRule{g, gr.ConnectionSet()}
	case graphgen.PermutationRegular, graphgen.Lattice:
		return newImplicitRule(g, gr) // implicitgraph.go
	}
	panic(fmt.Sprintf("alloc: graph process on unsupported graph %T", p.Graph)) // Check rejects it first
}

// The rules of the graph process. Each draws a ball's edge as the
// two-choice loop of its graph does (graphEdge, graphVertex, completeGraph,
// circulantGraph, implicitGraph) and decides as it does; for graphical
// (1+β) (lazy) a ball first draws a 64-bit coin x, a one-choice step iff
// x < thr, and after its edge takes one fair coin from the coin buffer,
// which names the end a one-choice step takes (u on 0, v on 1), whether or
// not the step is one. Except under vertex sampling, where a tie draws a coin, no draw
// depends on the loads, so these rules draw a block of balls first and then
// place them one by one in order (the draws, and so the balls, are those of
// drawing and placing ball by ball), prefetching what the block will read
// (docs/theory.md, notes 4 and 8). Their run methods are generated from
// one template (gen_loops.go, into zloops_rule.go), all but vertexRule's:
// it places each ball as soon as it is drawn, a loop of another shape, and
// the only one of that shape, so it is written here.

// graphRule holds what the rules of the graph process share: the tie and
// sampling rules, and for graphical (1+β) (lazy) the threshold of its coin.
type graphRule struct {
	random, vertexFirst bool
	lazy                bool
	thr                 uint64 // lazy: a one-choice step iff the coin is below thr
}

// coin takes a fair coin from the buffer (coins, nc), refilling it from s.
func coin(s, coins uint64, nc int) (uint64, uint64, int, bool) {
	if nc == 0 {
		s, coins = next(s)
		nc = 64
	}
	return s, coins >> 1, nc - 1, coins&1 != 0
}

// stats is what m balls cost that read probes loads: Place's figures for
// two-choice (2 a ball, MaxProbes 2); for graphical (1+β) one-choice steps
// read one.
func (g graphRule) stats(m, probes int64) Stats {
	st := Stats{Probes: probes, MaxProbes: min(m, 1) * 2}
	if g.lazy && probes == m {
		st.MaxProbes = min(m, 1) // no step compared two loads
	}
	return st
}

// graphBlockLen is how many balls a graph rule draws ahead: enough
// outstanding prefetches to cover a DRAM access (note 4), few enough that
// the block stays in L1.
const graphBlockLen = 64

// graphBlock holds the draws of a block of balls: each ball's ends, in the
// order the tie rule reads them (the first wins ties), and its coins.
type graphBlock struct {
	u, v [graphBlockLen]uint32
	// flags: bit 0 a one-choice step, bit 1 its coin names v.
	flags [graphBlockLen]uint8
}

// first draws a lazy ball's step coin, before its edge, and returns its
// flags (bit 0: a one-choice step). No branch depends on the coin (note 3).
func (g graphRule) first(s uint64) (uint64, uint8) {
	if !g.lazy {
		return s, 0
	}
	var x uint64
	s, x = next(s)
	_, borrow := bits.Sub64(x, g.thr, 0) // 1 iff x < thr
	return s, uint8(borrow)
}

// second draws the end's coin of a lazy ball into bit 1 of its flags.
func (g graphRule) second(s, coins uint64, nc int, f uint8) (uint64, uint64, int, uint8) {
	if !g.lazy {
		return s, coins, nc, f
	}
	return flagCoin(s, coins, nc, f, 1)
}

// flagCoin takes a fair coin from the buffer into bit b of the flags f,
// without a branch on its value.
func flagCoin(s, coins uint64, nc int, f uint8, b uint) (uint64, uint64, int, uint8) {
	if nc == 0 {
		s, coins = next(s)
		nc = 64
	}
	return s, coins >> 1, nc - 1, f | uint8(coins&1)<<b
}

// place places the first nb balls of the block, ball j being ball k0+j of
// the run (see put): the lesser loaded end, the first winning ties, or in a
// one-choice step the end its coin names. It returns the loads read.
func (blk *graphBlock) place(L, out []uint32, k0 int64, nb int) (probes int64) {
	for j := range nb {
		u, v := uint64(blk.u[j]), uint64(blk.v[j])
		f := blk.flags[j]
		lu, lv := L[u], L[v]
		// Selections written for conditional moves (note 3).
		c, l := u, lu
		if lv < lu {
			c, l = v, lv
		}
		hc, hl := u, lu
		if f&2 != 0 {
			hc, hl = v, lv
		}
		if f&1 != 0 {
			c, l = hc, hl
		}
		probes += 2 - int64(f&1)
		put(L, out, k0+int64(j), c, l)
	}
	return probes
}

// edgeRule is the graph process on the flat edge array e of a CSR graph
// with edge sampling (graphEdge): a uniform edge, oriented by a fair coin
// with random ties. Pipelined twice when large, as graphEdgePiped: the
// block's edge slots are prefetched as they are drawn, then read and both
// ends' loads prefetched.
type edgeRule struct {
	graphRule
	e []uint32
}

// regularEdgeRule is the graph process on a D-regular CSR graph with edge
// sampling (regularEdge): a uniform half-edge of the rows adj, u uniform
// and a uniform slot of u's row, the smaller id first with left ties.
// Pipelined twice as edgeRule.
type regularEdgeRule struct {
	graphRule
	adj []uint32
	D   uint64
}

// completeRule is the graph process on K_n (completeGraph): u uniform, v
// uniform among the other n − 1; with left ties the smaller id comes first
// (edge sampling) or u does (vertex sampling).
type completeRule struct{ graphRule }

// circulantRule is the graph process on a circulant graph with connection
// set S (circulantGraph): u uniform, s uniform in S, v = u + s mod n, ties
// as on K_n.
type circulantRule struct {
	graphRule
	S []uint32
}

// vertexRule is the graph process on a CSR graph with vertex sampling
// (graphVertex): a uniform vertex u, a uniform neighbour v; an isolated u
// takes the ball itself (one probe); random ties are a fair coin drawn
// only on a tie, after the ball's other draws. That draw depends on the
// loads, so this rule places each ball as soon as it has drawn it.
type vertexRule struct {
	graphRule
	off []int
	adj []uint32
}

func (g vertexRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	off, adj := g.off, g.adj
	n := uint64(len(L))
	random := g.random
	s, coins, nc := r.state, r.coins, r.ncoins
	var probes int64
	for k := int64(0); k < m; k++ {
		var f uint8
		s, f = g.first(s)
		var u uint64
		s, u = below(s, n)
		deg := uint64(off[u+1] - off[u])
		if deg == 0 {
			s, coins, nc, _ = g.second(s, coins, nc, f)
			put(L, out, k, u, L[u])
			probes++
			continue
		}
		var j uint64
		s, j = below(s, deg)
		v := uint64(adj[uint64(off[u])+j])
		s, coins, nc, f = g.second(s, coins, nc, f)
		lu, lv := L[u], L[v]
		c, l := u, lu
		switch {
		case f&1 != 0: // a one-choice step: the end the coin names
			if f&2 != 0 {
				c, l = v, lv
			}
			probes++
		default:
			if lv < lu {
				c, l = v, lv
			}
			if random && lv == lu {
				var heads bool
				if s, coins, nc, heads = coin(s, coins, nc); heads {
					c = v
				}
			}
			probes += 2
		}
		put(L, out, k, c, l)
	}
	r.state, r.coins, r.ncoins = s, coins, nc
	st := g.stats(m, probes)
	if !g.lazy {
		st.MaxProbes = min(m, 1) * 2 // as Place: 2 even if every vertex drawn was isolated
	}
	return st
}
