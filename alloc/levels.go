package alloc

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// The level engine (EngineLevels) runs an exchangeable process on the
// complete graph: instead of a load per bin it keeps, for every load l, S_l, the
// number of bins holding at least l balls, and samples the load of the bin
// each ball goes to directly. Memory is O(max load − min load), independent
// of n, and n may be as large as 2^62 (MaxLevelBins).
//
// Why it is exact. When the rule that picks a ball's bin treats all bins
// alike (the process is exchangeable), the vector of counts (how many bins
// hold 0, 1, 2, … balls) is itself a Markov chain, and the level engine runs
// that chain. Order the bins by load, heaviest first, ties in any fixed
// order, and call a bin's position its rank u ∈ [0, n): the bins of rank
// u < S_l are exactly those with load ≥ l. A uniform bin is a uniform rank,
// so a probe is a uniform draw u ∈ [0, n), and its load is the level l with
// S_{l+1} ≤ u < S_l. Greedy[d] goes to a least loaded of d probes, which is
// the probe of largest rank: P(chosen load ≥ l) = (S_l/n)^d exactly, with
// integer draws only (no floating point, no rounding). MaxOf[d] takes the
// smallest rank, OneChoice a single one, (1+β) and FirstDiff[d] apply their
// rules to the probes' levels, Twinning and Packing compare one probe's
// level with the average and raise that rank's bin by the step's balls, Rank[d] draws its rank as the per-bin engine
// does (floating point for a fractional d, see Rank), two-choice on the
// complete graph draws two distinct ranks, and the two-sample rules
// (g-Bounded, g-Myopic, σ-Noisy-Load) two independent ranks, deciding from
// their levels' difference as the per-bin loop does from the loads'
// (levelsTwo). Left[d] keeps one histogram per
// group, since its groups are not exchangeable with each other. The draws
// are those of the per-bin loop, one per probe, in the same order; the
// loads that result differ (a rank is not a bin), but their law is the
// same: TestLevelsMatchBins compares the two engines' tails.
//
// Error. None for the integer-d processes: ranks are exact 64-bit Lemire
// draws and levels are found by integer comparisons, so no floating-point
// inversion of (S_l/n)^d is needed (comparing a uniform on [0, n^d) with
// S_l^d is the same test as comparing the largest of d uniform ranks with
// S_l). Only Rank with a fractional d uses floating point, as its per-bin
// engine does: R = ⌈n·U^{1/d}⌉ with U on a grid of step 2^-53 gives
// P(R ≤ i) = (i/n)^d to within 2^-53 (absolute), plus the rounding of exp
// and log (about 1e-16 relative).
//
// A ball costs the per-bin loop's draws plus a search of the levels
// (a few comparisons: the loads span ln ln n / ln d + O(1) levels for
// Greedy[d]) and no cache miss, whatever n: Greedy[2] with n = m = 10^10
// takes about 40 seconds on one core, and the state is a few hundred bytes
// (see BENCHMARKS.md).
//
// A Config with Engine EngineLevels runs its trials so, with the same
// Result as the per-bin engine (load counts, gap, probes, the --every
// series, the profile).

// MaxLevelBins is the largest n the level engine accepts. Ranks and counts
// are 64-bit; 2^62 leaves room for the sums.
const MaxLevelBins = 1 << 62

// checkLevels requires a process the level engine runs (Descriptor.Levels)
// with valid parameters and 1 ≤ n ≤ MaxLevelBins.
func checkLevels(p Rule, n int) error {
	if !levelsSupport(p) {
		return fmt.Errorf("alloc: the level engine runs the exchangeable processes (%s), and %s on the complete graph only, not %v", strings.Join(levelsNames(), ", "), strings.Join(levelsGraphNames(), ", "), p)
	}
	if n < 1 || uint64(n) > MaxLevelBins {
		return fmt.Errorf("alloc: the level engine needs 1 <= n <= 2^62, got n=%d", n)
	}
	switch p := p.(type) {
	case Rank:
		// Rank's own check bounds n by its per-bin positions (uint32);
		// the level engine keeps none.
		return p.Check(1)
	case Graphical:
		if p.Graph.Order() != n {
			return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", p.Graph.Order(), n)
		}
		if n < 2 {
			return fmt.Errorf("alloc: %s needs a graph with at least one edge, complete graph has n=1", p.Name())
		}
		if !(p.OneMinusBeta >= 0 && p.OneMinusBeta < 1) {
			return p.Check(n) // its error names β
		}
		return nil
	case LocalSearch:
		if p.Graph.Order() != n {
			return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", p.Graph.Order(), n)
		}
		return nil
	}
	return p.Check(n)
}

