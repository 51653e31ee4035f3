package analysis

import (
	"fmt"
	"math"
)

// maxUniformWork bounds ExpectedMaxUniform's multiply-adds (about a second).
const maxUniformWork = 2e9

// ExpectedMaxUniform returns E[max load] when m balls go to n bins
// independently and uniformly (one-choice), exactly up to rounding: the
// law of the loads is n independent Poisson(m/n) counts conditioned on
// their sum being m, so P(max ≤ c) = [x^m] (Σ_{k≤c} p_k x^k)^n / P(S = m),
// with p the Poisson(m/n) probabilities and S ~ Poisson(m), and E[max] =
// Σ_{c≥0} P(max > c), summed until P(max > c) < 10^−13. Each c costs the
// products powAt makes (powCost); sizes beyond about 2·10^9 multiply-adds
// in all are refused.
func ExpectedMaxUniform(n, m int) (float64, error) {
	if n < 1 || m < 0 {
		return 0, fmt.Errorf("analysis: the expected max load takes n ≥ 1 bins and m ≥ 0 balls, got n=%d, m=%d", n, m)
	}
	if n == 1 || m == 0 {
		return float64(m), nil
	}
	lam := float64(m) / float64(n)
	lo := (m + n - 1) / n // max ≥ ⌈m/n⌉ always
	span := int(12*math.Sqrt(lam)) + 12
	hi := min(m, lo+span)
	if w := float64(hi-lo+1) * powCost(hi+1, n, m); w > maxUniformWork {
		return 0, fmt.Errorf("analysis: the expected max load of %d balls in %d bins needs about %.0e operations, more than %.0e", m, n, w, maxUniformWork)
	}
	p := make([]float64, hi+1)
	for k := range p {
		p[k] = math.Exp(float64(k)*math.Log(lam) - lam - lgamma(k+1))
	}
	norm := math.Exp(float64(m)*math.Log(float64(m)) - float64(m) - lgamma(m+1)) // P(S = m)
	e := float64(lo)                                                             // P(max > c) = 1 for c < ⌈m/n⌉
	for c := lo; c < m; c++ {
		if c > hi {
			return 0, fmt.Errorf("analysis: the expected max load of %d balls in %d bins did not converge", m, n)
		}
		tail := 1 - powAt(p[:c+1], n, m)/norm
		if tail < 1e-13 {
			break
		}
		e += tail
	}
	return e, nil
}

// lgamma is log Γ(x) for the integer x ≥ 1.
func lgamma(x int) float64 {
	v, _ := math.Lgamma(float64(x))
	return v
}

// powAt returns the coefficient of x^m in q(x)^n: q^a and q^(n−a), a =
// n/2, each truncated at degree m, then the one coefficient of their
// product.
func powAt(q []float64, n, m int) float64 {
	if n == 1 {
		if m < len(q) {
			return q[m]
		}
		return 0
	}
	a := powTrunc(q, n/2, m)
	b := a
	if n%2 != 0 {
		b = mulTrunc(a, q, m)
	}
	var s float64
	for j := max(0, m-len(b)+1); j < len(a) && j <= m; j++ {
		s += a[j] * b[m-j]
	}
	return s
}

// powTrunc returns q(x)^n truncated at degree m, by squaring.
func powTrunc(q []float64, n, m int) []float64 {
	acc := []float64{1}
	for base := q; n > 0; n >>= 1 {
		if n&1 != 0 {
			acc = mulTrunc(acc, base, m)
		}
		if n > 1 {
			base = mulTrunc(base, base, m)
		}
	}
	return acc
}

// mulTrunc returns a(x)·b(x) truncated at degree m.
func mulTrunc(a, b []float64, m int) []float64 {
	out := make([]float64, min(len(a)+len(b)-1, m+1))
	for i, x := range a {
		if x == 0 || i >= len(out) {
			continue
		}
		for j, y := range b[:min(len(b), len(out)-i)] {
			out[i+j] += x * y
		}
	}
	return out
}

// powCost is the multiply-adds of powAt for a q of length l: the products
// of powTrunc for n/2, truncated at degree m, one more for an odd n, and
// the one coefficient.
func powCost(l, n, m int) float64 {
	if n == 1 {
		return 0
	}
	trunc := func(a int) int { return min(a, m+1) }
	var w float64
	acc, base := 1, l
	for k := n / 2; k > 0; k >>= 1 {
		if k&1 != 0 {
			w += float64(acc) * float64(base)
			acc = trunc(acc + base - 1)
		}
		if k > 1 {
			w += float64(base) * float64(base)
			base = trunc(2*base - 1)
		}
	}
	if n%2 != 0 {
		w += float64(acc) * float64(l)
		acc = trunc(acc + l - 1)
	}
	return w + float64(acc)
}
