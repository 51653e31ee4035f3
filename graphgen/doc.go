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
//   - Circulant: a Cayley graph of Z_n, implicit (n and the connection set
//     S only, O(Δ) memory), with its spectrum in closed form.
//
// # Generators
//
// Randomness is always passed in as a math/rand/v2 Source:
//
//	RandomRegular(n, Delta, src)   simple, exactly Delta-regular, any 0 ≤ Δ ≤ n−1
//	                               with nΔ even; pairing model with restarts,
//	                               switchings for larger Δ, the complement for Δ > n/2
//	Cycle(n), NewComplete(n)
//	Torus(dim, side)               side^dim vertices, 2·dim-regular
//	Hypercube(dim)                 2^dim vertices, dim-regular
//	Gnp(n, p, src)                 Erdős–Rényi G(n, p) in O(n + m) by geometric
//	                               skipping [Batagelj, Brandes 2005]
//	RandomCirculant(n, Delta, src) random Cayley graph of Z_n, implicit
//	Nonregular(n, mindeg, core, src)
//	                               a clique on core vertices joined to a random
//	                               mindeg-regular remainder: minimum degree
//	                               mindeg, a large share of the edges in the core
//	BarabasiAlbert(n, m, src)      preferential attachment: a K_{m+1} seed, then each
//	                               vertex joined to m distinct earlier ones drawn
//	                               proportionally to degree; P(deg >= k) ~ k^−2,
//	                               O(n·m) with the repeated-nodes array [BB05]
//
// A Spec (the --graph argument of the command line, "regular:degree=16",
// "regular:eps=0.5", "torus:dim=3", "gnp:degree=16", "circulant:degree=16",
// "nonregular:mindeg=16,core=1024", "ba:m=4", "file:road.txt.gz") parses a description
// once. Plan says what it will make on n vertices before anything is built
// (the order, the degree range, the edge count, the spectrum of the random
// walk where it has a closed form, the memory) and checks the parameters;
// Build makes the graph.
//
// # Files
//
// ReadGraph and LoadGraph read whitespace-separated edge lists (comments
// with # or %, arbitrary ids relabelled densely, self-loops and repeated
// edges dropped and counted) and Matrix Market coordinate files, gzipped or
// not, detected from the bytes. Errors carry name:line. What a reader
// allocates grows with the text it reads, never with the sizes a file
// declares: a declared order must be backed by the file's size, or fit the
// memory limit a caller passes in ReadOptions. The format is told from the
// first bytes, peeked and never consumed, so a pipe, a FIFO or /dev/stdin
// reads as the file it carries; Spec.Plan samples only a regular file.
// ReadOptions.Context and Spec.BuildContext stop a read or a build: a FIFO
// without a writer is abandoned, and a generator returns within a second.
// WriteEdgeList,
// WriteMatrixMarket, WriteDOT and WriteGraph6 write them, and
// WriteEdgeListStream writes any Graph, an implicit one too, as it visits
// it, in O(1) memory. A file's own
// vertex ids (FileInfo.Labels; FileInfo.Names when they are more than the
// numbers 0..n-1) go back out with WriteEdgeListNamed, which keeps the
// numbering too, or with WriteMatrixMarketNames beside a Matrix Market
// file, one "index name" line per vertex.
//
// # Multigraphs
//
// The permutation model (PermutationRegular) is a multigraph, and so is a
// file read with ReadOptions.Multi ("file:PATH,multi") or under a
// graphalloc header marked "multi": a CSR built by FromEdgesMulti keeps
// its loops, each listed twice in its vertex's row so that it adds 2 to
// the degree, and its parallel edges, and its lines in the order given
// (Lines). List lists the permutation model so, and WriteEdgeList writes
// it whole, marked multi, so that it reads back as itself.
//
// # Imports
//
// From the module graphgen imports internal/infile (a file or FIFO opened
// so that a cancelled read returns) and internal/need64 (the build refuses
// a 32-bit platform); beyond it gonum's graph packages (its interfaces,
// simple graphs, DOT and graph6), yourbasic/graph (its Iterator), and
// klauspost/compress's gzip for reading gzip files.
package graphgen