// levelsSupport reports whether the level engine runs p: a process of this
// package whose descriptor says so for its parameters.
func levelsSupport(p Rule) bool {
	d := Describe(p)
	if d == nil {
		return false
	}
	var params Params
	switch p := p.(type) {
	case Graphical:
		params.Graph, params.Sample = p.Graph, p.Sample
	case LocalSearch:
		params.Graph = p.Graph
	case GBounded, GMyopic, Noisy:
		src := p.(twoSampler).source()
		params.Graph, params.Sample = completeIfNil(src.g), src.sample
	}
	return d.Levels(params)
}

// completeIfNil returns g, or a complete graph (of any order: the level
// engine asks only whether it is complete) if g is nil, which the
// two-sample rules read as the complete graph.
func completeIfNil(g graphgen.Graph) graphgen.Graph {
	if g == nil {
		return graphgen.Complete(2)
	}
	return g
}

// levelsGraphNames lists the graph processes the level engine runs on the
// complete graph.
func levelsGraphNames() []string {
	return namesOf(func(d *Descriptor) bool {
		return !d.Levels(Params{}) && d.Levels(Params{Graph: graphgen.Complete(2)})
	})
}

// levelsNames lists the processes the level engine runs on any graph.
func levelsNames() []string { return namesOf(func(d *Descriptor) bool { return d.Levels(Params{}) }) }

// levelsTrial runs trial i of c with the level engine.
func (c Config) levelsTrial(ctx context.Context, i int) (Result, error) {
	if err := checkLevels(c.Process, c.N); err != nil {
		return Result{}, err
	}
	st := newLevelState(c.Process, uint64(c.N))
	r := TrialRand(c.Seed, i)
	res := Result{Trial: i}
	stats, series, err := c.batches(ctx,
		func(k int64) Stats { return st.place(k, r) },
		func(placed int64) Point {
			mx, mn := st.maxMin()
			return c.point(placed, float64(mx), float64(mn))
		})
	if err != nil {
		return Result{}, err
	}
	res.Series = series
	res.LoadCounts = st.counts()
	if c.Profile {
		res.Profile = ProfileFromCounts(res.LoadCounts, c.M, c.N)
	}
	mx, mn := st.maxMin()
	res.MaxLoad, res.MinLoad = float64(mx), float64(mn)
	res.Gap = float64(mx) - float64(c.M)/float64(c.N)
	res.Probes, res.MaxProbes = stats.Probes, stats.MaxProbes
	res.Moves, res.MaxMoves = stats.Moves, stats.MaxMoves
	return res, nil
}

// tails is the histogram of one group of exchangeable bins: t[k] is the
// number of bins with load ≥ base+k, so t[0] = n (every bin holds at least
// base balls), t is non-increasing and its last entry is positive (some bin
// holds base+len(t)−1, the maximum). Only the span from the least load to
// the greatest is kept.
type tails struct {
	n    uint64
	base int64
	t    []uint64
}

func newTails(n uint64) tails { return tails{n: n, t: []uint64{n}} }

// level returns the load (less base) of the bin of rank u ∈ [0, n), ranks
// counted from the heaviest bin: the k with t[k+1] ≤ u < t[k], which is the
// number of k ≥ 1 with t[k] > u.
func (h *tails) level(u uint64) int { return levelIn(h.t, u) }

// levelIn is level on the histogram t.
func levelIn(t []uint64, u uint64) int {
	if len(t) > 16 {
		return searchLevel(t, u)
	}
	// A few levels (Greedy[d] at any m): count them without a
	// data-dependent branch; t[0] = n > u counts one too many.
	k := -1
	for _, x := range t {
		k += above(x, u)
	}
	return k
}

// above returns 1 if x > u, else 0, without a branch: x, u ≤ 2^62, so
// u − x wraps (sets the top bit) exactly when x > u. A compare and
// increment is compiled to a branch, which mispredicts here about once a
// ball.
func above(x, u uint64) int { return int((u - x) >> 63) }

// searchLevel is levelIn for many levels (OneChoice with m ≫ n): a binary
// search for the number of leading entries of t[1:] above u. Not inlined,
// so that levelIn is.
//
//go:noinline
func searchLevel(t []uint64, u uint64) int {
	a := t[1:]
	lo, size := 0, len(a)
	for size > 0 {
		half := size >> 1
		if a[lo+half] > u {
			lo += half + 1
			size -= half + 1
		} else {
			size = half
		}
	}
	return lo
}

