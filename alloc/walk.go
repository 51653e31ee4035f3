package alloc

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Walk sampling (--sample walk:len=L): each of a ball's two candidates is
// the end of an L-step simple random walk from a uniform vertex, the two
// walks independent, from independent starts. A step moves to a uniform
// neighbour of the current vertex; an isolated vertex stays. The two
// candidates are independent and identically distributed, so "the first
// walk's end wins ties" has the law of random ties and no coin is drawn.
// Draws: the first walk's start and steps, then the second's. A ball reads
// two loads.
//
// What it is, and is not. The uniform distribution is stationary for a
// simple random walk on a regular graph, so on a regular graph the end of
// a walk from a uniform start is itself uniform, whatever L: the two
// candidates are two independent uniform bins and the process is Greedy[2]
// (with replacement) for every L, which TestWalkTails checks. Only on a
// non-regular graph does L matter: the end's law moves from uniform (L = 0)
// towards the degree-weighted stationary law. This is NOT the process of
// Pourmiri ("Balanced allocation on graphs: a random walk approach",
// arXiv:1407.2575; Random Structures Algorithms 2019), where a ball takes
// ONE uniform vertex, walks ℓ steps without backtracking, and goes to a
// least loaded vertex among those visited (docs/theory.md).

// MaxWalk bounds the walk length L of SampleWalk.
const MaxWalk = 1 << 16

// SampleWalk returns walk sampling with walks of l steps, 0 <= l <=
// MaxWalk.
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
// complete graph.
func checkWalk(name string, g graphgen.Graph) error {
	switch g.(type) {
	case *graphgen.CSR, graphgen.Complete:
		return nil
	}
	return fmt.Errorf("alloc: %s with walk sampling runs on graphs read or generated as CSR and on the complete graph, not on %T", name, g)
}

// walker draws the ends of walks on a CSR graph (off, adj) or, with off
// nil, on the complete graph K_n.
type walker struct {
	n     uint64
	off   []int
	adj   []uint32
	steps int
}

func newWalker(g graphgen.Graph, l int) walker {
	w := walker{n: uint64(g.Order()), steps: l}
	if c, ok := g.(*graphgen.CSR); ok {
		w.off, w.adj = c.Offsets(), c.Adjacency()
	}
	return w
}

// end returns the end of one walk from a uniform vertex.
func (w *walker) end(r *Rand) uint64 {
	v := r.Uint64n(w.n)
	for range w.steps {
		if w.off == nil {
			if w.n > 1 {
				x := r.Uint64n(w.n - 1) // a uniform other vertex
				if x >= v {
					x++
				}
				v = x
			}
			continue
		}
		lo, hi := uint64(w.off[v]), uint64(w.off[v+1])
		if hi > lo {
			v = uint64(w.adj[lo+r.Uint64n(hi-lo)])
		}
	}
	return v
}

// walkGraphRule is the graph process's rule under walk sampling: the
// lesser loaded of two walks' ends, the first winning ties; graphical
// (1+β) (lazy) draws its 64-bit coin first and, for a one-choice step, a
// fair coin after the walks naming the end (the first on 0).
type walkGraphRule struct {
	g graphRule
	w walker
}

func (ru walkGraphRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	probes := int64(0)
	w := ru.w
	for k := int64(0); k < m; k++ {
		one := false
		if ru.g.lazy {
			one = r.Uint64() < ru.g.thr
		}
		u := w.end(r)
		v := w.end(r)
		c, l := u, L[u]
		if one {
			probes++
			if r.Coin() {
				c, l = v, L[v]
			}
		} else {
			probes += 2
			if L[v] < l {
				c, l = v, L[v]
			}
		}
		put(L, out, k, c, l)
	}
	return ru.g.stats(m, probes)
}

// twoWalk places m balls of a two-sample rule ru, its candidates a and b
// the ends of two walks, then a decision word, drawn in that order.
func twoWalk(L []uint32, m int64, ru *twoRule, w walker, r *Rand) {
	for range m {
		a := w.end(r)
		b := w.end(r)
		x := r.Uint64()
		c := a
		if x>>1 < ru.pick(uint64(L[a]), uint64(L[b])) {
			c = b
		}
		L[c]++
	}
}
