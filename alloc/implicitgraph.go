package alloc

import (
	"unsafe"

	"github.com/graphalloc/graphalloc/graphgen"
)

// The loops of Graphical on the implicit graphs that store no adjacency:
// graphgen.PermutationRegular (regular:degree=D,implicit) and
// graphgen.Lattice (torus:…,implicit, hypercube:implicit). Each ball makes
// two random accesses, to the loads of its two bins: the neighbour comes
// from arithmetic. Both loops run on one-byte loads as well as four-byte
// ones (Bins.place), so n = 10^9 bins take 1 GB while every load is below
// 255, and n up to 2^40 as memory permits.
//
// Both graphs are regular, so a uniform vertex with a uniform one of its Δ
// neighbour slots is a uniformly random edge in a uniformly random
// orientation, loops and multiple edges included: the edge and vertex
// sampling rules give the same law, and the loops draw the same (u, v) for
// both. With random ties the first end wins, a fair coin since the
// orientation is; with left ties the smaller id wins under edge sampling,
// the sampled vertex u under vertex sampling.
//
// permRegular, permRegularPiped, hypercubeGraph, torusGraph and
// implicitRule.run are generated from the templates of gen_loops.go (their
// draws, permDraw, hypercubeDraw and torusDraw, are here). The phased
// loops, permPhases with placePairs and placePairsNib, are written here:
// the only loops of their shape.

// implicitGraph places m balls of Graphical on an implicit graph g (a
// graphgen.PermutationRegular or graphgen.Lattice), by b.place.
func implicitGraph(b *Bins, m int64, g graphgen.Graph, random, vertexFirst bool, r *Rand) {
	leftEdge := !random && !vertexFirst
	switch g := g.(type) {
	case graphgen.PermutationRegular:
		b.placePacked(m,
			func(N []uint8, m int64) int64 {
				return permPhases(uint64(g.Order()), m, g, leftEdge, r, func(ends [][2]uint64) int { return placePairsNib(N, ends) })
			},
			func(L []uint8, m int64) int64 { return permRegular(L, m, g, leftEdge, r) },
			func(L []uint32, m int64) int64 { return permRegular(L, m, g, leftEdge, r) })
	case graphgen.Lattice:
		if g.Side() == 2 {
			b.place(m,
				func(L []uint8, m int64) int64 { return hypercubeGraph(L, m, g.Dim(), leftEdge, r) },
				func(L []uint32, m int64) int64 { return hypercubeGraph(L, m, g.Dim(), leftEdge, r) })
			return
		}
		lt := newLatticeTables(g)
		b.place(m,
			func(L []uint8, m int64) int64 { return torusGraph(L, m, &lt, leftEdge, r) },
			func(L []uint32, m int64) int64 { return torusGraph(L, m, &lt, leftEdge, r) })
	}
}

// permDraw draws one ball's oriented pair for permRegular.
func permDraw(s, n, d2 uint64, w uint, keys []graphgen.FeistelKey, leftEdge bool) (uint64, uint64, uint64) {
	var u, t uint64
	s, u = below(s, n)
	s, t = below(s, d2)
	k := &keys[t>>1]
	// graphgen.FeistelForward written out (the compiler does not inline
	// it: 25% of the time at n = 2^20), with cycle walking: 4^w/n < 4
	// passes on average. The reference test replays graphgen's Perm.
	mask, sh := uint64(1)<<w-1, 64-w
	v := u
	for {
		l, r := v>>w, v&mask
		l ^= (r ^ k[0]) * k[1] >> sh
		r ^= (l ^ k[2]) * k[3] >> sh
		l ^= (r ^ k[4]) * k[5] >> sh
		r ^= (l ^ k[6]) * k[7] >> sh
		l ^= (r ^ k[8]) * k[9] >> sh
		r ^= (l ^ k[10]) * k[11] >> sh
		if v = l<<w | r; v < n {
			break
		}
	}
	if t&1 != 0 {
		u, v = v, u
	}
	if leftEdge && v < u {
		u, v = v, u
	}
	return s, u, v
}

