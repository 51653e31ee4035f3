package queue

// ODE returns the mean-field trajectory of the supermarket model with
// uniform d-sampling (or on K_n) from empty queues, at each of the times
// (increasing), as n → ∞ [Mit96, VDK96]:
//
//	ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}),  i ≥ 1,  s_0 = 1,
//
// arrivals raising a queue from i−1 to i when the shortest of d uniform
// queues holds i−1 jobs, completions lowering one from i to i−1 at rate
// 1 a busy queue. Its fixed point is FixedPoint's. Each Point holds the
// mean queue Σ s_i and s_1, s_2, s_3 (Max is not predicted: 0). Classic
// fourth-order Runge–Kutta with step 1/16, on the levels where the fixed
// point exceeds 1e-15 and ten more (the trajectory from empty stays below
// the fixed point, level by level).
func ODE(lambda float64, d int, times []float64) []Point {
	L := len(FixedPoint(lambda, d, 1e-15)) + 10
	s := make([]float64, L+1) // s[L] = 0 stays: the truncation
	s[0] = 1
	k := [4][]float64{}
	for j := range k {
		k[j] = make([]float64, L+1)
	}
	tmp := make([]float64, L+1)
	deriv := func(s, ds []float64) {
		for i := 1; i < L; i++ {
			ds[i] = lambda*(pow(s[i-1], d)-pow(s[i], d)) - (s[i] - s[i+1])
		}
	}
	const h = 1.0 / 16
	out := make([]Point, len(times))
	now := 0.0
	for q, t := range times {
		for now < t {
			step := min(h, t-now)
			deriv(s, k[0])
			for j, c := range []float64{step / 2, step / 2, step} {
				tmp[0] = 1
				for i := 1; i < L; i++ {
					tmp[i] = s[i] + c*k[j][i]
				}
				deriv(tmp, k[j+1])
			}
			for i := 1; i < L; i++ {
				s[i] += step / 6 * (k[0][i] + 2*k[1][i] + 2*k[2][i] + k[3][i])
			}
			now += step
		}
		p := Point{T: t}
		for i := 1; i < L; i++ {
			p.Mean += s[i]
			if i <= len(p.S) {
				p.S[i-1] = s[i]
			}
		}
		out[q] = p
	}
	return out
}

// pow is x^d for a small whole d.
func pow(x float64, d int) float64 {
	r := 1.0
	for range d {
		r *= x
	}
	return r
}
