package alloc

import "unsafe"

// graphEdgePiped is graphEdge pipelined twice (docs/theory.md, note 8): ball
// k + 2·ahead draws its edge (and its orientation coin) and prefetches the
// edge's slot in e; ball k + ahead reads the slot, now cached, and
// prefetches both ends' loads; ball k is placed. The draws happen in ball
// order, one ball at a time, exactly as in graphEdge, and placement too, so
// the loads and the generator's state afterwards are those of graphEdge.
// On one-byte loads each slot also keeps the generator as it was before its
// ball's draw, to leave r there if that ball would overflow a byte.
func graphEdgePiped[T uint8 | uint32](L []T, m int64, e []uint32, random bool, r *Rand) int64 {
	const R = 2 * ahead // a power of two: slot k and slot k+R coincide
	compact := unsafe.Sizeof(L[0]) == 1
	var ring [R]struct {
		x        uint64 // the edge, until stage two
		s, coins uint64 // compact: the generator before the draw
		nc       int
		u, v     uint32 // its ends, oriented
		flip     bool
	}
	ne := uint64(len(e) / 2)
	g := edgeGen{s: r.state, coins: r.coins, nc: r.ncoins}
	for j := range min(m, R) {
		slot := &ring[j&(R-1)]
		if compact {
			slot.s, slot.coins, slot.nc = g.s, g.coins, g.nc
		}
		slot.x, slot.flip = g.draw(ne, random)
		prefetch(unsafe.Pointer(&e[2*slot.x]))
	}
	for j := range min(m, ahead) {
		slot := &ring[j&(R-1)]
		slot.u, slot.v = edgeEnds(e, slot.x, slot.flip)
		prefetch2(unsafe.Pointer(&L[slot.u]), unsafe.Pointer(&L[slot.v]))
	}
	// The hot loop keeps the generator in locals, with edgeGen.draw
	// written out.
	s, coins, nc := g.s, g.coins, g.nc
	for k := int64(0); k < m; k++ {
		slot := &ring[k&(R-1)]
		u, v := slot.u, slot.v
		lu, lv := uint64(L[u]), uint64(L[v])
		c, mn := u, lu
		if lv < lu {
			c, mn = v, lv
		}
		if full(L, mn) {
			r.state, r.coins, r.ncoins = slot.s, slot.coins, slot.nc
			return k
		}
		L[c] = T(mn + 1)
		if k+R < m {
			// The slot of ball k is free: draw ball k+R into it.
			if compact {
				slot.s, slot.coins, slot.nc = s, coins, nc
			}
			var x uint64
			s, x = below(s, ne)
			flip := false
			if random {
				if nc == 0 {
					s, coins = next(s)
					nc = 64
				}
				flip = coins&1 != 0
				coins >>= 1
				nc--
			}
			slot.x, slot.flip = x, flip
			// Ball k+ahead's ends too, in the same call.
			nx := &ring[(k+ahead)&(R-1)]
			nx.u, nx.v = edgeEnds(e, nx.x, nx.flip)
			prefetch3(unsafe.Pointer(&e[2*x]), unsafe.Pointer(&L[nx.u]), unsafe.Pointer(&L[nx.v]))
		} else if k+ahead < m {
			nx := &ring[(k+ahead)&(R-1)]
			nx.u, nx.v = edgeEnds(e, nx.x, nx.flip)
			prefetch2(unsafe.Pointer(&L[nx.u]), unsafe.Pointer(&L[nx.v]))
		}
	}
	r.state, r.coins, r.ncoins = s, coins, nc
	return m
}

// edgePhasedMin is the size of an edge array, in bytes, from which
// graphEdge runs graphEdgePhased. A variable so that the tests can run it
// on small arrays.
var edgePhasedMin uintptr = edgePhasedMinBytes

const edgePhasedMinBytes = 1 << 32

// graphEdgePhased is graphEdge in three phases, edgePhase balls at a time,
// as permRegularPhased: the draws (edges and orientation coins), then the
// edges' ends read from e with the slots prefetched ahead, then the
// placements (placePairs); the same balls in the same order. For an edge array beyond the TLB's reach each phase is a loop of
// independent steps, which overlaps the misses better than the two-stage
// ring of graphEdgePiped: 126–137 ns a ball against 142–166 with 10^9
// edges on 10^9 vertices (BENCHMARKS.md).
func graphEdgePhased[T uint8 | uint32](L []T, m int64, e []uint32, random bool, r *Rand) int64 {
	var buf [edgePhase]struct {
		x, s, coins uint64 // the edge; the generator before its draw
		nc          int
		flip        bool
	}
	var buf2 [edgePhase][2]uint64 // its ends, oriented
	ne := uint64(len(e) / 2)
	s, coins, nc := r.state, r.coins, r.ncoins
	for done := int64(0); done < m; {
		k := int(min(m-done, edgePhase))
		ph := buf[:k]
		for i := range ph {
			p := &ph[i]
			p.s, p.coins, p.nc = s, coins, nc
			s, p.x = below(s, ne)
			p.flip = false
			if random {
				if nc == 0 {
					s, coins = next(s)
					nc = 64
				}
				p.flip = coins&1 != 0
				coins >>= 1
				nc--
			}
		}
		for i := range min(k, ahead) {
			prefetch(unsafe.Pointer(&e[2*ph[i].x]))
		}
		ends := buf2[:k]
		for i := range ph {
			if j := i + ahead; j < k {
				prefetch(unsafe.Pointer(&e[2*ph[j].x]))
			}
			u, v := edgeEnds(e, ph[i].x, ph[i].flip)
			ends[i] = [2]uint64{uint64(u), uint64(v)}
		}
		if i := placePairs(L, ends); i < k {
			r.state, r.coins, r.ncoins = ph[i].s, ph[i].coins, ph[i].nc
			return done + int64(i)
		}
		done += int64(k)
	}
	r.state, r.coins, r.ncoins = s, coins, nc
	return m
}

