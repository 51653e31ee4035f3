package alloc

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseWeights(t *testing.T) {
	good := []struct {
		in   string
		want WeightDist
		mean float64
	}{
		{"const", WeightDist{}, 1},
		{"exp", WeightDist{Kind: WeightExp}, 1},
		{"pareto:shape=3", WeightDist{Kind: WeightPareto, Shape: 3}, 1.5},
		{"pareto:shape=0.5", WeightDist{Kind: WeightPareto, Shape: 0.5}, math.Inf(1)},
		{"uniform:a=0.5,b=1.5", WeightDist{Kind: WeightUniform, A: 0.5, B: 1.5}, 1},
		{"uniform:b=2,a=2", WeightDist{Kind: WeightUniform, A: 2, B: 2}, 2},
	}
	for _, tc := range good {
		w, err := ParseWeights(tc.in)
		if err != nil || w != tc.want || w.Mean() != tc.mean {
			t.Errorf("%q: got %+v (mean %g), %v", tc.in, w, w.Mean(), err)
			continue
		}
		if back, err := ParseWeights(w.String()); err != nil || back != w {
			t.Errorf("%q: String %q does not parse back", tc.in, w.String())
		}
	}
	for _, in := range []string{"", "gauss", "const:w=2", "exp:rate=1", "pareto", "pareto:shape=0",
		"pareto:shape=-1", "pareto:shape=x", "pareto:shape=inf", "pareto:alpha=2", "uniform:a=1",
		"uniform:a=2,b=1", "uniform:a=-1,b=1", "uniform:a=1,b=2,a=3", "uniform:a=1,b", "pareto:shape=NaN"} {
		if _, err := ParseWeights(in); err == nil {
			t.Errorf("%q accepted", in)
		} else if testing.Verbose() {
			t.Log(err)
		}
	}
}

func TestWeightedCheck(t *testing.T) {
	for _, p := range []Weighted{{D: 0}, {D: 2, Weights: WeightDist{Kind: WeightPareto}}, {D: 2, Weights: WeightDist{Kind: 9}}} {
		if p.Check(10) == nil {
			t.Errorf("%+v accepted", p)
		}
	}
	if _, ok := Rule(Weighted{D: 2}).(Process); ok {
		t.Error("Weighted is a Process: integer bins cannot hold its loads")
	}
}

// TestWeightMoments: the closed forms of the mean and variance, and
// Weighted's verdict on each: an infinite mean is refused (the gap max −
// average is undefined), an infinite variance accepted with a caveat.
func TestWeightMoments(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name           string
		w              WeightDist
		mean, variance float64
		accepted       bool
	}{
		{"const", WeightDist{}, 1, 0, true},
		{"exp", WeightDist{Kind: WeightExp}, 1, 1, true},
		// (2 − 0.5)²/12 = 2.25/12 = 0.1875.
		{"uniform", WeightDist{Kind: WeightUniform, A: 0.5, B: 2}, 1.25, 0.1875, true},
		// α = 3: mean 3/2, variance 3/(2²·1) = 0.75.
		{"pareto 3", WeightDist{Kind: WeightPareto, Shape: 3}, 1.5, 0.75, true},
		// α = 2: the borderline; E[W²] = ∫ x²·2x^−3 dx diverges (logarithmically).
		{"pareto 2", WeightDist{Kind: WeightPareto, Shape: 2}, 2, inf, true},
		{"pareto 1.5", WeightDist{Kind: WeightPareto, Shape: 1.5}, 3, inf, true},
		// α = 1: E[W] = ∫ x·x^−2 dx diverges too.
		{"pareto 1", WeightDist{Kind: WeightPareto, Shape: 1}, inf, inf, false},
		{"pareto 0.5", WeightDist{Kind: WeightPareto, Shape: 0.5}, inf, inf, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if m, v := tc.w.Mean(), tc.w.Variance(); m != tc.mean || !(v == tc.variance || math.Abs(v-tc.variance) <= 1e-15) {
				t.Errorf("mean %g variance %g, want %g %g", m, v, tc.mean, tc.variance)
			}
			fm, fv := tc.w.FiniteMoments()
			if fm != !math.IsInf(tc.mean, 1) || fv != !math.IsInf(tc.variance, 1) {
				t.Errorf("FiniteMoments = %v, %v", fm, fv)
			}
			err := Weighted{D: 2, Weights: tc.w}.Check(10)
			if (err == nil) != tc.accepted {
				t.Fatalf("Check: %v, want accepted %v", err, tc.accepted)
			}
			if err != nil && (!strings.Contains(err.Error(), "finite mean") || !strings.Contains(err.Error(), tc.w.String())) {
				t.Errorf("Check: %q does not name the distribution and the finite mean", err)
			}
			if c := tc.w.Caveat(); (c != "") != (tc.accepted && !fv) {
				t.Errorf("Caveat %q", c)
			}
		})
	}
	// The refusal reaches a run before any ball is thrown.
	c := Config{Process: Weighted{D: 2, Weights: WeightDist{Kind: WeightPareto, Shape: 0.5}}, N: 10, M: 10}
	ran := false
	err := Run(context.Background(), c, []int{0}, 1, func(Result) error { ran = true; return nil })
	if err == nil || ran || !strings.Contains(err.Error(), "finite mean") {
		t.Errorf("Run with pareto:shape=0.5: %v", err)
	}
}

