package alloc

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"unsafe"
)

// Bins holds the per-bin loads of one trial: the state of the per-bin
// engine. A Bins is reused across trials with Reset.
//
// Compact loads. From n = 2^17 bins (compactMin) the loads start as one
// byte a bin (uint8) and are promoted to four bytes a bin (uint32) when a
// ball would raise a load to 255, or when a process that has only a uint32
// loop, or a caller of Loads, asks for them; fewer bins start at four
// bytes, which is faster while they fit in L2. The loops of OneChoice,
// Greedy[d], Left[d], FirstDiff, MaxOf, OnePlusBeta, Grouped, Window,
// Hyper, LocalSearch, Graphical (two-choice on every graph and sampler,
// (1+β) under walk sampling), GBounded, GMyopic and Noisy (on every
// sampler), MeanThinning, Threshold, Twinning, Packing, Memory, KD and
// Quantile run on either form and stop just before the ball (the step,
// for Twinning and Packing) that would overflow a byte, so a load never
// wraps, and the loads, and every result, are the same whichever form
// held them; graphical (1+β) on the other samplers, and any process in
// batches, run on four bytes a bin. Memory: n bytes while every load is
// below 255 (m = n, and most m up to about 100n; Descriptor.LoadBytes
// estimates it for a run), 4n bytes after a promotion (plus n during it);
// a promoted Bins stays promoted through Reset. A byte a bin fits 2^32
// bins in 4 GiB and four times as many bins in each cache level as uint32
// (docs/theory.md, note 6).
//
// Packed loads. A process with a loop on packed loads (Graphical on
// regular:degree=D,implicit, the one per-bin process that reaches 10^10
// bins) keeps them half a byte a bin from n = 2^33 bins (nibbleMin): bin i
// in the low four bits of byte i/2 if i is even, in the high four if odd.
// Its loop stops before a ball that would raise a load past 15 (limitNib);
// the loads are then unpacked to a byte a bin (n/2 + n bytes during it)
// and the byte loop places the rest. At m = n the loads stay packed: 10^10
// bins take 5 GB, and the random accesses of each ball land in half the
// memory, 1.4–1.8× faster at n = 10^10 (BENCHMARKS.md). Any other process,
// and Loads, unpack them first; MaxMin and Counts read them packed.
//
// Huge pages. On Linux, a load array of 2 MiB or more is mapped outside the
// Go heap and advised MADV_HUGEPAGE, so that it gets 2 MiB pages even when
// transparent huge pages are enabled in "madvise" mode only (docs/theory.md,
// note 5: 10–17% fewer nanoseconds per ball once the loads leave the caches). The
// mapping is released when the Bins becomes unreachable, or handed back to
// the Go heap by Loads, whose slice may outlive the Bins. Code that runs a
// loop on the arrays after its last use of the Bins (the Place methods,
// MaxMin) ends with runtime.KeepAlive on it: the garbage collector may find
// a Bins unreachable, and its cleanup unmap the arrays, while a slice of
// them is still in use.
type Bins struct {
	n int
	// The loads: in small while compact, in loads once promoted; both
	// nil until first use, which allocates the form it needs, so that a
	// process with only a uint32 loop never allocates the bytes.
	small []uint8
	loads []uint32
	nib   []uint8 // packed loads, (n+1)/2 bytes; nil unless packed
	balls int64
	mem   *binsMem // mappings behind small, loads and nib; nil if none
	// owed balls of the step in progress of a process that places
	// several balls a step (Twinning, Packing) go to bin owedBin first:
	// so a trial does not depend on how its balls are split into calls.
	owed    int64
	owedBin uint64
	// quant is the level summary of Quantile(δ) (see Quantile), kept
	// from one call of Place to the next; Place rebuilds it when the
	// balls it was kept for are not b's.
	quant *quantState
}

// binsMem holds the mappings (as returned by mapHuge) behind a Bins's
// arrays, so that a cleanup can release them without referring to the Bins.
type binsMem struct{ small, loads, nib []byte }

func (m *binsMem) free() {
	unmapHuge(m.small)
	unmapHuge(m.loads)
	unmapHuge(m.nib)
	m.small, m.loads, m.nib = nil, nil, nil
}

// limit8 is the largest load the compact loops may read in a bin they are
// about to raise: a ball that would raise a bin from 254 to 255 stops the
// loop, which leaves the ball unplaced for the uint32 loop to place.
// (255 itself is never stored, so a byte never wraps.)
const limit8 = 254

