package alloc

import (
	"context"
	"fmt"
	"math"
	"runtime"
)

// Rank is Rank[d] for a real d ≥ 1, the characterisation of d-choice
// processes in Talwar and Wieder ("Balanced allocations: the weighted case",
// STOC 2007; "A simple proof of the heavily loaded case", 2014): order the
// bins by load, heaviest first, ties in a fixed order; each ball lands in
// one of the i heaviest bins with probability exactly (i/n)^d, i.e. in the
// bin of rank R = ⌈n·U^{1/d}⌉ (U uniform on (0, 1]), since
// P(R ≤ i) = P(U ≤ (i/n)^d). For a whole number d, R has the law of the
// largest of d uniform ranks, and Rank[d] is Greedy[d] with ties in the
// fixed order; a fractional d interpolates between the integers.
//
// Drawing R. For a whole number d, R is the largest of d uniform ranks in
// [1, n], exact and free of floating point. Otherwise
// R = ⌈n·exp(ln U · (1/d))⌉ with U = (k+1)·2^-53 for a uniform 53-bit k:
// exact up to the rounding of the library calls (relative error about 1e-16
// in U^{1/d}, so a ball sits on the wrong side of a rank boundary with
// probability of that order). The two calls cost about 30 ns a ball, most
// of Rank's time for a fractional d.
//
// The sorted structure. The bins are kept in an array sorted by load,
// heaviest first, with hi[l], the number of bins of load > l, as the start
// of the block of bins of load l. A ball of rank R hits the bin at position
// R−1, of load l, which must move to the block of load l+1: it swaps with the
// first bin of its block (position hi[l]), and hi[l] grows by one. The load
// l is read off the block boundaries, scanning up from the least load (a
// ball of Rank[d], d ≥ 1, favours light bins, and the loads span a few
// levels: ln ln n / ln d + O(1) for m = n and for any m when d ≥ 2 [BCSV06]),
// so a ball makes a single random read, order[p], and the loads are only
// written. Every ball costs O(1) (O(spread) in the scan): a draw, that read,
// a near-sequential access at hi[l] and three writes. The order
// inside a block is the one these swaps leave, a deterministic function of
// the trial's draws; the law of the sorted load vector, and so of every
// statistic of a trial, does not depend on the order inside blocks.
//
// State. The structure lives through a trial: Rank is a TrialRunner and Run
// and Config.Trial build it once per trial (4 bytes a bin beside the loads).
// Place, for callers with their own Bins, rebuilds it from the loads on
// every call, in O(n + max load) time and with an n-element allocation; the
// order inside blocks then restarts from bin order at each call, so batches
// of different sizes give different (equally distributed) loads. With
// Config.Trial the --every interval sets no such cost.
type Rank struct {
	D float64
}

var rankDescriptor = Descriptor{
	Name:     "rank",
	Synopsis: "Rank[d], real d >= 1: the ball lands among the i heaviest bins with probability (i/n)^d",
	Uses:     ParamRealD,
	Ties:     TiesLeft,
	Family:   FamilyRank,
	BinBytes: 8,
	levels:   always,
	meanField: func(_ *Descriptor, p Params) (MeanField, bool) {
		// Rank[d] for a whole d is Greedy[d] with fixed-order ties.
		if p.D != math.Trunc(p.D) {
			return MeanField{}, false
		}
		return MeanField{Family: FamilyGreedy, D: intD(p)}, true
	},
	FixedTies: true,
	build:     func(p Params) Rule { return Rank{D: p.D} },
}

// Name returns the command-line name, "rank".
func (Rank) Name() string { return rankDescriptor.Name }

// String returns "Rank[d]".
func (p Rank) String() string { return fmt.Sprintf("Rank[%g]", p.D) }

// maxRankBins keeps positions in uint32.
const maxRankBins = 1<<32 - 1

// Check requires n ≥ 1 and a finite D ≥ 1 (at most 2^20).
func (p Rank) Check(n int) error {
	if err := rankDescriptor.checkRun(n, 0, Params{D: p.D}); err != nil {
		return err
	}
	if n > maxRankBins {
		return fmt.Errorf("alloc: %s supports n <= %d, got n=%d", p.Name(), int64(maxRankBins), n)
	}
	return nil
}

