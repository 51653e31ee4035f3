package alloc

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/graphalloc/graphalloc/graphgen"
)

// LocalSearch is the local search allocation of Bogdan, Sauerwald, Stauffer
// and Sun on a graph G whose vertices are the bins [BSSS13]: each ball
// starts at a uniform vertex u; while u has a neighbour of strictly smaller
// load, the ball moves to a neighbour of least load, chosen uniformly among
// the neighbours of that load; at a local minimum (no neighbour strictly
// lighter) it stays. Every step lowers the load under the ball, so a ball
// takes at most (its start's load − the least load) moves.
//
// For m = n, w.h.p. [BSSS13]: the maximum load is Θ(log log n) on
// expanders of constant maximum degree; Θ((log n / log log n)^{1/(k+1)}) on
// k-dimensional grids (graphalloc's torus:dim=K, and the cycle, k = 1); and
// O(1) on almost regular graphs of minimum degree Ω(log n), with random
// ties (the paper shows that this last bound needs them). On the complete
// graph every ball goes to a uniform one of the least loaded bins: a ball
// whose start is not least loaded moves once, to a least loaded bin, where
// it stays; so the maximum load is exactly ⌈m/n⌉, and the number of moves
// of ball k (from 0) is 1 with probability (k mod n)/n (docs/theory.md).
//
// Ties: TiesRandom (the default) is the definition's uniform choice among
// the least loaded neighbours; TiesLeft takes the first of them in
// adjacency order (ascending id on a CSR graph and on K_n, the connection
// set's order on a circulant), a fixed rule of the kind the paper sets
// against random ties.
//
// Randomness. A ball draws its start u = Uint64n(n) and then one Uint64,
// the seed of its own generator (a Rand with that state), from which every
// other draw of the ball comes: on a CSR graph or a circulant, at each
// step one pass over the neighbours finds the least load and how many c
// neighbours hold it, without a branch (docs/theory.md, note 3), and one
// draw j = Uint64n(c) picks the j-th of them in adjacency order (a second
// pass, only when the ball moves); on K_n, the least loaded bin (see
// below). Two draws a ball from r, whatever the walk, so the loop can
// draw balls ahead of placing them (pipelined on large graphs), and the
// draws are those of the plain loop in reference_test.go. One draw per
// move rather than one per tie (single-pass reservoir sampling): at m = n a
// ball that moves has about half its neighbours tied, and the reservoir
// draws and their branches cost half the time of the loop (measured on a
// random 16-regular graph, n = 2^12: 9.4 against 19 million balls per
// second of CPU time).
//
// The complete graph is not scanned: the neighbourhood of u is every other
// bin, so the loop keeps the least load μ, the number f of bins holding
// it, and for blocks of 64 bins (and groups of 64 blocks, and so on) how
// many hold μ. A ball whose start holds more than μ draws up to
// completeTries uniform bins from its generator and takes the first that
// holds μ; if none does, it draws j uniform in [0, f) and takes the j-th
// bin holding μ in index order. Either way the bin is uniform among those
// holding μ, so the law is the definition's, and the choice depends on
// the loads and the draws alone (not on how the balls were batched). The
// counts are rebuilt from the loads in O(n) at each call of Place and when
// the least load rises.
//
// On every graph a bin holding the least load of all is a local minimum,
// whatever its neighbours hold: a ball that starts at or steps to one
// stops there without its neighbours' loads being read (at m = n most
// balls do, and on a large graph the neighbour list is a cache miss). The
// least load and the number of bins holding it are rebuilt in O(n) at each
// call of Place and when it rises, as on K_n.
//
// Stats: Probes counts the loads the definition reads, the start's and
// those of the neighbours of every vertex the ball visits (on K_n,
// 1 + (n−1)·(1 + moves), though the loop reads O(1) on average); Moves and
// MaxMoves the steps.
//
// Batches (Config.Batch, see batch.go). Every ball of a batch walks on
// the loads at the start of its batch, that being the batched setting's
// definition (every ball decides from the loads at the start of its batch):
// its walk reads only those loads, never the balls of its own batch, and
// steps to a neighbour that was strictly lighter then, to stop at a local
// minimum of those loads. Its draws are those of the sequential loops,
// start, seed and ties, so batches of one ball are the sequential process
// (see lsRule).
//
// G must be a *graphgen.CSR, a graphgen.Complete or a graphgen.Circulant.
type LocalSearch struct {
	Graph graphgen.Graph
	Ties  Ties
}

