package alloc

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/graphgen"
)

// levelsCases are the processes the level engine runs, at the n of the
// comparison with the per-bin engine.
func levelsCases(n int) []struct {
	name string
	p    Process
} {
	return []struct {
		name string
		p    Process
	}{
		{"one-choice", OneChoice{}},
		{"greedy/d=2", Greedy{D: 2}},
		{"greedy/d=3", Greedy{D: 3}},
		{"left/d=2", Left{D: 2}},
		{"left/d=3", Left{D: 3}},
		{"left/d=3/random", Left{D: 3, Ties: TiesRandom}},
		{"unbalanced/d=2", MaxOf{D: 2}},
		{"one-plus-beta/beta=0.3", OnePlusBeta{Beta: 0.3}},
		{"firstdiff/d=2", FirstDiff{D: 2}},
		{"rank/d=1.5", Rank{D: 1.5}},
		{"rank/d=2", Rank{D: 2}},
		{"graph/complete", Graphical{Graph: graphgen.Complete(n)}},
		{"local-search/complete", LocalSearch{Graph: graphgen.Complete(n)}},
		{"graph/complete/beta=0.4", Graphical{Graph: graphgen.Complete(n), OneMinusBeta: 0.6}},
		{"g-bounded/g=2", GBounded{Tolerance: 2}},
		{"g-bounded/g=1/left/K_n", GBounded{Tolerance: 1, Graph: graphgen.Complete(n), Ties: TiesLeft}},
		{"g-myopic/g=2", GMyopic{Tolerance: 2}},
		{"noisy/sigma=1.5", Noisy{Sigma: 1.5}},
		{"twinning", Twinning{}},
		{"packing", Packing{}},
		{"quantile/delta=0.5", Quantile{Delta: 0.5}},
		{"quantile/delta=0.3", Quantile{Delta: 0.3}},
	}
}

