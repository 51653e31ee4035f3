package alloc

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquaredCritical is the 1 − 1e-6 quantile of the chi-squared law: a
// correct generator fails a test with probability 1e-6, and the seeds are
// fixed, so the tests are deterministic.
func chiSquaredCritical(df int) float64 {
	return distuv.ChiSquared{K: float64(df)}.Quantile(1 - 1e-6)
}

func TestUint64nUniform(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 7, 10, 1000, 1<<20 + 7} {
		bins := min(n, 1000)
		draws := 200 * int(bins)
		r := NewRand(n)
		counts := make([]float64, bins)
		for range draws {
			x := r.Uint64n(n)
			if x >= n {
				t.Fatalf("n=%d: draw %d out of range", n, x)
			}
			// Fold large ranges onto 1000 cells of (almost) equal
			// size by the value's position in [0, n).
			counts[x*bins/n]++
		}
		if bins == 1 {
			continue
		}
		var chi float64
		for i := range counts {
			lo := (uint64(i)*n + bins - 1) / bins
			hi := (uint64(i+1)*n + bins - 1) / bins
			want := float64(draws) * float64(hi-lo) / float64(n)
			chi += (counts[i] - want) * (counts[i] - want) / want
		}
		if crit := chiSquaredCritical(int(bins) - 1); chi > crit {
			t.Errorf("n=%d: chi-squared %.1f > %.1f", n, chi, crit)
		}
	}
}

// TestUint64nRejection exercises the rejection branch of Lemire's method:
// for n = 2^63 + 1 the rejected zone is 2^63 − 1 values wide, so about half
// the first draws are redrawn. Without the rejection, the low half would be
// drawn twice as often as the high half.
func TestUint64nRejection(t *testing.T) {
	n := uint64(1<<63 + 1)
	r := NewRand(3)
	const draws = 100000
	low := 0
	for range draws {
		x := r.Uint64n(n)
		if x >= n {
			t.Fatalf("draw %d out of range", x)
		}
		if x < n/2 {
			low++
		}
	}
	// Binomial(draws, 1/2): standard deviation sqrt(draws)/2 ≈ 158.
	if d := math.Abs(float64(low) - draws/2); d > 5*math.Sqrt(draws)/2 {
		t.Errorf("low half drawn %d of %d times", low, draws)
	}
}

func TestDeriveSeedDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 4; seed++ {
		for stream := StreamTrial; stream <= StreamGraph; stream++ {
			for i := uint64(0); i < 1000; i++ {
				s := DeriveSeed(seed, stream, i)
				if seen[s] {
					t.Fatalf("seed collision at (%d, %d, %d)", seed, stream, i)
				}
				seen[s] = true
			}
		}
	}
}

func TestFloat64Range(t *testing.T) {
	r := NewRand(9)
	var sum float64
	const k = 100000
	for range k {
		x := r.Float64()
		if x < 0 || x >= 1 {
			t.Fatalf("Float64 = %v", x)
		}
		sum += x
	}
	// The mean of k uniforms has standard deviation 1/sqrt(12k) ≈ 0.00091.
	if math.Abs(sum/k-0.5) > 5/math.Sqrt(12*k) {
		t.Errorf("mean %v", sum/k)
	}
}
