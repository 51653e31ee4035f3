package graphgen

// Graph is the read-only topology the allocation processes run on: the
// vertices are 0..n-1 and the edges undirected and simple. It extends
// yourbasic's graph.Iterator (Order and Visit) with the edge count and
// degrees, so implicit graphs (Complete) need not store their edges.
//
// The simulators do not call these methods per ball: they switch on the
// concrete type (*CSR, Complete, …) once and run a loop specialised to it.
type Graph interface {
	// Order returns the number of vertices n.
	Order() int
	// Visit calls do for each neighbour w of v; it stops and returns true
	// as soon as do returns true.
	Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool)
	// Size returns the number of undirected edges.
	Size() int64
	// Degree returns the degree of v.
	Degree(v int) int
}

// Native returns g itself if it is one of this package's graphs, on which
// the simulators are specialised (CSR, Complete, Circulant, EdgeArray,
// Hypergraph, PermutationRegular, Lattice); any other Graph, a user's
// own, is listed once into a CSR through its Visit, as yourbasic's Sort
// makes an Immutable: O(n + m) time and the CSR's memory, after which it
// runs as a graph read from a file does. Its edges must be undirected
// (each listed from both ends); loops and repeated edges are dropped.
func Native(g Graph) (Graph, error) {
	switch g.(type) {
	case *CSR, Complete, Circulant, *EdgeArray, *Hypergraph, PermutationRegular, Lattice:
		return g, nil
	}
	return FromIterator(g)
}
