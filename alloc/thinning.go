package alloc

import (
	"fmt"
	"unsafe"
)

// The thinning family: processes that read one uniform bin per ball, or per
// step, and compare its load with a threshold, instead of comparing two
// loads. Their point is the number of probes per ball, which Stats counts:
// between one and two for the thinning rules, below one for twinning and
// packing. Definitions as in [FG21] and [LSS22]; docs/theory.md (section
// Thinning) has them with their bounds and fluid limits.
//
// [FG21] O. N. Feldheim, O. Gurel-Gurevich. The power of thinning in
// balanced allocation. Electron. Commun. Probab. 26, 2021.
// [LSS22] D. Los, T. Sauerwald, J. Sylvester. Balanced allocations: caching
// and packing, twinning and thinning. SODA 2022.
//
// Randomness: every ball (every step for twinning and packing) draws its
// bins from the trial's generator in the order the definitions name them;
// the thinning rules always draw the second bin, read only when the first
// rejects the ball, so the loop has no unpredictable branch on the draws
// (docs/theory.md, note 3). The threshold tests are written without a
// division: a load x is below the average t/n iff x·n < t.

// MeanThinning is Mean-Thinning [LSS22]: each ball samples a uniform bin i;
// if x_i < t/n, the average load before the ball (t balls placed so far),
// i takes it; otherwise a second uniform bin j takes it, whatever its load.
// The gap is O(log n) w.h.p. for every m ≥ n [LSS22]. A ball reads one bin,
// or two when i is at or above the average. Fluid limit (docs/theory.md,
// analysis.Tails with FamilyMeanThinning), t in balls per bin:
//
//	ds_i/dt = ([i−1 < t] + s_⌈t⌉)·(s_{i−1} − s_i),
//
// s_⌈t⌉ the fraction of bins at or above the average, which reject.
type MeanThinning struct{}

var meanThinningDescriptor = Descriptor{
	Name:      "mean-thinning",
	Synopsis:  "Mean-Thinning: a uniform bin below the average load t/n takes the ball, else a second uniform bin",
	D:         2,
	Family:    FamilyMeanThinning,
	BinBytes:  1,
	meanField: ownField,
	build:     func(Params) Rule { return MeanThinning{} },
}

// Name returns the command-line name, "mean-thinning".
func (MeanThinning) Name() string { return meanThinningDescriptor.Name }

// String returns "Mean-Thinning".
func (MeanThinning) String() string { return "Mean-Thinning" }

// Check requires n ≥ 1.
func (p MeanThinning) Check(n int) error { return checkBins(p.Name(), n) }

// Place throws m balls: one probe, two when the first bin rejects.
func (p MeanThinning) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return placeThin(b, &thinRule{mean: true, t: b.Balls()}, m, r)
}

func (p MeanThinning) rule(int) rule { return &thinRule{mean: true} }

// Threshold is the Threshold(L) process, the thinning of [FG21] with an
// absolute threshold: each ball samples a uniform bin i; if x_i < L, i takes
// it; otherwise a second uniform bin takes it. [FG21] define two-thinning
// (a rule may reject a ball's uniform bin once, and a second uniform bin
// takes it) and show that at m = Θ(n) no rule keeps the maximum load below
// (1 + o(1))·√(8 ln n / ln ln n) w.h.p., and that their rule attains it;
// Threshold(L) is a two-thinning rule, so that is a lower bound for it.
// The threshold here is on the bin's whole load (a rule of the kind [LSS22]
// call Thinning with a fixed threshold). Once every
// bin holds L balls the process is one-choice at two probes a ball, so L
// is meant for m = O(n); Mean-Thinning is the threshold at the average.
// Fluid limit (docs/theory.md, FamilyThreshold):
//
//	ds_i/dt = ([i ≤ L] + s_L)·(s_{i−1} − s_i).
type Threshold struct {
	L int // the threshold load, 0 ≤ L ≤ MaxThreshold
}

// MaxThreshold bounds Threshold.L (the fluid limit keeps L+2 levels).
const MaxThreshold = 1 << 20