// full reports whether a loop on loads L must stop before a ball that
// would raise a bin from load l: on one-byte loads when l ≥ limit8. On
// four-byte loads it is false, and since the size of an element is a
// constant in each instantiation of a generic loop, the compiler drops the
// test from the uint32 loops (they run as fast as before compact loads
// existed; a load that wraps at 2^32 is caught by Counts, as then).
func full[T uint8 | uint32](L []T, l uint64) bool {
	return unsafe.Sizeof(L[0]) == 1 && l >= limit8
}

// limitNib is the largest load a loop on packed loads may read in a bin it
// is about to raise: a ball that would raise a bin from 15 stops the loop.
const limitNib = 15

// nibbleMin is the fewest bins whose loads a process with a packed loop
// keeps packed: 2^33, where a byte a bin would take 8 GiB, beyond the
// reach of the TLB on the machines measured (BENCHMARKS.md). A variable so
// that the tests can pack small bins.
var nibbleMin = nibbleMinBins

const nibbleMinBins = 1 << 33

// compactMin is the fewest bins that start compact. Fewer bins fit in L2
// (taken as 1 MiB) at four bytes a bin too, and there the uint32 loops, which
// need no test against limit8, are 10–20% faster (measured, ns/ball uint8
// against uint32: OneChoice 1.06/0.81 at n = 2^12, 1.88/1.94 at 2^17,
// 2.06/2.54 at 2^18; Greedy[2] 2.19/1.97 at 2^12, 4.00/3.93 at 2^17,
// 3.86/5.45 at 2^18). A variable so that the tests can make small bins
// compact.
var compactMin = compactMinBins

const compactMinBins = 1 << 17

// useHugePages lets the benchmarks measure the loops with and without huge
// pages.
var useHugePages = true

// NewBins returns n empty bins. Their memory is allocated on first use, in
// the form the first process asks for.
func NewBins(n int) *Bins {
	if n < 0 {
		panic(fmt.Sprintf("alloc: NewBins(%d)", n))
	}
	return &Bins{n: n}
}

// fresh reports whether b's loads are not allocated yet (all zero).
func (b *Bins) fresh() bool { return b.small == nil && b.loads == nil && b.nib == nil }

// alloc8 returns n zeroed bytes, mapped with huge pages if large.
func (b *Bins) alloc8(n int) []uint8 {
	if useHugePages && n >= hugePageSize {
		if mem, mapping := mapHuge(n); mem != nil {
			b.track().small = mapping
			return mem
		}
	}
	return make([]uint8, n)
}

// alloc32 returns n zeroed uint32s, mapped with huge pages if large.
func (b *Bins) alloc32(n int) []uint32 {
	if useHugePages && n >= hugePageSize/4 {
		if mem, mapping := mapHuge(4 * n); mem != nil {
			b.track().loads = mapping
			return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(mem))), n)
		}
	}
	return make([]uint32, n)
}

// allocNib returns zeroed packed loads for n bins, (n+1)/2 bytes, mapped
// with huge pages if large.
func (b *Bins) allocNib(n int) []uint8 {
	size := (n + 1) / 2
	if useHugePages && size >= hugePageSize {
		if mem, mapping := mapHuge(size); mem != nil {
			b.track().nib = mapping
			return mem
		}
	}
	return make([]uint8, size)
}

// track returns b's mapping record, creating it and the cleanup that
// releases the mappings once b is unreachable.
func (b *Bins) track() *binsMem {
	if b.mem == nil {
		b.mem = &binsMem{}
		runtime.AddCleanup(b, (*binsMem).free, b.mem)
	}
	return b.mem
}

// N returns the number of bins.
func (b *Bins) N() int { return b.n }

// Balls returns the number of balls placed since the last Reset.
func (b *Bins) Balls() int64 { return b.balls }

// BytesPerBin returns the bytes each bin's load takes: 1 while compact
// (and while packed, half a byte a bin, rounded up), 4 once promoted.
func (b *Bins) BytesPerBin() int {
	if b.loads == nil {
		return 1
	}
	return 4
}

// Loads returns the loads as uint32, promoting compact bins (see Bins); the
// slice is shared with b and lives on the Go heap, so it stays valid after
// b is gone.
func (b *Bins) Loads() []uint32 {
	b.promote()
	if b.mem != nil && b.mem.loads != nil {
		L := make([]uint32, b.n)
		copy(L, b.loads)
		unmapHuge(b.mem.loads)
		b.mem.loads = nil
		b.loads = L
	}
	return b.loads
}

