package graphgen

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	ybgraph "github.com/yourbasic/graph"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
)

// MaxOrder is the largest vertex count a CSR can hold: vertices are uint32.
const MaxOrder = math.MaxUint32

// CSR is a compact, immutable undirected graph on the vertices 0..n-1 in
// compressed sparse row form: simple, unless built by FromEdgesMulti (or
// read with ReadOptions.Multi), when it is a multigraph (Multi).
//
// Unless the graph is regular, it keeps besides the adjacency rows every
// undirected edge once as a pair (u, v) with u < v in a flat array, so that a
// uniformly random edge costs one bounded random draw and one cache line:
// this is what the graphical two-choice process samples from. A Δ-regular
// graph needs no such array: a uniform half-edge, the slot u·Δ + j of the
// adjacency for u uniform in [n] and j uniform in [Δ], is a uniform edge in a
// uniform orientation (RegularDegree), and its edge array is built only if
// EdgeList is called. Memory is 8(n+1) + 8|E| bytes (the offsets and the
// rows), plus 8|E| for the edge array of a graph that is not regular.
//
// CSR implements gonum's graph.Undirected and yourbasic's graph.Iterator,
// so the algorithms of both libraries run on it unchanged.
type CSR struct {
	off   []int    // off[v]..off[v+1] indexes adj; len n+1
	adj   []uint32 // neighbours of each vertex, sorted ascending
	edges []uint32 // edges[2k], edges[2k+1]: the k-th edge, u < v, sorted
	delta int      // Δ of a Δ-regular graph with Δ ≥ 1, else 0
	multi bool     // loops and parallel edges kept (FromEdgesMulti)
	lines []uint32 // a multigraph's edges as they were listed (Lines)
	once  sync.Once
}

var (
	_ Graph            = (*CSR)(nil)
	_ graph.Undirected = (*CSR)(nil)
	_ ybgraph.Iterator = (*CSR)(nil)
)

// Dropped counts what FromEdges discarded to make a simple graph.
type Dropped struct {
	SelfLoops  int64 // edges {v, v}
	Duplicates int64 // repeats of an edge already seen (in either orientation)
}

// FromEdges returns the simple undirected graph on n vertices whose edges are
// the pairs (e[2k], e[2k+1]). Self-loops and repeated edges (in either
// orientation) are dropped and counted in the returned Dropped. It takes
// O(n + |e| log Δ) time and does not modify e.
//
// It returns an error if n is negative or larger than MaxOrder, if e has odd
// length, or if an endpoint is not below n.
func FromEdges(n int, e []uint32) (*CSR, Dropped, error) {
	return fromChunks(n, [][]uint32{e}, false, false, nil)
}

// FromEdgesMulti returns the undirected multigraph on n vertices whose
// edges are the pairs (e[2k], e[2k+1]), every pair an edge: a pair listed
// k times is k parallel edges, and a loop {v, v} is kept and listed twice
// in the row of v, so that it adds 2 to the degree of v and the
// random-walk matrix D⁻¹A, A counting the edges between each two vertices
// (a loop twice on the diagonal), steps along each of its ends with
// probability 1/d_v, as a uniform slot of the row does. The returned
// Dropped counts the loops and the parallel edges it holds (each repeat
// of an edge already seen), none dropped. Its rows are sorted, its
// EdgeList lists every edge, loops included, with the first end at most
// the second; Size is the number of pairs; Lines is e itself, which the
// caller must then leave as it is. Time and errors as FromEdges.
func FromEdgesMulti(n int, e []uint32) (*CSR, Dropped, error) { return fromEdgesMulti(n, e, nil) }

// fromEdgesMulti is FromEdgesMulti, stopping once stop stops.
func fromEdgesMulti(n int, e []uint32, stop *stopper) (*CSR, Dropped, error) {
	g, d, err := fromChunks(n, [][]uint32{e}, false, true, stop)
	if g != nil {
		g.lines = e
	}
	return g, d, err
}

// collectAbove is the size of a reader's edge chunks, in bytes, from which
// fromChunks collects them before it builds the edge array of a graph that
// is not regular (see fromChunks).
const collectAbove = 64 << 20

