package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
)

// Quantities of the dynamic setting (alloc.Dynamic).
const (
	QuantityDiscrepancy = "discrepancy" // x_max(t) − m(t)/n
	QuantityOverload    = "overload"    // x_max(t) − max_{s≤t} m(s)/n
)

// Regimes of the dynamic setting: the bound holds at any fixed step of the
// named deletion model, w.h.p.
const (
	RegimeInfinite  = "infinite"  // ABKU's infinite process: a uniform ball leaves, one arrives, m = n present
	RegimeOblivious = "oblivious" // deletions fixed in advance (by age, or a sequence), at most n balls present
	RegimeRandomDel = "random_deletions"
)

// DynamicQuery is a run with deletions as DynamicBounds reads it: the
// process (its command-line name and d), n bins, the deletion model, the
// balls present at the start (M) and the most present at any time
// (MaxBalls), and β(t) for random deletions.
type DynamicQuery struct {
	Process  string
	D        float64
	N        int64
	M        int64
	MaxBalls int64
	Model    alloc.DeleteModel
	Phases   []alloc.Phase
}

// DynamicBounds returns the bounds of the dynamic setting, each marked as
// applying or not (with the reason) for q:
//
//	[ABKU99, §5] the infinite process, Greedy[d], n balls: max load
//	  ln ln n / ln d + O(1) w.h.p. at any fixed step;
//	[CFMMRSU98] Cole, Frieze, Maggs, Mitzenmacher, Richa, Sitaraman, Upfal,
//	  "On balls and bins with deletions" (RANDOM 1998): Greedy[d], deletions
//	  fixed in advance, at most n balls present: max load O(log log n);
//	[BFKN25] Berenbrink, Friedetzky, Kling, Nagel, arXiv 2510.14798:
//	  Greedy[2], insert with probability β(t), else delete from a uniform
//	  non-empty bin: discrepancy O(log n) when β(t) ≥ β > 0, Ω(log n) when
//	  also β(t) < 1/2 in recent steps (shown after a phase with β > 1/2
//	  that built up load: from empty bins with β < 1/2 throughout, the bins
//	  hold O(1) balls in expectation); overload log log n + O(1) when β(t)
//	  stays away from 0 and 1; discrepancy log log n + O(1) for "good"
//	  sequences (every long interval gains load in expectation: here β > 1/2
//	  throughout).
//
// The log log n of [BFKN25] is written ln ln n / ln 2 (ABKU's form for
// d = 2); another base moves it by O(1), which the bound leaves open.
func DynamicBounds(q DynamicQuery) []Bound {
	n := float64(q.N)
	lnln := math.Log(math.Log(n))
	greedy := q.Process == greedyName() && q.D >= 2 && q.D == math.Trunc(q.D)
	why := func(ok bool, yes, no string) (bool, string) {
		if ok {
			return true, yes
		}
		return false, no
	}
	var out []Bound
	if q.Process == greedyName() {
		ok, r := why(greedy && q.Model == alloc.DeleteABKU && q.M == q.N,
			"w.h.p. at any fixed step; d bins uniform with replacement; a uniform ball leaves each step",
			fmt.Sprintf("stated for Greedy[d], d >= 2, under abku deletions with m = n balls present (here %s, m = %d)", modelWord(q.Model), q.M))
		out = append(out, Bound{Name: "max load, infinite process, m = n [ABKU99]", Process: q.Process,
			Kind: KindLeading, Precision: PrecisionAdditive, Quantity: QuantityMaxLoad, Regime: RegimeInfinite,
			Value: lnln / math.Log(q.D), Formula: "ln ln n / ln d ± O(1)", Base: "ln", Applies: ok, Reason: r})
		ok, r = why(greedy && (q.Model == alloc.DeleteFIFO || q.Model == alloc.DeleteSequence) && q.MaxBalls <= q.N,
			"w.h.p.; deletions fixed in advance, at most n balls present",
			fmt.Sprintf("stated for deletions fixed in advance (fifo, a sequence) with at most n balls present (here %s, at most %d)", modelWord(q.Model), q.MaxBalls))
		out = append(out, Bound{Name: "max load, oblivious deletions [CFMMRSU98]", Process: q.Process,
			Kind: KindOrder, Order: "O", Quantity: QuantityMaxLoad, Regime: RegimeOblivious,
			Value: lnln, Formula: "O(log log n)", Base: "ln", Applies: ok, Reason: r})
	}
	if q.Process == greedyName() && q.Model == alloc.DeleteRandom {
		out = append(out, randomDeletionBounds(q, greedy && q.D == 2)...)
	}
	return out
}

// randomDeletionBounds are [BFKN25]'s, for Greedy[2] (ok) under random
// deletions with the phases of q.
func randomDeletionBounds(q DynamicQuery, ok bool) []Bound {
	lo, hi, built := 1.0, 0.0, false
	for i, p := range q.Phases {
		lo, hi = min(lo, p.Beta), max(hi, p.Beta)
		built = built || (i < len(q.Phases)-1 && p.Beta > 0.5)
	}
	last := q.Phases[len(q.Phases)-1].Beta
	n := float64(q.N)
	ln, lnln2 := math.Log(n), math.Log(math.Log(n))/math.Ln2
	bs := []struct {
		name, formula, kind, order, quantity string
		value                                float64
		holds                                bool
		when                                 string
	}{
		{"discrepancy, random deletions [BFKN25]", "O(log n)", KindOrder, "O", QuantityDiscrepancy, ln,
			lo > 0, "β(t) >= β > 0 throughout"},
		{"discrepancy lower bound, random deletions [BFKN25]", "Ω(log n)", KindOrder, "Ω", QuantityDiscrepancy, ln,
			lo > 0 && last < 0.5 && built, "β(t) > 0 throughout, below 1/2 in the last phase, after a phase above 1/2 that built up load (from empty bins with β < 1/2 throughout, the bins hold O(1) balls in expectation and the discrepancy stays O(1))"},
		{"overload, random deletions [BFKN25]", "ln ln n / ln 2 + O(1)", KindUpper, "", QuantityOverload, lnln2,
			lo > 0 && hi < 1, "w.h.p. at a fixed step; 0 < β(t) < 1 throughout"},
		{"discrepancy, good insertion sequences [BFKN25]", "ln ln n / ln 2 + O(1)", KindUpper, "", QuantityDiscrepancy, lnln2,
			lo > 0.5 && hi < 1, "w.h.p.; 1/2 < β(t) < 1 throughout, so every long interval gains load in expectation"},
	}
	var out []Bound
	for _, b := range bs {
		r := b.when
		applies := ok && b.holds
		if !ok {
			r = "stated for Greedy[2] (d = 2)"
		} else if !b.holds {
			r = "needs " + strings.TrimPrefix(strings.TrimPrefix(b.when, "w.h.p. at a fixed step; "), "w.h.p.; ")
		}
		out = append(out, Bound{Name: b.name, Process: q.Process, Kind: b.kind, Order: b.order,
			Quantity: b.quantity, Regime: RegimeRandomDel, Value: b.value, Formula: b.formula, Base: "ln",
			Applies: applies, Reason: r})
	}
	return out
}

// greedyName is Greedy's command-line name, from its descriptor.
func greedyName() string { return alloc.Greedy{}.Name() }

// modelWord names a deletion model in a bound's reason: its command-line
// name, but "a sequence" for a sequence, which file:PATH and masking both
// give.
func modelWord(m alloc.DeleteModel) string {
	if m == alloc.DeleteSequence {
		return "a sequence"
	}
	return m.String()
}
