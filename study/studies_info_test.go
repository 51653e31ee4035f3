package study

import (
	"slices"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
)

// The frontier keeps the points no other beats on both probes and gap, as
// the tables print them: Memory[1, 1]'s 2 − 1/m probes tie Greedy[2]'s 2.
func TestFrontier(t *testing.T) {
	pt := func(label string, probes, gap float64) infoPoint {
		return infoPoint{rule: infoRule{label: label}, probes: probes, gap: analysis.Summary{Mean: gap}}
	}
	pts := []infoPoint{
		pt("one-choice", 1, 8),      // beaten by packing: fewer probes, smaller gap
		pt("packing", 0.5, 7),       // the fewest probes
		pt("threshold", 1.004, 4),   // beats mean-thinning
		pt("mean-thinning", 1.5, 6), // beaten by threshold
		pt("greedy", 2, 3),
		pt("memory", 1.9999995, 3),  // the same probes as greedy at three decimals
		pt("worse-greedy", 2, 3.25), // beaten by greedy at equal probes
	}
	var got []string
	for _, q := range frontier(pts) {
		got = append(got, q.rule.label)
	}
	if want := []string{"packing", "threshold", "greedy", "memory"}; !slices.Equal(got, want) {
		t.Errorf("frontier = %v, want %v", got, want)
	}
}

// The thresholds run at m = n only; every other rule runs at both loads.
func TestInfoRules(t *testing.T) {
	count := func(rs []infoRule, name string) int {
		k := 0
		for _, r := range rs {
			if r.name == name {
				k++
			}
		}
		return k
	}
	light, heavy := infoRules(1), infoRules(1000)
	th := alloc.Threshold{}.Name()
	if count(light, th) != len(infoThresholds) || count(heavy, th) != 0 {
		t.Errorf("thresholds: %d at m = n, %d at m = 1000n", count(light, th), count(heavy, th))
	}
	if len(light)-len(infoThresholds) != len(heavy) {
		t.Errorf("%d rules at m = n, %d at m = 1000n", len(light), len(heavy))
	}
}