// fromChunks is FromEdges on the edges of all the chunks, each of even
// length, in order. It counts the degrees in the offsets, fills the rows
// and then turns the row ends back into starts, so besides the chunks it
// allocates only the graph: 8(n+1) bytes of offsets, 8 bytes an edge of
// rows, and 8 an edge of edge array for a graph that is not regular. Each
// entry of chunks is set to nil once its edges are in the rows; if owned
// (a reader's chunks, referenced nowhere else) and they took collectAbove
// bytes or more, the garbage collector is run before the edge array is
// allocated, so that the array takes the chunks' memory rather than 8
// bytes an edge more: a collection costs little here, as the graph's
// arrays hold no pointers to scan. Once stop stops it returns stop's error.
//
// If multi, loops and repeats are kept (FromEdgesMulti) and counted in the
// returned Dropped all the same.
func fromChunks(n int, chunks [][]uint32, owned, multi bool, stop *stopper) (*CSR, Dropped, error) {
	var d Dropped
	if n < 0 || n > MaxOrder {
		return nil, d, fmt.Errorf("graphgen: vertex count %d outside [0, %d]", n, MaxOrder)
	}
	// off[v+1] counts the degree of v.
	off := make([]int, n+1)
	var held int64
	for _, e := range chunks {
		if len(e)%2 != 0 {
			return nil, d, errors.New("graphgen: edge array of odd length")
		}
		held += 4 * int64(cap(e))
		if stop.steps(uint32(min(len(e), stopEvery))) {
			return nil, d, stop.err()
		}
		for k := 0; k < len(e); k += 2 {
			u, v := e[k], e[k+1]
			if int64(u) >= int64(n) || int64(v) >= int64(n) {
				return nil, d, fmt.Errorf("graphgen: edge {%d, %d} has an endpoint not below n=%d", u, v, n)
			}
			if u == v {
				d.SelfLoops++
				if !multi {
					continue
				}
			}
			off[u+1]++
			off[v+1]++
		}
	}
	for v := 0; v < n; v++ {
		off[v+1] += off[v]
	}
	collect := owned && held >= collectAbove
	if collect {
		runtime.GC() // the reader's garbage (its id table), before the rows
	}
	adj := make([]uint32, off[n])
	// off[v] is the next free slot of row v, and at the end the start of
	// row v+1.
	for i, e := range chunks {
		if stop.steps(uint32(min(len(e), stopEvery))) {
			return nil, d, stop.err()
		}
		for k := 0; k < len(e); k += 2 {
			u, v := e[k], e[k+1]
			if u == v && !multi {
				continue
			}
			adj[off[u]] = v
			off[u]++
			adj[off[v]] = u
			off[v]++
		}
		chunks[i] = nil
	}
	if n > 0 {
		copy(off[1:], off[:n])
		off[0] = 0
	}
	g := &CSR{off: off, adj: adj, multi: multi}
	if multi {
		d.Duplicates = g.sortRows()
	} else {
		var ok bool
		if d.Duplicates, ok = g.sortAndDedup(stop); !ok {
			return nil, d, stop.err()
		}
	}
	if collect && !g.isRegular() {
		runtime.GC() // the chunks, before the edge array
	}
	g.finish()
	return g, d, nil
}

// fillRows puts each pair (a, b) of e into both rows, b into row a and a
// into row b, in e's order; off[v] is the start of row v (off[n] the end
// of the last) and is left as it is. The cursors are four bytes while
// every row entry has a four-byte index (9% faster for Gnp at n = 10^6,
// degree 16: half the cache of eight-byte ones), else eight.
func fillRows(off []int, adj, e []uint32) {
	n := len(off) - 1
	if off[n] <= math.MaxUint32 {
		cur := make([]uint32, n)
		for v := range cur {
			cur[v] = uint32(off[v])
		}
		fillFrom(cur, adj, e)
		return
	}
	cur := slices.Clone(off[:n])
	fillFrom(cur, adj, e)
}

// fillFrom is fillRows's loop: cur[v] is where row v's next entry goes.
func fillFrom[C uint32 | int](cur []C, adj, e []uint32) {
	for k := 0; k < len(e); k += 2 {
		a, b := e[k], e[k+1]
		adj[cur[a]] = b
		cur[a]++
		adj[cur[b]] = a
		cur[b]++
	}
}

// fromRows builds a CSR from rows that are already sorted, duplicate free and
// symmetric. It is used by generators that construct the rows directly.
func fromRows(off []int, adj []uint32) *CSR {
	g := &CSR{off: off, adj: adj}
	g.finish()
	return g
}

// finish records the degree of a regular graph, or builds the edge array of
// one that is not.
func (g *CSR) finish() {
	if g.isRegular() {
		g.delta = len(g.adj) / (len(g.off) - 1)
		return
	}
	g.buildEdges()
}

// isRegular reports whether every row has the same length, at least 1.
func (g *CSR) isRegular() bool {
	n := len(g.off) - 1
	if n == 0 || len(g.adj) == 0 || len(g.adj)%n != 0 {
		return false
	}
	d := len(g.adj) / n
	for v := range n {
		if g.off[v+1]-g.off[v] != d {
			return false
		}
	}
	return true
}

