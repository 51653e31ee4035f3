package alloc

import (
	"fmt"
	"math"
)

// OnePlusBeta is the (1+β)-choice process of Peres, Talwar and Wieder: each
// ball, independently, takes a Greedy[2] step with probability Beta (two
// uniform bins, the less loaded wins) and a OneChoice step otherwise. For
// every m its gap is Θ(log n / β) w.h.p. [PTW15], and its fluid limit is
// ds_i/dt = (1−β)(s_{i−1} − s_i) + β(s_{i−1}² − s_i²), solved by
// analysis.Tails (MeanField family FamilyOnePlusBeta).
//
// Randomness: each ball draws a 64-bit coin u and two uniform bins i and j,
// in that order, and takes the Greedy[2] step iff u < ⌊β·2^64⌋ (always when
// β = 1), so a step is Greedy[2] with probability β to within 2^-64. A
// OneChoice step goes to i and ignores j: drawing j every time keeps the
// loop free of an unpredictable branch (docs/theory.md, note 3) at the cost of one
// draw.
//
// Ties: the first drawn of two equally loaded bins wins, which has the law
// of random ties (see Greedy); TiesRandom and TiesLeft run the same loop.
type OnePlusBeta struct {
	Beta float64
	Ties Ties
}

var onePlusBetaDescriptor = Descriptor{
	Name:      "one-plus-beta",
	Synopsis:  "(1+β): Greedy[2] with probability --beta, else one uniform bin",
	Uses:      ParamBeta,
	D:         2,
	Family:    FamilyOnePlusBeta,
	BinBytes:  1,
	levels:    always,
	meanField: ownField,
	build:     func(p Params) Rule { return OnePlusBeta{Beta: p.Beta, Ties: p.Ties} },
}

// Name returns the command-line name, "one-plus-beta".
func (OnePlusBeta) Name() string { return onePlusBetaDescriptor.Name }

// String returns "(1+β), β = B".
func (p OnePlusBeta) String() string { return fmt.Sprintf("(1+β), β = %g", p.Beta) }

// Check requires n ≥ 1 and 0 ≤ Beta ≤ 1.
func (p OnePlusBeta) Check(n int) error {
	return onePlusBetaDescriptor.checkRun(n, 0, Params{Beta: p.Beta})
}

// betaThreshold returns the threshold t and the flag all such that a coin u
// means a Greedy[2] step iff u < t || all.
func betaThreshold(beta float64) (t uint64, all bool) {
	if beta >= 1 {
		return 0, true
	}
	// β·2^64 is exact (a power-of-two scaling) and below 2^64 for β < 1.
	return uint64(math.Ldexp(beta, 64)), false
}

// Place throws m balls: two probes for a Greedy[2] step, one for a
// OneChoice step.
func (p OnePlusBeta) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	thr, all := betaThreshold(p.Beta)
	var g int64
	b.place(m,
		func(L []uint8, m int64) int64 {
			k, gk := onePlusBeta(L, m, thr, all, r)
			g += gk
			return k
		},
		func(L []uint32, m int64) int64 {
			k, gk := onePlusBeta(L, m, thr, all, r)
			g += gk
			return k
		})
	st := Stats{Probes: m + g, MaxProbes: min(m, 1)}
	if g > 0 {
		st.MaxProbes = 2
	}
	return st
}

// rule returns (1+β)'s rule for the batched driver (see rule).
func (p OnePlusBeta) rule(int) rule {
	thr, all := betaThreshold(p.Beta)
	return onePlusBetaRule{thr: thr, all: all}
}

// onePlusBetaRule is (1+β) as a rule: a coin, then two uniform bins, as
// onePlusBeta draws them.
type onePlusBetaRule struct {
	thr uint64
	all bool
}