// TestWeightedConstIsGreedy: with constant weight 1, weighted Greedy[d] is
// unweighted Greedy[d] draw for draw: the same loads bin by bin, and the
// same trial result (max, min, gap, series, probes), without LoadCounts.
func TestWeightedConstIsGreedy(t *testing.T) {
	for _, d := range []int{1, 2, 3} {
		const n, m = 1000, 20000
		F := make([]float64, n)
		Weighted{D: d}.PlaceWeighted(F, m, NewRand(8))
		b := NewBins(n)
		Greedy{D: d}.Place(b, m, NewRand(8))
		for i, l := range b.Loads() {
			if F[i] != float64(l) {
				t.Fatalf("d=%d: bin %d holds %g, Greedy %d", d, i, F[i], l)
			}
		}
		c := Config{Process: Greedy{D: d}, N: n, M: m, Seed: 12, Every: 999}
		want, err := c.Trial(context.Background(), 5, NewBins(n))
		if err != nil {
			t.Fatal(err)
		}
		c.Process = Weighted{D: d}
		got, err := c.Trial(context.Background(), 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.LoadCounts != nil {
			t.Error("weighted result has load counts")
		}
		want.LoadCounts = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("d=%d: weighted const %+v\n  greedy %+v", d, got, want)
		}
	}
}

// refWeighted is the plain reference: per ball d uniform bins (the first of
// the least loaded wins), then the weight by its textbook formula
// (−ln U, U^{−1/α} by math.Pow, a + (b−a)·V). Loads are compared with the
// fast loop's to a relative 1e-12 (exp(−ln U/α) and Pow round differently).
func refWeighted(p Weighted, L []float64, m int64, r *Rand) (total float64) {
	n := uint64(len(L))
	for range m {
		c := r.Uint64n(n)
		for j := 1; j < p.D; j++ {
			if x := r.Uint64n(n); L[x] < L[c] {
				c = x
			}
		}
		w := 1.0
		switch p.Weights.Kind {
		case WeightExp:
			w = -math.Log(float64(r.Uint64()>>11+1) / (1 << 53))
		case WeightPareto:
			w = math.Pow(float64(r.Uint64()>>11+1)/(1<<53), -1/p.Weights.Shape)
		case WeightUniform:
			w = p.Weights.A + (p.Weights.B-p.Weights.A)*float64(r.Uint64()>>11)/(1<<53)
		}
		if w < 0 {
			panic("negative weight")
		}
		L[c] += w
		total += w
	}
	return total
}

func TestWeightedContract(t *testing.T) {
	for _, w := range []string{"const", "exp", "pareto:shape=2.5", "uniform:a=0.5,b=1.5"} {
		for _, d := range []int{1, 2, 4} {
			dist, err := ParseWeights(w)
			if err != nil {
				t.Fatal(err)
			}
			p := Weighted{D: d, Weights: dist}
			const n, m = 300, 3000
			ref := make([]float64, n)
			total := refWeighted(p, ref, m, NewRand(77))
			L := make([]float64, n)
			r := NewRand(77)
			st := p.PlaceWeighted(L, m/3, r)
			st.Add(p.PlaceWeighted(L, m-m/3, r))
			var sum float64
			for i := range L {
				sum += L[i]
				if math.Abs(L[i]-ref[i]) > 1e-12*max(1, ref[i]) {
					t.Fatalf("%s d=%d: bin %d holds %g, reference %g", w, d, i, L[i], ref[i])
				}
			}
			if math.Abs(sum-total) > 1e-9*total || st.Probes != m*int64(d) || st.MaxProbes != int64(d) {
				t.Fatalf("%s d=%d: weight %g placed, %g drawn; stats %+v", w, d, sum, total, st)
			}
			// Same seed, same trial.
			c := Config{Process: p, N: n, M: m, Seed: 3}
			a, _ := c.Trial(context.Background(), 1, nil)
			b, _ := c.Trial(context.Background(), 1, nil)
			if !reflect.DeepEqual(a, b) || a.MaxLoad < a.MinLoad || a.Gap < 0 {
				t.Fatalf("%s d=%d: trial %+v then %+v", w, d, a, b)
			}
		}
	}
}