var thresholdDescriptor = Descriptor{
	Name:      "threshold",
	Synopsis:  "Threshold(L): a uniform bin with fewer than --threshold balls takes the ball, else a second uniform bin",
	Uses:      ParamThreshold,
	D:         2,
	Family:    FamilyThreshold,
	BinBytes:  1,
	meanField: ownField,
	build:     func(p Params) Rule { return Threshold{L: p.Threshold} },
}

// Name returns the command-line name, "threshold".
func (Threshold) Name() string { return thresholdDescriptor.Name }

// String returns "Threshold, L = L".
func (p Threshold) String() string { return fmt.Sprintf("Threshold, L = %d", p.L) }

// Check requires n ≥ 1 and 0 ≤ L ≤ MaxThreshold.
func (p Threshold) Check(n int) error {
	return thresholdDescriptor.checkRun(n, 0, Params{Threshold: p.L})
}

// Place throws m balls: one probe, two when the first bin rejects.
func (p Threshold) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return placeThin(b, &thinRule{level: uint32(p.L)}, m, r)
}

func (p Threshold) rule(int) rule { return &thinRule{level: uint32(p.L)} }

// thinRule is Mean-Thinning (mean) or Threshold(level) as a rule. t is the
// number of balls in the loads it reads: run raises it with every ball it
// places (out == nil), and the batched driver sets it at every batch (see
// setBalls).
type thinRule struct {
	mean  bool
	level uint32
	t     int64
}

// setBalls tells the rule that the loads hold t balls.
func (g *thinRule) setBalls(t int64) { g.t = t }

func (g *thinRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	if out == nil {
		return thinStats(thinPlace(g, L, m, r))
	}
	return g.batch(L, m, out, r) // every ball reads the loads at its batch's start
}

// bar returns the t of the test x_i·n ≥ t by which both rules reject a
// ball, on n bins: for Mean-Thinning the balls placed, for Threshold(L)
// L·n.
func (g *thinRule) bar(n uint64) uint64 {
	if g.mean {
		return uint64(g.t)
	}
	return uint64(g.level) * n
}

// placeThin places m balls of g (Mean-Thinning or Threshold) on b, on
// one-byte loads or four-byte ones (see Bins.place), each ball raising its
// bin at once.
func placeThin(b *Bins, g *thinRule, m int64, r *Rand) Stats {
	var second int64
	add := func(k, sk int64) int64 { // the balls placed, after counting the rejected
		second += sk
		return k
	}
	b.place(m,
		func(L []uint8, m int64) int64 { return add(thinPlace(g, L, m, r)) },
		func(L []uint32, m int64) int64 { return add(thinPlace(g, L, m, r)) })
	return thinStats(m, second)
}

// thinPlace places m balls of g on L, each raising its bin at once (for
// Mean-Thinning the average with it), and returns the balls placed and
// how many of them their first bin rejected. On one-byte loads it stops
// before a ball that would raise a load to 255 (see full), with r as
// before that ball.
func thinPlace[T uint8 | uint32](g *thinRule, L []T, m int64, r *Rand) (placed, second int64) {
	n := uint64(len(L))
	t, step := g.bar(n), uint64(0)
	if g.mean {
		step = 1
	}
	if pipelined(len(L), unsafe.Sizeof(L[0])) {
		placed, second = thinPiped(L, m, t, step, r)
	} else {
		placed, second = thinSeq(L, m, t, step, r)
	}
	if g.mean {
		g.t += placed
	}
	return placed, second
}

// thinPick returns the bin that takes a ball whose first bin i holds li
// balls (of n bins), its second bin being j, and rej = 1 if i rejects it
// (li·n ≥ t). Written for conditional moves: the test is unpredictable
// (docs/theory.md, note 3).
func thinPick(li, n, t, i, j uint64) (c uint64, rej int64) {
	if li*n >= t {
		rej = 1
	}
	c = i
	if rej != 0 {
		c = j
	}
	return c, rej
}

