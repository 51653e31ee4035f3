package alloc

import "runtime"

// The batched setting of Berenbrink, Czumaj, Englert, Friedetzky and Nagel
// ("Multiple-choice balanced allocation in (almost) parallel", RANDOM 2012)
// and Los and Sauerwald ("Balanced allocations in batches: simplified and
// generalized", SPAA 2022): the balls come in consecutive batches of B, and
// every ball of a batch chooses its bin by the process's rule from the loads
// at the start of its batch; the loads it reads do not include the balls of
// its own batch, which are placed together at the batch's end. B = 1 is the
// sequential process. Config.Batch sets B; docs/theory.md (section Batches)
// has the definition, the bounds and what one batch of m balls gives.
//
// How it is exact. Each batch runs in two steps. First the balls of the
// batch make their draws one after another, in the order and with the rule
// of the sequential loop, each choosing its bin from the loads L, which
// nothing writes during the batch: L holds the loads at the start of the
// batch throughout. The chosen bins are kept (deferred increments). Then
// every kept ball is added to its bin, and the next batch starts. So no
// ball reads the balls of its own batch, every ball reads all the earlier
// batches, and the draws of a trial are those of the sequential rule applied
// to those loads. Memory: 4 bytes a ball of the batch while B ≤ n, a
// 4-byte count per bin beyond (then adding the batch costs n, at most one
// per ball). The loads are four bytes a bin (Bins.wide). TestBatchReference
// replays it against a plain simulator that copies the loads at the start
// of every batch.
//
// The rule of each process is written once, as a rule (below), beside the
// process; the sequential Place keeps its own specialised loops, so B = 1
// (and Batch = 0) runs exactly the code, and gives exactly the results, of
// before. TestRuleMatchesPlace checks, ball for ball, that every rule run
// sequentially, or in batches of one, places the balls Place places.

// A rule is the decision of a per-bin process, written once for the
// generic drivers: the batched driver, and the sequential path of a process
// that has no specialised loop (graphical (1+β), the thinning family,
// memory, kd-choice). A rule value holds the process's parameters resolved
// for n bins, and the state of a trial that the loads do not hold (a
// step's owed balls, memory's remembered bins, kd-choice's round), so the
// drivers use one value a trial; the per-ball loop is concrete code, and
// the drivers call run once per batch or block of balls, never per ball.
type rule interface {
	// run makes the draws of m balls from r, one ball after another, and
	// chooses each ball's bin by the process's rule from the loads L. With
	// out == nil each ball raises its bin at once (the sequential
	// process); otherwise L is only read and ball k's bin goes to out[k],
	// len(out) ≥ m. It returns what the balls cost.
	run(L []uint32, m int64, out []uint32, r *Rand) Stats
}

// batchable is a Process that has a rule, and so runs in batches.
type batchable interface {
	Process
	// rule returns the process's rule on n bins; the process has
	// passed Check(n).
	rule(n int) rule
}

// trialRuler is a batchable Process whose rule keeps a state of the trial
// beside the loads (memory's remembered bins, kd-choice's round): its Place
// starts that state afresh at every call, so Config.Trial places a trial's
// balls, sequential or in batches, through one rule kept from call to call.
type trialRuler interface {
	batchable
	trialRule()
}

// Batchable reports whether r runs in batches (Config.Batch > 1): every
// per-bin Process of this package does; a TrialRunner (weighted balls,
// Rank's sorted structure) and a Process written outside the package do
// not.
func Batchable(r Rule) bool {
	_, ok := r.(batchable)
	return ok
}

// averaged is a rule that reads the number of balls in its loads (the
// average t/n of Mean-Thinning); the drivers tell it before every run.
type averaged interface {
	setBalls(t int64)
}

// tracking is a rule that keeps a summary of its loads (Quantile's level
// counts): the batched driver adds each batch to the loads through it, so
// that the summary follows them.
type tracking interface {
	// addBalls raises L[c] by one for every c of bins, in order.
	addBalls(L []uint32, bins []uint32)
	// resync rebuilds the summary from L, after the driver added a
	// batch per bin (B > n: O(n) a batch, under one a ball).
	resync(L []uint32)
}

// compactRule is a rule whose sequential loop also runs on one-byte loads
// (see Bins.place): placeRule runs it there until a load would reach 255,
// and run on the promoted loads after.
type compactRule interface {
	rule
	// run8 is run with out == nil on one-byte loads: it stops before a
	// ball that would raise a load to 255 (see full), with r and the
	// rule's state as before that ball, and returns the balls placed
	// and what they cost.
	run8(L []uint8, m int64, r *Rand) (placed int64, st Stats)
}