var localSearchDescriptor = Descriptor{
	Name:     "local-search",
	Synopsis: "local search on a graph (-g): a uniform vertex, then steps to a least loaded neighbour while one is strictly lighter",
	Uses:     ParamGraph,
	D:        1,
	Family:   FamilyLocalSearch,
	BinBytes: 1,
	Moves:    true,
	levels:   onComplete,
	build:    func(p Params) Rule { return LocalSearch{Graph: p.Graph, Ties: p.Ties} },
}

// Name returns the command-line name, "local-search".
func (LocalSearch) Name() string { return localSearchDescriptor.Name }

// String returns "local-search".
func (p LocalSearch) String() string { return p.Name() }

// Check requires G to be a supported graph with n ≥ 1 vertices. A graph
// without edges is allowed: every vertex is then a local minimum, and the
// process is one-choice.
func (p LocalSearch) Check(n int) error {
	if p.Graph == nil {
		return fmt.Errorf("alloc: %s needs a graph", p.Name())
	}
	if p.Graph.Order() != n {
		return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", p.Graph.Order(), n)
	}
	if err := checkBins(p.Name(), n); err != nil {
		return err
	}
	switch p.Graph.(type) {
	case *graphgen.CSR, graphgen.Complete, graphgen.Circulant:
		return nil
	}
	return fmt.Errorf("alloc: %s does not support graphs of type %T", p.Name(), p.Graph)
}

// Place throws m balls; see LocalSearch for the stats.
func (p LocalSearch) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	left := p.Ties.resolve(TiesRandom) == TiesLeft
	var st Stats
	switch g := p.Graph.(type) {
	case *graphgen.CSR:
		off, adj := g.Offsets(), g.Adjacency()
		b.place(m,
			func(L []uint8, m int64) int64 { return localSearchCSR(L, m, off, adj, left, r, &st) },
			func(L []uint32, m int64) int64 { return localSearchCSR(L, m, off, adj, left, r, &st) })
	case graphgen.Circulant:
		S := g.ConnectionSet()
		b.place(m,
			func(L []uint8, m int64) int64 { return localSearchCirculant(L, m, S, left, r, &st) },
			func(L []uint32, m int64) int64 { return localSearchCirculant(L, m, S, left, r, &st) })
	case graphgen.Complete:
		b.place(m,
			func(L []uint8, m int64) int64 { return localSearchComplete(L, m, left, r, &st) },
			func(L []uint32, m int64) int64 { return localSearchComplete(L, m, left, r, &st) })
	}
	return st
}

// regularDegree returns Δ if the rows off describe a Δ-regular graph
// (off[v] = v·Δ for every v), else 0. O(n), sequential: of the order of
// the MaxMin scan a --every sample takes between two calls of Place.
func regularDegree(off []int) int {
	if len(off) < 2 {
		return 0
	}
	delta := off[1] - off[0]
	for v, o := range off {
		if o != v*delta {
			return 0
		}
	}
	return delta
}

// walkCSR walks a ball from its start u, whose row is adj[lo:hi], drawing
// its ties from its generator state t, and returns the local minimum it
// stops at, that bin's load, the loads read and the moves. If delta > 0
// the graph is delta-regular and vertex v's row is adj[v·delta:(v+1)·delta].
// mu is the least load of all bins: a vertex holding it is a local
// minimum whatever its neighbours hold, so its row is not read (at m = n
// most balls start at or step to such a vertex, and its row is a cache
// miss); the loads the definition reads there are counted all the same.
func walkCSR[T uint8 | uint32](L []T, off []int, adj []uint32, delta int, mu, u, t uint64, lo, hi int, left bool) (c, lc uint64, read, steps int64) {
	lu := uint64(L[u])
	read = 1
	for {
		read += int64(hi - lo)
		if lu == mu {
			return u, lu, read, steps
		}
		row := adj[lo:hi]
		best, cnt := leastOf(L, row, lu)
		if best == lu {
			return u, lu, read, steps // a local minimum
		}
		var j uint64
		if !left {
			t, j = below(t, cnt)
		}
		u, lu = jthOf(L, row, best, j), best
		if delta > 0 {
			lo = int(u) * delta // a regular graph: no offsets to read
			hi = lo + delta
		} else {
			lo, hi = off[u], off[u+1]
		}
		steps++
	}
}

// leastCount returns the least load of L and the number of bins holding
// it. O(n): at each call of Place and when the least load rises (about
// once every n balls when the loads are even).
func leastCount[T uint8 | uint32](L []T) (mu, f uint64) {
	mn := L[0]
	for _, l := range L {
		if l < mn {
			mn, f = l, 0
		}
		if l == mn {
			f++
		}
	}
	return uint64(mn), f
}