// TestWeightLaws checks the weights drawn against their distribution
// functions with the Dvoretzky–Kiefer–Wolfowitz inequality: the empirical
// CDF of N draws is within ε = sqrt(ln(2/α)/(2N)) of the true one everywhere
// with probability at least 1 − α; α = 1e-6. The negative controls compare
// each sample with a neighbouring law, which must be rejected.
func TestWeightLaws(t *testing.T) {
	N := 100000
	if testing.Short() {
		N = 20000
	}
	eps := math.Sqrt(math.Log(2/1e-6) / (2 * float64(N)))
	cdf := map[string]func(float64) float64{
		"exp":                 func(x float64) float64 { return 1 - math.Exp(-x) },
		"pareto:shape=2.5":    func(x float64) float64 { return 1 - math.Pow(max(x, 1), -2.5) },
		"uniform:a=0.5,b=1.5": func(x float64) float64 { return min(max(x-0.5, 0), 1) },
		"exp/1.1":             func(x float64) float64 { return 1 - math.Exp(-x/1.1) },
		"pareto:shape=2.2":    func(x float64) float64 { return 1 - math.Pow(max(x, 1), -2.2) },
		"uniform:a=0.5,b=1.6": func(x float64) float64 { return min(max((x-0.5)/1.1, 0), 1) },
	}
	for _, tc := range []struct{ law, wrong string }{
		{"exp", "exp/1.1"},
		{"pareto:shape=2.5", "pareto:shape=2.2"},
		{"uniform:a=0.5,b=1.5", "uniform:a=0.5,b=1.6"},
	} {
		dist, _ := ParseWeights(tc.law)
		r := NewRand(2007 + uint64(dist.Kind))
		x := make([]float64, N)
		for i := range x {
			L := []float64{0}
			weightedD(L, 1, 1, dist, r)
			x[i] = L[0]
		}
		slices.Sort(x)
		ks := func(F func(float64) float64) (d float64) {
			for i, v := range x {
				f := F(v)
				d = max(d, math.Abs(f-float64(i)/float64(N)), math.Abs(f-float64(i+1)/float64(N)))
			}
			return d
		}
		got, wrong := ks(cdf[tc.law]), ks(cdf[tc.wrong])
		t.Logf("%s: sup |F_N − F| = %.4f (ε = %.4f); against %s: %.4f", tc.law, got, eps, tc.wrong, wrong)
		if got > eps {
			t.Errorf("%s: weights off their law: %.4f > %.4f", tc.law, got, eps)
		}
		if wrong <= eps {
			t.Errorf("%s: the wrong law %s was not rejected (%.4f)", tc.law, tc.wrong, wrong)
		}
	}
}

// TestTrialRunnersWorkers: the processes that run whole trials on their own
// state give the same results in the same order for any number of workers.
func TestTrialRunnersWorkers(t *testing.T) {
	pareto, _ := ParseWeights("pareto:shape=3")
	for _, p := range []Rule{Rank{D: 1.5}, Weighted{D: 3, Weights: pareto}} {
		c := Config{Process: p, N: 200, M: 2000, Seed: 6, Every: 500}
		var want []Result
		for _, w := range []int{1, 3} {
			var got []Result
			if err := Run(context.Background(), c, []int{0, 1, 2, 3, 4}, w, func(r Result) error {
				got = append(got, r)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = got
			} else if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: workers=%d differs", p.Name(), w)
			}
		}
		if len(want) != 5 || len(want[4].Series) != 4 || want[4].Trial != 4 {
			t.Errorf("%s: results %+v", p.Name(), want)
		}
	}
}
