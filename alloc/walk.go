package alloc

import (
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Walk sampling (--sample walk:len=L) is the random-walk process of
// Pourmiri [Pou19]: each ball picks a uniform vertex v_0 and runs a
// non-backtracking random walk v_0, v_1, …, v_L of L steps from it; the
// graph process puts the ball on a least loaded vertex among the visited
// ones, ties broken uniformly at random among the distinct tied vertices
// (TiesLeft: the first visited of them). A ball reads L + 1 loads.
//
// Non-backtracking: the first step goes to a uniform neighbour of v_0;
// every later step goes to a uniform neighbour other than the vertex just
// left. A vertex of degree 1 has no other way on, so the walk goes back
// there; an isolated start vertex keeps the walk (every v_i is v_0). On a
// multigraph the excluded choice is the slot (the edge) just used, not
// every slot holding the vertex just left; graphalloc's CSR graphs and K_n
// are simple, where the two coincide.
//
// The two-sample rules (g-bounded, g-myopic, σ-noisy-load) decide between
// two candidates, so under walk sampling they take the start v_0 and the
// end v_L of one walk: a pair at walk distance L (the vertex-sampling pair
// for L = 1, one bin twice for L = 0). Graphical (1+β) takes, with
// probability 1 − β, a one-choice step to the uniform vertex v_0 (no walk)
// and otherwise the graph process's step above.
//
// Bounds [Pou19], for m = n on a d-regular graph of n vertices, d ≥ 3: if
// d = ω(log n), the girth is ω(ℓ) and ℓ = ⌊(log n)^{(1+ε)/2}⌋ for a
// constant ε ∈ (0, 1), the maximum load is O(1/ε) w.h.p.; more generally
// the upper bound in terms of ℓ is within an O(log log n) factor of a lower
// bound for the same process, for girth large enough. For
// 3 ≤ d = O(log n) the paper bounds a variant that compares a chosen subset
// of the visited vertices, not this process. Nothing is proved for small
// girth, where the visited vertices repeat (docs/theory.md, "Walk
// sampling").
//
// Draws, per ball: v_0 (one bounded draw), then one bounded draw a step
// from a vertex of degree ≥ 2 — uniform below the degree for the first
// step, below the degree − 1 after it, naming the j-th neighbour in
// adjacency order, or the last neighbour if the j-th is the vertex just
// left — and none from a vertex of degree ≤ 1; then, for the graph process
// with random ties, one 64-bit word w, whatever the loads: among the t
// distinct tied vertices in increasing id order it takes the ⌊w·t/2^64⌋-th
// (uniform to within t/2^64). Graphical (1+β) draws its 64-bit step coin
// before all of that; a two-sample rule draws its decision word after the
// walk.
//
// Simulation: a plain loop, ball after ball, except on a Δ-regular CSR
// graph with Δ ≥ 2, where every step draws exactly once whatever the walk:
// there the draws of a block of up to 64 balls are made first (in ball
// order, the same draws), then their walks run one step of every walk at a
// time, prefetching the next row (v·Δ, no offsets) and the load of each
// vertex reached, so that the block's cache misses overlap; then the balls
// are placed in order. The loads are those of the plain loop (the
// reference replays both).
//
// [Pou19] A. Pourmiri, "Balanced allocation on graphs: a random walk
// approach", Random Structures Algorithms 55(4) (2019), 980–1009;
// arXiv:1407.2575.

// MaxWalk bounds the walk length L of SampleWalk.
const MaxWalk = 1 << 16

// SampleWalk returns walk sampling with walks of l steps, 0 <= l <=
// MaxWalk: Pourmiri's random-walk process for the graph process, the
// walk's two ends for the two-sample rules (see above).
func SampleWalk(l int) Sampling { return sampleWalk | Sampling(l)<<8 }

// Walk returns the walk length of walk sampling, and whether s is walk
// sampling.
func (s Sampling) Walk() (int, bool) {
	if s&0xff != sampleWalk {
		return 0, false
	}
	return int(s >> 8), true
}

// checkWalk requires a graph walk sampling runs on: a CSR graph or the
// complete graph, with at most 2^32 vertices (a walk holds its vertices as
// uint32).
func checkWalk(name string, g graphgen.Graph) error {
	switch g.(type) {
	case *graphgen.CSR, graphgen.Complete:
		if uint64(g.Order()) > 1<<32 {
			return fmt.Errorf("alloc: %s with walk sampling needs at most 2^32 vertices, got n=%d", name, g.Order())
		}
		return nil
	}
	return fmt.Errorf("alloc: %s with walk sampling runs on graphs read or generated as CSR and on the complete graph, not on %T", name, g)
}

// walker runs non-backtracking walks on a CSR graph (off, adj) or, with
// off nil, on the complete graph K_n.
type walker struct {
	n     uint64
	off   []int
	adj   []uint32
	delta uint64 // Δ of a Δ-regular CSR graph, else 0
	steps int
}

func newWalker(g graphgen.Graph, l int) walker {
	w := walker{n: uint64(g.Order()), steps: l}
	if c, ok := g.(*graphgen.CSR); ok {
		w.off, w.adj = c.Offsets(), c.Adjacency()
		w.delta = uint64(c.RegularDegree())
	}
	return w
}

// pipelined reports whether the walks run a block at a time (walkBlock):
// on a Δ-regular CSR graph with Δ ≥ 2 every step draws once, whatever the
// walk, so a block's draws can be made before its walks, and the rows are
// v·Δ, found without the offsets.
func (w *walker) pipelined() bool { return havePrefetch && w.delta >= 2 && w.steps > 0 }

// walkBlockBytes bounds the visited vertices a block of walks holds.
const walkBlockBytes = 1 << 14

// walkBlock is a block of balls drawn ahead on a Δ-regular graph: per ball
// b, vis[b·(L+1):][:L+1] holds first its draws (v_0, then the step draws
// j_i) and then, after walkSteps, the vertices visited; one[b] marks a
// one-choice step of graphical (1+β) (vis[b·(L+1)] its bin), word[b] the
// ball's last 64-bit word (the tie word, or a two-sample rule's decision
// word) and s[b] the generator before the ball's draws (where a loop on
// one-byte loads that stops before the ball leaves it).
type walkBlock struct {
	vis  []uint32
	one  []bool
	word []uint64
	s    []uint64
}

func (w *walker) newBlock() walkBlock {
	B := max(1, min(64, walkBlockBytes/4/(w.steps+1)))
	return walkBlock{make([]uint32, B*(w.steps+1)), make([]bool, B), make([]uint64, B), make([]uint64, B)}
}

// draw makes the draws of nb balls in ball order, as the plain loop makes
// them (the step coin if lazy, v_0, one draw a step, the last word if
// word), prefetching each start's row, and returns the advanced state.
func (w *walker) draw(s uint64, blk walkBlock, nb int, lazy bool, thr uint64, word bool) uint64 {
	k := w.steps + 1
	n, d := w.n, w.delta
	for b := range nb {
		vis := blk.vis[b*k : b*k+k]
		blk.one[b], blk.s[b] = false, s
		if lazy {
			var x uint64
			if s, x = next(s); x < thr {
				var c uint64
				s, c = below(s, n)
				vis[0], blk.one[b] = uint32(c), true
				continue
			}
		}
		var x uint64
		s, x = below(s, n)
		vis[0] = uint32(x)
		prefetch(unsafe.Pointer(&w.adj[x*d]))
		s, x = below(s, d)
		vis[1] = uint32(x)
		for i := 2; i < k; i++ {
			s, x = below(s, d-1)
			vis[i] = uint32(x)
		}
		if word {
			s, blk.word[b] = next(s)
		}
	}
	return s
}

// walkSteps runs the drawn walks of nb balls of w one step of every walk
// at a time, prefetching the next row and the load of each vertex reached
// (in L, one-byte or four-byte loads), so that the block's cache misses
// overlap.
func walkSteps[T uint8 | uint32](w *walker, L []T, blk walkBlock, nb int) {
	k := w.steps + 1
	adj, d := w.adj, w.delta
	for i := 1; i < k; i++ {
		for b := range nb {
			if blk.one[b] {
				continue
			}
			vis := blk.vis[b*k : b*k+k]
			row := uint64(vis[i-1]) * d
			x := adj[row+uint64(vis[i])]
			if i > 1 && uint64(x) == uint64(vis[i-2]) { // simple graph: the slot just used
				x = adj[row+d-1]
			}
			vis[i] = x
			prefetch2(unsafe.Pointer(&adj[uint64(x)*d]), unsafe.Pointer(&L[x]))
		}
	}
}

// noVertex is the vertex "just left" before the first step.
const noVertex = ^uint64(0)

// walk fills vis (len steps + 1) with one walk from a uniform vertex,
// drawing from the generator state s, and returns the advanced state. The
// branch on the graph's form is the same for every ball.
func (w *walker) walk(s uint64, vis []uint32) uint64 {
	var v uint64
	s, v = below(s, w.n)
	vis[0] = uint32(v)
	prev := noVertex
	if w.off == nil {
		n := w.n
		for i := 1; i < len(vis); i++ {
			var x uint64
			switch {
			case n == 1:
				x = v // isolated
			case n == 2:
				x = 1 - v // degree 1
			case prev == noVertex:
				s, x = below(s, n-1)
				if x >= v {
					x++ // the x-th neighbour of v in id order
				}
			default:
				s, x = below(s, n-2)
				if x >= v {
					x++
				}
				if x == prev {
					x = n - 1 // v's last neighbour
					if v == n-1 {
						x = n - 2
					}
				}
			}
			prev, v = v, x
			vis[i] = uint32(x)
		}
		return s
	}
	off, adj := w.off, w.adj
	for i := 1; i < len(vis); i++ {
		lo, hi := uint64(off[v]), uint64(off[v+1])
		var x uint64
		switch d := hi - lo; {
		case d == 0:
			x = v // an isolated start: the walk stays
		case d == 1:
			x = uint64(adj[lo]) // the only way on (back, after the first step)
		case prev == noVertex:
			var j uint64
			s, j = below(s, d)
			x = uint64(adj[lo+j])
		default:
			var j uint64
			s, j = below(s, d-1)
			x = uint64(adj[lo+j])
			if x == prev { // simple graph: the slot just used
				x = uint64(adj[hi-1])
			}
		}
		prev, v = v, x
		vis[i] = uint32(x)
	}
	return s
}

// leastVisited returns a least loaded vertex of vis and its load: the
// first visited if !random, else the ⌊w·t/2^64⌋-th in id order of the t
// distinct tied vertices. It may reorder vis.
func leastVisited[T uint8 | uint32](L []T, vis []uint32, random bool, w uint64) (uint64, uint32) {
	c, mn, tied := vis[0], uint32(L[vis[0]]), 1
	for _, v := range vis[1:] {
		l := uint32(L[v])
		if l < mn {
			c, mn, tied = v, l, 1
		} else if l == mn {
			tied++
		}
	}
	if !random || tied == 1 {
		return uint64(c), mn
	}
	t := 0
	for _, v := range vis {
		if uint32(L[v]) == mn {
			vis[t] = v
			t++
		}
	}
	ties := vis[:t]
	if t > 2 {
		slices.Sort(ties)
	} else if ties[1] < ties[0] {
		ties[0], ties[1] = ties[1], ties[0]
	}
	ties = slices.Compact(ties)
	k, _ := bits.Mul64(w, uint64(len(ties)))
	return uint64(ties[k]), mn
}

// walkRule is a rule under walk sampling (see above): the graph
// process's (pair nil), graphical (1+β) (lazy) drawing its 64-bit coin
// first and, for a one-choice step, a uniform vertex and no walk; or a
// two-sample rule's (pair its decision table), whose candidates are the
// start and the end of one walk, then a decision word, drawn in that order.
type walkRule struct {
	w      walker
	lazy   bool
	thr    uint64 // lazy: a one-choice step iff the coin is below thr
	random bool   // the graph process with random ties: a tie word after the walk
	pair   *[2*ruleK + 1]uint64
}

// walkPlace places m balls of g on L, or in a batch (out != nil,
// four-byte loads) records their bins in out, and returns the balls placed
// and what they cost. On one-byte loads it stops before a ball that would
// raise a load to 255 (see full), with r as before that ball.
// Written by hand: a block of walks drawn, then placed, a shape no
// template has. The choice (walkPick or leastVisited) is written out in
// both loops: a function of the two costs the inliner 170 (its budget is
// 80), and a call a ball cost 18% at n = 2^12 (walks of one step).
func walkPlace[T uint8 | uint32](g walkRule, L []T, m int64, out []uint32, r *Rand) (int64, Stats) {
	w := g.w
	word := g.random || g.pair != nil // the ball's last 64-bit word
	K := w.steps + 1
	visits := int64(K) // the loads a ball that walks reads
	if g.pair != nil {
		visits = 2
	}
	ones := int64(0)
	s := r.state
	k := int64(0)
	if w.pipelined() {
		blk := w.newBlock()
		B := int64(len(blk.one))
	blocks:
		for k0 := int64(0); k0 < m; k0 += B {
			nb := int(min(B, m-k0))
			s = w.draw(s, blk, nb, g.lazy, g.thr, word)
			walkSteps(&w, L, blk, nb)
			for b := range nb {
				vis := blk.vis[b*K : b*K+K]
				one := blk.one[b]
				var c uint64
				var l uint32
				switch {
				case one:
					c, l = uint64(vis[0]), uint32(L[vis[0]])
				case g.pair != nil:
					c, l = walkPick(L, uint64(vis[0]), uint64(vis[K-1]), blk.word[b], g.pair)
				default:
					c, l = leastVisited(L, vis, g.random, blk.word[b])
				}
				if k = k0 + int64(b); full(L, uint64(l)) {
					s = blk.s[b]
					break blocks
				}
				if one {
					ones++
				}
				walkPut(L, out, k, c, l)
			}
			k = k0 + int64(nb)
		}
	} else {
		vis := make([]uint32, K)
		for ; k < m; k++ {
			s0 := s
			var c uint64
			var l uint32
			one := false
			if g.lazy {
				var x uint64
				if s, x = next(s); x < g.thr {
					s, c = below(s, w.n)
					l, one = uint32(L[c]), true
				}
			}
			if !one {
				s = w.walk(s, vis)
				var x uint64
				if word {
					s, x = next(s)
				}
				if g.pair != nil {
					c, l = walkPick(L, uint64(vis[0]), uint64(vis[K-1]), x, g.pair)
				} else {
					c, l = leastVisited(L, vis, g.random, x)
				}
			}
			if full(L, uint64(l)) {
				s = s0
				break
			}
			if one {
				ones++
			}
			walkPut(L, out, k, c, l)
		}
	}
	r.state = s
	st := Stats{Probes: ones + (k-ones)*visits}
	if k > ones {
		st.MaxProbes = visits
	} else if k > 0 {
		st.MaxProbes = 1
	}
	return k, st
}

// walkPut is put on one-byte or four-byte loads: ball k chose bin c
// holding l balls; with out == nil it raises the bin, else (four-byte
// loads) it records the choice.
func walkPut[T uint8 | uint32](L []T, out []uint32, k int64, c uint64, l uint32) {
	if out == nil {
		L[c] = T(l + 1)
		return
	}
	out[k] = uint32(c)
}

// walkPick is a two-sample rule's choice between the ends a and b of a
// walk, with decision word x: the bin and its load.
func walkPick[T uint8 | uint32](L []T, a, b, x uint64, thr *[2*ruleK + 1]uint64) (uint64, uint32) {
	la, lb := uint64(L[a]), uint64(L[b])
	if x>>1 < pickIn(thr, la, lb) {
		return b, uint32(lb)
	}
	return a, uint32(la)
}