// sortAndDedup sorts every row, removes repeated neighbours and compacts adj
// and off in place. It returns the number of duplicate undirected edges,
// or false, the rows left half done, once stop stops.
func (g *CSR) sortAndDedup(stop *stopper) (int64, bool) {
	n := len(g.off) - 1
	w := 0
	var dup int64
	start := g.off[0]
	for v := 0; v < n; v++ {
		row := g.adj[start:g.off[v+1]]
		if stop.steps(uint32(min(len(row), stopEvery)) + 1) {
			return 0, false
		}
		start = g.off[v+1]
		slices.Sort(row)
		g.off[v] = w
		for i, x := range row {
			if i > 0 && x == row[i-1] {
				dup++
				continue
			}
			g.adj[w] = x
			w++
		}
	}
	g.off[n] = w
	g.adj = g.adj[:w:w]
	// Each repeated undirected edge was seen once in each endpoint's row.
	return dup / 2, true
}

// sortRows sorts every row of a multigraph, keeping repeats, and returns
// the number of parallel edges: the repeats of a neighbour other than the
// vertex itself, each edge seen from both ends.
func (g *CSR) sortRows() int64 {
	var dup int64
	for v := range len(g.off) - 1 {
		row := g.adj[g.off[v]:g.off[v+1]]
		slices.Sort(row)
		for i := 1; i < len(row); i++ {
			if row[i] == row[i-1] && row[i] != uint32(v) {
				dup++
			}
		}
	}
	return dup / 2
}

// buildEdges fills the flat edge array from the rows: pairs (u, v), u < v,
// in lexicographic order, each as often as it is an edge; and for a
// multigraph the loops (v, v), once for each two entries v in the row of
// v.
func (g *CSR) buildEdges() {
	if cap(g.edges) < len(g.adj) {
		g.edges = make([]uint32, 0, len(g.adj))
	}
	n := len(g.off) - 1
	for u := 0; u < n; u++ {
		loop := false
		for _, v := range g.adj[g.off[u]:g.off[u+1]] {
			switch {
			case uint32(u) < v:
				g.edges = append(g.edges, uint32(u), v)
			case uint32(u) == v:
				if loop {
					g.edges = append(g.edges, v, v)
				}
				loop = !loop
			}
		}
	}
}

// Multi reports whether g was built as a multigraph (FromEdgesMulti), whose
// loops and parallel edges are kept.
func (g *CSR) Multi() bool { return g.multi }

// Lines returns the edges of a multigraph as they were listed, in that
// order and orientation: (Lines()[2k], Lines()[2k+1]) is the k-th pair
// given to FromEdgesMulti, or the k-th edge line of the file read (a
// multigraph read from a file keeps them, 8 bytes an edge beside its
// rows). WriteEdgeList writes them in that order, and the graph process
// draws a regular multigraph's edges from them (alloc). nil for a simple
// graph. Shared with g; do not modify.
func (g *CSR) Lines() []uint32 { return g.lines }

// LoopsAndParallel returns the loops of g and its parallel edges (each
// repeat of an edge between two distinct vertices beyond its first copy),
// both 0 unless g is a multigraph, in O(n + |E|).
func (g *CSR) LoopsAndParallel() (loops, parallel int64) {
	for v := range g.Order() {
		row := g.Neighbors(v)
		for i, w := range row {
			switch {
			case w == uint32(v):
				loops++
			case i > 0 && w == row[i-1]:
				parallel++
			}
		}
	}
	return loops / 2, parallel / 2
}

// Order returns the number of vertices n.
func (g *CSR) Order() int { return len(g.off) - 1 }

// Size returns the number of undirected edges (of a multigraph: loops and
// parallel edges included).
func (g *CSR) Size() int64 { return int64(len(g.adj) / 2) }

// RegularDegree returns Δ if g is Δ-regular with Δ ≥ 1, else 0. The rows of a
// regular graph have fixed width: the neighbours of v are
// Adjacency()[v·Δ : v·Δ+Δ].
func (g *CSR) RegularDegree() int { return g.delta }

// Degree returns the degree of v: its row's length (in a multigraph a loop
// counts 2).
func (g *CSR) Degree(v int) int { return g.off[v+1] - g.off[v] }

// Neighbors returns the sorted neighbours of v. The slice is shared with g
// and must not be modified.
func (g *CSR) Neighbors(v int) []uint32 { return g.adj[g.off[v]:g.off[v+1]:g.off[v+1]] }

// Offsets returns the row offsets: the neighbours of v are
// Adjacency()[Offsets()[v]:Offsets()[v+1]]. Shared with g; do not modify.
func (g *CSR) Offsets() []int { return g.off }

// Adjacency returns the concatenated sorted rows. Shared with g; do not modify.
func (g *CSR) Adjacency() []uint32 { return g.adj }

