package alloc

import (
	"context"
	"reflect"
	"testing"
)

func TestProfileFromCounts(t *testing.T) {
	// 10 bins, 14 balls: loads 0×1, 1×6, 2×2, 4×1 (no bin at 3).
	got := ProfileFromCounts([]int64{1, 6, 2, 0, 1}, 14, 10)
	want := []ProfileLevel{{2.6, 1}, {0.6, 2}, {-0.4, 6}, {-1.4, 1}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range got {
		if got[i].Count != want[i].Count || abs(got[i].Value-want[i].Value) > 1e-12 {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if p := ProfileFromCounts([]int64{5}, 0, 5); !reflect.DeepEqual(p, []ProfileLevel{{0, 5}}) {
		t.Errorf("empty bins: %v", p)
	}
}

func TestProfileFromLoads(t *testing.T) {
	got := ProfileFromLoads([]float64{1.5, 0.5, 1.5, 4.5})
	want := []ProfileLevel{{2.5, 1}, {-0.5, 2}, {-1.5, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if ProfileFromLoads(nil) != nil {
		t.Error("profile of no bins")
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestHeavyGreedyProfile: Greedy[2] at m = 100n, n = 2^16, against the
// fluid limit at t = 100, which has settled to the stationary profile
// around the mean (shifted by one level, the tails at t = 99 and t = 100
// differ by less than 3e-13). The levels compared are the normalised loads
// −3..+3 around m/n = 100, i.e. s_97..s_103 (fluid: 0.99735, 0.98707,
// 0.93873, 0.74541, 0.30738, 0.024668, 7.27e-5); the tolerance is that of
// maxof_test.go. Negative control: the same runs
// against Greedy[3]'s fluid profile at t = 100.
func TestHeavyGreedyProfile(t *testing.T) {
	const n = 1 << 16
	const load = 100
	T := fluidTrials2p16()
	lv := []int{97, 98, 99, 100, 101, 102, 103}
	f := tailsOf(t, Greedy{D: 2}, n, load*n, T, 105, 100)
	want := fluidTails(t, MeanField{Family: FamilyGreedy, D: 2}, load)
	dev, at := deviation(f, want, lv, n)
	t.Logf("greedy[2], m = 100n: worst level %d (normalised %+d) at %.2f tolerances", at, at-load, dev)
	if dev > 1 {
		t.Errorf("level %d off the stationary fluid profile by %.2f tolerances", at, dev)
	}
	wrong := fluidTails(t, MeanField{Family: FamilyGreedy, D: 3}, load)
	if dev3, at3 := deviation(f, wrong, lv, n); dev3 <= 1 {
		t.Errorf("greedy[3]'s profile passed (%.2f tolerances)", dev3)
	} else {
		t.Logf("negative control greedy[3]: level %d at %.1f tolerances", at3, dev3)
	}
}

// TestVeryHeavy: m = 10^4·n runs without overflow (Counts checks that the
// loads add up to m), and the gap of Greedy[2] stays at its m = n size:
// at most 5 for n = 2^10, where ln ln n / ln 2 = 2.9 and the measured gap
// is 2 or 3; the profile is consistent with the counts.
func TestVeryHeavy(t *testing.T) {
	n := 1 << 10
	if testing.Short() {
		n = 1 << 8
	}
	m := int64(10000 * n)
	for _, p := range []Process{Greedy{D: 2}, OnePlusBeta{Beta: 0.5}, FirstDiff{D: 2}, Rank{D: 2.5}, Grouped{D: 4}} {
		c := Config{Process: p, N: n, M: m, Seed: 1, Every: m / 4}
		res, err := c.Trial(context.Background(), 0, NewBins(n))
		if err != nil {
			t.Fatalf("%s: %v", p.Name(), err)
		}
		var balls, bins int64
		for l, k := range res.LoadCounts {
			balls += int64(l) * k
			bins += k
		}
		if balls != m || bins != int64(n) || len(res.Series) != 4 {
			t.Fatalf("%s: %d balls in %d bins, %d series points", p.Name(), balls, bins, len(res.Series))
		}
		prof := ProfileFromCounts(res.LoadCounts, m, n)
		if prof[0].Value != res.Gap {
			t.Errorf("%s: profile top %v, gap %v", p.Name(), prof[0].Value, res.Gap)
		}
		t.Logf("%s: m = 10^4 n, gap %v, spread %v", p.Name(), res.Gap, res.MaxLoad-res.MinLoad)
		if p.Name() == "greedy" && res.Gap > 5 {
			t.Errorf("greedy[2] gap %v at m = 10^4 n", res.Gap)
		}
	}
}