// permPhasedMin is the size of a load array, in bytes, from which
// permRegular runs permRegularPhased. A variable so that the tests can
// run it on small arrays.
var permPhasedMin uintptr = permPhasedMinBytes

const permPhasedMinBytes = 1 << 33

// permPhase is the number of balls permRegularPhased draws at a time.
const permPhase = 2048

// permRegularPhased is permRegular in two phases, permPhase balls at a
// time: first the draws, arithmetic only, into a buffer, then the
// placements with the loads prefetched ahead as in permRegularPiped — the
// same balls in the same order. Beyond the TLB's reach (loads of 8 GiB and
// more), where the ring of permRegularPiped loses the overlap between the
// Feistel rounds of one ball and the misses of another, this is 1.5×
// faster (BENCHMARKS.md). The draws are made without a branch on the
// cycle walking, which mispredicts whenever 4^w/n is not close to 1:
// every ball's first Feistel pass, then further passes for those still at
// n or beyond, listed without a branch, until none is.
func permRegularPhased[T uint8 | uint32](L []T, m int64, g graphgen.PermutationRegular, leftEdge bool, r *Rand) int64 {
	return permPhases(uint64(len(L)), m, g, leftEdge, r, func(ends [][2]uint64) int { return placePairs(L, ends) })
}

// permPhases draws the balls of permRegularPhased on n bins, permPhase at
// a time, and hands each phase's oriented pairs to place, which returns
// how many of them it placed (see placePairs). It returns the balls
// placed, with the generator left before the first ball not placed.
func permPhases(n uint64, m int64, g graphgen.PermutationRegular, leftEdge bool, r *Rand, place func(ends [][2]uint64) int) int64 {
	var buf [permPhase]struct{ s, a, b, t uint64 }
	var buf2 [permPhase][2]uint64 // the ends, oriented
	var pend [permPhase]uint32
	d2, w, keys := uint64(2*g.Permutations()), g.Half(), g.Keys()
	mask, sh := uint64(1)<<w-1, 64-w
	s := r.state
	for done := int64(0); done < m; {
		k := int(min(m-done, permPhase))
		ph := buf[:k]
		for i := range ph {
			e := &ph[i]
			e.s = s
			s, e.a = below(s, n)
			s, e.t = below(s, d2)
			e.b = e.a
			pend[i] = uint32(i)
		}
		// Passes of the network (graphgen.FeistelForward written out) on
		// the balls pending, listed again without a branch while at n or
		// beyond: all of them first, then 1 − n/4^w of them, and so on.
		for np := k; np > 0; {
			j := 0
			for _, i := range pend[:np] {
				e := &ph[i]
				kk := &keys[e.t>>1]
				hl, hr := e.b>>w, e.b&mask // the halves
				hl ^= (hr ^ kk[0]) * kk[1] >> sh
				hr ^= (hl ^ kk[2]) * kk[3] >> sh
				hl ^= (hr ^ kk[4]) * kk[5] >> sh
				hr ^= (hl ^ kk[6]) * kk[7] >> sh
				hl ^= (hr ^ kk[8]) * kk[9] >> sh
				hr ^= (hl ^ kk[10]) * kk[11] >> sh
				e.b = hl<<w | hr
				pend[j] = i
				j += int((n - 1 - e.b) >> 63) // e.b >= n
			}
			np = j
		}
		ends := buf2[:k]
		for i := range ph {
			e := &ph[i]
			u, v := e.a, e.b
			if e.t&1 != 0 {
				u, v = v, u
			}
			if leftEdge && v < u {
				u, v = v, u
			}
			ends[i] = [2]uint64{u, v}
		}
		if i := place(ends); i < k {
			r.state = ph[i].s
			return done + int64(i)
		}
		done += int64(k)
	}
	r.state = s
	return m
}

