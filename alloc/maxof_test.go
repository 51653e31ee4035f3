package alloc

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// refBall places one ball of the processes it covers (MaxOf, OnePlusBeta,
// FirstDiff, Grouped, Window) by their plain references, drawing from r in
// the order the fast loops do, and returns the chosen bin, the candidates,
// the bins the choice must be least loaded among (nil: all candidates) and
// whether it must be the MOST loaded instead. refPlace checks the contract
// and applies the ball.
func refBall(t *testing.T, p Process, L []uint32, r *Rand) (c uint64, cands, within []uint64, most bool) {
	t.Helper()
	switch p := p.(type) {
	case MaxOf:
		c, cands = refMaxOf(p, L, r)
		return c, cands, nil, true
	case OnePlusBeta:
		c, cands = refOnePlusBeta(p, L, r)
	case FirstDiff:
		c, cands = refFirstDiff(t, p, L, r)
	case Grouped:
		c, cands, within = refTwoRanges(t, L, p.D/2, true, p.Ties == TiesRandom, r)
	case Window:
		c, cands, within = refTwoRanges(t, L, p.D/2, false, p.Ties == TiesRandom, r)
	default:
		t.Fatalf("no reference for %T", p)
	}
	return c, cands, within, false
}

// refMaxOf: D uniform bins, the first of the most loaded wins.
func refMaxOf(p MaxOf, L []uint32, r *Rand) (uint64, []uint64) {
	var cands []uint64
	for range p.D {
		cands = append(cands, r.Uint64n(uint64(len(L))))
	}
	c := cands[0]
	for _, x := range cands[1:] {
		if L[x] > L[c] {
			c = x
		}
	}
	return c, cands
}

func TestMaxOfTieRulesAgree(t *testing.T) {
	a, b := NewBins(100), NewBins(100)
	MaxOf{D: 3, Ties: TiesRandom}.Place(a, 1000, NewRand(7))
	MaxOf{D: 3, Ties: TiesLeft}.Place(b, 1000, NewRand(7))
	if !slices.Equal(a.Loads(), b.Loads()) {
		t.Fatal("tie rules differ for unbalanced")
	}
}

// Statistical tests of these processes: the measured fraction of bins with load ≥ i
// against the fluid limit (analysis.Tails), with the tolerance of
// fluid_test.go: |mean − s_i| ≤ q·se + 5/n, se the standard error of the
// mean over T trials, q the 1 − 1e-6/2 quantile of Student's t with T − 1
// degrees of freedom (a correct simulator fails a level with probability
// about 1e-6) and 5/n for the O(1/n) finite-n bias of the mean-field limit
// [Kurtz 1970]. Seeds are fixed, so the tests are deterministic.

// fluidTrials2p16 is T for the fluid tests at n = 2^16: 24 as in fluid_test.go,
// 8 in short mode (the tolerance widens with the t quantile and 1/sqrt(T)).
func fluidTrials2p16() int {
	if testing.Short() {
		return 8
	}
	return 24
}

// tailsOf runs T trials of p on n bins, m = t·n balls, and returns each
// trial's fraction of bins with load ≥ i for i < levels.
func tailsOf(t *testing.T, p Process, n int, m int64, trials, levels int, seed uint64) [][]float64 {
	t.Helper()
	var out [][]float64
	b := NewBins(n)
	c := Config{Process: p, N: n, M: m, Seed: seed}
	for i := range trials {
		res, err := c.Trial(t.Context(), i, b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tailsFromCounts(res.LoadCounts, n, levels))
	}
	return out
}

// tailsFromCounts returns f[i] = fraction of bins with load ≥ i, i < levels.
func tailsFromCounts(counts []int64, n, levels int) []float64 {
	f := make([]float64, levels)
	for i := range levels {
		for l := i; l < len(counts); l++ {
			f[i] += float64(counts[l])
		}
		f[i] /= float64(n)
	}
	return f
}

// deviation returns the largest |mean − want[i]| / tolerance over the
// levels in lv, and where it occurs.
func deviation(f [][]float64, want []float64, lv []int, n int) (worst float64, at int) {
	T := float64(len(f))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: T - 1}.Quantile(1 - 1e-6/2)
	for _, i := range lv {
		var mean, ss float64
		for _, x := range f {
			mean += x[i]
		}
		mean /= T
		for _, x := range f {
			ss += (x[i] - mean) * (x[i] - mean)
		}
		se := math.Sqrt(ss / (T - 1) / T)
		w := 0.0
		if i < len(want) {
			w = want[i]
		}
		if d := math.Abs(mean-w) / (q*se + 5/float64(n)); d > worst {
			worst, at = d, i
		}
	}
	return worst, at
}

func levelsUpTo(k int) []int {
	lv := make([]int, k)
	for i := range lv {
		lv[i] = i + 1
	}
	return lv
}

