package alloc

import "unsafe"

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