// put ends ball k of a rule's loop, which chose bin c holding l balls:
// with out == nil it raises the bin, else it records the choice. The test
// is the same for every ball, so the branch is predicted.
func put(L, out []uint32, k int64, c uint64, l uint32) {
	if out == nil {
		L[c] = l + 1
		return
	}
	out[k] = uint32(c)
}

// placeRule places m balls of ru into b one at a time, each raising its
// bin at once: the sequential process, for the processes whose Place has no
// specialised loop of its own for these parameters.
func placeRule(b *Bins, ru rule, m int64, r *Rand) Stats {
	if a, ok := ru.(averaged); ok {
		a.setBalls(b.balls)
	}
	if c, ok := ru.(compactRule); ok {
		var st Stats
		b.place(m,
			func(L []uint8, m int64) int64 {
				k, sk := c.run8(L, m, r)
				st.Add(sk)
				return k
			},
			func(L []uint32, m int64) int64 {
				st.Add(ru.run(L, m, nil, r))
				return m
			})
		return st
	}
	st := ru.run(b.wide(), m, nil, r)
	runtime.KeepAlive(b) // b.wide() may be mapped memory, freed once b is unreachable
	b.balls += m
	return st
}

// countBlock is how many choices the batched driver makes at a time when
// it counts the balls of a batch per bin (B > n): the block stays in L1.
const countBlock = 1 << 12

// batcher is the batch in progress of one trial of the per-bin engine.
type batcher struct {
	size int64 // B ≥ 1
	done int64 // balls of the current batch chosen so far
	// The balls of the current batch: their bins, pending[:done], when
	// a batch fits in n entries; otherwise count[c] balls for bin c,
	// chosen a block at a time into block.
	pending []uint32
	count   []uint32
	block   []uint32
}

// newBatcher returns the batcher of batches of size balls on n bins, for a
// trial of m balls (a batch never holds more than m).
func newBatcher(size int64, n int, m int64) *batcher {
	bt := &batcher{size: size}
	if k := min(size, max(m, 1)); k <= int64(n) {
		bt.pending = make([]uint32, k)
	} else {
		bt.count = make([]uint32, n)
		bt.block = make([]uint32, countBlock)
	}
	return bt
}

// reset drops the batch in progress (a new trial).
func (bt *batcher) reset() {
	bt.done = 0
	clear(bt.count)
}

// place throws m balls of ru into b in batches: the batch in progress
// first, then new ones. A batch that is complete is added to the loads; the
// last balls may leave a batch in progress, which the next call continues
// (the batches do not depend on how the balls of a trial are split into
// calls) and flush ends.
func (bt *batcher) place(b *Bins, ru rule, m int64, r *Rand) Stats {
	L := b.wide()
	var st Stats
	a, _ := ru.(averaged)
	for m > 0 {
		k := min(m, bt.size-bt.done)
		if a != nil {
			a.setBalls(b.balls) // the balls of the earlier batches, all in L
		}
		if bt.count == nil {
			st.Add(ru.run(L, k, bt.pending[bt.done:bt.done+k], r))
		} else {
			for j := int64(0); j < k; j += countBlock {
				blk := bt.block[:min(k-j, countBlock)]
				st.Add(ru.run(L, int64(len(blk)), blk, r))
				for _, c := range blk {
					bt.count[c]++
				}
			}
		}
		bt.done += k
		m -= k
		if bt.done == bt.size {
			bt.flush(b, L, ru)
		}
	}
	runtime.KeepAlive(b) // L may be mapped memory, freed once b is unreachable
	return st
}

// flush adds the balls of the batch in progress to the loads L of b,
// through ru if it is tracking (ru may be nil: the trial's last batch).
func (bt *batcher) flush(b *Bins, L []uint32, ru rule) {
	tr, _ := ru.(tracking)
	switch {
	case tr != nil && bt.count == nil:
		tr.addBalls(L, bt.pending[:bt.done])
	case tr != nil:
		bt.add(L, 1)
		tr.resync(L)
	default:
		bt.add(L, 1)
	}
	if bt.count != nil {
		clear(bt.count)
	}
	b.balls += bt.done
	bt.done = 0
}

// add adds (sign 1) or removes (sign −1, as uint32 wrapping) the balls of the
// batch in progress to or from L.
func (bt *batcher) add(L []uint32, sign uint32) {
	if bt.count == nil {
		for _, c := range bt.pending[:bt.done] {
			L[c] += sign
		}
		return
	}
	for i, k := range bt.count {
		L[i] += k * sign
	}
}

// peek calls f with the loads of b including the balls of the batch in
// progress (what the --every series reports after every ball placed so
// far, whether or not its batch is complete), and leaves the loads as they
// were. O(batch) or O(n).
func (bt *batcher) peek(b *Bins, f func()) {
	L := b.wide()
	bt.add(L, 1)
	f()
	bt.add(L, ^uint32(0))
	runtime.KeepAlive(b)
}