// raise moves one bin from level k to level k+1.
func (h *tails) raise(k int) {
	if k+1 < len(h.t) {
		h.t[k+1]++
	} else {
		h.t = append(h.t, 1) // a new maximum
	}
	// t[1] reaches n only by a raise from level 0 (checked first: it is
	// the predictable test).
	if h.t[1] == h.n {
		// No bin is left at the least load: drop it.
		h.t = h.t[1:]
		h.base++
	}
}

// top returns the greatest load.
func (h *tails) top() int64 { return h.base + int64(len(h.t)) - 1 }

// levelState is the level engine's state for one trial: one tails per
// group of exchangeable bins (one group except for Left), and the process's
// parameters.
type levelState struct {
	p      Rule
	groups []tails
	// Twinning and Packing: the balls placed so far, and the step in
	// progress, owed more balls into its bin, now at load owedAt.
	balls  int64
	owed   int64
	owedAt int64
}

func newLevelState(p Rule, n uint64) *levelState {
	st := &levelState{p: p}
	if l, ok := p.(Left); ok {
		_, size := leftGroups(int(n), l.D)
		for _, sz := range size {
			st.groups = append(st.groups, newTails(sz))
		}
	} else {
		st.groups = []tails{newTails(n)}
	}
	return st
}

// maxMin returns the greatest and least load over all bins.
func (st *levelState) maxMin() (mx, mn int64) {
	mn = math.MaxInt64
	for i := range st.groups {
		mx = max(mx, st.groups[i].top())
		mn = min(mn, st.groups[i].base)
	}
	return mx, mn
}

// counts returns c[l], the number of bins holding exactly l balls, for
// l = 0..max load.
func (st *levelState) counts() []int64 {
	mx, _ := st.maxMin()
	c := make([]int64, mx+1)
	for _, h := range st.groups {
		for k, x := range h.t {
			next := uint64(0)
			if k+1 < len(h.t) {
				next = h.t[k+1]
			}
			c[h.base+int64(k)] += int64(x - next)
		}
	}
	return c
}

// place throws m balls with the rule of st.p; every per-ball loop below is
// specialised to its process, with the generator state in a local.
func (st *levelState) place(m int64, r *Rand) Stats {
	h := &st.groups[0]
	switch p := st.p.(type) {
	case OneChoice:
		levelsGreedy(h, m, 1, r)
		return Stats{Probes: m, MaxProbes: min(m, 1)}
	case Greedy:
		levelsGreedy(h, m, p.D, r)
		return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
	case MaxOf:
		levelsMaxOf(h, m, p.D, r)
		return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
	case Graphical:
		if p.OneMinusBeta != 0 {
			g := levelsCompleteBeta(h, m, uint64(math.Ldexp(p.OneMinusBeta, 64)), r)
			return graphRule{lazy: true}.stats(m, m+g)
		}
		levelsComplete(h, m, r)
		return Stats{Probes: 2 * m, MaxProbes: min(m, 1) * 2}
	case LocalSearch:
		return levelsLocalSearch(h, m, r)
	case OnePlusBeta:
		thr, all := betaThreshold(p.Beta)
		g := levelsOnePlusBeta(h, m, thr, all, r)
		s := Stats{Probes: m + g, MaxProbes: min(m, 1)}
		if g > 0 {
			s.MaxProbes = 2
		}
		return s
	case FirstDiff:
		probes, most := levelsFirstDiff(h, m, int64(p.cap()), r)
		return Stats{Probes: probes, MaxProbes: most}
	case Rank:
		levelsRank(h, m, p.D, r)
		return Stats{Probes: m, MaxProbes: min(m, 1)}
	case Quantile:
		return thinStats(m, levelsQuantile(h, m, p.Heavy(int(h.n)), r))
	case Left:
		levelsLeft(st.groups, m, p.Ties.resolve(TiesLeft) == TiesLeft, r)
		return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
	case GBounded, GMyopic, Noisy:
		levelsTwo(h, m, p.(twoSampler).table(), r)
		return Stats{Probes: 2 * m, MaxProbes: min(m, 1) * 2}
	case Twinning:
		return st.levelsSteps(m, false, r)
	case Packing:
		return st.levelsSteps(m, true, r)
	}
	panic(fmt.Sprintf("alloc: level engine for unsupported process %T", st.p))
}

