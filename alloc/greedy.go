package alloc

import (
	"fmt"
	"unsafe"
)

// Greedy is Greedy[d], the d-choice process of Azar, Broder, Karlin and
// Upfal: each ball draws D bins uniformly and independently (with
// replacement) and goes to a least loaded one. For m = n the maximum load is
// ln ln n / ln d + O(1) w.h.p. [ABKU99]; for any m it is
// m/n + ln ln n / ln d ± O(1) [BCSV06].
//
// Ties: the ball goes to the first drawn of the least loaded candidates.
// Because the D draws are independent and identically distributed, their
// order is exchangeable, so "first drawn wins" gives exactly the law of
// "uniformly random among the tied candidates": TiesRandom and TiesLeft run
// the same loop and give the same loads for the same seed.
type Greedy struct {
	D    int
	Ties Ties
}

var greedyDescriptor = Descriptor{
	Name:      "greedy",
	Synopsis:  "Greedy[d]: d uniform bins, the least loaded wins",
	Uses:      ParamD,
	Family:    FamilyGreedy,
	BinBytes:  1,
	levels:    always,
	meanField: ownField,
	build:     func(p Params) Rule { return Greedy{D: intD(p), Ties: p.Ties} },
}

// Name returns the command-line name, "greedy".
func (Greedy) Name() string { return greedyDescriptor.Name }

// String returns "Greedy[d]".
func (p Greedy) String() string { return fmt.Sprintf("Greedy[%d]", p.D) }

// Check requires n ≥ 1 and 1 ≤ D ≤ 2^20.
func (p Greedy) Check(n int) error { return greedyDescriptor.checkRun(n, p.D, Params{}) }

// Place throws m balls, D probes each.
func (p Greedy) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	n := uint64(b.N())
	switch {
	case p.D == 1:
		OneChoice{}.Place(b, m, r)
	case p.D == 2:
		b.place(m,
			func(L []uint8, m int64) int64 { return greedy2(L, m, r) },
			func(L []uint32, m int64) int64 { return greedy2(L, m, r) })
	case p.D <= maxPipeD && choosePipelined(b.N()):
		start, size := make([]uint64, p.D), make([]uint64, p.D)
		for j := range size {
			size[j] = n
		}
		b.place(m,
			func(L []uint8, m int64) int64 { return choose(L, m, start, size, r) },
			func(L []uint32, m int64) int64 { return choose(L, m, start, size, r) })
	default:
		b.place(m,
			func(L []uint8, m int64) int64 { return greedyD(L, m, p.D, r) },
			func(L []uint32, m int64) int64 { return greedyD(L, m, p.D, r) })
	}
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

// greedy2 is Greedy[2]: two with a = b = 0 and na = nb = n, written out
// because the two offsets cost 10% at n = 2^12 and 2^20 (measured).
func greedy2[T uint8 | uint32](L []T, m int64, r *Rand) int64 {
	if n := uint64(len(L)); pipelined(len(L), unsafe.Sizeof(L[0])) {
		return twoPiped(L, m, r, 0, n, 0, n)
	}
	return greedy2Plain(L, m, r)
}

// maxPipeD is the most choices choose pipelines (its ring holds maxPipeD
// bins a ball); beyond it a ball's own d independent reads keep the memory
// busy.
const maxPipeD = 8

// choosePipelined reports whether choose pipelines on n bins: from 2^24
// bins whatever the load size, its ring and its d prefetches a ball costing
// more than those of two (measured, Greedy[3], ns/ball plain/pipelined:
// 5.4/11.4 at n = 2^20, 7.6/12.6 at 2^23 and 26/12 at 2^24 on one-byte
// loads; 6.9/11.4 at 2^20 and 42/24 at 2^23 on four-byte loads).
func choosePipelined(n int) bool { return pipelined(n, 1) }

// choosePiped is choose for large n: each ball's d ≤ maxPipeD bins are
// drawn ahead balls early into a ring slot and prefetched (drawPrefetch).
// Written by hand: its slot holds a loop of d candidates, a shape of one
// loop, which the templates of two candidates do not cover.
func choosePiped[T uint8 | uint32](L []T, m int64, r *Rand, start, size []uint64) int64 {
	var ring [ahead]struct {
		s uint64
		c [maxPipeD]uint64
	}
	d := len(size)
	s := r.state
	for k := range min(m, ahead) {
		e := &ring[k]
		e.s = s
		s = drawPrefetch(L, s, &e.c, start, size)
	}
	for k := int64(0); k < m; k++ {
		e := &ring[k&(ahead-1)]
		s0 := e.s
		c := e.c[0]
		mn := uint64(L[c])
		for j := 1; j < d; j++ {
			x := e.c[j&(maxPipeD-1)]
			if lx := uint64(L[x]); lx < mn {
				c, mn = x, lx
			}
		}
		if full(L, mn) {
			r.state = s0
			return k
		}
		L[c] = T(mn + 1)
		// The slot is free: draw ball k+ahead into it.
		if k+ahead < m {
			e.s = s
			s = drawPrefetch(L, s, &e.c, start, size)
		}
	}
	r.state = s
	return m
}

// drawPrefetch draws one ball's bins into c (see choose), prefetches their
// loads, and returns the advanced state.
func drawPrefetch[T uint8 | uint32](L []T, s uint64, c *[maxPipeD]uint64, start, size []uint64) uint64 {
	for j := range size {
		var x uint64
		s, x = below(s, size[j])
		c[j&(maxPipeD-1)] = x + start[j]
	}
	// Three bins a call (see prefetch3).
	j := 0
	for ; j+3 <= len(size); j += 3 {
		prefetch3(unsafe.Pointer(&L[c[j&(maxPipeD-1)]]), unsafe.Pointer(&L[c[(j+1)&(maxPipeD-1)]]), unsafe.Pointer(&L[c[(j+2)&(maxPipeD-1)]]))
	}
	switch len(size) - j {
	case 2:
		prefetch2(unsafe.Pointer(&L[c[j&(maxPipeD-1)]]), unsafe.Pointer(&L[c[(j+1)&(maxPipeD-1)]]))
	case 1:
		prefetch(unsafe.Pointer(&L[c[j&(maxPipeD-1)]]))
	}
	return s
}

// rule returns Greedy[d]'s rule for the batched driver (see rule).
func (p Greedy) rule(int) rule {
	if p.D == 1 {
		return oneChoiceRule{} // Place runs OneChoice's loop for d = 1
	}
	return greedyRule{d: p.D}
}

// greedyRule is Greedy[d] as a rule: d uniform bins drawn in order, as
// every Greedy loop draws them (greedy2, choose with one range, greedyD),
// the first drawn of the least loaded winning.
type greedyRule struct{ d int }