// EdgeList returns every undirected edge once as the pairs
// (EdgeList()[2k], EdgeList()[2k+1]) with the first endpoint smaller (of a
// multigraph: not larger, each edge as often as it is one),
// in lexicographic order. Shared with g; do not modify. For a regular graph
// the array (8 bytes an edge) is built on the first call, which the graph
// process never makes (see CSR); it is safe for concurrent use.
func (g *CSR) EdgeList() []uint32 {
	if g.delta > 0 {
		g.once.Do(g.buildEdges)
	}
	return g.edges
}

// HasEdge reports whether {u, v} is an edge, in O(log deg u).
func (g *CSR) HasEdge(u, v int) bool {
	if u < 0 || v < 0 || u >= g.Order() || v >= g.Order() {
		return false
	}
	_, ok := slices.BinarySearch(g.Neighbors(u), uint32(v))
	return ok
}

// Visit calls do for each neighbour w of v in increasing order, with cost 0,
// and stops early returning true if do returns true. It implements
// yourbasic's graph.Iterator.
func (g *CSR) Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool) {
	for _, w := range g.Neighbors(v) {
		if do(int(w), 0) {
			return true
		}
	}
	return false
}

// Node returns the node with the given ID if it exists, and nil otherwise.
// It implements gonum's graph.Graph.
func (g *CSR) Node(id int64) graph.Node {
	if id < 0 || id >= int64(g.Order()) {
		return nil
	}
	return simple.Node(id)
}

// Nodes returns all the vertices as gonum nodes with IDs 0..n-1.
func (g *CSR) Nodes() graph.Nodes {
	return iterator.NewImplicitNodes(0, g.Order(), func(id int) graph.Node { return simple.Node(id) })
}

// From returns the neighbours of the node with the given ID.
func (g *CSR) From(id int64) graph.Nodes {
	if g.Node(id) == nil {
		return graph.Empty
	}
	row := g.Neighbors(int(id))
	nodes := make([]graph.Node, len(row))
	for i, w := range row {
		nodes[i] = simple.Node(w)
	}
	return iterator.NewOrderedNodes(nodes)
}

// HasEdgeBetween reports whether the nodes with the given IDs are adjacent.
func (g *CSR) HasEdgeBetween(xid, yid int64) bool {
	if g.Node(xid) == nil || g.Node(yid) == nil {
		return false
	}
	return g.HasEdge(int(xid), int(yid))
}

// Edge returns the edge between uid and vid, or nil if there is none.
func (g *CSR) Edge(uid, vid int64) graph.Edge { return g.EdgeBetween(uid, vid) }

// EdgeBetween returns the edge between xid and yid, or nil if there is none.
func (g *CSR) EdgeBetween(xid, yid int64) graph.Edge {
	if !g.HasEdgeBetween(xid, yid) {
		return nil
	}
	return simple.Edge{F: simple.Node(xid), T: simple.Node(yid)}
}

// FromGonum copies the undirected gonum graph src into a CSR. Node IDs are
// relabelled 0..n-1 in increasing ID order; ids[v] is the original ID of v.
// It returns an error if src has more than MaxOrder nodes.
func FromGonum(src graph.Undirected) (g *CSR, ids []int64, err error) {
	for it := src.Nodes(); it.Next(); {
		ids = append(ids, it.Node().ID())
	}
	if len(ids) > MaxOrder {
		return nil, nil, fmt.Errorf("graphgen: gonum graph has %d nodes, more than %d", len(ids), MaxOrder)
	}
	slices.Sort(ids)
	index := make(map[int64]uint32, len(ids))
	for v, id := range ids {
		index[id] = uint32(v)
	}
	var e []uint32
	for u, id := range ids {
		for it := src.From(id); it.Next(); {
			w := index[it.Node().ID()]
			if uint32(u) < w {
				e = append(e, uint32(u), w)
			}
		}
	}
	g, _, err = FromEdges(len(ids), e)
	return g, ids, err
}

// FromIterator copies a yourbasic graph into a CSR, ignoring costs and edge
// directions: an arc v→w becomes the edge {v, w}, self-loops are dropped and
// an edge seen several times (as an undirected yourbasic graph lists each
// edge from both ends) is kept once.
func FromIterator(src ybgraph.Iterator) (*CSR, error) {
	return fromIterator(src, nil)
}

// fromIterator is FromIterator, returning stop's error once it stops.
func fromIterator(src ybgraph.Iterator, stop *stopper) (*CSR, error) {
	n := src.Order()
	if n > MaxOrder {
		return nil, fmt.Errorf("graphgen: iterator has %d vertices, more than %d", n, MaxOrder)
	}
	var e []uint32
	for v := 0; v < n; v++ {
		if stop.stop() {
			return nil, stop.err()
		}
		src.Visit(v, func(w int, _ int64) bool {
			e = append(e, uint32(v), uint32(w))
			return false
		})
	}
	g, _, err := fromChunks(n, [][]uint32{e}, false, false, stop)
	return g, err
}
