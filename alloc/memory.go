package alloc

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// Memory is (d, K)-memory, d-choice with memory of Mitzenmacher, Prabhakar
// and Shah ("Load balancing with memory", FOCS 2002): each ball draws D bins
// uniformly and independently (with replacement) and also considers the K
// bins remembered from the previous ball; it goes to the least loaded of
// these D + K candidates; then, after placing it, the process remembers the
// K least loaded of the candidates, with their new loads (distinct bins; a
// bin drawn twice, or drawn and remembered, counts once). With K = 1 this is
// the paper's rule, "the least loaded of the ball's choices after placement
// is remembered"; the first ball of a trial has no memory. K = 0 is
// Greedy[d] (draw for draw with TiesLeft; random ties draw a coin on a tie).
//
// Bound: for d = K = 1 (one fresh bin and the one remembered) the maximum
// load at m = n is ln ln n / (2 ln φ) + O(1) w.h.p., φ = (1+√5)/2 the golden
// ratio: better than Greedy[2]'s ln ln n / ln 2, and the same as Vöcking's
// Left[2] [MPS02]. For other d and K graphalloc states no bound (see
// docs/theory.md).
//
// Ties: among the least loaded candidates the ball goes to a uniformly
// random one, counted with multiplicity as Greedy's draws are (TiesRandom:
// reservoir sampling, a draw only on a tie), or to
// the first in candidate order, the draws then the memory in remembered
// order (TiesLeft). The memory keeps, among equally loaded candidates, the
// first in that order. A memory bin is not exchangeable with a draw, so
// the two tie rules differ in law.
//
// State. The memory lives through a trial: Config.Trial (and Run) place a
// trial's balls through one rule (see rule), which keeps the memory from
// call to call, so a trial is the same process whatever its series samples
// (Config.Every). Keeping it in Bins instead would give every process a
// field only this one reads, and a Bins handed from one process to another
// would carry a stale memory. Place, for callers with their own Bins,
// starts with an empty memory on every call (as Rank rebuilds its
// structure).
//
// In batches (Config.Batch, docs/theory.md, section Batches) a ball reads
// every candidate's load, the remembered bins' too, from the loads at the
// start of its batch, and chooses as above; the memory it leaves is the K
// least loaded of its candidates by those same loads with its own ball
// added to its bin (the ball knows where it went, not where the other
// balls of its batch went). The memory holds bins, not loads: the next
// ball, in this batch or the next, reads their loads afresh from the loads
// its batch starts with, and the memory carries over batch ends unchanged.
// B = 1 is the sequential process.
type Memory struct {
	D    int
	K    int
	Ties Ties
}

// MaxMemory bounds K: the candidates of a ball are scanned K times.
const MaxMemory = 1 << 10

var memoryDescriptor = Descriptor{
	Name:     "memory",
	Synopsis: "(d, K)-memory: d uniform bins and the K least loaded remembered from the last ball; the least loaded wins",
	Uses:     ParamD | ParamMemory,
	Family:   FamilyMemory,
	BinBytes: 1,
	build:    func(p Params) Rule { return Memory{D: intD(p), K: p.Memory, Ties: p.Ties} },
}

// Name returns the command-line name, "memory".
func (Memory) Name() string { return memoryDescriptor.Name }

// String returns "Memory[d, K]".
func (p Memory) String() string { return fmt.Sprintf("Memory[%d, %d]", p.D, p.K) }

// Check requires n ≥ 1, 1 ≤ D ≤ 2^20 and 0 ≤ K ≤ MaxMemory.
func (p Memory) Check(n int) error {
	return memoryDescriptor.checkRun(n, p.D, Params{Memory: p.K})
}

// Place throws m balls, starting with an empty memory (see Memory). A ball
// reads D + (bins remembered) loads.
func (p Memory) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return placeRule(b, p.rule(b.N()), m, r)
}

func (p Memory) rule(int) rule { return newMemRule(p) }

// trialRule: the memory lives through the trial.
func (Memory) trialRule() {}

// memRule is the memory of a trial and its rule: mem holds the remembered
// bins, least loaded first, and memL their loads as the last ball ranked
// them; cand and candL are scratch for a ball's candidates and their loads.
type memRule struct {
	p     Memory
	mem   []uint32
	memL  []uint32
	cand  []uint32
	candL []uint32
}

func newMemRule(p Memory) *memRule {
	return &memRule{p: p, mem: make([]uint32, 0, p.K), memL: make([]uint32, 0, p.K),
		cand: make([]uint32, 0, p.D+p.K), candL: make([]uint32, p.D+p.K)}
}