// thinStats are the stats of m balls of which second were rejected by
// their first bin.
func thinStats(m, second int64) Stats {
	st := Stats{Probes: m + second, MaxProbes: min(m, 1)}
	if second > 0 {
		st.MaxProbes = 2
	}
	return st
}

// Twinning is the Twinning process [LSS22]: each step samples one uniform
// bin i; if x_i < t/n (t balls placed so far) it places two balls in i,
// otherwise one. The gap is O(log n) w.h.p. for every m ≥ n [LSS22], with
// one probe per step, so fewer than one per ball. A trial's last step
// places only the balls that remain (one), so a trial has exactly m balls;
// a step cut by the end of a call to Place is completed by the next.
//
// In batches (Config.Batch, docs/theory.md, section Batches) a step is
// decided when its first ball comes: its one probe reads bin i and the
// average at the start of that ball's batch (t the balls of the earlier
// batches), and its two or one balls are the next balls of the trial, all
// into i. A step's second ball that falls in the next batch is still the
// step's (no probe, into i); every ball is added at the end of its own
// batch. So no step reads the balls of its own batch, and B = 1 is the
// sequential process.
type Twinning struct{}

var twinningDescriptor = Descriptor{
	Name:     "twinning",
	Synopsis: "Twinning: one uniform bin per step; two balls if it is below the average load t/n, else one",
	D:        1,
	Family:   FamilyTwinning,
	BinBytes: 1,
	levels:   always,
	build:    func(Params) Rule { return Twinning{} },
}

// Name returns the command-line name, "twinning".
func (Twinning) Name() string { return twinningDescriptor.Name }

// String returns "Twinning".
func (Twinning) String() string { return "Twinning" }

// Check requires n ≥ 1.
func (p Twinning) Check(n int) error { return checkBins(p.Name(), n) }

// Place throws m balls, one probe per step.
func (p Twinning) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return placeSteps(b, &stepRule{}, m, r)
}

func (p Twinning) rule(int) rule { return &stepRule{} }

// Packing is the Packing process [LSS22]: each step samples one uniform
// bin i; if x_i < t/n (t balls placed so far) it fills i to ⌈t/n⌉ + 1,
// otherwise it places one ball in i. The gap is O(log n) w.h.p. for every
// m ≥ n [LSS22], with one probe per step. A trial's last step places only
// the balls that remain; a step cut by the end of a call to Place is
// completed by the next.
//
// In batches (Config.Batch, docs/theory.md, section Batches) a step is
// decided when its first ball comes: its one probe reads x_i and the
// average t/n at the start of that ball's batch (t the balls of the earlier
// batches), so a step below the average places ⌈t/n⌉ + 1 − x_i balls by
// those stale loads, all into i: the next balls of the trial, the ones that
// fall in later batches still the step's (no probe, into i). Every ball is
// added at the end of its own batch; several steps of one batch may fill
// the same bin, each by the stale load. B = 1 is the sequential process.
type Packing struct{}

var packingDescriptor = Descriptor{
	Name:     "packing",
	Synopsis: "Packing: one uniform bin per step; below the average t/n it is filled to ⌈t/n⌉+1, else one ball",
	D:        1,
	Family:   FamilyPacking,
	BinBytes: 1,
	levels:   always,
	build:    func(Params) Rule { return Packing{} },
}

// Name returns the command-line name, "packing".
func (Packing) Name() string { return packingDescriptor.Name }

// String returns "Packing".
func (Packing) String() string { return "Packing" }

// Check requires n ≥ 1.
func (p Packing) Check(n int) error { return checkBins(p.Name(), n) }

// Place throws m balls, one probe per step.
func (p Packing) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return placeSteps(b, &stepRule{pack: true}, m, r)
}

func (p Packing) rule(int) rule { return &stepRule{pack: true} }

// stepRule is Twinning, or Packing (pack), as a rule: a step draws one bin
// i and decides its balls from x_i and the average t/n of the loads it
// reads (t, which the drivers set, see averaged); its balls are the next
// ones of the trial, and those beyond the m of a call are owed to bin by
// the calls that follow. Both test x_i < t/n without a division: Twinning
// as x_i·n < t, Packing with t = a·n + rem, 0 ≤ rem < n (x < t/n iff x < a,
// or x = a and rem > 0), so that ⌈t/n⌉ needs none either.
type stepRule struct {
	pack bool
	t    int64  // balls in the loads read
	owed int64  // balls of the step in progress still to place
	bin  uint32 // their bin
}

