package alloc

import (
	"math"
	"testing"
)

// refThin is the plain rule of Mean-Thinning and Threshold(L) for one ball
// with loads L: a uniform bin i, then a uniform bin j; i takes the ball iff
// its load is below the threshold (the average, the sum of L over n,
// computed from L itself; or L), else j. It returns the bin and the
// candidates.
func refThin(t *testing.T, p Process, L []uint32, r *Rand) (uint64, []uint64) {
	t.Helper()
	n := uint64(len(L))
	i := r.Uint64n(n)
	j := r.Uint64n(n)
	var below bool
	switch p := p.(type) {
	case MeanThinning:
		var sum float64
		for _, l := range L {
			sum += float64(l)
		}
		below = float64(L[i]) < sum/float64(n) // exact: sums below 2^53
	case Threshold:
		below = int(L[i]) < p.L
	default:
		t.Fatalf("refThin: %T", p)
	}
	if below {
		return i, []uint64{i}
	}
	return j, []uint64{i, j}
}

// severalPerStep reports whether p places several balls a step on one
// probe (so a ball may cost less than one probe).
func severalPerStep(p Process) bool {
	switch p.(type) {
	case Twinning, Packing:
		return true
	}
	return false
}

// refSteps places m balls of twinning or packing into L step by step with
// the plain definition, and reports whether p is one of them. The average
// is the sum of L over n, in exact rational arithmetic: x < t/n iff x·n < t,
// and ⌈t/n⌉ from the sum. The last step places only what remains.
func refSteps(t *testing.T, p Process, L []uint32, m int64, r *Rand) bool {
	t.Helper()
	if !severalPerStep(p) {
		return false
	}
	n := int64(len(L))
	var tt int64
	for _, l := range L {
		tt += int64(l)
	}
	for m > 0 {
		i := r.Uint64n(uint64(n))
		x := int64(L[i])
		k := int64(1)
		if x*n < tt { // underloaded
			switch p.(type) {
			case Twinning:
				k = 2
			case Packing:
				ceil := (tt + n - 1) / n
				k = ceil + 1 - x
				if k < 2 {
					t.Fatalf("packing: an underloaded bin %d (load %d, average %d/%d) gets %d balls", i, x, tt, n, k)
				}
			}
		}
		k = min(k, m)
		L[i] += uint32(k)
		tt += k
		m -= k
	}
	return true
}

// TestThinningProbes: the probes per ball are the independent prediction
// from the fraction of rejected balls. Threshold(0) rejects every ball (two
// probes a ball); Threshold(L) with L above every load rejects none; for
// Mean-Thinning at m = n exactly the balls whose first bin is at or above
// the average are rejected, and a ball of twinning or packing costs at
// most one probe.
func TestThinningProbes(t *testing.T) {
	const n, m = 1000, 1000
	cases := []struct {
		name     string
		p        Process
		min, max float64 // probes per ball
	}{
		{"threshold/L=0", Threshold{}, 2, 2},
		{"threshold/L=huge", Threshold{L: MaxThreshold}, 1, 1},
		// With m = n, a first bin is at or above the average t/n < 1
		// iff it is not empty: rejected with probability 1 − e^{-t/n}
		// roughly, so about 1 + (1 − the mean of e^{-x} over [0,1]) =
		// 1 + e^{-1} ≈ 1.37 probes a ball; the range is wide.
		{"mean-thinning", MeanThinning{}, 1.2, 1.6},
		{"twinning", Twinning{}, 0.5, 1},
		{"packing", Packing{}, 0.1, 1},
	}
	for _, tc := range cases {
		b := NewBins(n)
		st := tc.p.Place(b, m, NewRand(3))
		per := float64(st.Probes) / m
		if per < tc.min || per > tc.max {
			t.Errorf("%s: %g probes a ball, want [%g, %g]", tc.name, per, tc.min, tc.max)
		}
		if b.Balls() != m {
			t.Errorf("%s: %d balls", tc.name, b.Balls())
		}
	}
}

// TestThinningGaps: after m = 100n balls, the thinning family keeps the gap
// near the O(log n) of [LSS22], far below one-choice's √(2(m/n) ln n) ≈ 37
// at n = 1000 (the Gaussian tail of a Poisson(100) maximum).
func TestThinningGaps(t *testing.T) {
	n, m := 1000, int64(100_000)
	if testing.Short() {
		m = 20_000
	}
	bound := 4 * math.Log(float64(n)) // O(log n) with the constant of the runs at n = 2^10..2^16 (about 1.5 ln n)
	for _, p := range []Process{MeanThinning{}, Twinning{}, Packing{}} {
		b := NewBins(n)
		p.Place(b, m, NewRand(5))
		mx, _ := b.MaxMin()
		gap := float64(mx) - float64(m)/float64(n)
		if gap > bound {
			t.Errorf("%s: gap %g > %g", p.Name(), gap, bound)
		}
	}
}