// walkCirculant is walkCSR on the circulant graph with connection set S.
func walkCirculant[T uint8 | uint32](L []T, S []uint32, mu, u, t uint64, left bool) (c, lc uint64, read, steps int64) {
	lu := uint64(L[u])
	read = 1
	for {
		read += int64(len(S))
		if lu == mu {
			return u, lu, read, steps // a least loaded bin (see walkCSR)
		}
		best, cnt := leastAround(L, S, u, lu)
		if best == lu {
			return u, lu, read, steps
		}
		var j uint64
		if !left {
			t, j = below(t, cnt)
		}
		u, lu = jthAround(L, S, u, best, j), best
		steps++
	}
}

// The neighbour scans of a walk step (leastOf and jthOf on a row,
// leastAround and jthAround on a circulant) are generated from one
// template (gen_loops.go, zloops_search.go), as the loops that call them.

// completeTries is how many uniform bins a ball on K_n tries before it
// counts its way to a least loaded bin through the index (see
// LocalSearch). Measured at n = 2^20, m = n, million balls per second of
// CPU time: 26 with 4 tries, 33 with 8, 39 with 16, 40 with 32, 42 with
// 64, 41 with 256.
const completeTries = 64

// localSearchComplete places m balls by local search on K_n (see
// LocalSearch and localSearchCSR).
// Written by hand: on K_n a ball counts its way to a least loaded bin
// through an index, a loop of its own.
func localSearchComplete[T uint8 | uint32](L []T, m int64, left bool, r *Rand, st *Stats) int64 {
	n := uint64(len(L))
	var x minIndex
	mu, f := buildIndex(&x, L)
	s := r.state
	var moves, mostMoves int64
	k := int64(0)
	for ; k < m; k++ {
		if full(L, mu) {
			break // every ball goes to a bin holding mu
		}
		var u, t uint64
		s, u = below(s, n)
		s, t = next(s)
		c, moved := completeMove(&x, L, u, t, mu, f, left)
		if moved {
			moves++
			mostMoves = 1
		}
		L[c] = T(mu + 1)
		x.remove(c)
		if f--; f == 0 {
			mu, f = buildIndex(&x, L)
		}
	}
	r.state = s
	st.Add(completeStats(n, k, moves, mostMoves))
	return k
}

// completeMove returns the bin that takes a ball of local search on K_n
// that starts at u, the least load being mu (f bins hold it, indexed by
// x), and whether the ball moved: u itself if it holds mu; otherwise
// (random ties) a bin holding mu found among completeTries uniform
// draws from t, or the j-th of the f such bins, j uniform; with left ties
// the least such bin. The sequential and the batched loops share it.
func completeMove[T uint8 | uint32](x *minIndex, L []T, u, t, mu, f uint64, left bool) (c uint64, moved bool) {
	if uint64(L[u]) == mu {
		return u, false
	}
	n := uint64(len(L))
	if !left {
		for range completeTries {
			var v uint64
			t, v = below(t, n)
			if uint64(L[v]) == mu {
				return v, true
			}
		}
	}
	j := uint64(0)
	if !left {
		_, j = below(t, f)
	}
	return findMin(x, L, mu, j), true
}

// completeStats are the stats of k balls on K_n that moved moves times in
// all, at most mostMoves (0 or 1) for one ball: each reads its start and
// the start's n−1 neighbours, and a ball that moves the n−1 neighbours of
// the bin it reaches. Probes saturate at the largest int64 (n·m passes it
// from n·m ≈ 9.2·10^18).
func completeStats(n uint64, k, moves, mostMoves int64) Stats {
	nb := n - 1
	hi, probes := bits.Mul64(uint64(k), n)
	hi2, p2 := bits.Mul64(uint64(moves), nb)
	probes, carry := bits.Add64(probes, p2, 0)
	if hi != 0 || hi2 != 0 || carry != 0 || probes > math.MaxInt64 {
		probes = math.MaxInt64
	}
	return Stats{Probes: int64(probes), MaxProbes: min(k, 1) * int64(1+nb*uint64(1+mostMoves)),
		Moves: moves, MaxMoves: mostMoves}
}

// levelsLocalSearch is local search on K_n in the level engine: every ball
// raises a least loaded bin, and moves iff its start, a uniform rank, is
// not least loaded (rank below t[1]); it draws its start and its seed as
// the per-bin loop does.
func levelsLocalSearch(h *tails, m int64, r *Rand) Stats {
	n := h.n
	s := r.state
	var moves, most int64
	for range m {
		var u uint64
		s, u = below(s, n)
		s, _ = next(s)
		if len(h.t) > 1 && u < h.t[1] {
			moves++
			most = 1
		}
		h.raise(0)
	}
	r.state = s
	return completeStats(n, m, moves, most)
}