func (g *stepRule) setBalls(t int64) { g.t = t }

// placeSteps places m balls of g into b, the step in progress kept in b
// (Bins.owed) from call to call: Place's sequential process, on one-byte
// loads or four-byte ones (see Bins.place).
func placeSteps(b *Bins, g *stepRule, m int64, r *Rand) Stats {
	g.owed, g.bin = b.owed, uint32(b.owedBin)
	g.setBalls(b.balls)
	var steps int64
	add := func(k, sk int64) int64 { // the balls placed, after counting the steps
		steps += sk
		return k
	}
	b.place(m,
		func(L []uint8, m int64) int64 { return add(stepPlace(g, L, m, nil, r)) },
		func(L []uint32, m int64) int64 { return add(stepPlace(g, L, m, nil, r)) })
	b.owed, b.owedBin = g.owed, uint64(g.bin)
	return Stats{Probes: steps, MaxProbes: min(m, 1)}
}

func (g *stepRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	_, steps := stepPlace(g, L, m, out, r)
	return Stats{Probes: steps, MaxProbes: min(m, 1)}
}

// stepPlace places m balls of g on L, or in a batch (out != nil, four-byte
// loads) records their bins in out, and returns the balls placed and the
// steps begun. On one-byte loads it stops before a step, or the owed
// balls of one, that would raise a load to 255 (see full), with r and g
// as before that step: the four-byte loop then takes the same step with
// the same draw, so the balls, and every result, are those of four-byte
// loads throughout.
// Written by hand: a step places a varying number of balls, and owes the
// rest to the next call, a shape no template has.
func stepPlace[T uint8 | uint32](g *stepRule, L []T, m int64, out []uint32, r *Rand) (placed, steps int64) {
	n := uint64(len(L))
	// step: how far a placed ball moves t, 1 when the balls raise
	// their bins at once (out == nil), 0 in a batch.
	step := uint64(0)
	if out == nil {
		step = 1
	}
	var k uint64 // balls placed so far
	left := uint64(m)
	if o := min(left, uint64(g.owed)); o > 0 {
		if out == nil {
			l := uint64(L[g.bin])
			if full(L, l+o-1) {
				return 0, 0
			}
			L[g.bin] = T(l + o)
		} else {
			fillBin(out[:o], g.bin)
		}
		g.owed -= int64(o)
		k = o
	}
	// Twinning tests l·n < t; Packing keeps t = a·n + rem for ⌈t/n⌉.
	tt := uint64(g.t) + step*k
	a, rem := tt/n, tt%n // once per call
	pack := g.pack
	s := r.state
	for k < left {
		s0 := s
		var i uint64
		s, i = below(s, n)
		l := uint64(L[i])
		c := uint64(1)
		if !pack {
			if l*n < tt {
				c = 2
			}
		} else if l < a || (l == a && rem > 0) { // x_i < t/n
			ceil := a
			if rem > 0 {
				ceil++
			}
			c = ceil + 1 - l
		}
		take := min(c, left-k) // the step's balls in this call
		if full(L, l+take-1) { // its last one here would reach 255
			s = s0
			break
		}
		if take < c {
			g.owed, g.bin = int64(c-take), uint32(i)
		}
		c = take
		if out == nil {
			L[i] = T(l + c)
		} else {
			fillBin(out[k:k+c], uint32(i))
		}
		k += c
		if !pack {
			tt += step * c
		} else {
			for rem += step * c; rem >= n; {
				rem -= n
				a++
			}
		}
		steps++
	}
	r.state = s
	g.t += int64(step * k)
	return int64(k), steps
}

// fillBin records that every ball of out goes to bin c.
func fillBin(out []uint32, c uint32) {
	for j := range out {
		out[j] = c
	}
}