// memPlace places m balls of st on L, or in a batch (out != nil, four-byte
// loads) records their bins in out, and returns the balls placed and what
// they cost. On one-byte loads it stops before a ball that would raise a
// load to 255 (see full), with r and the memory as before that ball.
// Written by hand, as memOne: the memory is state beyond the loads, kept
// from ball to ball.
func memPlace[T uint8 | uint32](st *memRule, L []T, m int64, out []uint32, r *Rand) (int64, Stats) {
	if st.p.K == 1 {
		return memOne(st, L, m, out, r)
	}
	n := uint64(len(L))
	d, k := st.p.D, st.p.K
	random := st.p.Ties != TiesLeft
	mem, memL, cand := st.mem, st.memL, st.cand
	var probes, maxProbes int64
	t := int64(0)
	for ; t < m; t++ {
		s0 := r.state
		cand = cand[:0]
		for range d {
			cand = append(cand, uint32(r.Uint64n(n)))
		}
		cand = append(cand, mem...)
		c, lc, tied := cand[0], uint32(L[cand[0]]), uint64(1)
		for _, x := range cand[1:] {
			switch lx := uint32(L[x]); {
			case lx < lc:
				c, lc, tied = x, lx, 1
			case lx == lc && random:
				tied++
				if r.Uint64n(tied) == 0 {
					c = x
				}
			}
		}
		if full(L, uint64(lc)) {
			r.state = s0
			break
		}
		probes += int64(len(cand))
		maxProbes = max(maxProbes, int64(len(cand)))
		if out == nil {
			L[c] = T(lc + 1)
		} else {
			out[t] = c
		}
		// The new memory: the k least loaded distinct candidates, by
		// insertion, earlier candidates first among equal loads; c
		// counts its ball (in L already when out == nil).
		mem, memL = mem[:0], memL[:0]
		for _, x := range cand {
			if k == 0 {
				break
			}
			if containsBin(mem, x) {
				continue
			}
			lx := uint32(L[x])
			if x == c {
				lx = lc + 1
			}
			j := len(mem)
			if j == k {
				if lx >= memL[k-1] {
					continue
				}
				j--
			} else {
				mem, memL = append(mem, x), append(memL, lx)
			}
			for j > 0 && memL[j-1] > lx {
				mem[j], memL[j] = mem[j-1], memL[j-1]
				j--
			}
			mem[j], memL[j] = x, lx
		}
	}
	st.mem, st.memL, st.cand = mem, memL, cand
	return t, Stats{Probes: probes, MaxProbes: maxProbes}
}

// memOne is memPlace for K = 1, the paper's memory, tuned: the remembered
// bin in registers, and its load too when the balls raise their bins at
// once (out == nil: the ball that left it there knew it, so no read); each
// candidate's load read once, as it is drawn; the generator in a local,
// or for large n read ahead (readAhead), the bins of the draws to come
// prefetched. The same draws, in the same order, and the same bins as the
// general loop: with one bin kept, the memory is the first candidate of
// least load after the ball, duplicates aside (a bin seen again has its
// load again, never less).
func memOne[T uint8 | uint32](st *memRule, L []T, m int64, out []uint32, r *Rand) (int64, Stats) {
	n := uint64(len(L))
	d := st.p.D
	random := st.p.Ties != TiesLeft
	compact := unsafe.Sizeof(L[0]) == 1
	// The draws, then the remembered bin, and their loads as the ball
	// reads them.
	cand, candL := st.cand[:d+1], st.candL[:d+1]
	has := len(st.mem) == 1
	var mb, ml uint32 // the remembered bin and its load
	if has {
		mb, ml = st.mem[0], st.memL[0]
	}
	// The draws: from the generator in a local, or for large n read
	// ahead with their bins prefetched (a).
	pf := pipelined(len(L), unsafe.Sizeof(L[0]))
	s := r.state
	var a readAhead
	if pf {
		aheadStart(&a, s, L)
	}
	var probes int64
	t := int64(0)
	for ; t < m; t++ {
		var s0 uint64 // compact: the generator before the ball's draws
		if compact {
			s0 = s
			if pf {
				s0 = a.state()
			}
		}
		for j := range d {
			var x uint64
			if pf {
				// aheadDraw, inlined: the rejection (probability
				// n/2^64) calls it.
				o, in := a.take()
				hi, _ := bits.Mul64(in, n)
				prefetch(unsafe.Pointer(&L[hi]))
				var frac uint64
				if x, frac = bits.Mul64(o, n); frac < n && frac < -n%n {
					x = aheadDraw(&a, L, n, n)
				}
			} else {
				s, x = below(s, n)
			}
			cand[j], candL[j] = uint32(x), uint32(L[x])
		}
		// The remembered bin is candidate d, its load lm as the ball
		// reads it.
		lm, last := ml, d
		if has {
			if out != nil {
				lm = uint32(L[mb])
			}
			cand[d], candL[d], last = mb, lm, d+1
		}
		c := cand[0]
		lc, tied := candL[0], uint64(1)
		for j := 1; j < last; j++ {
			x := cand[j]
			switch lx := candL[j]; {
			case lx < lc:
				c, lc, tied = x, lx, 1
			case lx == lc && random:
				tied++
				var z uint64
				if pf {
					z = aheadDraw(&a, L, n, tied)
				} else {
					s, z = below(s, tied)
				}
				if z == 0 {
					c = x
				}
			}
		}
		if full(L, uint64(lc)) {
			r.state = s0
			break
		}
		probes += int64(last)
		if out == nil {
			L[c] = T(lc + 1)
		} else {
			out[t] = c
		}
		// The new memory: the first candidate of least load, c's
		// with its ball.
		nb, nl := cand[0], lc+1
		if nb != c {
			nl = candL[0]
		}
		for j := 1; j < last; j++ {
			x := cand[j]
			lx := lc + 1
			if x != c {
				lx = candL[j]
			}
			if lx < nl {
				nb, nl = x, lx
			}
		}
		mb, ml, has = nb, nl, true
	}
	if t == m { // else r is at the start of the ball that stopped it
		if pf {
			s = a.state()
		}
		r.state = s
	}
	return t, st.keepOne(t, probes, mb, ml)
}

// keepOne keeps the bin mb, of load ml, as memOne's memory after t balls
// (if any) that made probes probes in all, and returns their stats.
func (st *memRule) keepOne(t, probes int64, mb, ml uint32) Stats {
	if t == 0 {
		return Stats{}
	}
	d := int64(st.p.D)
	maxProbes := d + 1
	if probes == t*d {
		maxProbes = d // only the first ball of a trial, memory empty
	}
	st.mem, st.memL = append(st.mem[:0], mb), append(st.memL[:0], ml)
	return Stats{Probes: probes, MaxProbes: maxProbes}
}

func containsBin(s []uint32, x uint32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
