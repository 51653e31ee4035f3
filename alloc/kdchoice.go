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

var _ Process = KD{}

var kdDescriptor = Descriptor{
	Name:     "kd-choice",
	Synopsis: "(k, d)-choice: each round draws d uniform bins and puts k balls in the k least loaded draws",
	Uses:     ParamD | ParamK,
	Family:   FamilyKD,
	BinBytes: 4,
	build:    func(p Params) Rule { return KD{D: intD(p), K: p.K} },
}

// Name returns the command-line name, "kd-choice".
func (KD) Name() string { return kdDescriptor.Name }

// String returns "(k, d)-choice[K, D]".
func (p KD) String() string { return fmt.Sprintf("(k, d)-choice[%d, %d]", p.K, p.D) }

// Check requires n ≥ 1 and 1 ≤ K ≤ D ≤ 2^20.
func (p KD) Check(n int) error {
	if p.D < 1 || p.D > maxChoices {
		return fmt.Errorf("alloc: %s needs 1 <= d <= %d, got d=%d", p.Name(), maxChoices, p.D)
	}
	if p.K < 1 || p.K > p.D {
		return fmt.Errorf("alloc: %s needs 1 <= k <= d, got k=%d d=%d", p.Name(), p.K, p.D)
	}
	return checkBins(p.Name(), n)
}

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

// run is tuned: the generator in a local, the round sorted on the loads as
// drawn (nothing raises a bin while a round is sorted, so they are the
// loads of the plain loop's comparisons), and for large n (pipelined) the
// draws made `ahead` draws early into a ring, their bins prefetched: the
// draws do not depend on the loads, and the call knows how many it makes.
// The same draws and the same bins as the plain loop.
func (st *kdRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	n := uint64(len(L))
	d, k, slot, slotL, next := st.p.D, st.p.K, st.slot, st.slotL[:len(st.slot)], st.next
	// The draws of this call: D for every round its balls open.
	var draws int64
	if rest := m - int64(k-next); rest > 0 {
		draws = (rest + int64(k) - 1) / int64(k) * int64(d) // once per call
	}
	pf := pipelined(len(L), 4)
	var ring [ahead]uint32
	var drawn, used int64
	s := r.state
	if pf {
		for ; drawn < min(draws, ahead); drawn++ {
			var x uint64
			s, x = below(s, n)
			ring[drawn] = uint32(x)
			prefetch(unsafe.Pointer(&L[x]))
		}
	}
	var st2 Stats
	for t := int64(0); t < m; t++ {
		if next == k {
			// A new round: D draws, sorted by load by insertion (only
			// the K least need be in order; D is small).
			for j := range d {
				var x uint32
				if pf {
					e := used & (ahead - 1)
					x = ring[e]
					used++
					if drawn < draws {
						var y uint64
						s, y = below(s, n)
						ring[e] = uint32(y)
						prefetch(unsafe.Pointer(&L[y]))
						drawn++
					}
				} else {
					var y uint64
					s, y = below(s, n)
					x = uint32(y)
				}
				lx := L[x]
				i := j
				for i > 0 && slotL[i-1] > lx {
					slot[i], slotL[i] = slot[i-1], slotL[i-1]
					i--
				}
				slot[i], slotL[i] = x, lx
			}
			next = 0
			st2.Probes += int64(d)
			st2.MaxProbes = int64(d)
		}
		c := uint64(slot[next])
		put(L, out, t, c, L[c])
		next++
	}
	st.next = next
	r.state = s
	return st2
}
