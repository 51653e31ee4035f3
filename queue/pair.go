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
// choices (TestPairApproximationLargeDegree). The fixed point is found by
// integrating from the product of two M/M/1 laws until the flow is below
// 1e-13 per unit time, on L × L states with L doubled until the top level
// holds less than 1e-13.
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

// pairSolve integrates the pair equations by explicit Euler steps until
// the flow is below 1e-13 per unit time. The step keeps every y ≥ 0: the
// rate out of a state is at most 2 + 4λ.
func pairSolve(y []float64, L int, lambda, k float64) error {
	h := 0.9 / (2 + 4*lambda)
	r := 2 * lambda / k
	p := make([]float64, L)
	a := make([]float64, L*L) // a(i, j): the rate at which x gains a job
	dy := make([]float64, L*L)
	for step := 0; step < 1<<24; step++ {
		for i := range L {
			var win, all float64
			for j, v := range y[i*L : (i+1)*L] {
				all += v
				switch {
				case i < j:
					win += v
				case i == j:
					win += v / 2
				}
			}
			if all > 0 {
				p[i] = win / all
			}
		}
		for i := range L - 1 { // the top level takes no arrival
			for j := range L {
				w := 0.0
				switch {
				case i < j:
					w = 1
				case i == j:
					w = 0.5
				}
				a[i*L+j] = r * (w + (k-1)*p[i])
			}
		}
		var flow float64
		for i := range L {
			for j := range L {
				v := y[i*L+j]
				out := a[i*L+j] + a[j*L+i]
				in := 0.0
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
				dy[i*L+j] = in - out*v
				flow += math.Abs(dy[i*L+j])
			}
		}
		for i, v := range dy {
			y[i] += h * v
		}
		if flow < 1e-13 {
			return nil
		}
	}
	return errors.New("queue: the pair approximation did not converge")
}