// Update hands f the loads as one uint32 per bin, promoting compact loads
// first (see Bins), and records the balls f reports it placed. It is how a
// Process written outside this package reads and raises loads in its
// Place; f must raise loads by exactly that many balls in all.
func (b *Bins) Update(f func(loads []uint32) (placed int64)) {
	b.balls += f(b.wide())
	runtime.KeepAlive(b)
}

// wide returns the loads as uint32, the form a process's uint32 loop works
// on, promoting compact bins first. Processes call it once per batch, never
// per ball. The slice may be mapped memory that b's cleanup releases once b
// is unreachable: a caller ends its loop on the slice with
// runtime.KeepAlive(b).
func (b *Bins) wide() []uint32 {
	b.promote()
	return b.loads
}

// promote converts compact (or packed) loads to uint32.
func (b *Bins) promote() {
	b.unpack()
	if b.fresh() {
		b.loads = b.alloc32(b.n)
		return
	}
	if b.small == nil {
		return
	}
	L := b.alloc32(b.n)
	for i, l := range b.small {
		L[i] = uint32(l)
	}
	b.loads, b.small = L, nil
	if b.mem != nil && b.mem.small != nil {
		unmapHuge(b.mem.small)
		b.mem.small = nil
	}
}

// unpack converts packed loads to a byte a bin; it does nothing unless b
// is packed.
func (b *Bins) unpack() {
	if b.nib == nil {
		return
	}
	N := b.nib
	L := b.alloc8(b.n)
	for j, x := range N[:b.n/2] {
		L[2*j], L[2*j+1] = x&15, x>>4
	}
	if b.n&1 != 0 {
		L[b.n-1] = N[b.n/2] & 15
	}
	b.small, b.nib = L, nil
	if b.mem != nil && b.mem.nib != nil {
		unmapHuge(b.mem.nib)
		b.mem.nib = nil
	}
}

// placePacked is place for a process that also has a loop on packed loads
// (see Bins): loopNib runs while b is packed, which it is from fresh from
// nibbleMin bins on, and returns how many balls it placed before one would
// raise a load past limitNib; then b is unpacked and place places the
// rest.
func (b *Bins) placePacked(m int64, loopNib func(N []uint8, m int64) int64, loop8 func(L []uint8, m int64) int64, loop32 func(L []uint32, m int64) int64) {
	if b.fresh() && b.n >= nibbleMin && b.n > 0 {
		b.nib = b.allocNib(b.n)
	}
	if b.nib != nil {
		k := loopNib(b.nib, m)
		runtime.KeepAlive(b)
		b.balls += k
		if m -= k; m == 0 {
			return
		}
	}
	b.place(m, loop8, loop32)
}

// place runs a process's loop for m balls on b: loop8 on compact loads,
// which returns how many balls it placed before one would raise a load to
// 255 (see limit8); then b is promoted and loop32 places the rest.
// Processes call it once per batch with closures over their parameters.
func (b *Bins) place(m int64, loop8 func(L []uint8, m int64) int64, loop32 func(L []uint32, m int64) int64) {
	b.unpack()
	if b.fresh() {
		if b.n < compactMin {
			b.loads = b.alloc32(b.n)
		} else {
			b.small = b.alloc8(b.n)
		}
	}
	if b.small != nil {
		k := loop8(b.small, m)
		runtime.KeepAlive(b) // b.small may be mapped memory (see Bins)
		b.balls += k
		if m -= k; m == 0 {
			return
		}
		b.promote()
	}
	k := loop32(b.loads, m)
	runtime.KeepAlive(b)
	b.balls += k
}

// Reset empties every bin.
func (b *Bins) Reset() {
	clear(b.small)
	clear(b.loads)
	clear(b.nib)
	b.balls = 0
	b.owed = 0
	b.quant = nil
}

// MaxMin returns the largest and smallest load, in one pass.
func (b *Bins) MaxMin() (mx, mn uint32) {
	if b.nib != nil {
		c, _ := countsNib(b.nib, b.n)
		mx, mn = uint32(len(c)-1), uint32(slices.IndexFunc(c, func(k int64) bool { return k > 0 }))
	} else if b.loads == nil {
		mx, mn = maxMin8(b.small)
	} else {
		mx, mn = maxMin32(b.loads)
	}
	runtime.KeepAlive(b) // the arrays may be mapped memory (see Bins)
	return mx, mn
}

