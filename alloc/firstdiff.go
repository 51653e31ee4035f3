package alloc

import "fmt"

// FirstDiff is FirstDiff[d] of Augustine, Moses, Redlich and Upfal
// ("Balanced allocation: patience is not a virtue", SODA 2016; SIAM J.
// Comput. 2022, arXiv:1602.08298): each ball probes uniform bins one at a
// time (independently, with replacement) until it finds a bin whose load
// differs from the first probe's, or until it has made Cap probes, and goes
// to the least loaded bin probed. The paper shows about d probes per ball
// on average, in the standard (m = n) and the heavily loaded settings, and a
// maximum load close to Left[d]'s ln ln n / (d ln φ_d) + O(1).
//
// How d enters. The probe rule itself has no d; d enters only through the
// probe cap. The mechanism, seen in the fluid limit: a ball raises a bin
// from load i−1 to i only if the first probe holds i−1 and the first
// different load is higher (probability about s_{i−1}·s_i), or the other way
// round (s_i·s_{i−1} again), or all Cap probes hold i−1 (about
// s_{i−1}^Cap). Near the top the product terms only amplify what the last
// term seeds, so the tail falls like s_i ≈ s_{i−1}^Cap, as for Greedy[Cap],
// while a ball stops at its second probe as soon as two loads differ, which
// keeps the average number of probes small (about 1 + 1.15·log2 Cap at
// m = n) although single balls may probe Cap bins. (The copies of the paper
// we could consult give the rule and the claims above, not the value of the
// cap; DefaultFirstDiffCap documents our default and what it costs.)
//
// Cap = 0 means DefaultFirstDiffCap(D). Cap = 1 is OneChoice.
//
// Ties: when the different load is lower the ball goes to that last probe;
// otherwise every earlier probe is tied at the first probe's load and the
// ball goes to the first probe. The probes are independent and identically
// distributed and the stopping rule reads only loads, so which of the tied
// probes is taken does not change the law of the loads: the first probe has
// the law of a uniformly random tied one, and TiesRandom and TiesLeft run the
// same loop.
type FirstDiff struct {
	D    int // the d of FirstDiff[d]: sets the default cap
	Cap  int // most probes per ball; 0 means DefaultFirstDiffCap(D)
	Ties Ties
}

// DefaultFirstDiffCap returns the probe cap FirstDiff[d] uses when Cap is 0:
// 2^d, bounded by 2^20.
//
// Why 2^d. The top of the load distribution falls like that of Greedy[Cap]
// (see FirstDiff), and Left[d]'s like that of Greedy[φ_d^d], with
// φ_d^d = 2.62, 6.22, 13.8 for d = 2, 3, 4 (tending to 2^d): a cap of 2^d is
// the power of two that gives FirstDiff[d] the tail of Left[d], the paper's
// claim about the maximum load (measured at n = 2^16, m = n and m = 100n:
// a gap at or below Left[d]'s, below Greedy[d]'s). What it costs, measured
// at n = m = 2^16 (40 trials): 2.99, 4.12 and 5.37 probes per ball on
// average for d = 2, 3 and 4, about one probe more than the paper's d
// (2.74, 3.68 and 4.82 over m = 100n balls). The mean grows like
// 1 + 1.15·log2(Cap) at m = n (most of it from the first balls, when almost
// every bin is empty and a ball probes up to the cap): Cap = 2^(d−1) would
// cost about d probes, but for d = 2 that cap is 2 and FirstDiff[2] is then
// exactly Greedy[2]. Set Cap to choose another trade-off; `graphalloc run`
// reports the mean and maximum probes per ball.
func DefaultFirstDiffCap(d int) int {
	if d < 1 {
		return 1
	}
	if d >= 20 {
		return maxChoices
	}
	return 1 << d
}

var firstDiffDescriptor = Descriptor{
	Name:     "firstdiff",
	Synopsis: "FirstDiff[d]: probe uniform bins until a load differs from the first probe's (at most --cap probes), the least loaded wins",
	Uses:     ParamD | ParamCap,
	BinBytes: 1,
	levels:   always,
	build:    func(p Params) Rule { return FirstDiff{D: intD(p), Cap: p.Cap, Ties: p.Ties} },
}

// Name returns the command-line name, "firstdiff".
func (FirstDiff) Name() string { return firstDiffDescriptor.Name }

// String returns "FirstDiff[d]".
func (p FirstDiff) String() string { return fmt.Sprintf("FirstDiff[%d]", p.D) }

// cap returns the effective probe cap.
func (p FirstDiff) cap() int {
	if p.Cap == 0 {
		return DefaultFirstDiffCap(p.D)
	}
	return p.Cap
}

// Check requires n ≥ 1, 1 ≤ D ≤ 2^20, and 1 ≤ Cap ≤ 2^20 (or Cap = 0).
func (p FirstDiff) Check(n int) error {
	return firstDiffDescriptor.checkRun(n, p.D, Params{Cap: p.Cap})
}

// Place throws m balls; Stats counts every probe and the most probes any
// one ball made.
func (p FirstDiff) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	cap := int64(p.cap())
	var probes, most int64
	add := func(k, pk, mk int64) int64 { // the balls placed, after adding up their probes
		probes += pk
		most = max(most, mk)
		return k
	}
	b.place(m,
		func(L []uint8, m int64) int64 { return add(firstDiff(L, m, cap, r)) },
		func(L []uint32, m int64) int64 { return add(firstDiff(L, m, cap, r)) })
	return Stats{Probes: probes, MaxProbes: most}
}

// rule returns FirstDiff[d]'s rule for the batched driver (see rule).
func (p FirstDiff) rule(int) rule { return firstDiffRule{cap: int64(p.cap())} }

// firstDiffRule is FirstDiff[d] as a rule: the probes of firstDiff.
type firstDiffRule struct{ cap int64 }