// placePairs places one ball on the lesser loaded bin of each pair of
// ends, in order, the first end winning ties, with the loads prefetched
// ahead balls ahead: the placement phase of the phased loops. It stops
// before a ball that would overflow a byte load and returns the balls
// placed, len(ends) if all.
func placePairs[T uint8 | uint32](L []T, ends [][2]uint64) int {
	for i := range min(len(ends), ahead) {
		prefetch2(unsafe.Pointer(&L[ends[i][0]]), unsafe.Pointer(&L[ends[i][1]]))
	}
	for i, e := range ends {
		if j := i + ahead; j < len(ends) {
			prefetch2(unsafe.Pointer(&L[ends[j][0]]), unsafe.Pointer(&L[ends[j][1]]))
		}
		a, b := e[0], e[1]
		la, lb := uint64(L[a]), uint64(L[b])
		c, mn := a, la
		if lb < la {
			c, mn = b, lb
		}
		if full(L, mn) {
			return i
		}
		L[c] = T(mn + 1)
	}
	return len(ends)
}

// placePairsNib is placePairs on packed loads N (see Bins): bin x in the
// low half of byte x/2 if x is even, the high half if odd. It stops before
// a ball that would raise a load past limitNib.
func placePairsNib(N []uint8, ends [][2]uint64) int {
	for i := range min(len(ends), ahead) {
		prefetch2(unsafe.Pointer(&N[ends[i][0]>>1]), unsafe.Pointer(&N[ends[i][1]>>1]))
	}
	for i, e := range ends {
		if j := i + ahead; j < len(ends) {
			prefetch2(unsafe.Pointer(&N[ends[j][0]>>1]), unsafe.Pointer(&N[ends[j][1]>>1]))
		}
		a, b := e[0], e[1]
		sa, sb := a&1*4, b&1*4
		la, lb := uint64(N[a>>1]>>sa&15), uint64(N[b>>1]>>sb&15)
		c, sc, mn := a, sa, la
		if lb < la {
			c, sc, mn = b, sb, lb
		}
		if mn >= limitNib {
			return i
		}
		N[c>>1] += 1 << sc // no carry: the half holds mn < 15
	}
	return len(ends)
}

// hypercubeDraw draws one ball's oriented pair for hypercubeGraph on
// n = 2^dim bins, d2 = 2·dim.
func hypercubeDraw(s, n, d2 uint64, leftEdge bool) (uint64, uint64, uint64) {
	var u, t uint64
	s, u = below(s, n)
	s, t = below(s, d2)
	v := u ^ 1<<(t>>1)
	if t&1 != 0 {
		u, v = v, u
	}
	if leftEdge && v < u {
		u, v = v, u
	}
	return s, u, v
}

// latticeTables are a torus's per-axis constants: the stride side^i and
// the count n/side^(i+1) of the blocks above axis i.
type latticeTables struct {
	side   uint64
	stride []uint64
	blocks []uint64
}

func newLatticeTables(g graphgen.Lattice) latticeTables {
	lt := latticeTables{side: uint64(g.Side())}
	st := uint64(1)
	for range g.Dim() {
		lt.stride = append(lt.stride, st)
		lt.blocks = append(lt.blocks, uint64(g.Order())/(st*lt.side))
		st *= lt.side
	}
	return lt
}

// torusDraw draws one ball's oriented pair on a torus without a division:
// t uniform in [2·dim] names the axis i = t/2 and the direction, and u is
// drawn by its parts along axis i, a uniform in [side^i] (the coordinates
// below i), x uniform in [side] (coordinate i) and h uniform in
// [n/side^(i+1)] (those above), u = a + side^i·(x + side·h): uniform in
// [n]. v moves x by ±1 mod side. The pair is (u, v), or (v, u) when
// leftEdge and v < u: t's parity already orients the edge at random.
func torusDraw(s uint64, lt *latticeTables, leftEdge bool) (uint64, uint64, uint64) {
	var t, a, x, h uint64
	s, t = below(s, 2*uint64(len(lt.stride)))
	i := t >> 1
	st := lt.stride[i]
	s, a = below(s, st)
	s, x = below(s, lt.side)
	s, h = below(s, lt.blocks[i])
	u := a + st*(x+lt.side*h)
	// x' = x ± 1 mod side, written with conditional moves.
	y := x + 1
	if y == lt.side {
		y = 0
	}
	z := x - 1
	if x == 0 {
		z = lt.side - 1
	}
	if t&1 != 0 {
		y = z
	}
	v := u - st*x + st*y
	if leftEdge && v < u {
		u, v = v, u
	}
	return s, u, v
}

