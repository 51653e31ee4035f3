package queue

import (
	"math"
	"testing"
)

// TestODEAverages: the mean queue of each window's average from one
// trajectory (ODEAverages) equals the trapezoid average of ODE's
// trajectory sampled every 1/64 over that window, to 1e-5 (the two
// trapezoid rules, steps 1/16 and 1/64, differ by 1.5e-6 in the
// transient), for windows starting at 0, inside the transient and after
// it has settled; and a window shifted by one time unit inside the
// transient differs (negative control). Windows whose ends carry rounding
// errors give the same averages.
func TestODEAverages(t *testing.T) {
	const lambda, d, to = 0.9, 2, 40.0
	froms := []float64{12.5, 0, 3, 30}
	got := ODEAverages(lambda, d, froms, to)
	direct := func(from float64) float64 {
		var times []float64
		for x := from; x <= to+1e-12; x += 1.0 / 64 {
			times = append(times, x)
		}
		pts := ODE(lambda, d, times)
		var s float64
		for i := 1; i < len(pts); i++ {
			s += (pts[i].T - pts[i-1].T) * (pts[i].Mean + pts[i-1].Mean) / 2
		}
		return s / (to - from)
	}
	for k, from := range froms {
		want := direct(from)
		if g := MeanOf(got[k]); math.Abs(g-want) > 1e-5 {
			t.Errorf("window [%g, %g]: mean queue %.9f, ODE sampled %.9f", from, to, g, want)
		}
		if g := MeanOf(ODEAverage(lambda, d, from, to)); math.Abs(g-MeanOf(got[k])) > 1e-9 {
			t.Errorf("window [%g, %g]: ODEAverage %.12f, ODEAverages %.12f", from, to, g, MeanOf(got[k]))
		}
	}
	// Stops a rounding error past a step (as a warm-up of whole batches of
	// a time 20/(1 − λ) gives) take a tiny step, which moves nothing: it
	// must not be read as the state having settled.
	noisy := ODEAverages(lambda, d, []float64{12.500000000000014, 3.0000000000000004}, to+6e-14)
	for k, from := range []float64{12.5, 3} {
		if g, w := MeanOf(noisy[k]), MeanOf(ODEAverage(lambda, d, from, to)); math.Abs(g-w) > 1e-9 {
			t.Errorf("window [%g, %g] with rounding errors: mean queue %.9f, without %.9f", from, to, g, w)
		}
	}
	if g, w := MeanOf(got[2]), direct(4); math.Abs(g-w) < 1e-3 {
		t.Errorf("negative control: the windows from 3 and from 4 agree (%.6f, %.6f)", g, w)
	}
}
