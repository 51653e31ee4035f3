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

// TestBatchMeansCoverage: on AR(1) series of 200 values with correlation
// times from none to 20 steps, the 95% batch-means interval covers the
// mean in close to 95% of 2000 series (at least 90%, the binomial spread
// of 2000 draws being ±1%), where fixed groups of 10 values cover far
// less once the correlation is long (negative control).
func TestBatchMeansCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, rho := range []float64{0, 0.5, 0.9} {
		covered, fixed := 0, 0
		const runs = 2000
		for range runs {
			y := ar1(r, 200, rho, 3)
			if m, h, _ := BatchMeans(y, 20, 0.05); math.Abs(m-3) <= h {
				covered++
			}
			gm := make([]float64, 20)
			for i := range gm {
				for _, v := range y[10*i : 10*i+10] {
					gm[i] += v / 10
				}
			}
			if m := (gm[0] + total(gm[1:])) / 20; math.Abs(m-3) <= StudentHalf(gm, 0.05) {
				fixed++
			}
		}
		t.Logf("ρ=%g: coverage %.3f, fixed groups %.3f", rho, float64(covered)/runs, float64(fixed)/runs)
		if c := float64(covered) / runs; c < 0.90 {
			t.Errorf("ρ=%g: coverage %.3f", rho, c)
		}
		if rho == 0.9 && float64(fixed)/runs > 0.85 {
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