// levelsGreedy is Greedy[d] (and OneChoice, d = 1): the least loaded of d
// uniform bins is the one of largest rank. It runs greedyRegs while the
// loads span at most 5 levels (Greedy[2] at m = n up to n ≈ 10^11, where
// the fraction of bins at load 5 is 1.3·10^-12, and at any m for moderate
// n; Greedy[d ≥ 3] further), the general loop otherwise.
func levelsGreedy(h *tails, m int64, d int, r *Rand) {
	for m > 0 {
		k := greedyRegs(h, m, d, r)
		m -= k
		if m == 0 {
			return
		}
		// Too many levels for registers: a stretch of the general loop.
		k = min(m, 1<<16)
		greedySlice(h, k, d, r)
		m -= k
	}
}

// The loops that draw ranks and raise one level a ball (greedySlice,
// levelsMaxOf, levelsComplete, levelsCompleteBeta, levelsOnePlusBeta,
// levelsRank, and levelsQuantile and levelsTwo of the other processes) are
// generated from one template (gen_loops.go, zloops_levels.go), and
// greedyRegs, whose histogram lives in registers, from another
// (zloops_regs.go). Written here: levelsFirstDiff and levelsLeft, which
// probe a varying number of ranks or groups.

// levelsFirstDiff is FirstDiff[d] with probe cap cap: probe until a level
// differs from the first probe's, or cap probes; the ball goes to the
// lesser of the first and last level.
func levelsFirstDiff(h *tails, m, cap int64, r *Rand) (probes, most int64) {
	n := h.n
	s := r.state
	for k := int64(0); k < m; k++ {
		var u uint64
		s, u = below(s, n)
		l := h.level(u)
		t := int64(1)
		for t < cap {
			var x uint64
			s, x = below(s, n)
			t++
			if lx := h.level(x); lx != l {
				l = min(l, lx)
				break
			}
		}
		h.raise(l)
		probes += t
		most = max(most, t)
	}
	r.state = s
	return probes, most
}

// levelsLeft is Left[d]: one uniform rank in each group's histogram, drawn
// in group order; the least level wins, ties to the leftmost group, or
// uniformly at random (reservoir sampling, as leftRandom).
func levelsLeft(g []tails, m int64, left bool, r *Rand) {
	s := r.state
	for k := int64(0); k < m; k++ {
		var u uint64
		s, u = below(s, g[0].n)
		c, mn := 0, g[0].base+int64(g[0].level(u))
		tied := uint64(1)
		for j := 1; j < len(g); j++ {
			s, u = below(s, g[j].n)
			l := g[j].base + int64(g[j].level(u))
			switch {
			case l < mn:
				c, mn, tied = j, l, 1
			case l == mn && !left:
				tied++
				var z uint64
				if s, z = below(s, tied); z == 0 {
					c = j
				}
			}
		}
		g[c].raise(int(mn - g[c].base))
	}
	r.state = s
}

// levelsSteps is Twinning, or Packing (pack): a step draws one uniform
// rank, as stepRule draws its bin, compares its level x with the average
// t/n (t = a·n + rem, as stepRule's Packing keeps it: x·n may overflow
// here, n up to 2^62), and raises a bin of level x by the step's balls, one
// level at a time (the bins of one level are exchangeable, so which of
// them does not change the counts). The balls beyond m are owed to that
// bin by the next call, as Bins owes them.
func (st *levelState) levelsSteps(m int64, pack bool, r *Rand) Stats {
	h := &st.groups[0]
	n := h.n
	left := uint64(m)
	var k uint64 // balls placed so far
	for ; k < left && st.owed > 0; k++ {
		h.raise(int(st.owedAt - h.base))
		st.owedAt++
		st.owed--
	}
	t := uint64(st.balls) + k
	a, rem := t/n, t%n // once per call
	var steps int64
	s := r.state
	for k < left {
		var u uint64
		s, u = below(s, n)
		x := uint64(h.base) + uint64(h.level(u))
		c := uint64(1)
		if x < a || (x == a && rem > 0) { // x < t/n
			c = 2
			if pack {
				ceil := a
				if rem > 0 {
					ceil++
				}
				c = ceil + 1 - x
			}
		}
		if c > left-k {
			st.owed, st.owedAt = int64(c-(left-k)), int64(x+left-k)
			c = left - k
		}
		for j := range c {
			h.raise(int(int64(x+j) - h.base))
		}
		k += c
		for rem += c; rem >= n; {
			rem -= n
			a++
		}
		steps++
	}
	r.state = s
	st.balls += m
	return Stats{Probes: steps, MaxProbes: min(m, 1)}
}