// trialTails runs T trials of c and returns, for each trial, the fraction
// of bins with load ≥ l for l = 0..len-1 (as long as the longest trial's
// load counts), and the trial results.
func trialTails(t *testing.T, c Config, T int) ([][]float64, []Result) {
	t.Helper()
	ids := make([]int, T)
	for i := range ids {
		ids[i] = i
	}
	var rs []Result
	if err := Run(context.Background(), c, ids, 0, func(r Result) error { rs = append(rs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	top := 0
	for _, r := range rs {
		top = max(top, len(r.LoadCounts))
	}
	var f [][]float64
	for _, r := range rs {
		x := make([]float64, top+1)
		for l := len(r.LoadCounts) - 1; l >= 0; l-- {
			x[l] = x[l+1] + float64(r.LoadCounts[l])/float64(c.N)
		}
		f = append(f, x)
	}
	return f, rs
}

// tailsDistance compares two samples of tail fractions level by level and
// returns the largest |mean_a − mean_b| / tolerance and its level. The
// tolerance is q·se + 1/(nT): se the standard error of the difference of
// two independent means (Welch), q the 1 − 1e-6/2 quantile of Student's t
// with T − 1 degrees of freedom, so that equal laws fail a level with
// probability about 1e-6 (the seeds are fixed: the test is deterministic);
// 1/(nT), the resolution of a mean, keeps a level that neither sample
// reaches more than once from failing on a zero variance.
func tailsDistance(a, b [][]float64, n int) (float64, int) {
	T := float64(min(len(a), len(b)))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: T - 1}.Quantile(1 - 1e-6/2)
	meanVar := func(f [][]float64, l int) (float64, float64) {
		var mean, ss float64
		for _, x := range f {
			if l < len(x) {
				mean += x[l]
			}
		}
		mean /= float64(len(f))
		for _, x := range f {
			v := 0.0
			if l < len(x) {
				v = x[l]
			}
			ss += (v - mean) * (v - mean)
		}
		return mean, ss / float64(len(f)-1) / float64(len(f))
	}
	levels := max(len(a[0]), len(b[0]))
	for _, x := range append(slices.Clone(a), b...) {
		levels = max(levels, len(x))
	}
	worst, at := 0.0, 0
	for l := 1; l < levels; l++ {
		ma, va := meanVar(a, l)
		mb, vb := meanVar(b, l)
		tol := q*math.Sqrt(va+vb) + 1/(float64(n)*T)
		if d := math.Abs(ma-mb) / tol; d > worst {
			worst, at = d, l
		}
	}
	return worst, at
}

// TestLevelsMatchBins: the level engine and the per-bin engine give the
// same law of the load counts. For every supported process, T trials of
// each engine; the mean fraction of bins with load ≥ l must agree at every
// level within the tolerance of tailsDistance. Two regimes: m = n, and
// m = 40n on few bins, where the loads span more than 16 levels (the binary
// search) and the least load rises (the histogram drops its bottom).
func TestLevelsMatchBins(t *testing.T) {
	T := 64
	if testing.Short() {
		T = 24
	}
	for _, reg := range []struct {
		name string
		n    int
		m    int64
	}{
		{"m=n", 1 << 12, 1 << 12},
		{"m=40n", 64, 40 * 64},
	} {
		for _, tc := range levelsCases(reg.n) {
			t.Run(reg.name+"/"+tc.name, func(t *testing.T) {
				c := Config{Process: tc.p, N: reg.n, M: reg.m, Seed: 17}
				bins, _ := trialTails(t, c, T)
				c.Process, c.Engine = tc.p, EngineLevels
				c.Seed = 18 // independent of the per-bin trials
				lev, rs := trialTails(t, c, T)
				d, at := tailsDistance(bins, lev, reg.n)
				if d > 1 {
					t.Errorf("level %d differs by %.2f tolerances", at, d)
				}
				t.Logf("worst level %d at %.2f tolerances", at, d)
				// Probes are those of the per-bin engine.
				if p, ok := tc.p.(Greedy); ok && rs[0].Probes != reg.m*int64(p.D) {
					t.Errorf("probes %d", rs[0].Probes)
				}
			})
		}
	}
}

// TestLevelsNegativeControls: the comparison tells neighbouring processes
// apart, or it would prove nothing.
func TestLevelsNegativeControls(t *testing.T) {
	const n, T = 1 << 14, 24
	cases := []struct {
		name     string
		bins, lv Process
		m        int64 // balls; n if 0
	}{
		{"greedy3-vs-levels-greedy2", Greedy{D: 3}, Greedy{D: 2}, 0},
		{"greedy2-vs-levels-left2", Greedy{D: 2}, Left{D: 2}, 0},
		{"left2-random-vs-levels-left2", Left{D: 2, Ties: TiesRandom}, Left{D: 2}, 0},
		{"one-choice-vs-levels-beta0.3", OneChoice{}, OnePlusBeta{Beta: 0.3}, 0},
		{"g-bounded1-vs-levels-g-myopic1", GBounded{Tolerance: 1}, GMyopic{Tolerance: 1}, 0},
		{"noisy1-vs-levels-noisy0.5", Noisy{Sigma: 1}, Noisy{Sigma: 0.5}, 0},
		// Twinning and packing coincide up to m = n (a bin below the
		// average is empty, and either gives it two balls).
		{"one-choice-vs-levels-twinning", OneChoice{}, Twinning{}, 4 * n},
		{"twinning-vs-levels-packing", Twinning{}, Packing{}, 4 * n},
		{"quantile0.5-vs-levels-quantile0.4", Quantile{Delta: 0.5}, Quantile{Delta: 0.4}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m
			if m == 0 {
				m = n
			}
			bins, _ := trialTails(t, Config{Process: tc.bins, N: n, M: m, Seed: 17}, T)
			lev, _ := trialTails(t, Config{Process: tc.lv, Engine: EngineLevels, N: n, M: m, Seed: 18}, T)
			if d, _ := tailsDistance(bins, lev, n); d <= 1 {
				t.Errorf("different processes passed (worst %.2f tolerances)", d)
			} else {
				t.Logf("rejected at %.1f tolerances", d)
			}
		})
	}
}

// TestLevelsStepsSplit: a trial of twinning or packing on the level engine
// does not depend on how its balls are split into calls (a step cut by a
// call's end is completed by the next, as on the per-bin engine): the same
// seed with a sample every 7 balls gives the very load counts of one call.
func TestLevelsStepsSplit(t *testing.T) {
	for _, p := range []Process{Twinning{}, Packing{}} {
		for _, m := range []int64{1, 3, 1000, 20000} {
			c := Config{Process: p, Engine: EngineLevels, N: 1000, M: m, Seed: 5}
			whole, err := c.Trial(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.Every = 7
			split, err := c.Trial(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(whole.LoadCounts, split.LoadCounts) || whole.Probes != split.Probes {
				t.Errorf("%v, m = %d: load counts %v in one call, %v in calls of 7", p, m, whole.LoadCounts, split.LoadCounts)
			}
		}
	}
}

// TestLevelsResult: a trial's result is internally consistent and
// reproducible, whatever the workers.
func TestLevelsResult(t *testing.T) {
	for _, tc := range levelsCases(1000) {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Process: tc.p, Engine: EngineLevels, N: 1000, M: 5000, Seed: 3, Every: 1000, Profile: true}
			var first []Result
			for _, w := range []int{1, 2} {
				var rs []Result
				if err := Run(context.Background(), c, []int{0, 1, 2}, w, func(r Result) error { rs = append(rs, r); return nil }); err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = rs
				} else if !reflect.DeepEqual(rs, first) {
					t.Fatal("results depend on the workers")
				}
			}
			for _, r := range first {
				var bins, balls int64
				for l, x := range r.LoadCounts {
					bins += x
					balls += int64(l) * x
				}
				if bins != 1000 || balls != 5000 {
					t.Fatalf("counts hold %d balls in %d bins", balls, bins)
				}
				if int(r.MaxLoad) != len(r.LoadCounts)-1 || r.LoadCounts[int(r.MinLoad)] == 0 || r.Gap != r.MaxLoad-5 {
					t.Fatalf("max %v min %v gap %v for counts %v", r.MaxLoad, r.MinLoad, r.Gap, r.LoadCounts)
				}
				if len(r.Series) != 5 || r.Series[4].Balls != 5000 || r.Series[4].Gap != r.Gap || r.Series[4].Spread != r.MaxLoad-r.MinLoad {
					t.Fatalf("series %+v", r.Series)
				}
				if !reflect.DeepEqual(r.Profile, ProfileFromCounts(r.LoadCounts, 5000, 1000)) {
					t.Fatalf("profile %v", r.Profile)
				}
				// A probe a ball or more; a probe a step, fewer, for
				// twinning and packing.
				lo := int64(5000)
				if severalPerStep(tc.p) {
					lo = 1
				}
				if r.Probes < lo || r.MaxProbes < 1 {
					t.Fatalf("probes %d, max %d", r.Probes, r.MaxProbes)
				}
			}
		})
	}
}

