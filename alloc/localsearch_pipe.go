package alloc

import "unsafe"

// localSearchCSRPiped is localSearchCSR pipelined twice (docs/theory.md,
// notes 4 and 8): ball k + 2·ahead draws its start and its seed and
// prefetches the start's offsets; ball k + ahead reads them and prefetches
// the start's row of the adjacency and its load; ball k walks. A ball
// draws two values from r whatever its walk (see LocalSearch), so the
// draws stay in ball order, and the loads, the stats and the generator's
// state afterwards are those of the plain loop. Only the start is
// prefetched: the vertices a ball moves to are known only as it walks.
// Written by hand: a walk of unknown length per ball, with only its start
// prefetched, is a shape of one loop.
func localSearchCSRPiped[T uint8 | uint32](L []T, m int64, off []int, adj []uint32, delta int, left bool, r *Rand, st *Stats) int64 {
	const R = 2 * ahead // a power of two: slot k and slot k+R coincide
	var ring [R]lsSlot
	n := uint64(len(L))
	mu, f := leastCount(L)
	last := len(adj) - 1 // a row of an isolated last vertex starts at len(adj)
	s := r.state
	for j := range min(m, R) {
		e := &ring[j]
		e.s0 = s
		s, e.u = below(s, n)
		s, e.t = next(s)
		stage1(e, L, off, delta)
	}
	for j := range min(m, ahead) {
		stage2(&ring[j], L, off, adj, delta, last, mu)
	}
	var probes, most, moves, mostMoves int64
	for k := int64(0); k < m; k++ {
		e := &ring[k&(R-1)]
		c, lc, read, steps := walkCSR(L, off, adj, delta, mu, e.u, e.t, e.lo, e.hi, left)
		if full(L, lc) {
			r.state = e.s0
			st.Add(Stats{Probes: probes, MaxProbes: most, Moves: moves, MaxMoves: mostMoves})
			return k
		}
		L[c] = T(lc + 1)
		if lc == mu {
			if f--; f == 0 {
				mu, f = leastCount(L)
			}
		}
		probes += read
		most = max(most, read)
		moves += steps
		mostMoves = max(mostMoves, steps)
		if k+R < m {
			// The slot of ball k is free: draw ball k+R into it.
			e.s0 = s
			s, e.u = below(s, n)
			s, e.t = next(s)
			stage1(e, L, off, delta)
		}
		if k+ahead < m {
			stage2(&ring[(k+ahead)&(R-1)], L, off, adj, delta, last, mu)
		}
	}
	r.state = s
	st.Add(Stats{Probes: probes, MaxProbes: most, Moves: moves, MaxMoves: mostMoves})
	return m
}

// lsSlot is a ball of localSearchCSRPiped's ring.
type lsSlot struct {
	s0, u, t uint64 // the state before the ball's draws, its start and seed
	lo, hi   int    // the start's row
}

// stage1 sets ball e's row bounds where they need no memory (a
// delta-regular graph), and prefetches the start's load and, on other
// graphs, its offsets.
func stage1[T uint8 | uint32](e *lsSlot, L []T, off []int, delta int) {
	if delta > 0 {
		e.lo = int(e.u) * delta
		e.hi = e.lo + delta
		prefetch(unsafe.Pointer(&L[e.u]))
		return
	}
	prefetch2(unsafe.Pointer(&off[e.u]), unsafe.Pointer(&L[e.u]))
}

// stage2 reads ball e's row bounds from the offsets stage1 prefetched, and
// prefetches its row unless its start holds the least load mu now: such a
// ball stays without reading its row (see walkCSR).
func stage2[T uint8 | uint32](e *lsSlot, L []T, off []int, adj []uint32, delta, last int, mu uint64) {
	if delta == 0 {
		e.lo, e.hi = off[e.u], off[e.u+1]
	}
	if uint64(L[e.u]) != mu {
		prefetch(unsafe.Pointer(&adj[min(e.lo, last)]))
	}
}