// implicitRule is the graph process's rule (graphical (1+β), batches) on
// the implicit graphs: each ball's pair drawn as implicitGraph's loops
// draw it (permDraw, torusDraw, hypercubeDraw), so that with β = 1 and
// one ball a batch the balls are Place's. Its bins are 32-bit, as every
// rule's: Graphical.Check and Config refuse more than 2^32 − 1 bins.
//
// It also runs the process, two-choice included, on a regular multigraph
// read from a file (multiLines), drawing from the file's lines as
// permDraw draws from the permutations (linesDraw): the file that gen
// writes of regular:degree=D,implicit, whose lines are the permutations'
// edges in their order, gives the trials of the implicit graph.
type implicitRule struct {
	graphRule
	kind  uint8 // implicitPerm, implicitCube, implicitTorus or implicitLines
	perm  graphgen.PermutationRegular
	d2    uint64        // 2·dim of a hypercube; Δ of implicitLines
	lt    latticeTables // of a torus
	lines []uint32      // of implicitLines
}

const (
	implicitPerm = iota
	implicitCube
	implicitTorus
	implicitLines
)

// multiLines returns the lines of g (graphgen.CSR.Lines) if g is a
// Δ-regular multigraph, Δ even, listed in n·Δ/2 lines, else nil. A
// uniform u in [n] and t in [Δ] then name a uniform line, u·Δ/2 + ⌊t/2⌋,
// and a uniform orientation, t's parity: a uniform edge in a uniform
// orientation, the law of drawing a uniform slot of the rows, from the
// draws that permDraw makes (linesDraw).
func multiLines(g *graphgen.CSR) []uint32 {
	D := g.RegularDegree()
	if !g.Multi() || D == 0 || D%2 != 0 || int64(len(g.Lines())) != int64(g.Order())*int64(D) {
		return nil
	}
	return g.Lines()
}

// linesDraw draws one ball's oriented pair from the lines of a Δ-regular
// multigraph (multiLines; d2 = Δ) as permDraw draws the permutation
// model's: u uniform in [n], t uniform in [Δ], the line u·Δ/2 + ⌊t/2⌋,
// reversed when t is odd, or with the smaller id first when leftEdge. On
// the lines "u π_j(u)" at u·Δ/2 + j (graphgen.PermutationRegular.CSR, and
// the file gen writes of it) the pairs are permDraw's.
func linesDraw(s, n, d2 uint64, lines []uint32, leftEdge bool) (uint64, uint64, uint64) {
	var u, t uint64
	s, u = below(s, n)
	s, t = below(s, d2)
	k := 2 * (u*(d2>>1) + t>>1)
	a, b := uint64(lines[k]), uint64(lines[k+1])
	if t&1 != 0 {
		a, b = b, a
	}
	if leftEdge && b < a {
		a, b = b, a
	}
	return s, a, b
}

func newImplicitRule(gr graphRule, g graphgen.Graph) implicitRule {
	ir := implicitRule{graphRule: gr}
	switch g := g.(type) {
	case graphgen.PermutationRegular:
		ir.kind, ir.perm = implicitPerm, g
	case graphgen.Lattice:
		if g.Side() == 2 {
			ir.kind, ir.d2 = implicitCube, uint64(2*g.Dim())
		} else {
			ir.kind, ir.lt = implicitTorus, newLatticeTables(g)
		}
	case *graphgen.CSR:
		ir.kind, ir.d2, ir.lines = implicitLines, uint64(g.RegularDegree()), multiLines(g)
	}
	return ir
}