// maxMin8 marks the loads present in a 256-entry table (independent
// stores, 0.3 ns a bin measured) and reads the extremes off it; a running
// max and min is a chain of conditional moves, 1.4 ns a bin.
func maxMin8(L []uint8) (mx, mn uint32) {
	var seen [256]bool
	i := 0
	for ; i+4 <= len(L); i += 4 {
		seen[L[i]] = true
		seen[L[i+1]] = true
		seen[L[i+2]] = true
		seen[L[i+3]] = true
	}
	for ; i < len(L); i++ {
		seen[L[i]] = true
	}
	first := true
	for l, ok := range seen {
		if ok {
			if first {
				mn, first = uint32(l), false
			}
			mx = uint32(l)
		}
	}
	return mx, mn
}

// maxMin32 keeps four running maxima and minima, so that four chains of
// conditional moves run side by side.
func maxMin32(L []uint32) (mx, mn uint32) {
	if len(L) == 0 {
		return 0, 0
	}
	h0, h1, h2, h3 := L[0], L[0], L[0], L[0]
	l0, l1, l2, l3 := L[0], L[0], L[0], L[0]
	i := 0
	for ; i+4 <= len(L); i += 4 {
		a, b, c, d := L[i], L[i+1], L[i+2], L[i+3]
		h0, h1, h2, h3 = max(h0, a), max(h1, b), max(h2, c), max(h3, d)
		l0, l1, l2, l3 = min(l0, a), min(l1, b), min(l2, c), min(l3, d)
	}
	for ; i < len(L); i++ {
		h0, l0 = max(h0, L[i]), min(l0, L[i])
	}
	return max(h0, h1, h2, h3), min(l0, l1, l2, l3)
}

// Counts returns c with c[i] the number of bins holding exactly i balls,
// for i = 0..max load. It returns an error if the loads do not add up to the
// balls placed, which only happens if a load overflowed 2^32-1.
func (b *Bins) Counts() ([]int64, error) {
	var c []int64
	var sum uint64
	switch {
	case b.fresh():
		c = []int64{int64(b.n)}
	case b.nib != nil:
		c, sum = countsNib(b.nib, b.n)
	case b.small != nil:
		c, sum = counts8(b.small)
	default:
		mx, _ := b.MaxMin()
		c = make([]int64, int(mx)+1)
		for _, l := range b.loads {
			c[l]++
			sum += uint64(l)
		}
	}
	if sum != uint64(b.balls) {
		return c, fmt.Errorf("alloc: loads add up to %d, not the %d balls placed: a bin overflowed %d", sum, b.balls, uint32(math.MaxUint32))
	}
	return c, nil
}

// counts8 is the histogram of compact loads and their sum.
func counts8(L []uint8) ([]int64, uint64) {
	h := histogram8(L)
	return trimCounts(h[:])
}

// histogram8 counts the values of the bytes B. Four interleaved
// histograms keep consecutive bins of the same load from waiting on each
// other's increment.
func histogram8(B []uint8) [256]int64 {
	var h [4][256]int64
	i := 0
	for ; i+4 <= len(B); i += 4 {
		h[0][B[i]]++
		h[1][B[i+1]]++
		h[2][B[i+2]]++
		h[3][B[i+3]]++
	}
	for ; i < len(B); i++ {
		h[0][B[i]]++
	}
	for l := range 256 {
		h[0][l] += h[1][l] + h[2][l] + h[3][l]
	}
	return h[0]
}

// trimCounts returns the counts c up to the largest load held, and the
// sum of the loads.
func trimCounts(c []int64) ([]int64, uint64) {
	top := 0
	var sum uint64
	for l, k := range c {
		if k > 0 {
			top = l
			sum += uint64(l) * uint64(k)
		}
	}
	return append([]int64(nil), c[:top+1]...), sum
}

// countsNib is counts8 for the packed loads N of n bins: the histogram of
// its bytes, each byte then counted for both its loads (the last byte's
// high half is not a bin when n is odd).
func countsNib(N []uint8, n int) ([]int64, uint64) {
	h := histogram8(N[:n/2])
	var c [16]int64
	for x, k := range h {
		c[x&15] += k
		c[x>>4] += k
	}
	if n&1 != 0 {
		c[N[n/2]&15]++
	}
	return trimCounts(c[:])
}
