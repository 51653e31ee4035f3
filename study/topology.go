package study

import (
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// SpecQuery fills the topology fields of q (Topology, Degree, MinDegree,
// Eps, Core, CoreFraction) for the graph sp describes on n vertices, from
// the spec alone where its family fixes them, so that the bounds of a
// graph with 2^30 vertices cost nothing:
//
//	complete        Δ = n − 1
//	cycle           Δ = 2 (n ≥ 3)
//	regular         Δ = degree, or ⌈n^ε⌉ made even-compatible and ε = eps
//	torus:dim=k     Δ = 2k (side ≥ 3; k for side 2), n = side^k
//	hypercube       Δ = log₂ n, or dim
//	circulant       Δ = degree
//	nonregular      δ = mindeg, core c and f = c(c−1)/2 / |E| from the
//	                construction (|E| counted as c(c−1)/2 + (n−c)δ/2 +
//	                min(c, n−c−1) join edges; the few extra joins of a
//	                disconnected remainder are left out)
//
// Any other kind (gnp, a file, a family added later) is built, seeded as
// `graphalloc run` seeds it, and measured with GraphQuery. It returns the
// number of vertices the graph has (a spec may fix n, a torus rounds it up)
// and the build's error, if any.
func SpecQuery(q *analysis.Query, sp graphgen.Spec, n int, seed uint64) (int, error) {
	if v, ok := sp.Params["n"]; ok {
		if x, err := strconv.Atoi(v); err == nil {
			n = x
		}
	}
	q.Topology = sp.Kind
	intParam := func(k string) (int, bool) {
		x, err := strconv.Atoi(sp.Params[k])
		return x, err == nil && x >= 0
	}
	switch sp.Kind {
	case "complete":
		q.Degree, q.MinDegree = float64(n-1), float64(n-1)
		return n, nil
	case "cycle":
		if n >= 3 {
			q.Degree, q.MinDegree = 2, 2
		}
		return n, nil
	case "regular":
		if d, ok := intParam("degree"); ok {
			q.Degree, q.MinDegree = float64(d), float64(d)
			return n, nil
		}
		if eps, err := strconv.ParseFloat(sp.Params["eps"], 64); err == nil && eps > 0 && eps <= 1 && n > 1 {
			// graphgen's rule: ⌈n^ε⌉, at most n − 1, moved by one if nΔ is odd.
			d := min(int(math.Ceil(math.Pow(float64(n), eps))), n-1)
			if n%2 == 1 && d%2 == 1 {
				if d+1 <= n-1 {
					d++
				} else {
					d--
				}
			}
			q.Degree, q.MinDegree, q.Eps = float64(d), float64(d), eps
			return n, nil
		}
	case "torus", "hypercube":
		// graphgen's rules: torus:dim=k (default 2) with side ⌈n^{1/k}⌉
		// unless side= is given; hypercube:dim=k, or n a power of two.
		dim, hasDim := intParam("dim")
		if sp.Kind == "torus" && !hasDim {
			dim, hasDim = 2, true
		}
		side := 2
		if s, ok := intParam("side"); ok && sp.Kind == "torus" {
			side = s
		} else if sp.Kind == "torus" && dim >= 1 {
			side = graphgen.TorusSide(n, dim)
		} else if !hasDim && n >= 1 && n&(n-1) == 0 {
			dim, hasDim = bits.TrailingZeros(uint(n)), true
		}
		if hasDim && dim >= 1 && dim <= 62 && float64(dim)*math.Log2(float64(max(side, 1))) < 62 {
			nn := 1
			for range dim {
				nn *= side
			}
			switch {
			case side >= 3:
				q.Degree = float64(2 * dim)
			case side == 2:
				q.Degree = float64(dim)
			}
			q.MinDegree = q.Degree
			return nn, nil
		}
	case "circulant":
		if d, ok := intParam("degree"); ok {
			q.Degree, q.MinDegree = float64(d), float64(d)
			return n, nil
		}
	case "nonregular":
		delta, ok1 := intParam("mindeg")
		c, ok2 := intParam("core")
		if ok1 && ok2 && c >= 1 && n > c {
			r := n - c
			core := float64(c) * float64(c-1) / 2
			edges := core + float64(r)*float64(delta)/2 + float64(min(c, r-1))
			q.MinDegree, q.Core = float64(delta), float64(c)
			if edges > 0 {
				q.CoreFraction = core / edges
			}
			return n, nil
		}
	}
	g, _, err := sp.Build(n, alloc.NewRand(alloc.DeriveSeed(seed, alloc.StreamGraph, 0)))
	if err != nil {
		return n, err
	}
	GraphQuery(q, sp, g)
	return g.Order(), nil
}

// GraphQuery fills the topology fields of q from the built graph g of spec
// sp: the kind, the minimum degree, Δ if g is regular, ε from a
// regular:eps spec, and for a nonregular spec with core=c the core and the
// fraction of the edges with both ends among the c vertices of highest
// degree (the clique core of graphgen.Nonregular). It returns the degree
// statistics. O(n + |E|) (O(1) for the implicit complete graph).
func GraphQuery(q *analysis.Query, sp graphgen.Spec, g graphgen.Graph) Degrees {
	q.Topology = sp.Kind
	deg := degreeStats(g)
	q.MinDegree = float64(deg.Min)
	q.Degree = 0
	if deg.Min == deg.Max {
		q.Degree = float64(deg.Min)
	}
	if eps, err := strconv.ParseFloat(sp.Params["eps"], 64); err == nil && sp.Kind == "regular" {
		q.Eps = eps
	}
	if c, err := strconv.Atoi(sp.Params["core"]); err == nil && c >= 1 && c < g.Order() && g.Size() > 0 {
		q.Core = float64(c)
		q.CoreFraction = float64(denseEdges(g, c)) / float64(g.Size())
	}
	return deg
}

func degreeStats(g graphgen.Graph) Degrees {
	n := g.Order()
	if _, ok := g.(graphgen.Complete); ok || n == 0 {
		return Degrees{Min: max(n-1, 0), Mean: float64(max(n-1, 0)), Max: max(n-1, 0)}
	}
	d := Degrees{Min: math.MaxInt}
	for v := range n {
		k := g.Degree(v)
		d.Min = min(d.Min, k)
		d.Max = max(d.Max, k)
	}
	d.Mean = 2 * float64(g.Size()) / float64(n)
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