// minIndex counts the bins that hold the least load μ: lv[0][b] among the
// 64 bins [64b, 64b+64), and lv[i+1][g] = lv[i][64g] + … + lv[i][64g+63],
// up to a last level of at most 64 entries. Removing a bin costs one
// decrement a level; finding the j-th bin holding μ scans at most 64
// entries a level and the 64 loads of one block.
type minIndex struct {
	lv [][]uint32
}

// buildIndex sets x to the bins of L that hold its least load, and
// returns that load μ and their number. O(n).
func buildIndex[T uint8 | uint32](x *minIndex, L []T) (mu, f uint64) {
	mn := L[0]
	for _, l := range L {
		mn = min(mn, l)
	}
	if x.lv == nil {
		for size := len(L); ; {
			size = (size + 63) / 64
			x.lv = append(x.lv, make([]uint32, size))
			if size <= 64 {
				break
			}
		}
	}
	a := x.lv[0]
	for b := range a {
		cnt := uint32(0)
		for _, l := range L[64*b : min(64*b+64, len(L))] {
			if l == mn {
				cnt++
			}
		}
		a[b] = cnt
		f += uint64(cnt)
	}
	for i := 1; i < len(x.lv); i++ {
		lo, hi := x.lv[i-1], x.lv[i]
		for g := range hi {
			sum := uint32(0)
			for _, c := range lo[64*g : min(64*g+64, len(lo))] {
				sum += c
			}
			hi[g] = sum
		}
	}
	return uint64(mn), f
}

// remove takes bin c out of the count (its load has risen above μ).
func (x *minIndex) remove(c uint64) {
	for i, a := range x.lv {
		a[c>>(6*(i+1))]--
	}
}

// findMin returns the j-th bin (from 0, in index order) of L holding mu;
// j must be below their count.
func findMin[T uint8 | uint32](x *minIndex, L []T, mu, j uint64) uint64 {
	top := len(x.lv) - 1
	g := uint64(0)
	for i := top; i >= 0; i-- {
		a := x.lv[i]
		lo := 64 * g
		if i == top {
			lo = 0
		}
		for e := lo; ; e++ {
			if c := uint64(a[e]); j >= c {
				j -= c
			} else {
				g = e
				break
			}
		}
	}
	for b := 64 * g; ; b++ {
		if uint64(L[b]) == mu {
			if j == 0 {
				return b
			}
			j--
		}
	}
}

// rule returns local search's rule on n bins for the batched driver (see
// rule and LocalSearch, section Batches).
func (p LocalSearch) rule(int) rule {
	g := &lsRule{left: p.Ties.resolve(TiesRandom) == TiesLeft}
	switch gr := p.Graph.(type) {
	case *graphgen.CSR:
		g.kind, g.off, g.adj = lsCSR, gr.Offsets(), gr.Adjacency()
		g.delta = regularDegree(g.off)
	case graphgen.Circulant:
		g.kind, g.S = lsCirculant, gr.ConnectionSet()
	case graphgen.Complete:
		g.kind = lsComplete
	}
	return g
}

type lsKind uint8

const (
	lsCSR lsKind = iota
	lsCirculant
	lsComplete
)

// lsRule is local search as a rule. One ball at a time (out == nil) it
// runs Place's loops. In a batch (out != nil) each ball draws its start
// and its seed as those loops do and walks on L, which holds the loads at
// the start of its batch and which nothing writes during the batch, so the
// walk is the sequential walk on those loads.
//
// The walks need the least load of all bins. On a CSR graph or a
// circulant it is only a shortcut (a bin holding it is a local minimum),
// and any earlier least load mu will do: loads never fall, so mu is at
// most the least load now, and a bin holding mu holds the least load now.
// The rule takes it from L at its first call and again once n balls have
// been chosen since, O(1) a ball. On K_n the walk needs the least load
// itself, how many bins hold it and the index of them (see LocalSearch):
// the rule keeps them from one batch to the next, as the loads at the
// start of the current batch, and brings them up to date when a batch has
// been added. It knows that from the batched driver (batcher.place and
// flush): between two calls L either is unchanged or has had every ball
// chosen since the last update added, the last of them included, and that
// ball's bin then holds more than the rule saw. The bins chosen since the
// last update are kept (up to n of them, else the index is rebuilt, O(n)
// for n balls or more), and each that held the least load leaves the
// index; once none does, the index is rebuilt from L.
type lsRule struct {
	kind  lsKind
	left  bool
	off   []int    // CSR: rows
	adj   []uint32 // CSR: adjacency
	delta int      // CSR: Δ of a Δ-regular graph, else 0
	S     []uint32 // circulant: connection set

	// CSR and circulant in batches: an earlier least load, and the balls
	// chosen since it was taken.
	mu     uint64
	haveMu bool
	since  int64

	// K_n in batches: the least load of the loads at the start of the
	// batch (mu), the number f of bins holding it, their index x and set
	// in (a bit a bin); rec the bins chosen since the last update (over:
	// more than n), last the bin of the last ball chosen and lastLoad its
	// load then (any: a ball was chosen since the last update).
	x              minIndex
	in             []uint64
	f              uint64
	built          bool
	rec            []uint32
	over, any      bool
	last, lastLoad uint32
}

