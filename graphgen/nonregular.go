package graphgen

import (
	"errors"
	"fmt"
	"math/rand/v2"

	ybgraph "github.com/yourbasic/graph"
)

// NonregularStats says how a graph from Nonregular was made.
type NonregularStats struct {
	Core         int     // c: the core is the clique on the vertices 0..c-1
	MinDegree    int     // δ: the degree of the remainder graph, and the minimum degree
	CoreEdges    int64   // c(c−1)/2 edges with both ends in the core
	JoinEdges    int64   // edges between the core and the remainder
	CoreFraction float64 // CoreEdges / all edges: the f of the core load m·f/c
	// RemainderComponents counts the connected components of the random
	// δ-regular remainder; each one is joined to the core.
	RemainderComponents int
	Remainder           RegularStats // how the remainder was made
}

// Nonregular returns a connected graph on n vertices with minimum degree
// exactly mindeg in which a dense core holds a large share of the edges:
// the family on which the degree-based two-choice bounds fail [KP06]. The
// core is the clique K_c on the vertices 0..core−1; the remainder, the
// vertices core..n−1 (r = n − core of them), carries a random mindeg-regular
// graph (RandomRegular); the two are joined by
//
//   - a random matching of min(c, r−1) join edges: core vertex i is joined
//     to a distinct uniformly random remainder vertex, one remainder vertex
//     x (chosen uniformly at random beforehand) excepted, and then
//   - one more join edge, from a random vertex other than x to a random
//     core vertex, for each component of the remainder graph that no join
//     edge reaches yet (a random regular graph is connected w.h.p. for
//     mindeg >= 3, but not for 1 or 2).
//
// So the graph is connected, the core vertices have degree c−1 plus their
// join edges, the remainder vertices mindeg or mindeg+1, and x keeps
// degree exactly mindeg: the minimum degree is mindeg. Under edge sampling a
// ball draws a core edge with probability f = c(c−1)/2 / |E| (reported as
// CoreFraction) and then stays in the core, so the core collects about m·f/c
// balls per vertex [KP06], far above m/n when f is a constant and c = o(n):
// with c = 1024, mindeg = 16, n = 2^16, f ≈ 0.5 and the core vertices get
// about 32 times the average load.
//
// It takes O(c² log c + n·mindeg·log mindeg) time (FromEdges sorts the
// rows; the remainder costs what RandomRegular does) and about
// 16(c² + n·mindeg) bytes. It
// returns an error unless 1 <= mindeg, mindeg+1 <= core (so that the core
// is at least as dense as the rest), mindeg+1 <= n − core,
// (n − core)·mindeg is even, n <= MaxOrder, and src is non-nil.
//
//	[KP06] K. Kenthapadi and R. Panigrahy, Balanced allocation on graphs,
//	       SODA 2006.
func Nonregular(n, mindeg, core int, src rand.Source) (*CSR, NonregularStats, error) {
	return nonregular(nil, n, mindeg, core, src)
}

// nonregular is Nonregular, returning stop's error once it stops.
func nonregular(stop *stopper, n, mindeg, core int, src rand.Source) (*CSR, NonregularStats, error) {
	st := NonregularStats{Core: core, MinDegree: mindeg}
	r := n - core
	switch {
	case n < 0 || n > MaxOrder:
		return nil, st, fmt.Errorf("graphgen: nonregular needs 0 <= n <= %d, got n=%d", MaxOrder, n)
	case mindeg < 1:
		return nil, st, fmt.Errorf("graphgen: nonregular needs mindeg >= 1 (a connected graph), got mindeg=%d", mindeg)
	case core < mindeg+1:
		return nil, st, fmt.Errorf("graphgen: nonregular needs core >= mindeg+1 (the core clique has degree core-1), got core=%d mindeg=%d", core, mindeg)
	case r < mindeg+1:
		return nil, st, fmt.Errorf("graphgen: nonregular needs n-core >= mindeg+1 vertices outside the core, got n=%d core=%d mindeg=%d", n, core, mindeg)
	case r%2 == 1 && mindeg%2 == 1:
		return nil, st, fmt.Errorf("graphgen: nonregular needs (n-core)*mindeg even for the regular remainder, got n-core=%d mindeg=%d", r, mindeg)
	case uint64(core)*uint64(core-1)/2 > MaxGnpEdges:
		return nil, st, fmt.Errorf("graphgen: nonregular core=%d has too many edges (more than %d)", core, int64(MaxGnpEdges))
	case src == nil:
		return nil, st, errors.New("graphgen: nonregular needs a random source, got nil")
	}
	rem, rst, err := randomRegular(stop, r, mindeg, src)
	if err != nil {
		return nil, st, err
	}
	st.Remainder = rst
	st.CoreEdges = int64(core) * int64(core-1) / 2

	e := make([]uint32, 0, 2*(st.CoreEdges+rem.Size()+int64(core)+16))
	for u := range core {
		if stop.stop() {
			return nil, st, stop.err()
		}
		for v := u + 1; v < core; v++ {
			e = append(e, uint32(u), uint32(v))
		}
	}
	re := rem.EdgeList()
	for k := range re {
		e = append(e, re[k]+uint32(core))
	}

	// The join. perm lists the remainder vertices (0..r−1 in rem's
	// labels); a partial Fisher–Yates shuffle puts x in perm[r−1] and
	// the matched vertices in perm[0..k−1].
	perm := make([]uint32, r)
	for i := range perm {
		perm[i] = uint32(i)
	}
	j := int(uint64n(src, uint64(r)))
	perm[j], perm[r-1] = perm[r-1], perm[j]
	x := perm[r-1]
	k := min(core, r-1)
	for i := range k {
		j := i + int(uint64n(src, uint64(r-1-i)))
		perm[i], perm[j] = perm[j], perm[i]
		e = append(e, uint32(i), perm[i]+uint32(core))
	}
	st.JoinEdges = int64(k)

	comps := ybgraph.Components(rem)
	st.RemainderComponents = len(comps)
	compOf := make([]int32, r)
	reached := make([]bool, len(comps))
	for c, vs := range comps {
		for _, v := range vs {
			compOf[v] = int32(c)
		}
	}
	for i := range k {
		reached[compOf[perm[i]]] = true
	}
	for c, vs := range comps {
		if reached[c] {
			continue
		}
		// A component of a regular graph of degree >= 1 has at least
		// two vertices, so one other than x exists.
		var v uint32
		for {
			v = uint32(vs[uint64n(src, uint64(len(vs)))])
			if v != x {
				break
			}
		}
		u := uint32(uint64n(src, uint64(core)))
		e = append(e, u, v+uint32(core))
		st.JoinEdges++
	}
	g, _, err := FromEdges(n, e)
	if err != nil {
		panic("graphgen: nonregular built a bad edge list: " + err.Error())
	}
	st.CoreFraction = float64(st.CoreEdges) / float64(g.Size())
	return g, st, nil
}
