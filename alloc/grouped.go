package alloc

import "fmt"

// Grouped is the grouped contiguous-bins scheme of Kenthapadi and Panigrahy
// ("Balanced allocation on graphs", SODA 2006): the n bins form 2n/d groups
// of d/2 consecutive bins (group g is [g·d/2, (g+1)·d/2)); each ball picks
// two groups uniformly and independently, takes the one with the smaller
// total load (ties to the left one, the group with the lower index), and goes
// to the least loaded bin inside it (ties to the leftmost bin). With two
// random accesses of d/2 contiguous bins each, the maximum load for m = n is
// O(log log n / d) w.h.p. [KP06], the order of Left[d]'s.
//
// D must be even (a group holds D/2 bins) and D/2 must divide n: every group
// then has the same size, which the comparison of totals needs (a shorter
// last group would look lighter and draw balls). Check reports anything else
// as an error.
//
// Ties: TiesDefault and TiesLeft are the definition's rule above. TiesRandom
// breaks a tie between the totals by a fair coin and a tie inside the group
// uniformly among the least loaded bins.
type Grouped struct {
	D    int
	Ties Ties
}

// Window is the random-window scheme, the negative case of the same paper:
// each ball picks two windows of d/2 consecutive bins whose first bins are
// uniform and independent, not aligned to groups (window s is s, s+1, …,
// s+d/2−1 mod n, wrapping around), takes the window with the smaller total
// load (ties to the one that starts further left, the smaller s) and goes to
// its least loaded bin (ties to the first in window order). Without the
// alignment the maximum load rises to Ω(log log n / log d) [KP06].
//
// D must be even with D/2 ≤ n. Ties: as for Grouped.
type Window struct {
	D    int
	Ties Ties
}

var groupedDescriptor = Descriptor{
	Name:     "grouped",
	Synopsis: "2n/d groups of d/2 consecutive bins: the lighter of two uniform groups, then its least loaded bin (d even, d/2 dividing n)",
	Uses:     ParamD,
	Ties:     TiesLeft,
	Family:   FamilyGrouped,
	BinBytes: 1,
	build:    func(p Params) Rule { return Grouped{D: intD(p), Ties: p.Ties} },
}

var windowDescriptor = Descriptor{
	Name:     "window",
	Synopsis: "two uniform windows of d/2 consecutive bins (not aligned), the lighter window, then its least loaded bin",
	Uses:     ParamD,
	Ties:     TiesLeft,
	Family:   FamilyWindow,
	BinBytes: 1,
	build:    func(p Params) Rule { return Window{D: intD(p), Ties: p.Ties} },
}

// Name returns the command-line name, "grouped".
func (Grouped) Name() string { return groupedDescriptor.Name }

// String returns "grouped[d]".
func (p Grouped) String() string { return fmt.Sprintf("%s[%d]", p.Name(), p.D) }

// Name returns the command-line name, "window".
func (Window) Name() string { return windowDescriptor.Name }

// String returns "window[d]".
func (p Window) String() string { return fmt.Sprintf("%s[%d]", p.Name(), p.D) }

// checkHalf checks the d of the two schemes: even, with d/2 ≤ n.
func checkHalf(name string, d, n int) error {
	if err := checkBins(name, n); err != nil {
		return err
	}
	if d < 2 || d%2 != 0 || d > 2*maxChoices {
		return fmt.Errorf("alloc: %s needs an even d >= 2 (two groups of d/2 bins), got d=%d", name, d)
	}
	if d/2 > n {
		return fmt.Errorf("alloc: %s needs d/2 <= n, got d=%d n=%d", name, d, n)
	}
	return nil
}

// Check requires an even D ≥ 2 whose half divides n.
func (p Grouped) Check(n int) error {
	if err := checkHalf(p.Name(), p.D, n); err != nil {
		return err
	}
	if n%(p.D/2) != 0 {
		return fmt.Errorf("alloc: %s needs d/2 to divide n so that all groups have d/2 bins, got d=%d n=%d (n mod d/2 = %d)", p.Name(), p.D, n, n%(p.D/2))
	}
	return nil
}

// Check requires an even D ≥ 2 with D/2 ≤ n.
func (p Window) Check(n int) error { return checkHalf(p.Name(), p.D, n) }

// Place throws m balls, D probes each (D/2 bins in each of two groups).
func (p Grouped) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	w, k := uint64(p.D/2), uint64(b.N())/uint64(p.D/2)
	placeRanges(b, m, k, w, w, p.Ties.resolve(TiesLeft) == TiesRandom, r)
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

// Place throws m balls, D probes each (two windows of D/2 bins).
func (p Window) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	placeRanges(b, m, uint64(b.N()), 1, uint64(p.D/2), p.Ties.resolve(TiesLeft) == TiesRandom, r)
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

// placeRanges runs the loop of both schemes on b's loads, one-byte or
// four-byte (see Bins.place): twoRanges with random ties, else
// twoRangesLeft.
func placeRanges(b *Bins, m int64, k, stride, w uint64, random bool, r *Rand) {
	if random {
		b.place(m,
			func(L []uint8, m int64) int64 { return twoRanges(L, m, k, stride, w, r) },
			func(L []uint32, m int64) int64 { return twoRanges(L, m, k, stride, w, r) })
		return
	}
	b.place(m,
		func(L []uint8, m int64) int64 { return twoRangesLeft(L, m, k, stride, w, r) },
		func(L []uint32, m int64) int64 { return twoRangesLeft(L, m, k, stride, w, r) })
}

// rangeScan returns the total load of the w bins a, a+1, … (mod n) and the
// first of them with the least load, and that load.
func rangeScan[T uint8 | uint32](L []T, a, w, n uint64) (total, c uint64, mn T) {
	c, mn = a, L[a]
	total = uint64(mn)
	for j := uint64(1); j < w; j++ {
		a++
		if a == n {
			a = 0
		}
		la := L[a]
		total += uint64(la)
		if la < mn {
			c, mn = a, la
		}
	}
	return total, c, mn
}

// rangeTotal returns the total load of the w bins a, a+1, … (mod n).
func rangeTotal[T uint8 | uint32](L []T, a, w, n uint64) uint64 {
	var t uint64
	for j := uint64(0); j < w; j++ {
		t += uint64(L[a])
		a++
		if a == n {
			a = 0
		}
	}
	return t
}

// rule returns grouped[d]'s rule on n bins for the batched driver (see
// rule).
func (p Grouped) rule(n int) rule {
	w := uint64(p.D / 2)
	return rangesRule{k: uint64(n) / w, stride: w, w: w, random: p.Ties.resolve(TiesLeft) == TiesRandom}
}

// rule returns window[d]'s rule on n bins for the batched driver (see
// rule).
func (p Window) rule(n int) rule {
	return rangesRule{k: uint64(n), stride: 1, w: uint64(p.D / 2), random: p.Ties.resolve(TiesLeft) == TiesRandom}
}

// rangesRule is the rule of both schemes, as twoRanges (random ties) and
// twoRangesLeft (the definition's left ties) draw and decide.
type rangesRule struct {
	k, stride, w uint64
	random       bool
}

func (g rangesRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	if g.random {
		return g.runRandom(L, m, out, r)
	}
	return g.runLeft(L, m, out, r)
}
