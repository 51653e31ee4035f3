package analysis

import (
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// TestDynamicBounds: each bound applies in its regime only, with the
// value of its formula.
func TestDynamicBounds(t *testing.T) {
	n := int64(1 << 16)
	lnln := math.Log(math.Log(float64(n)))
	applies := func(q DynamicQuery) map[string]Bound {
		out := map[string]Bound{}
		for _, b := range DynamicBounds(q) {
			out[b.Name] = b
		}
		return out
	}
	abku := applies(DynamicQuery{Process: "greedy", D: 2, N: n, M: n, MaxBalls: n, Model: alloc.DeleteABKU})
	if b := abku["max load, infinite process, m = n [ABKU99]"]; !b.Applies || math.Abs(b.Value-lnln/math.Ln2) > 1e-12 {
		t.Errorf("ABKU99 at m = n: %+v", b)
	}
	if b := abku["max load, oblivious deletions [CFMMRSU98]"]; b.Applies {
		t.Error("Cole et al. applied to abku's random deletions")
	}
	if b := applies(DynamicQuery{Process: "greedy", D: 2, N: n, M: 2 * n, Model: alloc.DeleteABKU})["max load, infinite process, m = n [ABKU99]"]; b.Applies {
		t.Error("ABKU99 applied at m = 2n")
	}
	if b := applies(DynamicQuery{Process: "greedy", D: 2, N: n, M: n, MaxBalls: n, Model: alloc.DeleteFIFO})["max load, oblivious deletions [CFMMRSU98]"]; !b.Applies {
		t.Error("Cole et al. not applied to fifo with n balls")
	}
	rnd := func(beta ...float64) map[string]Bound {
		var ph []alloc.Phase
		for _, b := range beta {
			ph = append(ph, alloc.Phase{Beta: b, Steps: 10})
		}
		return applies(DynamicQuery{Process: "greedy", D: 2, N: n, Model: alloc.DeleteRandom, Phases: ph})
	}
	good, low := rnd(0.7), rnd(0.7, 0.4)
	if !good["discrepancy, good insertion sequences [BFKN25]"].Applies || good["discrepancy lower bound, random deletions [BFKN25]"].Applies {
		t.Error("β = 0.7: the good-sequence bound must apply and the lower bound not")
	}
	if low["discrepancy, good insertion sequences [BFKN25]"].Applies || !low["discrepancy lower bound, random deletions [BFKN25]"].Applies {
		t.Error("β ending at 0.4: the lower bound must apply and the good-sequence bound not")
	}
	if rnd(0.4)["discrepancy lower bound, random deletions [BFKN25]"].Applies {
		t.Error("β = 0.4 from empty bins (O(1) balls in expectation): the lower bound applied")
	}
	if rnd(1)["overload, random deletions [BFKN25]"].Applies {
		t.Error("overload bound applied at β = 1")
	}
	if b := applies(DynamicQuery{Process: "greedy", D: 3, N: n, Model: alloc.DeleteRandom, Phases: []alloc.Phase{{Beta: 0.6}}}); b["overload, random deletions [BFKN25]"].Applies {
		t.Error("[BFKN25] applied to d = 3")
	}
	if len(DynamicBounds(DynamicQuery{Process: "one-choice", D: 1, N: n, M: n, Model: alloc.DeleteABKU})) != 0 {
		t.Error("a bound for one-choice")
	}
}
