package alloc

import "unsafe"

// graphEdgePiped and regularEdgePiped, pipelined twice, are generated from
// one template with twoEdgePiped (gen_loops.go, zloops_pipe2.go).
// graphEdgePhased is written here: the only loop of its three phases.

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

// halfEdgeEnds returns the ends of the half-edge h of u: (u, adj[h]), the
// smaller first if leftEdge.
func halfEdgeEnds(adj []uint32, u, h uint64, leftEdge bool) (uint64, uint64) {
	v := uint64(adj[h])
	if leftEdge && v < u {
		u, v = v, u
	}
	return u, v
}