// TestLevelsHugeN: n = 2^62 bins. With 10^5 balls a collision has
// probability about 10^10/2^62 ≈ 2·10^-9, so each ball lands in an empty
// bin (deterministic for the fixed seed).
func TestLevelsHugeN(t *testing.T) {
	const n, m = 1 << 62, 100000
	for _, p := range []Process{OneChoice{}, Greedy{D: 2}, Left{D: 4}, Rank{D: 2.5}} {
		c := Config{Process: p, Engine: EngineLevels, N: n, M: m, Seed: 1}
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
		r, err := c.Trial(context.Background(), 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.LoadCounts, []int64{n - m, m}) || r.MaxLoad != 1 {
			t.Errorf("%s: counts %v", p.Name(), r.LoadCounts)
		}
	}
}

func TestLevelsCheck(t *testing.T) {
	reg, _, err := graphgen.FromEdges(3, []uint32{0, 1, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]Config{
		"nil":          {Engine: EngineLevels, N: 10},
		"graph/csr":    {Process: Graphical{Graph: reg}, Engine: EngineLevels, N: 3},
		"weighted":     {Process: Weighted{D: 2}, Engine: EngineLevels, N: 10},
		"n=0":          {Process: Greedy{D: 2}, Engine: EngineLevels},
		"n>2^62":       {Process: Greedy{D: 2}, Engine: EngineLevels, N: 1<<62 + 1},
		"greedy/d=0":   {Process: Greedy{}, Engine: EngineLevels, N: 10},
		"left/d>n":     {Process: Left{D: 4}, Engine: EngineLevels, N: 3},
		"rank/d=0.5":   {Process: Rank{D: 0.5}, Engine: EngineLevels, N: 10},
		"graph/K1":     {Process: Graphical{Graph: graphgen.Complete(1)}, Engine: EngineLevels, N: 1},
		"graph/orders": {Process: Graphical{Graph: graphgen.Complete(5)}, Engine: EngineLevels, N: 6},
	} {
		if err := c.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		} else if testing.Verbose() {
			fmt.Println(name+":", err)
		}
	}
	if !levelsSupport(Graphical{Graph: graphgen.Complete(4)}) || levelsSupport(Graphical{Graph: reg}) {
		t.Error("LevelsSupport on graphs")
	}
	if !levelsSupport(Noisy{}) || !levelsSupport(GMyopic{Graph: graphgen.Complete(4)}) || levelsSupport(GBounded{Graph: reg}) {
		t.Error("LevelsSupport of the two-sample rules")
	}
	if c := (Config{Process: GBounded{Graph: reg}, Engine: EngineLevels, N: 3}); c.Check() == nil {
		t.Error("g-bounded on a CSR graph: accepted by the level engine")
	}
	// The level engine draws no walk: accepting walk sampling, it would
	// run the graph process under walk:len=3 as Greedy[2], and the
	// two-sample rules under walk:len=0 as themselves, not as one-choice.
	for _, p := range []Rule{
		Graphical{Graph: graphgen.Complete(10), Sample: SampleWalk(3)},
		GBounded{Graph: graphgen.Complete(10), Sample: SampleWalk(0)},
		GMyopic{Sample: SampleWalk(1)},
		Noisy{Graph: graphgen.Complete(10), Sample: SampleWalk(2)},
	} {
		if c := (Config{Process: p, Engine: EngineLevels, N: 10}); c.Check() == nil {
			t.Errorf("%v under walk sampling: accepted by the level engine", p)
		}
	}
}

