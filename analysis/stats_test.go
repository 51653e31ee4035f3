package analysis

import (
	"encoding/json"
	"maps"
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	cases := []struct {
		name   string
		x      []float64
		want   Summary
		counts map[string]int
	}{
		{
			// Σx = 40, mean 5; Σ(x−5)² = 9+1+1+1+0+0+4+16 = 32, s² = 32/7,
			// s = 2.138090; t(0.975, 7) = 2.364624 (tables: 2.365);
			// half-width 2.364624 · 2.138090 / √8 = 5.055778 / 2.828427 = 1.787488.
			name:   "eight",
			x:      []float64{2, 4, 4, 4, 5, 5, 7, 9},
			want:   Summary{Mean: 5, Std: 2.138090, Min: 2, Max: 9, N: 8, CI95: [2]float64{3.212512, 6.787488}},
			counts: map[string]int{"2": 1, "4": 3, "5": 2, "7": 1, "9": 1},
		},
		{
			// s = √2; t(0.975, 1) = 12.706205; half-width 12.706205 · √2/√2.
			name:   "two",
			x:      []float64{1, 3},
			want:   Summary{Mean: 2, Std: math.Sqrt2, Min: 1, Max: 3, N: 2, CI95: [2]float64{-10.706205, 14.706205}},
			counts: map[string]int{"1": 1, "3": 1},
		},
		{
			name: "one, not an integer",
			x:    []float64{3.5},
			want: Summary{Mean: 3.5, Std: 0, Min: 3.5, Max: 3.5, N: 1, CI95: [2]float64{3.5, 3.5}},
		},
		{
			// Gaps of a weighted run: not integers, no counts.
			name: "reals",
			x:    []float64{0.5, 1.5},
			want: Summary{Mean: 1, Std: math.Sqrt(0.5), Min: 0.5, Max: 1.5, N: 2, CI95: [2]float64{1 - 12.706205*0.5, 1 + 12.706205*0.5}},
		},
		{
			name:   "constant",
			x:      []float64{4, 4, 4},
			want:   Summary{Mean: 4, Std: 0, Min: 4, Max: 4, N: 3, CI95: [2]float64{4, 4}},
			counts: map[string]int{"4": 3},
		},
		{name: "empty", x: nil, want: Summary{}},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-6 }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Summarize(tc.x)
			w := tc.want
			if !near(got.Mean, w.Mean) || !near(got.Std, w.Std) || got.Min != w.Min || got.Max != w.Max || got.N != w.N ||
				!near(got.CI95[0], w.CI95[0]) || !near(got.CI95[1], w.CI95[1]) {
				t.Errorf("Summarize(%v) = %+v, want %+v", tc.x, got, w)
			}
			if !maps.Equal(got.Counts, tc.counts) || (tc.counts == nil) != (got.Counts == nil) {
				t.Errorf("counts %v, want %v", got.Counts, tc.counts)
			}
			if _, err := json.Marshal(got); err != nil {
				t.Error(err)
			}
		})
	}
}

// The interval covers the mean of the distribution about 95% of the time:
// 4000 samples of size 5 from N(0, 1), drawn with a fixed linear
// congruential generator through the Box–Muller transform. Coverage is
// binomial(4000, 0.95): sd 0.0034, so [0.935, 0.965] is ±4.4 sd.
func TestSummarizeCoverage(t *testing.T) {
	state := uint64(1)
	unif := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return (float64(state>>11) + 0.5) / (1 << 53)
	}
	const reps = 4000
	covered := 0
	x := make([]float64, 5)
	for range reps {
		for i := range x {
			x[i] = math.Sqrt(-2*math.Log(unif())) * math.Cos(2*math.Pi*unif())
		}
		s := Summarize(x)
		if s.CI95[0] <= 0 && 0 <= s.CI95[1] {
			covered++
		}
	}
	if f := float64(covered) / reps; f < 0.935 || f > 0.965 {
		t.Errorf("coverage %.4f, want 0.95 ± 0.015", f)
	}
}

func TestFitLogLog(t *testing.T) {
	// An exact line: max load = 1.5 ln ln n + 0.25.
	ns := []float64{1 << 10, 1 << 12, 1 << 16, 1 << 20, 1 << 24}
	y := make([]float64, len(ns))
	for i, n := range ns {
		y[i] = 1.5*math.Log(math.Log(n)) + 0.25
	}
	slope, icpt, r2 := FitLogLog(ns, y)
	if math.Abs(slope-1.5) > 1e-12 || math.Abs(icpt-0.25) > 1e-12 || math.Abs(r2-1) > 1e-12 {
		t.Errorf("exact line: slope %g intercept %g R² %g, want 1.5, 0.25, 1", slope, icpt, r2)
	}

	// ln ln n = 1, 2, 3 (n = e^e, e^{e²}, e^{e³}) with loads 1, 2, 2:
	// x̄ = 2, ȳ = 5/3, Sxy = (−1)(−2/3) + 0 + (1)(1/3) = 1, Sxx = 2, so
	// slope 1/2, intercept 5/3 − 1 = 2/3; residuals −1/6, 1/3, −1/6 give
	// SSres = 1/6 against SStot = 2/3: R² = 1 − 1/4 = 3/4.
	ns = []float64{math.Exp(math.E), math.Exp(math.E * math.E), math.Exp(math.Exp(3))}
	slope, icpt, r2 = FitLogLog(ns, []float64{1, 2, 2})
	if math.Abs(slope-0.5) > 1e-12 || math.Abs(icpt-2.0/3) > 1e-12 || math.Abs(r2-0.75) > 1e-12 {
		t.Errorf("slope %g intercept %g R² %g, want 0.5, 2/3, 0.75", slope, icpt, r2)
	}

	// Undefined fits.
	if s, i, r := FitLogLog([]float64{1024, 1024}, []float64{3, 4}); !math.IsNaN(s) || !math.IsNaN(i) || !math.IsNaN(r) {
		t.Errorf("one distinct n: %g %g %g, want NaN", s, i, r)
	}
	if s, _, r := FitLogLog([]float64{1 << 10, 1 << 20}, []float64{4, 4}); s != 0 || !math.IsNaN(r) {
		t.Errorf("constant loads: slope %g R² %g, want 0 and NaN", s, r)
	}
	defer func() {
		if recover() == nil {
			t.Error("length mismatch did not panic")
		}
	}()
	FitLogLog([]float64{1, 2}, []float64{1})
}
