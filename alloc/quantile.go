package alloc

import (
	"fmt"
	"math"
	"math/big"
	"unsafe"
)

// Quantile is the Quantile(δ) process of Los and Sauerwald [LS22c], a
// member of the thinning family (thinning.go): each ball samples a uniform
// bin i; if i is among the k = ⌊δn⌋ heaviest bins (its rank, heaviest
// first, is at most δn), a second uniform bin j, drawn with replacement and
// whatever its load, takes the ball; otherwise i takes it.
// It is the two-sample process that asks each first bin a single binary
// question, "is your load at least the δ-quantile?" (δ = 1/2: the median).
// A ball reads one bin, or two when i is heavy: with probability exactly
// k/n whatever the loads, so Probes − m is Binomial(m, k/n) and a ball
// costs 1 + k/n probes on average.
//
// Ties. Bins of equal load have no rank order of their own, and the cut at
// rank k may fall inside a load. Here the heavy bins are the bins above
// the boundary load q (the load of the k-th heaviest bin) and, of the c_q
// bins at q, each is heavy with probability (k − a)/c_q, a the number of
// bins above q, decided afresh for every ball: ties broken uniformly at
// random. The
// law of the sorted load vector is the same for every tie rule that makes
// exactly k bins heavy (a ball's first bin lands at load l and is kept with
// a probability that depends only on the counts), so this is no choice
// that changes a statistic; it makes the rule exchangeable, which lets
// the level engine run it (ranks u < k are the heavy ones there).
//
// Bounds. The allocation vector (the probability that the bin of rank r
// gets the ball) is δ'/n on the k heaviest ranks and (1 + δ')/n on the
// others, δ' = k/n, whatever the loads: for 1/3 ≤ δ' ≤ 2/3 it meets the
// condition of Peres, Talwar and Wieder's theorem [PTW15], whose
// exponential potential gives gap O(log n) w.h.p. for every m (other δ
// are not covered by that statement as made there). Quantile(δ) is a
// two-thinning rule, so at m = Θ(n) no setting of δ keeps the maximum
// load below (1 − o(1))·√(8 ln n / ln ln n) [FG21]; and as a
// process asking one binary question per bin its gap is at least
// Ω(√log n) at some m = Θ(n √log n) [LS22c]. docs/theory.md (section
// Quantile) has the fluid limit, t in balls per bin:
//
//	ds_i/dt = δ·(s_{i−1} − s_i) + (s_{i−1} − max(s_i, δ))⁺.
//
// [LS22c] D. Los, T. Sauerwald. Balanced allocations with incomplete
// information: the power of two queries. ITCS 2022.
// [PTW15] Y. Peres, K. Talwar, U. Wieder. Graphical balanced allocations and
// the (1 + β)-choice process. Random Struct. Algorithms 47(4), 2015.
//
// The δ-quantile per ball. The loop keeps, beside the loads, q, a, and the
// number of bins at each load from the least to the greatest (the loads
// span O(log n) levels for 1/3 ≤ δ ≤ 2/3, by the bound above). A ball raises
// one bin by one, which changes these in O(1): one count moves up a level,
// a bin leaving q raises a, and when a reaches k the boundary moves up one
// level. The loads are never sorted. The summary lives in the Bins from
// one call of Place to the next (Place rebuilds it, in O(n + spread), when
// the Bins was changed by anything else), and in the rule of a batched
// trial (see batch.go). Cost: every ball's decision reads the boundary
// the previous ball may have moved, a chain through that ball's load (an
// L1 hit once prefetched, see Randomness) that Mean-Thinning's loop does
// not have: about 60% of its rate (BENCHMARKS.md).
//
// Randomness: every ball draws i and j from the trial's generator, in this
// order, whatever the loads, and the tie draw w ∈ [0, c_q) from a second
// generator that the summary carries, seeded with splitmix64 of the
// trial generator's state when the summary is built (the first ball of a
// trial). w's range depends on the loads; i and j do not, so for large n
// they are drawn, and their cache lines fetched, ahead of their ball, as
// Mean-Thinning's are (same draws, same balls). i is heavy iff (x_i, −w)
// is lexicographically above (q, −(k−a)), one comparison of the 64-bit key
// x_i·2^32 + (2^32−1−w).
type Quantile struct {
	Delta float64 // δ, 0 < δ < 1
}

var quantileDescriptor = Descriptor{
	Name:      "quantile",
	Synopsis:  "Quantile(δ): a uniform bin outside the ⌊δn⌋ heaviest takes the ball, else a second uniform bin (--delta)",
	Uses:      ParamDelta,
	D:         2,
	Family:    FamilyQuantile,
	BinBytes:  1,
	levels:    always,
	meanField: ownField,
	build:     func(p Params) Rule { return Quantile{Delta: p.Delta} },
}

