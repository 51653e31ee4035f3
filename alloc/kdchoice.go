package alloc

import (
	"fmt"
	"unsafe"
)

// KD is the (k, d)-choice process of Park ("A generalization of multiple
// choice balls-into-bins: tight bounds", arXiv:1201.3310): balls come in
// rounds of K;
// each round draws D ≥ K bins uniformly and independently (with
// replacement) and places its K balls into the K least loaded of the D
// draws, by the loads before the round. With multiplicity: the D draws are
// D slots, a bin drawn twice fills two slots, and if both are among the K
// least loaded it takes two balls in the round. K = 1 is Greedy[d]; K = D is
// one-choice (every draw takes a ball).
//
// Bound: Park gives tight bounds on the maximum load for every
// 1 ≤ K < D at m = n, and for m > n when D ≥ 2K; graphalloc states only
// the case K = 1, Greedy[d]'s ln ln n / ln d + O(1) [ABKU99] (see
// docs/theory.md).
//
// Ties: among equally loaded slots the earlier draws are filled first. The
// D draws are independent and identically distributed, so their order is
// exchangeable and this has the law of random ties (as for Greedy).
//
// A round that a trial's series sample (Config.Every) or the m of a call
// ends in the middle of: Config.Trial (and Run) place a trial's balls
// through one rule (see rule), which keeps the round from call to call, so
// a trial is the same process whatever its samples; the last round of a
// trial whose m is not a multiple of K places only the balls left, into
// the least loaded of its slots. Place, for callers with their own Bins,
// starts a new round at every call. Probes: D per round, counted when the
// round is drawn.
//
// In batches (Config.Batch, docs/theory.md, section Batches) the rounds
// are those of the sequential process, K consecutive balls of the trial
// from its first ball, whatever the batches. A round is drawn and sorted
// when its first ball comes, by the loads at the start of that ball's
// batch, and its K balls fill its K least loaded slots in order; a round
// that a batch end cuts keeps its slots, its later balls going to them in
// the next batch. Every ball is added at the end of its own batch. When K
// divides B every batch holds B/K whole rounds, each sorted by the loads
// at the start of the batch. B = 1 is the sequential process.
type KD struct {
	D int
	K int
}

var kdDescriptor = Descriptor{
	Name:     "kd-choice",
	Synopsis: "(k, d)-choice: each round draws d uniform bins and puts k balls in the k least loaded draws",
	Uses:     ParamD | ParamK,
	Family:   FamilyKD,
	BinBytes: 1,
	build:    func(p Params) Rule { return KD{D: intD(p), K: p.K} },
}

// Name returns the command-line name, "kd-choice".
func (KD) Name() string { return kdDescriptor.Name }

// String returns "(k, d)-choice[K, D]".
func (p KD) String() string { return fmt.Sprintf("(k, d)-choice[%d, %d]", p.K, p.D) }

// Check requires n ≥ 1 and 1 ≤ K ≤ D ≤ 2^20.
func (p KD) Check(n int) error { return kdDescriptor.checkRun(n, p.D, Params{K: p.K}) }

// Place throws m balls, starting a new round (see KD).
func (p KD) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return placeRule(b, p.rule(b.N()), m, r)
}

func (p KD) rule(int) rule {
	return &kdRule{p: p, slot: make([]uint32, p.D), slotL: make([]uint32, p.D), next: p.K}
}

// trialRule: the round lives through the trial.
func (KD) trialRule() {}

// kdRule is the round under way and the rule: slot holds its D draws sorted
// by load before the round (stable, so earlier draws first among equals),
// slotL their loads then, and next is the slot of the round's next ball;
// next = K when no round is open.
type kdRule struct {
	p     KD
	slot  []uint32
	slotL []uint32
	next  int
}

// kdPlace places m balls of st on L, or in a batch (out != nil, four-byte
// loads) records their bins in out, and returns the balls placed and what
// they cost. It is tuned: the generator in a local, the round sorted on the
// loads as drawn (nothing raises a bin while a round is sorted, so they are
// the loads of the plain loop's comparisons), and for large n (pipelined)
// the draws made `ahead` draws early into a ring, their bins prefetched:
// the draws do not depend on the loads, and the call knows how many it
// makes. The same draws and the same bins as the plain loop. On one-byte
// loads it stops before a ball that would raise a load to 255 (see full),
// with r and the round as before that ball: a round's first ball leaves
// it unopened and r before its draws, a later one leaves r after them (in
// the ring, each entry keeps the generator as it was before its draw).
// Written by hand: a round of k balls sorted on d draws, a state no
// template of one ball holds.
func kdPlace[T uint8 | uint32](st *kdRule, L []T, m int64, out []uint32, r *Rand) (int64, Stats) {
	n := uint64(len(L))
	compact := unsafe.Sizeof(L[0]) == 1
	d, k, slot, slotL, next := st.p.D, st.p.K, st.slot, st.slotL[:len(st.slot)], st.next
	// The draws of this call: D for every round its balls open.
	var draws int64
	if rest := m - int64(k-next); rest > 0 {
		draws = (rest + int64(k) - 1) / int64(k) * int64(d) // once per call
	}
	pf := pipelined(len(L), unsafe.Sizeof(L[0]))
	var ring [ahead]struct {
		s uint64 // compact: the generator before the draw
		x uint32
	}
	var drawn, used int64
	s := r.state
	if pf {
		for ; drawn < min(draws, ahead); drawn++ {
			var x uint64
			if compact {
				ring[drawn].s = s
			}
			s, x = below(s, n)
			ring[drawn].x = uint32(x)
			prefetch(unsafe.Pointer(&L[x]))
		}
	}
	var probes int64
	t := int64(0)
	for ; t < m; t++ {
		var s0 uint64 // compact: the generator before the round's draws
		if next == k {
			if compact {
				s0 = kdAt(s, pf && used < drawn, ring[used&(ahead-1)].s)
			}
			// A new round: D draws, sorted by load by insertion (only
			// the K least need be in order; D is small).
			for j := range d {
				var x uint32
				if pf {
					e := &ring[used&(ahead-1)]
					x = e.x
					used++
					if drawn < draws {
						var y uint64
						if compact {
							e.s = s
						}
						s, y = below(s, n)
						e.x = uint32(y)
						prefetch(unsafe.Pointer(&L[y]))
						drawn++
					}
				} else {
					var y uint64
					s, y = below(s, n)
					x = uint32(y)
				}
				lx := uint32(L[x])
				i := j
				for i > 0 && slotL[i-1] > lx {
					slot[i], slotL[i] = slot[i-1], slotL[i-1]
					i--
				}
				slot[i], slotL[i] = x, lx
			}
			next = 0
			probes += int64(d)
		}
		c := uint64(slot[next])
		l := uint64(L[c])
		if full(L, l) {
			if next == 0 { // the round's first ball: unopen it
				next, probes = k, probes-int64(d)
				r.state = s0
			} else {
				r.state = kdAt(s, pf && used < drawn, ring[used&(ahead-1)].s)
			}
			break
		}
		if out == nil {
			L[c] = T(l + 1)
		} else {
			out[t] = uint32(c)
		}
		next++
	}
	st.next = next
	if t == m {
		r.state = s
	}
	var st2 Stats
	if probes > 0 {
		st2 = Stats{Probes: probes, MaxProbes: int64(d)}
	}
	return t, st2
}

// kdAt is the generator after the draws kdPlace has used, which the plain
// loop would hold: s, or when drawn ahead (inRing) the state before the
// next draw in the ring, ringS.
func kdAt(s uint64, inRing bool, ringS uint64) uint64 {
	if inRing {
		return ringS
	}
	return s
}