// edgePhase is the number of balls graphEdgePhased draws at a time.
const edgePhase = 2048

// edgeGen is the generator state of graphEdge, kept in a local struct.
type edgeGen struct {
	s, coins uint64
	nc       int
}

// draw draws one ball's edge and, with random ties, its orientation coin,
// in graphEdge's order.
func (g *edgeGen) draw(ne uint64, random bool) (x uint64, flip bool) {
	g.s, x = below(g.s, ne)
	if random {
		if g.nc == 0 {
			g.s, g.coins = next(g.s)
			g.nc = 64
		}
		flip = g.coins&1 != 0
		g.coins >>= 1
		g.nc--
	}
	return x, flip
}

// edgeEnds returns the ends of edge x of e, swapped if flip.
func edgeEnds(e []uint32, x uint64, flip bool) (uint32, uint32) {
	u, v := e[2*x], e[2*x+1]
	if flip {
		u, v = v, u
	}
	return u, v
}

// regularEdgePiped is regularEdge pipelined twice, as graphEdgePiped: ball
// k + 2·ahead draws its half-edge and prefetches its slot of adj; ball
// k + ahead reads the slot and prefetches both ends' loads; ball k is
// placed. The same balls in the same order as regularEdge.
func regularEdgePiped[T uint8 | uint32](L []T, m int64, adj []uint32, D uint64, leftEdge bool, r *Rand) int64 {
	const R = 2 * ahead // a power of two: slot k and slot k+R coincide
	var ring [R]struct {
		s    uint64 // the generator before the ball's draw
		u, h uint64 // the half-edge h = u·D + j
		a, b uint64 // its ends, in the order of the tie rule
	}
	n := uint64(len(L))
	s := r.state
	for j := range min(m, R) {
		slot := &ring[j&(R-1)]
		slot.s = s
		var i uint64
		s, slot.u = below(s, n)
		s, i = below(s, D)
		slot.h = slot.u*D + i
		prefetch(unsafe.Pointer(&adj[slot.h]))
	}
	for j := range min(m, ahead) {
		slot := &ring[j&(R-1)]
		slot.a, slot.b = halfEdgeEnds(adj, slot.u, slot.h, leftEdge)
		prefetch2(unsafe.Pointer(&L[slot.a]), unsafe.Pointer(&L[slot.b]))
	}
	for k := int64(0); k < m; k++ {
		slot := &ring[k&(R-1)]
		a, b := slot.a, slot.b
		la, lb := uint64(L[a]), uint64(L[b])
		c, mn := a, la
		if lb < la {
			c, mn = b, lb
		}
		if full(L, mn) {
			r.state = slot.s
			return k
		}
		L[c] = T(mn + 1)
		if k+R < m {
			// The slot of ball k is free: draw ball k+R into it.
			slot.s = s
			var u, i uint64
			s, u = below(s, n)
			s, i = below(s, D)
			slot.u, slot.h = u, u*D+i
			nx := &ring[(k+ahead)&(R-1)]
			nx.a, nx.b = halfEdgeEnds(adj, nx.u, nx.h, leftEdge)
			prefetch3(unsafe.Pointer(&adj[slot.h]), unsafe.Pointer(&L[nx.a]), unsafe.Pointer(&L[nx.b]))
		} else if k+ahead < m {
			nx := &ring[(k+ahead)&(R-1)]
			nx.a, nx.b = halfEdgeEnds(adj, nx.u, nx.h, leftEdge)
			prefetch2(unsafe.Pointer(&L[nx.a]), unsafe.Pointer(&L[nx.b]))
		}
	}
	r.state = s
	return m
}

// halfEdgeEnds returns the ends of the half-edge h of u: (u, adj[h]), the
// smaller first if leftEdge.
func halfEdgeEnds(adj []uint32, u, h uint64, leftEdge bool) (uint64, uint64) {
	v := uint64(adj[h])
	if leftEdge && v < u {
		u, v = v, u
	}
	return u, v
}