// Name returns the command-line name, "quantile".
func (Quantile) Name() string { return quantileDescriptor.Name }

// String returns "Quantile, δ = D".
func (p Quantile) String() string { return fmt.Sprintf("Quantile, δ = %g", p.Delta) }

// Check requires n ≥ 1 and 0 < δ < 1.
func (p Quantile) Check(n int) error {
	return quantileDescriptor.checkRun(n, 0, Params{Delta: p.Delta})
}

// Heavy returns k = ⌊δn⌋, the number of bins that reject a ball, computed
// exactly from the float64 δ.
func (p Quantile) Heavy(n int) uint64 {
	f := new(big.Float).SetPrec(128).SetFloat64(p.Delta)
	f.Mul(f, new(big.Float).SetPrec(128).SetInt64(int64(n)))
	k, _ := f.Uint64() // truncates: the floor of a non-negative product
	return k
}

// Place throws m balls: one probe, two when the first bin is heavy.
func (p Quantile) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	k := p.Heavy(b.N())
	st := b.quant
	if st != nil && (st.k != k || st.balls != b.balls) {
		st = nil // rebuilt from the loads, by the first loop
	}
	var second int64
	add := func(placed, sk int64) int64 { // the balls placed, after counting the rejected
		second += sk
		return placed
	}
	b.place(m,
		func(L []uint8, m int64) int64 {
			if st == nil {
				st = newQuantState(L, k, splitmix64(r.state))
			}
			return add(quantPlace(st, L, m, nil, r))
		},
		func(L []uint32, m int64) int64 {
			if st == nil {
				st = newQuantState(L, k, splitmix64(r.state))
			}
			return add(quantPlace(st, L, m, nil, r))
		})
	b.quant = st
	st.balls = b.balls
	return thinStats(m, second)
}

func (p Quantile) rule(n int) rule { return &quantRule{k: p.Heavy(n)} }

// quantState is the summary of the loads that Quantile keeps: c[l−base]
// is the number of bins at load l, for every load from the least (base)
// to the greatest; k heavy bins; q the load of the k-th heaviest bin and
// a < k ≤ a + c[q−base] the bins above q; cut the key x·2^32 + (2^32−1−w)
// above which a first bin is heavy (see Quantile). With k = 0 no bin is
// heavy: q is the largest uint32, above every load, and cut the largest
// key. balls is the Bins's ball count the summary describes.
type quantState struct {
	k uint64
	qsum
	cut   uint64
	ts    uint64 // the state of the tie draws' generator
	balls int64
}

// qsum is the part of the summary a ball changes, a small value so that
// the loop keeps it in registers.
type qsum struct {
	a       uint64
	q, base uint32
	c       []uint64
}

// raise moves one bin from load l to l+1, for k heavy bins: one count
// moves up a level, and a grows iff the bin leaves the boundary load, with
// no unpredictable branch (the boundary moving, a new maximum and an
// emptied least load are the rare, predicted cases).
func (u *qsum) raise(l uint32, k uint64) {
	x := l - u.base
	if int(x)+1 == len(u.c) {
		u.c = append(u.c, 0) // a new maximum
	}
	u.c[x]--
	u.c[x+1]++
	var up uint64
	if l == u.q {
		up = 1
	}
	u.a += up
	if u.a == k && k > 0 {
		// The k-th heaviest bin now holds q+1 (this one at least):
		// the boundary moves up a level.
		u.q++
		u.a -= u.c[u.q-u.base]
	}
	for u.c[0] == 0 {
		u.c = u.c[1:] // the least load emptied
		u.base++
	}
}

// newQuantState builds the summary of the loads L for k heavy bins, in
// O(n + max − min), with ts the state of its tie draws' generator.
func newQuantState[T uint8 | uint32](L []T, k, ts uint64) *quantState {
	lo, hi := uint32(L[0]), uint32(L[0])
	for _, l := range L {
		lo, hi = min(lo, uint32(l)), max(hi, uint32(l))
	}
	c := make([]uint64, hi-lo+1)
	for _, l := range L {
		c[uint32(l)-lo]++
	}
	st := &quantState{k: k, qsum: qsum{q: math.MaxUint32, base: lo, c: c}, ts: ts}
	var above uint64
	for d := len(c) - 1; k > 0; d-- {
		if above+c[d] >= k {
			st.q, st.a = lo+uint32(d), above
			break
		}
		above += c[d]
	}
	st.cut = quantCut(k, st.a, st.q)
	return st
}

// quantPick returns the bin of a ball whose first bin is i, second j and
// tie draw w, and 1 if i was heavy (its key above cut), else 0. Written for
// conditional moves: the test is unpredictable.
func quantPick[T uint8 | uint32](L []T, i, j, w, cut uint64) (uint64, int64) {
	var rej int64
	if uint64(L[i])<<32|(1<<32-1-w) > cut {
		rej = 1
	}
	if rej != 0 {
		i = j
	}
	return i, rej
}

