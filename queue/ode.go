package queue

import "slices"

// The mean-field equations of the supermarket model with uniform
// d-sampling (or on K_n) [Mit96, VDK96], s_0 = 1:
//
//	ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}),  i ≥ 1,
//
// arrivals raising a queue from i−1 to i when the shortest of d uniform
// queues holds i−1 jobs, completions lowering one from i to i−1 at rate
// 1 a busy queue. Their fixed point is FixedPoint's. They are integrated
// from empty queues by the classic fourth-order Runge–Kutta method with
// step 1/16, on the levels where the fixed point exceeds 1e-15 and ten
// more (the trajectory from empty stays below the fixed point, level by
// level).

// odeStep is the mean-field state and its integrator.
type odeStep struct {
	lambda float64
	d, L   int
	s, tmp []float64 // s[L] = 0 stays: the truncation
	k      [4][]float64
	now    float64
}

// newODE starts the equations from empty queues.
func newODE(lambda float64, d int) *odeStep {
	L := len(FixedPoint(lambda, d, 1e-15)) + 10
	o := &odeStep{lambda: lambda, d: d, L: L, s: make([]float64, L+1), tmp: make([]float64, L+1)}
	o.s[0] = 1
	for j := range o.k {
		o.k[j] = make([]float64, L+1)
	}
	return o
}

// deriv sets ds to the derivative at s.
func (o *odeStep) deriv(s, ds []float64) {
	for i := 1; i < o.L; i++ {
		ds[i] = o.lambda*(pow(s[i-1], o.d)-pow(s[i], o.d)) - (s[i] - s[i+1])
	}
}

// step advances by h and returns the largest change of a level.
func (o *odeStep) step(h float64) float64 {
	o.deriv(o.s, o.k[0])
	for j, c := range []float64{h / 2, h / 2, h} {
		o.tmp[0] = 1
		for i := 1; i < o.L; i++ {
			o.tmp[i] = o.s[i] + c*o.k[j][i]
		}
		o.deriv(o.tmp, o.k[j+1])
	}
	var most float64
	for i := 1; i < o.L; i++ {
		ds := h / 6 * (o.k[0][i] + 2*o.k[1][i] + 2*o.k[2][i] + o.k[3][i])
		o.s[i] += ds
		most = max(most, ds, -ds)
	}
	o.now += h
	return most
}

// odeH is the integration step.
const odeH = 1.0 / 16

// point is the state as a Point.
func (o *odeStep) point() Point {
	p := Point{T: o.now}
	for i := 1; i < o.L; i++ {
		p.Mean += o.s[i]
		if i <= len(p.S) {
			p.S[i-1] = o.s[i]
		}
	}
	return p
}

// ODE returns the mean-field trajectory from empty queues at each of the
// times (increasing): the mean queue Σ s_i and s_1, s_2, s_3 (Max is not
// predicted: 0).
func ODE(lambda float64, d int, times []float64) []Point {
	o := newODE(lambda, d)
	out := make([]Point, len(times))
	for q, t := range times {
		for o.now < t {
			o.step(min(odeH, t-o.now))
		}
		out[q] = o.point()
		out[q].T = t
	}
	return out
}

// ODEAverage returns the tails s_0 = 1, s_1, … of the mean-field
// trajectory from empty queues averaged over the time window [from, to]:
// the n → ∞ limit of what a run that starts empty measures over that
// window, stationary or not (ODEMeanAverage of one window).
func ODEAverage(lambda float64, d int, from, to float64) []float64 {
	return ODEMeanAverage(lambda, d, []float64{from}, to)
}

// ODEMeanAverage returns the mean over the windows [from, to], from in
// froms (in any order), of ODEAverage: what a run's trials, each with its
// own warm-up, measure on average. One trajectory is integrated to to,
// keeping the integral I(t) of the tails from 0 (trapezoids); the mean is
// I(to)·(1/K)Σ 1/(to − from_k) − (1/K)Σ I(from_k)/(to − from_k), summed
// as each from_k is passed, so time and memory are one integration's
// whatever the number of windows. A from below 0 counts as 0 (NaN too); a
// window of no width (from ≥ to) counts as the state at to, the limit of
// its average. Once no level moves by more than 1e-15 in a whole step the
// state is held for the rest of the time.
func ODEMeanAverage(lambda float64, d int, froms []float64, to float64) []float64 {
	o := newODE(lambda, d)
	K := float64(len(froms))
	stops := make([]float64, len(froms))
	for k, f := range froms {
		if !(f > 0) {
			f = 0
		}
		stops[k] = min(f, to)
	}
	slices.Sort(stops)
	sum := make([]float64, o.L)  // I(now)
	less := make([]float64, o.L) // Σ over the windows passed of I(from_k)/(to − from_k)/K
	var weight float64           // Σ over the windows of 1/(to − from_k)/K
	var atTo int                 // windows of no width
	prev := append([]float64(nil), o.s[:o.L]...)
	held := false
	advance := func(t float64) {
		for !held && o.now < t {
			h := min(odeH, t-o.now)
			most := o.step(h)
			for i := range sum { // trapezoids
				sum[i] += h * (prev[i] + o.s[i]) / 2
			}
			copy(prev, o.s[:o.L])
			held = h == odeH && most < 1e-15 // a short step, to reach a stop, moves little
		}
		if held && o.now < t { // the state is held from now on
			for i := range sum {
				sum[i] += (t - o.now) * o.s[i]
			}
			o.now = t
		}
	}
	for _, f := range stops {
		if f >= to {
			atTo++
			continue
		}
		advance(f)
		w := 1 / (to - f) / K
		weight += w
		for i := range less {
			less[i] += w * sum[i]
		}
	}
	advance(to)
	avg := make([]float64, o.L)
	for i := range avg {
		avg[i] = sum[i]*weight - less[i] + float64(atTo)/K*o.s[i]
	}
	avg[0] = 1
	for len(avg) > 1 && avg[len(avg)-1] < 1e-12 {
		avg = avg[:len(avg)-1]
	}
	return avg
}

// pow is x^d for a small whole d.
func pow(x float64, d int) float64 {
	r := 1.0
	for range d {
		r *= x
	}
	return r
}
