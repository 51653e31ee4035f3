package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ar1 is an AR(1) series x_t = ρx_{t−1} + e_t, stationary from the start,
// with mean mu: its integrated autocorrelation time is (1 + ρ)/(1 − ρ).
func ar1(r *rand.Rand, n int, rho, mu float64) []float64 {
	y := make([]float64, n)
	x := r.NormFloat64() / math.Sqrt(1-rho*rho)
	for i := range y {
		x = rho*x + r.NormFloat64()
		y[i] = mu + x
	}
	return y
}

// TestBatchMeansCoverage: on AR(1) series with correlation times τ from 1
// to 19 steps, the 95% batch-means interval covers the mean in 2000
// series (fixed seed; a coverage's binomial sd over 2000 is 0.54%). Where
// the series spans 65 correlation times or more (200 values at τ ≤ 3: 13
// to 20 groups; 2000 at τ = 19: 20 groups) its coverage, measured 93.9%
// over 10 other seeds, must reach 92% (three sd below); on only ten
// correlation times (200 values at τ = 19: 2 groups), measured 92%, it
// must reach 90%. queue --help states both. Fixed groups of 10 values
// cover far less once the correlation is long (negative control).
func TestBatchMeansCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		rho   float64
		n     int
		least float64
	}{{0, 200, 0.92}, {0.5, 200, 0.92}, {0.9, 200, 0.90}, {0.9, 2000, 0.92}} {
		covered, fixed := 0, 0
		const runs = 2000
		for range runs {
			y := ar1(r, tc.n, tc.rho, 3)
			if m, h, _ := BatchMeans(y, 20, 0.05); math.Abs(m-3) <= h {
				covered++
			}
			gm := make([]float64, tc.n/10)
			for i := range gm {
				for _, v := range y[10*i : 10*i+10] {
					gm[i] += v / 10
				}
			}
			if m := total(gm) / float64(len(gm)); math.Abs(m-3) <= StudentHalf(gm, 0.05) {
				fixed++
			}
		}
		c := float64(covered) / runs
		t.Logf("ρ=%g, %d values: coverage %.3f, fixed groups %.3f", tc.rho, tc.n, c, float64(fixed)/runs)
		if c < tc.least {
			t.Errorf("ρ=%g, %d values: coverage %.3f < %.3f", tc.rho, tc.n, c, tc.least)
		}
		if tc.rho == 0.9 && float64(fixed)/runs > 0.85 {
			t.Errorf("ρ=0.9: fixed groups of 10 covered %.3f: the control should fail", float64(fixed)/runs)
		}
	}
}

// total is Σx.
func total(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// TestIntegratedTime: τ of AR(1) is (1 + ρ)/(1 − ρ): 1, 3 and 19 for
// ρ = 0, 0.5, 0.9, within 15% on 10^5 values.
func TestIntegratedTime(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, rho := range []float64{0, 0.5, 0.9} {
		want := (1 + rho) / (1 - rho)
		if got := IntegratedTime(ar1(r, 100000, rho, 0)); math.Abs(got/want-1) > 0.15 {
			t.Errorf("ρ=%g: τ = %.3f, want %.3f", rho, got, want)
		}
	}
}

// TestMSER: a series that starts 20 batches away from its mean and then
// stays at it (with noise) is cut near 20; a stationary series is cut
// early; a series still drifting at its end reports the edge.
func TestMSER(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	y := make([]float64, 200)
	for i := range y {
		y[i] = 0.1 * r.NormFloat64()
		if i < 20 {
			y[i] += 5 * float64(20-i) / 20
		}
	}
	if cut, ok := MSER(y); !ok || cut < 10 || cut > 30 {
		t.Errorf("transient of 20: cut %d ok %v", cut, ok)
	}
	if cut, ok := MSER(ar1(r, 200, 0, 0)); !ok || cut > 50 {
		t.Errorf("stationary: cut %d ok %v", cut, ok)
	}
	for i := range y {
		y[i] = float64(i) + 0.1*r.NormFloat64()
	}
	if _, ok := MSER(y); ok {
		t.Error("a drifting series passed as stationary")
	}
}

// TestAutocovariancesFFT: the autocovariances from one FFT equal the
// direct sums to 1e-9 of γ(0) at every 97th lag of an AR(1) series of
// 12,288 values; τ of a long series with a long correlation (2^20 values,
// ρ = 0.999), which takes them from the FFT past directLags lags, is found
// in well under a second (the direct sums took O(B²)); a short or weakly
// correlated series keeps the direct sums, whose sum stops first.
func TestAutocovariancesFFT(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	y := ar1(r, 12288, 0.95, 2)
	var m float64
	for _, v := range y {
		m += v / float64(len(y))
	}
	fft, direct := fftCovariances(y, m), directCovariance(y, m)
	for k := 0; k < len(y); k += 97 {
		if d := math.Abs(fft(k) - direct(k)); d > 1e-9*fft(0) {
			t.Fatalf("lag %d: FFT %.12g, direct %.12g", k, fft(k), direct(k))
		}
	}
	long := ar1(r, 1<<20, 0.999, 0)
	if got := IntegratedTime(long); got < 1999/3 || got > 1999*3 {
		t.Errorf("ρ = 0.999 over 2^20 values: τ = %.0f, want about 1999", got)
	}
	if got := IntegratedTime(ar1(r, 1<<20, 0, 0)); got < 0.9 || got > 1.1 {
		t.Errorf("white noise over 2^20 values: τ = %.3f, want about 1", got)
	}
}