// quantStep raises bin b of L, which holds l balls, by one ball, for k
// heavy bins, and returns the new key cut and the bound of the next tie
// draw.
func quantStep[T uint8 | uint32](u *qsum, L []T, b uint64, l uint32, k uint64) (cut, cq uint64) {
	L[b] = T(l + 1)
	u.raise(l, k)
	cq = 1
	if k > 0 {
		cq = u.c[u.q-u.base]
	}
	return quantCut(k, u.a, u.q), cq
}

// quantCut is the key x·2^32 + (2^32−1−w) above which a first bin of load
// x with tie draw w is heavy, for k heavy bins, a above the boundary q;
// the largest key when k = 0 (q the largest uint32).
func quantCut(k, a uint64, q uint32) uint64 { return uint64(q)<<32 | (1<<32 - 1 - (k - a)) }

// tie returns the bound of the tie draw: c_q, the bins at the boundary
// load, or 1 when k = 0 (no boundary; the draw is then always 0).
func (st *quantState) tie() uint64 {
	if st.k == 0 {
		return 1
	}
	return st.c[st.q-st.base]
}

// quantPlace makes the draws of m balls and chooses each ball's bin from
// the loads L, which st describes; with out == nil each ball raises its bin
// and st follows, else (four-byte loads) ball k's bin goes to out[k] and L
// and st stay as they are (a batch). It returns the balls placed and how
// many of them had a heavy first bin. For large n the sequential loop is
// pipelined as thinPiped is: the two bins of ball t+ahead are drawn, and
// their cache lines fetched, before ball t is placed (same draws, same
// balls). On one-byte loads it stops before a ball that would raise a
// load to 255 (see full), with r, st's level counts and its tie draws'
// generator as before that ball (each ring entry keeps the generator as it
// was before its ball's draws).
// Written by hand: the level summary kept in registers from ball to ball
// is a state no template holds.
func quantPlace[T uint8 | uint32](st *quantState, L []T, m int64, out []uint32, r *Rand) (placed, second int64) {
	n := uint64(len(L))
	pf := out == nil && pipelined(len(L), unsafe.Sizeof(L[0]))
	var ring [ahead]struct{ s, i, j uint64 } // s: the generator before the ball's draws
	s, ts := r.state, st.ts
	if pf {
		for t := range min(m, ahead) {
			e := &ring[t]
			e.s = s
			s, e.i = below(s, n)
			s, e.j = below(s, n)
			prefetch2(unsafe.Pointer(&L[e.i]), unsafe.Pointer(&L[e.j]))
		}
	}
	// The summary in locals (registers), written back at the end.
	k, u, cut := st.k, st.qsum, st.cut
	cq := st.tie()
	t := int64(0)
	for ; t < m; t++ {
		var s0, i, j uint64
		if pf {
			e := &ring[t&(ahead-1)]
			s0, i, j = e.s, e.i, e.j
			if t+ahead < m {
				e.s = s
				s, e.i = below(s, n)
				s, e.j = below(s, n)
				prefetch2(unsafe.Pointer(&L[e.i]), unsafe.Pointer(&L[e.j]))
			}
		} else {
			s0 = s
			s, i = below(s, n)
			s, j = below(s, n)
		}
		ts0 := ts
		var w uint64
		ts, w = below(ts, cq)
		b, rej := quantPick(L, i, j, w, cut)
		if out != nil {
			out[t] = uint32(b)
			second += rej
			continue
		}
		l := uint32(L[b])
		if full(L, uint64(l)) {
			s, ts = s0, ts0
			break
		}
		second += rej
		cut, cq = quantStep(&u, L, b, l, k)
	}
	r.state, st.ts = s, ts
	st.qsum, st.cut = u, cut
	return t, second
}

// quantRule is Quantile as a rule (batch.go). Its summary is built from
// the loads at its first run; in batches the driver adds each batch
// through addBalls, or after adding it per bin calls resync, so that the
// summary follows the loads at O(1) a ball.
type quantRule struct {
	k  uint64
	st *quantState
}

func (g *quantRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	if g.st == nil {
		g.st = newQuantState(L, g.k, splitmix64(r.state))
	}
	_, second := quantPlace(g.st, L, m, out, r)
	return thinStats(m, second)
}

// addBalls raises L[c] by one for each c of bins, in order, as the
// sequential loop raises a ball's bin.
func (g *quantRule) addBalls(L []uint32, bins []uint32) {
	st := g.st // built by run, which the driver calls before any flush
	for _, c := range bins {
		st.cut, _ = quantStep(&st.qsum, L, uint64(c), L[c], st.k)
	}
}

// resync rebuilds the summary from L, its tie draws continuing.
func (g *quantRule) resync(L []uint32) { g.st = newQuantState(L, g.k, g.st.ts) }
