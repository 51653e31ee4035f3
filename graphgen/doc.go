// Package graphgen makes and reads the topologies that allocation
// processes run on: the vertices are the bins, the edges the pairs of bins a
// ball may choose between.
//
// # Two layers
//
// Graph is the small read-only interface the simulators use (yourbasic's
// Order and Visit, plus Size and Degree). Its implementations are
//
//   - CSR: a compact immutable simple graph, uint32 vertices 0..n-1, sorted
//     adjacency rows and a flat array of the edges for O(1) uniform edge
//     sampling. It implements gonum's graph.Undirected and yourbasic's
//     graph.Iterator, so both libraries' algorithms run on it; FromGonum
//     and FromIterator convert the other way.
//   - Complete: K_n, implicit, so n may be as large as the bins fit in memory.
//
// # Generators
//
// Randomness is always passed in as a math/rand/v2 Source:
//
//	RandomRegular(n, Delta, src)   simple, exactly Delta-regular, any 0 ≤ Δ ≤ n−1
//	                               with nΔ even; pairing model with restarts,
//	                               switchings for larger Δ, the complement for Δ > n/2
//	Cycle(n), NewComplete(n)
//
// A Spec (the --graph argument of the command line, "regular:degree=16",
// "regular:eps=0.5", "cycle", "file:road.txt.gz") parses a description once
// and Build makes the graph.
//
// # Files
//
// ReadGraph and LoadGraph read whitespace-separated edge lists (comments
// with # or %, arbitrary ids relabelled densely, self-loops and repeated
// edges dropped and counted) and Matrix Market coordinate files, gzipped or
// not, detected from the bytes. Errors carry name:line. WriteEdgeList,
// WriteMatrixMarket, WriteDOT and WriteGraph6 write them.
package graphgen
