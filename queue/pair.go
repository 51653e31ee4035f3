package queue

import (
	"errors"
	"math"
)

// PairApproximation returns the stationary tails s_0 = 1, s_1, … of the
// pair approximation [Gast15] of the supermarket model with edge sampling
// on a k-regular graph (the same law as a uniform vertex and a uniform
// neighbour), as n → ∞.
//
// The state is y_{ij}, the fraction of directed edges (x, z) whose queues
// hold i and j jobs. A job takes each edge at rate λn/|E| = 2λ/k and joins
// its shorter end, either end on a tie, so x wins its edge to z with
// w(i, j) = 1{i < j} + ½·1{i = j}. The closure: given Q_x = i, x's other
// k − 1 neighbours are independent with law y_{i·}/Σ_j y_{ij}, so x wins
// against one of them with p_i = Σ_j y_{ij} w(i, j) / Σ_j y_{ij}, and
//
//	x gains a job at rate a(i, j) = (2λ/k)·(w(i, j) + (k − 1)·p_i),
//	z at rate a(j, i), and each loses one at rate 1 when busy.
//
// dy_{ij}/dt is what flows in from (i−1, j), (i, j−1), (i+1, j), (i, j+1)
// less what flows out; for k = 2 these are the equations of Gast's own
// code for the paper (github.com/ngast/simuTwoLocalChoice), derived here
// for any k. As k → ∞ they become the mean-field equations of two uniform
// choices (TestPairApproximationLargeDegree). The fixed point is found
// from the product of two M/M/1 laws by pairSolve, until the flow is below
// 1e-13 per unit time, on L × L states with L doubled until the top level
// holds less than 1e-13: milliseconds at λ = 0.5, a fraction of a second
// at 0.95, seconds on the cycle at 0.98 (the levels grow like 1/(1 − λ)).
func PairApproximation(lambda float64, k int) ([]float64, error) {
	if !(lambda > 0 && lambda < 1) || k < 1 {
		return nil, errors.New("queue: the pair approximation needs 0 < λ < 1 and degree k ≥ 1")
	}
	L := 32
	var y []float64
	for {
		y = pairInit(y, L, lambda)
		if err := pairSolve(y, L, lambda, float64(k)); err != nil {
			return nil, err
		}
		x := pairMarginal(y, L)
		if x[L-1] < 1e-13 || L >= 4096 {
			s := make([]float64, L+1)
			for i := L - 1; i >= 0; i-- {
				s[i] = s[i+1] + x[i]
			}
			for len(s) > 1 && s[len(s)-1] < 1e-12 {
				s = s[:len(s)-1]
			}
			s[0] = 1
			return s, nil
		}
		L *= 2
	}
}

// pairInit returns the L × L start: the previous solution prev (of side
// L/2) if any, else the product of two M/M/1 laws, normalised.
func pairInit(prev []float64, L int, lambda float64) []float64 {
	y := make([]float64, L*L)
	if prev != nil {
		h := L / 2
		for i := range h {
			copy(y[i*L:i*L+h], prev[i*h:(i+1)*h])
		}
		return y
	}
	var sum float64
	for i := range L {
		for j := range L {
			y[i*L+j] = math.Pow(lambda, float64(i+j))
			sum += y[i*L+j]
		}
	}
	for i := range y {
		y[i] /= sum
	}
	return y
}

// pairMarginal is x_i = Σ_j y_{ij}.
func pairMarginal(y []float64, L int) []float64 {
	x := make([]float64, L)
	for i := range L {
		for _, v := range y[i*L : (i+1)*L] {
			x[i] += v
		}
	}
	return x
}

// pairSolve finds the fixed point of the pair equations: symmetric
// Gauss–Seidel sweeps over the balance equations y_{ij}·out(i, j) =
// in(i, j), forwards and backwards in turn, the rates
// a(i, j) recomputed from y before each sweep, y renormalised after it,
// until the flow (the L1 norm of dy/dt) is below 1e-13 per unit time. A
// forward sweep carries mass up a whole row at once, and a backward one
// down, where an Euler step of the equations moves it one level: at
// λ = 0.95 on the cycle an integration of the equations takes seconds,
// the sweeps a fraction of one.
func pairSolve(y []float64, L int, lambda, k float64) error {
	r := 2 * lambda / k
	p := make([]float64, L)
	a := make([]float64, L*L) // a(i, j): the rate at which x gains a job
	for sweep := 1; sweep < 1<<22; sweep++ {
		pairRates(y, L, r, k, p, a)
		var sum float64
		for q := range L * L {
			if sweep%2 == 0 { // every other sweep backwards, carrying the departures down
				q = L*L - 1 - q
			}
			out, in := pairBalance(y, L, a, q/L, q%L)
			y[q] = in / out
			sum += y[q]
		}
		for i := range y {
			y[i] /= sum
		}
		if sweep%8 == 0 {
			pairRates(y, L, r, k, p, a)
			var flow float64
			for i := range L {
				for j := range L {
					out, in := pairBalance(y, L, a, i, j)
					flow += math.Abs(in - out*y[i*L+j])
				}
			}
			if flow < 1e-13 {
				return nil
			}
		}
	}
	return errors.New("queue: the pair approximation did not converge")
}

// pairRates sets p_i and the arrival rates a(i, j) from y.
func pairRates(y []float64, L int, r, k float64, p, a []float64) {
	win := func(i, j int) float64 { // w(i, j)
		switch {
		case i < j:
			return 1
		case i == j:
			return 0.5
		}
		return 0
	}
	for i := range L {
		var won, all float64
		for j, v := range y[i*L : (i+1)*L] {
			all += v
			won += v * win(i, j)
		}
		if all > 0 {
			p[i] = won / all
		}
	}
	for i := range L - 1 { // the top level takes no arrival
		for j := range L {
			a[i*L+j] = r * (win(i, j) + (k-1)*p[i])
		}
	}
}

// pairBalance returns the rate out of state (i, j) and the flow into it.
func pairBalance(y []float64, L int, a []float64, i, j int) (out, in float64) {
	out = a[i*L+j] + a[j*L+i]
	if i > 0 {
		out++
		in += a[(i-1)*L+j] * y[(i-1)*L+j]
	}
	if j > 0 {
		out++
		in += a[(j-1)*L+i] * y[i*L+j-1]
	}
	if i+1 < L {
		in += y[(i+1)*L+j]
	}
	if j+1 < L {
		in += y[i*L+j+1]
	}
	return out, in
}