// fluidTails solves the mean-field ODE of fp, ds_i/dt = rate(s_{i−1}, s_i),
// up to time load with the classical fourth-order Runge–Kutta method at a
// fixed step of 1e-3 (local error O(h^5): far below any tolerance here). It
// is a second solver, independent of package analysis's adaptive one, which
// the internal tests of this package cannot import. Tails below 1e-300 are
// dropped, as analysis.Tails drops them.
func fluidTails(t *testing.T, fp MeanField, load float64) []float64 {
	t.Helper()
	pow := func(x float64, d int) float64 { return math.Pow(x, float64(d)) }
	var rate func(a, b float64) float64
	switch fp.Family {
	case FamilyOneChoice:
		rate = func(a, b float64) float64 { return a - b }
	case FamilyGreedy:
		rate = func(a, b float64) float64 { return pow(a, fp.D) - pow(b, fp.D) }
	case FamilyMaxOf:
		rate = func(a, b float64) float64 { return pow(1-b, fp.D) - pow(1-a, fp.D) }
	case FamilyOnePlusBeta:
		rate = func(a, b float64) float64 { return (1-fp.Beta)*(a-b) + fp.Beta*(a*a-b*b) }
	default:
		t.Fatalf("no test ODE for %v", fp.Family)
	}
	levels := int(load) + 40
	deriv := func(s, ds []float64) {
		for i := 1; i < levels; i++ {
			ds[i] = rate(s[i-1], s[i])
		}
	}
	s := make([]float64, levels)
	s[0] = 1
	k1, k2, k3, k4, tmp := make([]float64, levels), make([]float64, levels), make([]float64, levels), make([]float64, levels), make([]float64, levels)
	steps := int(math.Ceil(load / 1e-3))
	h := load / float64(steps)
	for range steps {
		deriv(s, k1)
		for i := range tmp {
			tmp[i] = s[i] + h/2*k1[i]
		}
		deriv(tmp, k2)
		for i := range tmp {
			tmp[i] = s[i] + h/2*k2[i]
		}
		deriv(tmp, k3)
		for i := range tmp {
			tmp[i] = s[i] + h*k3[i]
		}
		deriv(tmp, k4)
		for i := 1; i < levels; i++ {
			s[i] += h / 6 * (k1[i] + 2*k2[i] + 2*k3[i] + k4[i])
		}
	}
	for len(s) > 1 && s[len(s)-1] < 1e-300 {
		s = s[:len(s)-1]
	}
	return s
}

// TestMaxOfFluid: MaxOf[d] against ds_i/dt = (1 − s_i)^d − (1 − s_{i−1})^d
// at n = m = 2^16, and against neighbouring predictions (negative controls:
// the tolerance must reject them).
func TestMaxOfFluid(t *testing.T) {
	const n = 1 << 16
	T := fluidTrials2p16()
	unb := func(d int) []float64 { return fluidTails(t, MeanField{Family: FamilyMaxOf, D: d}, 1) }
	// MaxOf spreads the loads: levels 1..7 hold fractions ≥ 1e-3 for d = 2
	// and 3 (fluid s_7 = 0.0019 and 0.0082), well resolved at this n.
	lv := levelsUpTo(7)
	for _, tc := range []struct {
		name   string
		d      int
		want   []float64
		reject bool
	}{
		{"d=2", 2, unb(2), false},
		{"d=3", 3, unb(3), false},
		{"d=2-vs-d=3", 2, unb(3), true},
		{"d=3-vs-d=2", 3, unb(2), true},
		{"d=2-vs-one-choice", 2, fluidTails(t, MeanField{Family: FamilyOneChoice}, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tailsOf(t, MaxOf{D: tc.d}, n, n, T, 8, 31)
			dev, at := deviation(f, tc.want, lv, n)
			switch {
			case !tc.reject && dev > 1:
				t.Errorf("level %d off the fluid limit by %.2f tolerances", at, dev)
			case tc.reject && dev <= 1:
				t.Errorf("a wrong prediction passed (worst %.2f tolerances)", dev)
			}
			t.Logf("worst level %d at %.2f tolerances", at, dev)
		})
	}
}

// TestNewProcess: every process is reachable by its command-line name, in
// any case, with its parameters.
func TestNewProcess(t *testing.T) {
	exp := WeightDist{Kind: WeightExp}
	for _, tc := range []struct {
		name string
		p    Params
		want Rule
	}{
		{"firstdiff", Params{D: 3, Cap: 5}, FirstDiff{D: 3, Cap: 5}},
		{"unbalanced", Params{D: 2}, MaxOf{D: 2}},
		{"one-plus-beta", Params{D: 2, Beta: 0.25}, OnePlusBeta{Beta: 0.25}},
		{"rank", Params{D: 2.5, Ties: TiesLeft}, Rank{D: 2.5}},
		{"grouped", Params{D: 4, Ties: TiesLeft}, Grouped{D: 4, Ties: TiesLeft}},
		{"window", Params{D: 6}, Window{D: 6}},
		{"weighted", Params{D: 2, Weights: exp}, Weighted{D: 2, Weights: exp}},
	} {
		got, err := NewProcess(tc.name, tc.p)
		if err != nil || got != tc.want || got.Name() != tc.name {
			t.Errorf("%s: got %#v, %v", tc.name, got, err)
		}
		if up, err := NewProcess(strings.ToUpper(tc.name), tc.p); err != nil || up != got {
			t.Errorf("%s: upper case gives %v, %v", tc.name, up, err)
		}
		if !slices.Contains(names(), tc.name) {
			t.Errorf("%s not listed", tc.name)
		}
	}
	for _, tc := range []struct {
		name string
		p    Params
	}{
		{"firstdiff", Params{D: 1.5}},
		{"unbalanced", Params{D: 0}},
		{"grouped", Params{D: 2.5}},
		{"rank", Params{D: 2, Ties: TiesRandom}},
		{"weighted", Params{D: 0.5}},
	} {
		if _, err := NewProcess(tc.name, tc.p); err == nil {
			t.Errorf("%s %+v accepted", tc.name, tc.p)
		}
	}
	for name, want := range map[string]Ties{"grouped": TiesLeft, "window": TiesLeft, "rank": TiesLeft, "firstdiff": TiesRandom, "greedy": TiesRandom} {
		if d, _ := Lookup(name); d.TiesFor(Params{}) != want {
			t.Errorf("%s: default tie rule %v, want %v", name, d.TiesFor(Params{}), want)
		}
	}
	if _, err := Lookup("Greedyy"); err == nil || !strings.Contains(err.Error(), `did you mean "greedy"`) {
		t.Errorf("Lookup(Greedyy): %v", err)
	}
}
