package alloc

import "fmt"

// MaxOf is MaxOf[d], the "unbalanced" allocation of Redlich: each ball draws
// D bins uniformly and independently (with replacement) and goes to the MOST
// loaded one. It is the mirror image of Greedy[d], studied to show how much
// a bad choice rule costs; its fluid limit is
// ds_i/dt = (1 − s_i)^d − (1 − s_{i−1})^d [A. Redlich, "Unbalanced
// allocations"], solved by analysis.Tails (MeanField family FamilyMaxOf).
//
// Ties: the ball goes to the first drawn of the most loaded candidates.
// The D draws are independent and identically distributed, so their order
// is exchangeable and "first drawn wins" has exactly the law of "uniformly
// random among the tied candidates" (as for Greedy): TiesRandom and TiesLeft
// run the same loop.
type MaxOf struct {
	D    int
	Ties Ties
}

var maxOfDescriptor = Descriptor{
	Name:     "unbalanced",
	Synopsis: "MaxOf[d]: d uniform bins, the MOST loaded wins",
	Uses:     ParamD,
	BinBytes: 1,
	// The most loaded of d bins wins: the largest load grows about
	// d·m/n (measured 181 at m = 64n for d = 2, and at m = 16n for
	// d = 8, n = 2^20), so the loads of d > 2 leave a byte sooner.
	compactUpTo: func(p Params) float64 { return min(compactBound, 2*compactBound/max(p.D, 1)) },
	levels:      always,
	Family:      FamilyMaxOf,
	meanField:   ownField,
	build:       func(p Params) Rule { return MaxOf{D: intD(p), Ties: p.Ties} },
}

// Name returns the command-line name, "unbalanced".
func (MaxOf) Name() string { return maxOfDescriptor.Name }

// String returns "MaxOf[d]".
func (p MaxOf) String() string { return fmt.Sprintf("MaxOf[%d]", p.D) }

// Check requires n ≥ 1 and 1 ≤ D ≤ 2^20.
func (p MaxOf) Check(n int) error { return maxOfDescriptor.checkRun(n, p.D, Params{}) }

// Place throws m balls, D probes each.
func (p MaxOf) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	switch p.D {
	case 1:
		OneChoice{}.Place(b, m, r)
	case 2:
		b.place(m,
			func(L []uint8, m int64) int64 { return maxOf2(L, m, r) },
			func(L []uint32, m int64) int64 { return maxOf2(L, m, r) })
	default:
		b.place(m,
			func(L []uint8, m int64) int64 { return maxOfD(L, m, p.D, r) },
			func(L []uint32, m int64) int64 { return maxOfD(L, m, p.D, r) })
	}
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

// rule returns MaxOf[d]'s rule for the batched driver (see rule).
func (p MaxOf) rule(int) rule {
	if p.D == 1 {
		return oneChoiceRule{} // Place runs OneChoice's loop for d = 1
	}
	return maxOfRule{d: p.D}
}

// maxOfRule is MaxOf[d] as a rule: d uniform bins drawn in order, the
// first drawn of the most loaded winning (maxOf2, maxOfD).
type maxOfRule struct{ d int }