func (g *lsRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	var st Stats
	if out == nil {
		switch g.kind {
		case lsCSR:
			localSearchCSR(L, m, g.off, g.adj, g.left, r, &st)
		case lsCirculant:
			localSearchCirculant(L, m, g.S, g.left, r, &st)
		case lsComplete:
			localSearchComplete(L, m, g.left, r, &st)
		}
		return st
	}
	if g.kind == lsComplete {
		return g.complete(L, m, out, r)
	}
	n := uint64(len(L))
	if !g.haveMu || g.since >= int64(n) {
		g.mu, _ = leastCount(L)
		g.haveMu, g.since = true, 0
	}
	g.since += m
	mu, left := g.mu, g.left
	s := r.state
	var probes, most, moves, mostMoves int64
	for k := int64(0); k < m; k++ {
		var u, t, c uint64
		var read, steps int64
		s, u = below(s, n)
		s, t = next(s)
		if g.kind == lsCSR {
			c, _, read, steps = walkCSR(L, g.off, g.adj, g.delta, mu, u, t, g.off[u], g.off[u+1], left)
		} else {
			c, _, read, steps = walkCirculant(L, g.S, mu, u, t, left)
		}
		out[k] = uint32(c)
		probes += read
		most = max(most, read)
		moves += steps
		mostMoves = max(mostMoves, steps)
	}
	r.state = s
	return Stats{Probes: probes, MaxProbes: most, Moves: moves, MaxMoves: mostMoves}
}

// complete chooses the bins of m balls of a batch on K_n from the loads L
// at the start of the batch: the draws and the choice of
// localSearchComplete, on those loads.
func (g *lsRule) complete(L []uint32, m int64, out []uint32, r *Rand) Stats {
	g.update(L)
	n := uint64(len(L))
	mu, f, left := g.mu, g.f, g.left
	s := r.state
	var moves, mostMoves int64
	for k := int64(0); k < m; k++ {
		var u, t uint64
		s, u = below(s, n)
		s, t = next(s)
		c, moved := completeMove(&g.x, L, u, t, mu, f, left)
		if moved {
			moves++
			mostMoves = 1
		}
		out[k] = uint32(c)
		if !g.over {
			if len(g.rec) < len(L) {
				g.rec = append(g.rec, uint32(c))
			} else {
				g.over, g.rec = true, g.rec[:0]
			}
		}
	}
	if m > 0 {
		c := out[m-1]
		g.last, g.lastLoad, g.any = c, L[c], true
	}
	r.state = s
	return completeStats(n, m, moves, mostMoves)
}

// update brings the least load, its count and its index up to date with
// L (see lsRule).
func (g *lsRule) update(L []uint32) {
	switch {
	case !g.built:
		g.build(L)
	case g.any && L[g.last] != g.lastLoad: // the balls chosen have been added
		if g.over {
			g.build(L)
			return
		}
		for _, c := range g.rec {
			if w, bit := c>>6, uint64(1)<<(c&63); g.in[w]&bit != 0 {
				g.in[w] &^= bit
				g.x.remove(uint64(c))
				g.f--
			}
		}
		g.rec, g.any = g.rec[:0], false
		if g.f == 0 {
			g.build(L)
		}
	}
}

// build sets the least load, its count and its index from L. O(n).
func (g *lsRule) build(L []uint32) {
	g.mu, g.f = buildIndex(&g.x, L)
	if g.in == nil {
		g.in = make([]uint64, (len(L)+63)/64)
	}
	clear(g.in)
	for i, l := range L {
		if uint64(l) == g.mu {
			g.in[i>>6] |= 1 << (i & 63)
		}
	}
	g.built, g.rec, g.over, g.any = true, g.rec[:0], false, false
}
