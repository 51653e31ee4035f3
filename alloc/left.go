package alloc

import (
	"fmt"
	"math/bits"
)

// Left is Vöcking's Left[d]: the bins are split into D contiguous groups,
// group j being [⌊jn/D⌋, ⌊(j+1)n/D⌋); each ball draws one uniform bin in
// every group and goes to a least loaded one, ties going to the leftmost
// group. The maximum load for m = n is ln ln n / (d ln φ_d) + O(1) w.h.p.,
// φ_d the largest real root of x^d = 1 + x + … + x^{d−1} [Vöcking 2003];
// the asymmetric tie rule is essential to that bound.
//
// With Ties set to TiesRandom the ties are broken uniformly at random
// instead, which is the symmetric d-choice process with one choice per
// group (for comparison with the paper's claim that the tie rule matters).
type Left struct {
	D    int
	Ties Ties
}

var leftDescriptor = Descriptor{
	Name:      "left",
	Synopsis:  "Left[d]: one bin in each of d contiguous groups, ties to the left",
	Uses:      ParamD,
	Ties:      TiesLeft,
	Family:    FamilyLeft,
	BinBytes:  1,
	levels:    always,
	meanField: ownField,
	build:     func(p Params) Rule { return Left{D: intD(p), Ties: p.Ties} },
}

// Name returns the command-line name, "left".
func (Left) Name() string { return leftDescriptor.Name }

// String returns "Left[d]".
func (p Left) String() string { return fmt.Sprintf("Left[%d]", p.D) }

// Check requires 1 ≤ D ≤ n, so that no group is empty.
func (p Left) Check(n int) error {
	if err := checkBins(p.Name(), n); err != nil {
		return err
	}
	if p.D < 1 || p.D > n || p.D > maxChoices {
		return fmt.Errorf("alloc: %s needs 1 <= d <= min(n, %d) so that every group has a bin, got d=%d n=%d", p.Name(), maxChoices, p.D, n)
	}
	return nil
}

// leftGroups returns the first bin and the size of each of the d groups:
// group j is [⌊jn/d⌋, ⌊(j+1)n/d⌋), computed in 128 bits so that any n
// (up to 2^62 for the level engine) is exact.
func leftGroups(n, d int) (start, size []uint64) {
	start = make([]uint64, d)
	size = make([]uint64, d)
	at := func(j int) uint64 {
		hi, lo := bits.Mul64(uint64(j), uint64(n))
		q, _ := bits.Div64(hi, lo, uint64(d)) // no overflow: jn/d ≤ n
		return q
	}
	for j := range d {
		lo, hi := at(j), at(j+1)
		start[j], size[j] = lo, hi-lo
	}
	return start, size
}

// Place throws m balls, D probes each.
func (p Left) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	start, size := leftGroups(b.N(), p.D)
	switch {
	case p.Ties.resolve(TiesLeft) != TiesLeft:
		b.place(m,
			func(L []uint8, m int64) int64 { return leftRandom(L, m, start, size, true, r) },
			func(L []uint32, m int64) int64 { return leftRandom(L, m, start, size, true, r) })
	case p.D == 2:
		a, na, c, nc := start[0], size[0], start[1], size[1]
		b.place(m,
			func(L []uint8, m int64) int64 { return two(L, m, a, na, c, nc, r) },
			func(L []uint32, m int64) int64 { return two(L, m, a, na, c, nc, r) })
	default:
		b.place(m,
			func(L []uint8, m int64) int64 { return choose(L, m, start, size, r) },
			func(L []uint32, m int64) int64 { return choose(L, m, start, size, r) })
	}
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

// rule returns Left[d]'s rule on n bins for the batched driver (see rule).
func (p Left) rule(n int) rule {
	start, size := leftGroups(n, p.D)
	return leftRule{start: start, size: size, random: p.Ties.resolve(TiesLeft) != TiesLeft}
}

// leftRule is Left[d] as a rule: one uniform bin in each group, drawn in
// group order; the least loaded wins, ties to the leftmost group (two,
// choose) or, with random ties, uniformly by reservoir sampling
// (leftRandom).
type leftRule struct {
	start, size []uint64
	random      bool
}
