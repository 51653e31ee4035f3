package graphgen

import (
	"io"
	"maps"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// EdgeArray is a simple undirected graph on the vertices 0..n−1 held as
// its edge array alone: every edge once, as a pair (u, v) with u < v, the
// pairs in lexicographic order — the flat edge array a CSR keeps (EdgeList),
// without the rows. It is all that a process drawing only uniform edges
// needs (the graph process and the two-sample rules under edge sampling),
// and it takes 8 bytes an edge plus a degree table of 1 byte a vertex
// (degrees from 255 on are kept exactly in a map beside it): a file of
// 10^9 edges on 10^9 vertices is held in 9 GB, where a CSR takes about 33
// (ReadEdges). Those processes draw the same edges from it as from the CSR
// of the same graph, which keeps the same array, unless the graph is
// regular: a regular CSR keeps no edge array, and they draw its edges
// from its rows instead, with the same law (ReadEdges returns a regular
// graph as a CSR when it fits).
//
// Visit has no rows to read: it scans the edge array, in O(|E|) time per
// call, so algorithms that walk the graph belong on a CSR (LoadGraph).
//
// The array of a graph read by ReadEdges may live outside the Go heap (a
// mapping, on Linux), released once the EdgeArray is unreachable: a caller
// that keeps EdgeList's slice must keep the EdgeArray too.
type EdgeArray struct {
	n              int
	edges          []uint32
	deg            []uint8
	big            map[uint32]int // degree − 255 of the vertices of degree 255 or more
	minDeg, maxDeg int
}

var _ Graph = (*EdgeArray)(nil)

// Order returns n.
func (g *EdgeArray) Order() int { return g.n }

// Size returns the number of edges.
func (g *EdgeArray) Size() int64 { return int64(len(g.edges) / 2) }

// Degree returns the degree of v.
func (g *EdgeArray) Degree(v int) int {
	d := int(g.deg[v])
	if d == 255 {
		d += g.big[uint32(v)]
	}
	return d
}

// DegreeRange returns the least and the largest degree (0, 0 for the
// empty graph).
func (g *EdgeArray) DegreeRange() (lo, hi int) { return g.minDeg, g.maxDeg }

// EdgeList returns the edges: pairs (e[2k], e[2k+1]) with e[2k] < e[2k+1],
// in lexicographic order. It is shared with g and must not be modified.
func (g *EdgeArray) EdgeList() []uint32 { return g.edges }

// Visit calls do for each neighbour w of v in increasing order, and stops
// early returning true if do returns true. It scans every edge: O(|E|).
func (g *EdgeArray) Visit(v int, do func(w int, c int64) (skip bool)) (aborted bool) {
	x := uint32(v)
	e := g.edges
	for k := 0; k+1 < len(e); k += 2 {
		switch {
		case e[k+1] == x:
			if do(int(e[k]), 0) {
				return true
			}
		case e[k] == x:
			if do(int(e[k+1]), 0) {
				return true
			}
		}
	}
	return false
}

// newEdgeArray returns the graph on n vertices with the edge array e
// (sorted, without duplicates or self-loops), counting the degrees.
func newEdgeArray(n int, e []uint32) *EdgeArray {
	g := &EdgeArray{n: n, edges: e, deg: make([]uint8, n), big: map[uint32]int{}}
	// The workers count the degrees of their own ranges of vertices, each
	// reading all of e: the reads are sequential, the increments random,
	// and those are what a second core shares.
	workers := 1
	if len(e) >= degreeWorkersMin {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	bigs := make([]map[uint32]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := uint32(n*w/workers), uint32(n*(w+1)/workers)
		bigs[w] = map[uint32]int{}
		wg.Go(func() { countDegrees(g.deg[lo:hi], lo, e, bigs[w]) })
	}
	wg.Wait()
	for _, b := range bigs {
		maps.Copy(g.big, b)
	}
	if n > 0 {
		g.minDeg, g.maxDeg = int(slices.Min(g.deg)), int(slices.Max(g.deg))
		if g.maxDeg == 255 {
			for _, d := range g.big {
				g.maxDeg = max(g.maxDeg, 255+d)
			}
		}
	}
	return g
}

// degreeWorkersMin is the fewest edge ends counted on several cores: 4 MiB
// of edges. A variable so that the tests can count small graphs so.
var degreeWorkersMin = 1 << 22

// countDegrees adds to deg[v − lo] one for each end v of the edges e in
// [lo, lo+len(deg)), saturating at 255 and counting beyond in big[v].
// The ends outside go to a dummy counter, chosen without a branch.
func countDegrees(deg []uint8, lo uint32, e []uint32, big map[uint32]int) {
	span := uint32(len(deg))
	var dummy uint8
	for _, v := range e {
		dummy = 0 // so that the test below is false for it, as for most
		p := &dummy
		if i := v - lo; i < span {
			p = &deg[i]
		}
		if *p == 255 {
			big[v]++
			continue
		}
		*p++
	}
}

// ReadEdges reads a graph file as ReadGraph does — the same formats,
// checks, relabelling and FileInfo — for a caller that draws only uniform
// edges of the graph: an edge list is returned as an *EdgeArray, whose
// edge array is the one the CSR of ReadGraph keeps, so that a process
// draws the same edges from either. A regular graph is returned as the
// CSR ReadGraph returns, since processes draw a regular CSR's edges from
// its rows, not from an edge array: unless its rows would take more than
// MaxBytes, and then as an EdgeArray, from which they draw the same law
// but not the same edges. A Matrix Market file is read by
// ReadMatrixMarket, as a CSR, and so is a multigraph (ReadOptions.Multi,
// or the graphalloc header's multi flag: see FromEdgesMulti).
//
// It holds 8 bytes an edge line while it reads (a self-loop is counted
// and dropped at once), plus the id table for a file without the
// graphalloc header. On Linux the edges are one mapping that grows
// without copying, and the duplicates are found by sorting them in place
// (radix sort, on every core), so the peak is that array and the degree
// table of 1 byte a vertex (and, for a regular graph, its CSR). A gzip
// stream is decompressed on another goroutine, a block ahead.
func ReadEdges(r io.Reader, name string) (Graph, *FileInfo, error) {
	return ReadOptions{}.readGraph(r, name, true)
}

// ReadEdges is the package's ReadEdges under these options.
func (o ReadOptions) ReadEdges(r io.Reader, name string) (Graph, *FileInfo, error) {
	return o.readGraph(r, name, true)
}

// LoadEdges opens the file at path and reads it with ReadEdges.
func LoadEdges(path string) (Graph, *FileInfo, error) {
	return ReadOptions{}.LoadEdges(path)
}

// LoadEdges is the package's LoadEdges under these options.
func (o ReadOptions) LoadEdges(path string) (Graph, *FileInfo, error) {
	return load(o, path, o.ReadEdges)
}

// readEdges is ReadEdges on an edge list.
func (o ReadOptions) readEdges(r io.Reader, name string) (Graph, *FileInfo, error) {
	o.lean = true
	s := NewEdgeScanner(r, name)
	s.lr.stop = newStopper(o.Context)
	buf := keyBuf{limit: o.MaxBytes}
	var loops int64
	sc, err := scanEdges(s, func(u, v uint32) string {
		if u == v {
			loops++
			if !s.multi { // the header, before the first edge, marks a multigraph
				return ""
			}
		}
		return buf.add(u, v)
	}, o.MaxBytes, buf.bytes)
	if err != nil {
		buf.free()
		return nil, nil, err
	}
	k := buf.k
	// The keys seen as the pairs (u, v) they hold, for the relabelling.
	pairs := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(k))), 2*len(k))
	n, labels, err := o.finishScan(s, sc, buf.bytes(), [][]uint32{pairs})
	if err != nil {
		buf.free()
		return nil, nil, err
	}
	if s.multi {
		// A multigraph is held as its CSR, which keeps the loops twice
		// in their rows and the lines in their order (FromEdgesMulti),
		// whether or not it is regular.
		c, d, err := FromEdgesMulti(n, slices.Clone(pairs))
		buf.free()
		if err != nil {
			return nil, nil, &ParseError{Name: name, Err: err}
		}
		return c, &FileInfo{Name: name, Format: FormatEdgeList, Lines: s.Line(), Vertices: n, Edges: c.Size(),
			SelfLoops: d.SelfLoops, Duplicates: d.Duplicates, Labels: labels, Multi: true}, nil
	}
	// Each key becomes min<<32 | max, so that sorting the keys sorts the
	// edges lexicographically; after the duplicates are gone, a rotation
	// makes each key the pair (min, max) again.
	for i, x := range k {
		u, v := x&(1<<32-1), x>>32
		k[i] = min(u, v)<<32 | max(u, v)
	}
	sortKeys(k)
	kept := dedupSorted(k)
	for i := range k[:kept] {
		k[i] = bits.RotateLeft64(k[i], 32)
	}
	buf.release(kept)
	info := &FileInfo{
		Name:       name,
		Format:     FormatEdgeList,
		Lines:      s.Line(),
		Vertices:   n,
		Edges:      int64(kept),
		SelfLoops:  loops,
		Duplicates: int64(len(k) - kept),
		Labels:     labels,
	}
	g := newEdgeArray(n, pairs[:2*kept])
	if g.minDeg == g.maxDeg && g.minDeg > 0 {
		// Regular: the CSR, as ReadGraph returns it, if it fits (its
		// rows come out sorted, as the edges are).
		need := 8*int64(n+1) + 8*int64(kept) + buf.bytes() + int64(n)
		if o.MaxBytes <= 0 || need <= o.MaxBytes {
			c, _, err := fromChunks(n, [][]uint32{g.edges}, false, false, s.lr.stop)
			buf.free()
			if err != nil {
				return nil, nil, &ParseError{Name: name, Err: err}
			}
			return c, info, nil
		}
	}
	if buf.mapping != nil {
		runtime.AddCleanup(g, unmapKeys, buf.mapping)
	}
	return g, info, nil
}
