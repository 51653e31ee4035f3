package analysis

import (
	"math"
	"strings"
	"testing"
)

// TestBoundsBatched: with Query.Batch = b > 1 the statements about balls
// placed one at a time do not apply (one-choice's do: it reads no load),
// the batched ones do where their b and m fit, and a sequential query lists
// none of them. Values at n = 2^16 (constants at the top of bounds_test.go).
func TestBoundsBatched(t *testing.T) {
	const n = 65536
	seq := Bounds(Query{N: n, M: 16 * n, Process: "greedy"})
	for _, b := range seq {
		if strings.Contains(b.Name, "batches") {
			t.Errorf("a sequential query lists %q", b.Name)
		}
	}
	bs := Bounds(Query{N: n, M: 16 * n, Process: "greedy", Batch: n})
	for _, tc := range []struct {
		name    string
		applies bool
		value   float64
	}{
		{"gap, any m [BCSV06]", false, 2.406076 / 0.693147},
		{"gap, batches of b = n [BCEFN12]", true, 16},
		{"gap, batches of b = n [LS22a]", true, 11.090355 / 2.406076},
		{"gap, batches of b in [n, n³] [LS22b]", true, 1 + 11.090355},
		{"gap, batches of b >= n log n [LS23]", false, 1},
	} {
		b := findBound(t, bs, "greedy", tc.name)
		if b.Applies != tc.applies || math.Abs(b.Value-tc.value) > 1e-5*tc.value {
			t.Errorf("%s: applies %v (%s), value %.6g; want %v, %.6g", tc.name, b.Applies, b.Reason, b.Value, tc.applies, tc.value)
		}
	}
	if b := findBound(t, bs, "greedy", "gap, any m [BCSV06]"); !strings.Contains(b.Reason, "batches of b = 65536") {
		t.Errorf("the sequential bound does not say why: %q", b.Reason)
	}
	// b = 16n ≥ n ln n: Θ(b/n); m not a whole number of batches: none.
	b := findBound(t, Bounds(Query{N: n, M: 64 * n, Process: "greedy", Batch: 16 * n}), "greedy", "gap, batches of b >= n log n [LS23]")
	if !b.Applies || b.Value != 16 {
		t.Errorf("b = 16n: %+v", b)
	}
	b = findBound(t, Bounds(Query{N: n, M: 24 * n, Process: "greedy", Batch: 16 * n}), "greedy", "gap, batches of b >= n log n [LS23]")
	if b.Applies || !strings.Contains(b.Reason, "not a whole number of batches") {
		t.Errorf("m = 1.5 batches: %+v", b)
	}
	// d = 3: stated for two choices.
	b = findBound(t, Bounds(Query{N: n, M: n, D: 3, Process: "greedy", Batch: n}), "greedy", "gap, batches of b = n [LS22a]")
	if b.Applies {
		t.Errorf("d = 3: %+v", b)
	}
	// One-choice ignores the loads: its bounds still apply in batches.
	b = findBound(t, Bounds(Query{N: n, M: n, Process: "one-choice", Batch: 1024}), "one-choice", "max load, m = n [RS98]")
	if !b.Applies {
		t.Errorf("one-choice in batches: %+v", b)
	}
	// (1+β) with b in [n, n ln n]: Θ(log n).
	b = findBound(t, Bounds(Query{N: n, M: 4 * n, Beta: 0.5, Process: "one-plus-beta", Batch: 4 * n}), "one-plus-beta", "gap, batches of b in [n, n log n], (1+β) [LS22b]")
	if !b.Applies || math.Abs(b.Value-11.090355) > 1e-5 {
		t.Errorf("(1+β), b = 4n: %+v", b)
	}
	// Processes that do not run in batches get no batched bound.
	for _, b := range Bounds(Query{N: n, M: n, Process: "rank", D: 2, Batch: n}) {
		if strings.Contains(b.Name, "batches") {
			t.Errorf("rank lists %q", b.Name)
		}
	}
	if err := (Query{N: n, M: n, Batch: 0.5}).Validate(); err == nil {
		t.Error("batch 0.5 accepted")
	}
}

// TestBoundsGraphicalBeta: for graph with GraphBeta = β < 1 the
// two-choice statements do not apply, except the dense core's and
// [BF22]'s, which hold for any way of placing a ball at an end of its edge;
// [PTW15]'s O(log n / (βσ)) applies on a regular graph of known σ, and on
// K_n the (1+β) statement, heavily loaded. A two-choice query lists neither.
func TestBoundsGraphicalBeta(t *testing.T) {
	const n = 65536
	for _, b := range Bounds(Query{N: n, M: n, Process: "graph", Topology: "regular", Degree: 16, Expansion: 0.25}) {
		if strings.Contains(b.Name, "(1+β)") {
			t.Errorf("a two-choice query lists %q", b.Name)
		}
	}
	bs := Bounds(Query{N: n, M: 1000 * n, Process: "graph", Topology: "regular", Degree: 16, Expansion: 0.25, GraphBeta: 0.5})
	b := findBound(t, bs, "graph", "gap, graphical (1+β), edge expansion σ, any m [PTW15]")
	if !b.Applies || b.Value != 16/(0.5*0.25) || b.Order != "O" {
		t.Errorf("O(log n / (βσ)): %+v", b)
	}
	if b := findBound(t, bs, "graph", "gap, edge expansion σ, any m [PTW15]"); b.Applies {
		t.Errorf("two-choice's O(log n / σ) applies to β = 0.5: %+v", b)
	}
	if b := findBound(t, bs, "graph", "max − min, any allocation strategy [BF22]"); !b.Applies {
		t.Errorf("[BF22] holds for every strategy: %+v", b)
	}
	bs = Bounds(Query{N: n, M: 1000 * n, Process: "graph", GraphBeta: 0.5})
	b = findBound(t, bs, "graph", "gap, graphical (1+β), complete graph, heavily loaded [PTW15]")
	// Θ(log₂ n / β), heavy from ln n / β² = 44.36.
	if !b.Applies || b.Value != 32 || math.Abs(b.HeavyFrom-11.090355/0.25) > 1e-4 {
		t.Errorf("K_n: %+v", b)
	}
	if b := findBound(t, bs, "graph", "gap, complete graph, any m [BCSV06]"); b.Applies {
		t.Errorf("two-choice's gap applies to β = 0.5 on K_n: %+v", b)
	}
}
