package alloc_test

import (
	"context"
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
)

// TestMaskingOps checks the sequence's shape: each round inserts the
// fillers and a survivor and deletes that round's fillers, so that the
// survivors alone are left, and at most survivors + fillers balls are
// present at a time.
func TestMaskingOps(t *testing.T) {
	const s, f = 5, 3
	ops, err := alloc.MaskingOps(s, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != s*(2*f+1) {
		t.Fatalf("%d operations, want %d", len(ops), s*(2*f+1))
	}
	var inserted, present, most int64
	gone := map[int64]bool{}
	for _, op := range ops {
		if op.Delete == 0 {
			inserted++
			present++
		} else {
			if op.Delete > inserted || gone[op.Delete] {
				t.Fatalf("delete %d: not present", op.Delete)
			}
			gone[op.Delete] = true
			present--
		}
		most = max(most, present)
	}
	if present != s || most > s+f {
		t.Errorf("%d balls left, at most %d present; want %d and ≤ %d", present, most, s, s+f)
	}
	for k := int64(f + 1); k <= inserted; k += f + 1 { // the survivors
		if gone[k] {
			t.Errorf("survivor %d deleted", k)
		}
	}
	for _, c := range [][2]int64{{0, 3}, {4, -1}, {1 << 25, 0}, {1 << 24, 1 << 10}, {1 << 14, 1 << 12}} {
		if _, err := alloc.MaskingOps(c[0], c[1]); err == nil {
			t.Errorf("MaskingOps(%d, %d): no error", c[0], c[1])
		}
	}
}

// TestParseMasking checks the model's parameters: the default fillers,
// and a refusal of negative, repeated, unknown and too large values.
func TestParseMasking(t *testing.T) {
	if s, f, err := alloc.ParseMasking("survivors=100"); err != nil || s != 100 || f != alloc.MaskingFillers(100) {
		t.Errorf("survivors=100: %d, %d, %v", s, f, err)
	}
	if s, f, err := alloc.ParseMasking("fillers=0,survivors=9"); err != nil || s != 9 || f != 0 {
		t.Errorf("fillers=0,survivors=9: %d, %d, %v", s, f, err)
	}
	for _, bad := range []string{"", "survivors=100,fillers=-7", "survivors=-1", "survivors=4,survivors=5", "fillers=3", "survivors=4,x=1", "survivors=1e3", "survivors=65536"} {
		if _, _, err := alloc.ParseMasking(bad); err == nil {
			t.Errorf("ParseMasking(%q) accepted", bad)
		}
	}
}

// TestMaskingGap runs 4 bins, m = 1024 survivors, 40 trials, fixed seed.
// One-choice under the sequence must match the exact expected max of
// uniform placement (analysis.ExpectedMaxUniform) within the trials' 99.9%
// interval: a check of the sequence engine against an independent
// prediction. Greedy[2] under it must stay above 0.25√m (its measured mean
// is about 0.42√m; uniform placement gives 0.52√m), and, the negative
// control, Greedy[2] with the same 1024 balls inserted alone below 3.
func TestMaskingGap(t *testing.T) {
	const m, trials = 1024, 40
	ops, err := alloc.MaskingOps(m, alloc.MaskingFillers(m))
	if err != nil {
		t.Fatal(err)
	}
	gaps := func(p alloc.Rule, ops []alloc.Op) analysis.Summary {
		c := alloc.Dynamic{Process: p, N: 4, Steps: int64(len(ops)), Del: alloc.Deletions{Model: alloc.DeleteSequence, Ops: ops}, Seed: 7}
		var x []float64
		idx := make([]int, trials)
		for i := range idx {
			idx[i] = i
		}
		if err := alloc.RunDynamic(context.Background(), c, idx, 2, func(r alloc.DynamicResult) error {
			if r.Balls != m {
				t.Fatalf("%d balls at the end, want %d", r.Balls, m)
			}
			x = append(x, r.Discrepancy)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return analysis.Summarize(x)
	}
	exact, err := analysis.ExpectedMaxUniform(4, m)
	if err != nil {
		t.Fatal(err)
	}
	exact -= m / 4
	one := gaps(alloc.OneChoice{}, ops)
	// 99.9% two-sided Student t with 39 degrees of freedom: 3.558.
	if tol := 3.558 * one.Std / math.Sqrt(trials); math.Abs(one.Mean-exact) > tol {
		t.Errorf("one-choice, masked: x_max − m/4 = %.3f, exact %.3f, outside ±%.3f", one.Mean, exact, tol)
	}
	g := gaps(alloc.Greedy{D: 2}, ops)
	if g.CI95[0] < 0.25*math.Sqrt(m) {
		t.Errorf("Greedy[2], masked: x_max − m/4 = %.3f (95%% CI %v), want above %.1f", g.Mean, g.CI95, 0.25*math.Sqrt(m))
	}
	alone := gaps(alloc.Greedy{D: 2}, make([]alloc.Op, m))
	if alone.CI95[1] > 3 {
		t.Errorf("Greedy[2], inserts only: x_max − m/4 = %.3f (95%% CI %v), want below 3", alone.Mean, alone.CI95)
	}
	t.Logf("m = %d: one-choice %.2f (exact %.2f), Greedy[2] masked %.2f = %.3f√m, inserts only %.2f", m, one.Mean, exact, g.Mean, g.Mean/math.Sqrt(m), alone.Mean)
}
