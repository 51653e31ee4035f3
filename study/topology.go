package study

import (
	"context"
	"math"
	"slices"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// SpecQuery fills the topology fields of q (Topology, Degree, MinDegree,
// Eps, Core, CoreFraction) for the graph sp describes on n vertices from
// graphgen's plan of it (graphgen.Spec.Plan) wherever the spec fixes the
// minimum degree, so that the bounds of a graph with 2^30 vertices cost
// nothing: Δ when the graph is regular, δ, ε of a regular:eps spec, and for
// a nonregular spec the core c and f = c(c−1)/2 / |E| with the plan's |E|
// (which leaves out the few extra joins of a disconnected remainder).
//
// A spec whose degrees are drawn (gnp) or read (a file) is built, seeded as
// `graphalloc run` seeds it, and measured with GraphQuery. It returns the
// number of vertices the graph has (a spec may fix n, a torus rounds it up)
// and the plan's or the build's error, if any.
func SpecQuery(q *analysis.Query, sp graphgen.Spec, n int, seed uint64) (int, error) {
	q.Topology = sp.Kind
	p, err := sp.Plan(n)
	if err != nil {
		return n, err
	}
	if p.MinDegree >= 0 {
		if p.Hyper {
			// Every hyperedge is [n]: s = n, degree k everywhere.
			q.MinRank, q.Balance, q.D = float64(p.MinRank), 1, float64(p.MinRank)
		}
		q.MinDegree = float64(p.MinDegree)
		if p.Regular {
			q.Degree = float64(p.MaxDegree)
		}
		fillSpecQuery(q, p)
		if p.Core >= 1 && p.ExpectedEdges > 0 {
			q.CoreFraction = float64(p.CoreEdges) / p.ExpectedEdges
		}
		q.Expansion = certifiedExpansion(context.Background(), sp, n, func() graphgen.Graph {
			g, _, err := sp.Build(n, alloc.NewRand(alloc.DeriveSeed(seed, alloc.StreamGraph, 0)))
			if err != nil {
				return nil
			}
			return g
		})
		return p.N, nil
	}
	g, _, err := sp.Build(n, alloc.NewRand(alloc.DeriveSeed(seed, alloc.StreamGraph, 0)))
	if err != nil {
		return n, err
	}
	GraphQuery(q, sp, g)
	q.Expansion = Measure(sp, g).Expansion
	return g.Order(), nil
}

// fillSpecQuery sets what the spec, not the graph, says: ε and the core.
func fillSpecQuery(q *analysis.Query, p graphgen.Plan) {
	if p.Eps > 0 {
		q.Eps = p.Eps
	}
	if p.Core >= 1 {
		q.Core = float64(p.Core)
	}
}

// GraphQuery fills the topology fields of q from the built graph g of spec
// sp: the kind, the minimum degree, Δ if g is regular, ε from a
// regular:eps spec, and for a nonregular spec with core=c the core and the
// fraction of the edges with both ends among the c vertices of highest
// degree (the clique core of graphgen.Nonregular). It returns the degree
// statistics. For a hypergraph it also fills MinRank, Balance and D, the
// mean hyperedge size. O(n + |E|) (O(1) for the implicit complete graph).
func GraphQuery(q *analysis.Query, sp graphgen.Spec, g graphgen.Graph) Degrees {
	q.Topology = sp.Kind
	deg := degreeStats(g)
	q.MinDegree = float64(deg.Min)
	q.Degree = 0
	if deg.Min == deg.Max {
		q.Degree = float64(deg.Min)
	}
	if h, ok := g.(*graphgen.Hypergraph); ok && h.Size() > 0 {
		// [God08]'s terms: the least hyperedge, how unbalanced the
		// vertices are, and the mean hyperedge size as d.
		lo, _ := h.Rank()
		q.MinRank = float64(lo)
		q.Balance = max(float64(deg.Max)/deg.Mean, 1)
		q.D = float64(h.Incidences()) / float64(h.Size())
	}
	if p, err := sp.Plan(g.Order()); err == nil {
		fillSpecQuery(q, p)
		if p.Core >= 1 && g.Size() > 0 {
			q.CoreFraction = float64(denseEdges(g, p.Core)) / float64(g.Size())
		}
	}
	return deg
}

func degreeStats(g graphgen.Graph) Degrees {
	n := g.Order()
	if _, ok := g.(graphgen.Complete); ok || n == 0 {
		return Degrees{Min: max(n-1, 0), Mean: float64(max(n-1, 0)), Max: max(n-1, 0)}
	}
	if r, ok := g.(interface{ RegularDegree() int }); ok {
		// Regular by construction (a regular CSR, a circulant, an
		// implicit graph): no scan, which takes 16 s at n = 10^10.
		if D := r.RegularDegree(); D > 0 {
			return Degrees{Min: D, Mean: 2 * float64(g.Size()) / float64(n), Max: D}
		}
	}
	d := Degrees{Min: math.MaxInt}
	for v := range n {
		k := g.Degree(v)
		d.Min = min(d.Min, k)
		d.Max = max(d.Max, k)
	}
	d.Mean = 2 * float64(g.Size()) / float64(n)
	if h, ok := g.(*graphgen.Hypergraph); ok {
		d.Mean = float64(h.Incidences()) / float64(n)
	}
	return d
}

// denseEdges counts the edges with both ends among the c vertices of
// highest degree (ties to the lower index).
func denseEdges(g graphgen.Graph, c int) int64 {
	n := g.Order()
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		return g.Degree(int(b)) - g.Degree(int(a))
	})
	in := make([]bool, n)
	for _, v := range idx[:c] {
		in[v] = true
	}
	var e int64
	for _, v := range idx[:c] {
		g.Visit(int(v), func(w int, _ int64) bool {
			if in[w] && int(v) < w {
				e++
			}
			return false
		})
	}
	return e
}
