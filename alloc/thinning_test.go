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
// the plain definition, and returns the number of steps (probes) and
// whether p is one of them. The average is the sum of L over n, in exact
// rational arithmetic: x < t/n iff x·n < t, and ⌈t/n⌉ from the sum. The
// last step places only what remains.
func refSteps(p Process, L []uint32, m int64, r *Rand) (steps int64, ok bool) {
	if !severalPerStep(p) {
		return 0, false
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
				k = (tt+n-1)/n + 1 - x // to ⌈t/n⌉ + 1
			}
		}
		k = min(k, m)
		L[i] += uint32(k)
		tt += k
		m -= k
		steps++
	}
	return steps, true
}

// TestThinningProbes: the probes per ball are the independent prediction
// from the fraction of rejected balls. Threshold(0) rejects every ball (two
// probes a ball); Threshold(L) with L above every load rejects none.
// Mean-Thinning at m = n rejects a ball whose first bin is at or above the
// average t/n < 1, i.e. not empty: with probability s_1(t) = tanh t in the
// fluid limit, so 1 + ∫_0^1 tanh = 1 + ln cosh 1 ≈ 1.434 probes a ball. The
// tolerance is 6 standard deviations of a mean of m indicators (at most
// √(1/4m)) plus 2/n for the finite-n drift of the rejection rate; a
// Threshold(2) run (1.10 probes a ball) is the negative control, outside
// it. Twinning and packing cost exactly one probe a step: their Probes
// equal the steps of the plain reference with the same draws, at m = 3n
// so that packing fills past the average by more than twinning's two.
func TestThinningProbes(t *testing.T) {
	const n, m = 1000, 1000
	for _, tc := range []struct {
		name     string
		p        Process
		min, max float64 // probes per ball
	}{
		{"threshold/L=0", Threshold{}, 2, 2},
		{"threshold/L=huge", Threshold{L: MaxThreshold}, 1, 1},
	} {
		b := NewBins(n)
		st := tc.p.Place(b, m, NewRand(3))
		if per := float64(st.Probes) / m; per < tc.min || per > tc.max || b.Balls() != m {
			t.Errorf("%s: %g probes a ball, %d balls; want [%g, %g], %d", tc.name, per, b.Balls(), tc.min, tc.max, m)
		}
	}

	want, tol := 1+math.Log(math.Cosh(1)), 6*math.Sqrt(0.25/m)+2.0/n
	for _, tc := range []struct {
		p    Process
		fits bool
	}{{MeanThinning{}, true}, {Threshold{L: 2}, false}} {
		st := tc.p.Place(NewBins(n), m, NewRand(3))
		per := float64(st.Probes) / m
		if fits := math.Abs(per-want) <= tol; fits != tc.fits {
			t.Errorf("%s: %.4f probes a ball against 1 + ln cosh 1 = %.4f ± %.4f: within = %v, want %v", tc.p, per, want, tol, fits, tc.fits)
		}
	}

	for _, p := range []Process{Twinning{}, Packing{}} {
		const m = 3 * n
		st := p.Place(NewBins(n), m, NewRand(3))
		steps, _ := refSteps(p, make([]uint32, n), m, NewRand(3))
		if st.Probes != steps || steps >= m {
			t.Errorf("%s: %d probes for %d balls, the reference takes %d steps", p, st.Probes, m, steps)
		}
	}
}

// TestThinningGaps: after m = 100n balls, the thinning family keeps the gap
// near the O(log n) of [LSS22] (about 1.5 ln n ≈ 10 in runs at n = 2^10..
// 2^16), far below one-choice's √(2(m/n) ln n) ≈ 37 at n = 1000 (the
// Gaussian tail of a Poisson(100) maximum). The bound 3 ln n ≈ 21 lies
// between the two; one-choice is the negative control, above it.
func TestThinningGaps(t *testing.T) {
	const n, m = 1000, int64(100_000)
	bound := 3 * math.Log(n)
	for _, tc := range []struct {
		p     Process
		below bool
	}{{MeanThinning{}, true}, {Twinning{}, true}, {Packing{}, true}, {OneChoice{}, false}} {
		b := NewBins(n)
		tc.p.Place(b, m, NewRand(5))
		mx, _ := b.MaxMin()
		gap := float64(mx) - float64(m)/n
		if below := gap <= bound; below != tc.below {
			t.Errorf("%s: gap %g against the bound %.1f: below = %v, want %v", tc.p.Name(), gap, bound, below, tc.below)
		}
	}
}