// Place throws m balls, rebuilding the sorted structure from b's loads
// first (see Rank). A ball reads one bin: Probes is m.
func (p Rank) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	L := b.wide()
	st := newRankState(L)
	st.place(L, m, p.D, p.D == math.Trunc(p.D), r)
	b.balls += m
	runtime.KeepAlive(b) // L may be mapped memory, freed once b is unreachable
	return Stats{Probes: m, MaxProbes: min(m, 1)}
}

// RunTrial runs trial i of c on per-bin loads, the sorted structure kept
// for the whole trial.
func (p Rank) RunTrial(ctx context.Context, c Config, i int) (Result, error) {
	st := &rankState{order: identity(c.N), hi: []int{0}}
	whole := p.D == math.Trunc(p.D)
	return c.binsTrial(ctx, i, NewBins(c.N), func(b *Bins, m int64, r *Rand) Stats {
		st.place(b.wide(), m, p.D, whole, r)
		b.balls += m
		runtime.KeepAlive(b)
		return Stats{Probes: m, MaxProbes: min(m, 1)}
	})
}

// rankState is the sorted structure: order[p] is the bin at position p,
// heaviest first, and hi[l] the number of bins with load > l, so the bins of
// load l sit at positions [hi[l], hi[l−1]) (hi[−1] = n). hi has an entry for
// every load up to the maximum, and lo is the least load.
type rankState struct {
	order []uint32
	hi    []int
	lo    int
}

func identity(n int) []uint32 {
	o := make([]uint32, n)
	for i := range o {
		o[i] = uint32(i)
	}
	return o
}

// newRankState sorts the bins of L by load, heaviest first, ties by bin
// index (a counting sort: O(n + max load)).
func newRankState(L []uint32) *rankState {
	var mx uint32
	for _, l := range L {
		mx = max(mx, l)
	}
	// hi[l] = #bins with load > l: count each load, then suffix sums.
	hi := make([]int, int(mx)+1)
	for _, l := range L {
		if l > 0 {
			hi[l-1]++
		}
	}
	for l := len(hi) - 2; l >= 0; l-- {
		hi[l] += hi[l+1]
	}
	next := append([]int(nil), hi...) // next free position of each block
	order := make([]uint32, len(L))
	for c, l := range L {
		order[next[l]] = uint32(c)
		next[l]++
	}
	lo := 0
	for lo < len(hi) && hi[lo] == len(L) {
		lo++
	}
	return &rankState{order: order, hi: hi, lo: lo}
}

// place throws m balls of Rank[d] into the loads L, which st describes,
// drawing R as the largest of d uniform ranks if whole (d a whole number),
// else by ⌈n·exp(ln U / d)⌉.
// Written by hand: the bins in load order are the state, and one
// process reads them.
func (st *rankState) place(L []uint32, m int64, d float64, whole bool, r *Rand) {
	n := uint64(len(L))
	order, hi, lo := st.order, st.hi, st.lo
	s := r.state
	k := int(d)
	fn, invD := float64(n), 1/d
	for t := int64(0); t < m; t++ {
		// p = R−1, the position of the bin of rank R.
		var p uint64
		if whole {
			s, p = below(s, n)
			for j := 1; j < k; j++ {
				var x uint64
				s, x = below(s, n)
				p = max(p, x)
			}
		} else {
			var x uint64
			s, x = next(s)
			u := float64(x>>11+1) * 0x1p-53
			p = rankPos(u, invD, fn, n)
		}
		// The block holding position p: the least l with hi[l] <= p
		// (hi is non-increasing and hi[max] = 0).
		l := lo
		for int(p) < hi[l] {
			l++
		}
		c := order[p]
		q := hi[l]
		order[p], order[q] = order[q], c
		q++
		hi[l] = q
		L[c] = uint32(l) + 1
		if l == lo && q == len(order) {
			lo++ // every bin is now heavier than l
		}
		if l+1 == len(hi) {
			// c is the first bin to reach load l+1: its block starts
			// at 0. Rare (once per new maximum), amortised O(1).
			hi = append(hi, 0)
		}
	}
	r.state = s
	st.order, st.hi, st.lo = order, hi, lo
}

// rankPos returns R−1 for R = ⌈n·u^{1/d}⌉, clamped to [1, n], given
// invD = 1/d (a multiplication: a division would lengthen the chain of
// dependent operations of every ball by its latency).
func rankPos(u, invD, fn float64, n uint64) uint64 {
	R := math.Ceil(fn * math.Exp(math.Log(u)*invD))
	p := uint64(max(R, 1)) - 1
	return min(p, n-1)
}
