package queue

import (
	"math"
	"testing"
)

// TestODEAverages: the mean queue of a window's average (ODEAverage)
// equals the trapezoid average of ODE's trajectory sampled on the
// integrator's own grid (every 1/16 from 0) to 1e-10, and the trajectory
// sampled every 1/64 to 1e-5 (the trapezoid rule's error at step 1/16,
// measured 1.5e-6 in the transient: the method's accuracy), for windows
// starting at 0, inside the transient and after it has settled; the mean over several windows
// from one trajectory (ODEMeanAverage) equals the mean of the windows'
// averages; windows whose ends carry rounding errors give the same
// averages; a window of no width gives the state at its end, and a start
// below 0 (or NaN) counts as 0. Negative control: a window shifted by one
// time unit inside the transient differs.
func TestODEAverages(t *testing.T) {
	const lambda, d, to = 0.9, 2, 40.0
	froms := []float64{12.5, 0, 3, 30}
	direct := func(from, step float64) float64 {
		var times []float64
		for i := 0; from+float64(i)*step <= to+1e-12; i++ {
			times = append(times, from+float64(i)*step)
		}
		pts := ODE(lambda, d, times)
		var s float64
		for i := 1; i < len(pts); i++ {
			s += (pts[i].T - pts[i-1].T) * (pts[i].Mean + pts[i-1].Mean) / 2
		}
		return s / (to - from)
	}
	var mean float64
	for _, from := range froms {
		g := MeanOf(ODEAverage(lambda, d, from, to))
		if want := direct(from, 1.0/16); math.Abs(g-want) > 1e-10 {
			t.Errorf("window [%g, %g]: mean queue %.12f, ODE sampled on its grid %.12f", from, to, g, want)
		}
		if want := direct(from, 1.0/64); math.Abs(g-want) > 1e-5 {
			t.Errorf("window [%g, %g]: mean queue %.9f, ODE sampled every 1/64 %.9f", from, to, g, want)
		}
		mean += g / float64(len(froms))
	}
	if g := MeanOf(ODEMeanAverage(lambda, d, froms, to)); math.Abs(g-mean) > 1e-9 {
		t.Errorf("the mean over the windows from one trajectory %.12f, the windows' averages' mean %.12f", g, mean)
	}
	// Stops a rounding error past a step (as a warm-up of whole batches of
	// a time 20/(1 − λ) gives) take a tiny step, which moves nothing: it
	// must not be read as the state having settled.
	for _, from := range []float64{12.5, 3} {
		noisy := MeanOf(ODEAverage(lambda, d, from+from*1e-15, to+6e-14))
		if w := MeanOf(ODEAverage(lambda, d, from, to)); math.Abs(noisy-w) > 1e-9 {
			t.Errorf("window [%g, %g] with rounding errors: mean queue %.9f, without %.9f", from, to, noisy, w)
		}
	}
	if g, w := MeanOf(ODEAverage(lambda, d, to, to)), ODE(lambda, d, []float64{to})[0].Mean; math.Abs(g-w) > 1e-9 {
		t.Errorf("a window of no width: %.9f, the state at its end %.9f", g, w)
	}
	zero := MeanOf(ODEAverage(lambda, d, 0, to))
	for _, from := range []float64{-5, math.NaN()} {
		if g := MeanOf(ODEAverage(lambda, d, from, to)); g != zero {
			t.Errorf("a window from %v: %.9f, from 0 %.9f", from, g, zero)
		}
	}
	if g, w := MeanOf(ODEAverage(lambda, d, 3, to)), direct(4, 1.0/16); math.Abs(g-w) < 1e-3 {
		t.Errorf("negative control: the windows from 3 and from 4 agree (%.6f, %.6f)", g, w)
	}
}