// TestTailsLevel checks the level search, the linear and the binary path,
// against its definition on random histograms.
func TestTailsLevel(t *testing.T) {
	r := NewRand(5)
	for trial := range 2000 {
		k := 1 + int(r.Uint64n(40))
		n := 1 + r.Uint64n(1000)
		h := tails{n: n, t: []uint64{n}}
		for len(h.t) < k {
			h.t = append(h.t, 1+r.Uint64n(h.t[len(h.t)-1]))
		}
		u := r.Uint64n(n)
		want := 0
		for j := range h.t {
			if h.t[j] > u {
				want = j
			}
		}
		if got := h.level(u); got != want {
			t.Fatalf("trial %d: level(%d) = %d, want %d in %v", trial, u, got, want, h.t)
		}
	}
}

// TestLevelsOneBin: with one bin every process puts every ball in it; the
// histogram drops its bottom level at every ball.
func TestLevelsOneBin(t *testing.T) {
	for _, tc := range levelsCases(1) {
		if _, ok := tc.p.(Graphical); ok {
			continue // K_1 has no edge
		}
		if l, ok := tc.p.(Left); ok && l.D > 1 {
			continue // Left[d] needs d ≤ n
		}
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Process: tc.p, Engine: EngineLevels, N: 1, M: 1000, Seed: 1}
			r, err := c.Trial(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.LoadCounts) != 1001 || r.LoadCounts[1000] != 1 || r.MinLoad != 1000 || r.Gap != 0 {
				t.Fatalf("max %v min %v, %d counts", r.MaxLoad, r.MinLoad, len(r.LoadCounts))
			}
		})
	}
}

// TestGreedyRegsExact: the register histogram (greedyRegs) runs exactly
// the chain of the plain one (greedySlice): the same draws give the same
// histogram, including across its exits (more than 5 levels) and returns.
func TestGreedyRegsExact(t *testing.T) {
	for _, tc := range []struct {
		n uint64
		m int64
		d int
	}{
		{1, 100, 2}, {2, 1000, 2}, {1000, 1000, 1}, {1000, 30000, 1},
		{1 << 20, 1 << 20, 2}, {5000, 200000, 2}, {777, 5000, 3}, {1e12, 1e6, 2},
	} {
		a, b := newTails(tc.n), newTails(tc.n)
		ra, rb := NewRand(8), NewRand(8)
		greedySlice(&a, tc.m, tc.d, ra)
		levelsGreedy(&b, tc.m/3, tc.d, rb)
		levelsGreedy(&b, tc.m-tc.m/3, tc.d, rb)
		if !reflect.DeepEqual(a.t, b.t) || a.base != b.base || ra.state != rb.state {
			t.Errorf("n=%d m=%d d=%d: slice %d+%v, registers %d+%v", tc.n, tc.m, tc.d, a.base, a.t, b.base, b.t)
		}
	}
}
