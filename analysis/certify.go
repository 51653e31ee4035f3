package analysis

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// unitRoundoff is u = 2^−53, the unit roundoff of float64.
const unitRoundoff = 0x1p-53

// gammaK is γ_k = k·u/(1 − k·u), the bound on the relative error
// accumulated by k roundings [Higham 2002, §3.1].
func gammaK(k int) float64 {
	ku := float64(k) * unitRoundoff
	return ku / (1 - ku)
}

// rayleighBound returns the Rayleigh quotient θ = ⟨y, P̃y⟩_D / ⟨y, y⟩_D of
// y ≠ 0 and a number lower ≤ μ₂, rigorously: μ₂ is the largest eigenvalue
// of P̃, so μ₂ ≥ θ for every y (Courant–Fischer), and lower is θ less a
// bound on the rounding errors of computing it. In the symmetric form
// θ = (yᵀAy − 2(dᵀy)²/vol) / Σ d_v y_v². The computed yᵀAy is within
// γ_K·|y|ᵀA|y| ≤ γ_K·‖y‖²_D of the exact value (A ≤ D entrywise on |y|
// because D − A is a Laplacian), K = Δ + n + 70 roundings along any path
// of the blocked sum; Σ d_v y_v² within γ_K of itself; dᵀy within
// γ_K·√vol·‖y‖_D (Cauchy–Schwarz), so with ĉ = dᵀy/(√vol·‖y‖_D) the
// deflation term is within 2γ_K(2|ĉ| + γ_K)·‖y‖²_D. It also returns r,
// the residual ‖P̃y − θy‖_D/‖y‖_D as computed (not a bound).
func (w *walk) rayleighBound(y []float64) (theta, lower, r float64) {
	q, s1, s2 := w.quadratic(y)
	theta = (q - 2*s1*s1/w.vol) / s2
	g := gammaK(w.dmax + w.n + 70)
	chat := math.Abs(s1) / math.Sqrt(w.vol*s2)
	// Error of the numerator relative to ‖y‖²_D, and of the denominator.
	eNum := g*(1+2*g) + 2*g*(2*chat+g) + 8*unitRoundoff*(math.Abs(q)+2*s1*s1/w.vol)/s2
	num := theta*s2 - eNum*s2
	den := s2 * (1 + g)
	if num < 0 {
		den = s2 * (1 - g)
	}
	lower = num / den
	lower -= 4 * unitRoundoff * (math.Abs(lower) + 1)
	r = math.Sqrt(max(w.residual(y, theta, s1/w.vol), 0) / s2)
	return theta, lower, r
}

// chebTest is the randomised test that certifies μ₂ ≤ t0 + s. It draws g
// with independent standard normal entries (in the symmetric form; from
// seed) and computes x_j = T_j(Z)g, T_j the Chebyshev polynomials and
// Z = αP̃ + βI, α = 2/(t0+1), β = (1−t0)/(1+t0), the affine map that
// takes [−1, t0] onto [−1, 1], by the three-term recurrence
// x_{j+1} = 2Zx_j − x_{j−1}. It passes if ‖x_j‖ ≤ 1.01‖g‖ for j = 1..m.
//
// If μ₂ ≤ t0, every eigenvalue of Z lies in [−1, 1], where |T_j| ≤ 1, so
// ‖x_j‖ ≤ ‖g‖ and the test passes (rounding adds at most about
// 25·m²·Δ·u relative, far inside the factor 1.01). If μ₂ > t0 + s, the component c₂ = ⟨g, v₂⟩ of g along a unit
// eigenvector v₂ of μ₂ grows like T_j(z₂) ≥ T_j(z*), z* = 1 + αs, so a
// pass means that c₂ is small: |c₂|/‖g‖ ≤ κ, where (chebDelta)
//
//	κ = 1.0201/T_m(z*) + 3u + F·Σ_{j=0}^{m−1} U_{m−1−j}(z*)/T_m(z*).
//
// The last two terms bound the rounding errors: the start vector is
// formed with relative error 3u, and step j adds an error f_j that
// U_{m−1−j}(Z) carries to step m (U_k the Chebyshev polynomials of the
// second kind; U_k(z)/T_m(z) decreases in z ≥ 1, so z* is the worst
// case); ‖f_j‖ ≤ F‖g‖ with F = 1.0201·(2αγ_{Δ+5} + 2|β|γ_4 + 4αu + γ_3)
// from the rounding of one step and the checked norms (1.0201 = 1.01² for
// the rounding of the norms themselves). Errors along the
// top eigenvector (as in the deflation coefficient πᵀx, a sum of n terms)
// are left out: v₂ is orthogonal to it and Z keeps it apart. For a
// Gaussian g in n dimensions c₂²/‖g‖² has the Beta(1/2, (n−1)/2) law,
// whose distribution function is at most 2·sqrt(q)·Γ(n/2)/(√π·Γ((n−1)/2))
// ≤ sqrt(2nq/π), so P(|c₂| ≤ κ‖g‖) ≤ κ·sqrt(2n/π): that is the returned
// delta, the probability over g that a false bound passes. The test does
// not depend on how t0 was found. It costs at most m products with P.
func (w *walk) chebTest(t0, s float64, m int, seed uint64) (pass bool, steps int, delta float64) {
	alpha := 2 / (t0 + 1)
	beta := (1 - t0) / (1 + t0)
	delta = chebDelta(w.n, w.dmax, alpha, beta, s, m)
	x, g2 := w.gaussian(rand.NewPCG(seed, 0xc4eb))
	c, _ := w.dsum(x)
	limit := 1.01 * 1.01 * g2 // ‖x_j‖² ≤ (1.01‖g‖)²
	xp := make([]float64, w.n)
	// x_1 = Z x_0 = α(Px_0 − 2(πᵀx_0)·1) + βx_0.
	c, n2 := w.chebStep(x, xp, alpha, beta, 0, -2*alpha*c/w.vol)
	x, xp = xp, x
	for steps = 1; steps < m; steps++ {
		if !(n2 <= limit) || w.cancelled() {
			return false, steps, delta
		}
		c, n2 = w.chebStep(x, xp, 2*alpha, 2*beta, 1, -4*alpha*c/w.vol)
		x, xp = xp, x
	}
	return n2 <= limit, steps, delta
}

// chebDelta is the delta of chebTest (see there) for the given parameters.
// With a = acosh(z*), T_m(z*) = cosh(ma) and U_k(z*) = sinh((k+1)a)/sinh a,
// evaluated through exponentials of −a so that nothing overflows.
func chebDelta(n, dmax int, alpha, beta, s float64, m int) float64 {
	a := acosh1p(alpha*s - 32*unitRoundoff) // z* rounded down
	if !(a > 0) {
		return math.Inf(1)
	}
	u := unitRoundoff
	F := 1.0201 * (2*alpha*gammaK(dmax+5) + 2*math.Abs(beta)*gammaK(4) + 4*alpha*u + gammaK(3))
	em := math.Exp(-2 * float64(m) * a)
	invT := 2 * math.Exp(-float64(m)*a) / (1 + em) // 1/T_m(z*)
	var sum float64
	for j := range m {
		// sinh((m−j)a)/cosh(ma) = e^{−ja}·(1 − e^{−2(m−j)a})/(1 + e^{−2ma})
		sum += math.Exp(-float64(j)*a) * -math.Expm1(-2*float64(m-j)*a) / (1 + em)
	}
	sum /= math.Sinh(a)
	kappa := 1.0201*invT + 3*u + F*sum
	return kappa * math.Sqrt(2*float64(n)/math.Pi) * (1 + 1e-9)
}

// chebDegree returns the least m for which chebTest's delta, rounding
// included, is at most δ; if the rounding term alone comes near δ, the m
// at which the main term 1.0201/T_m(1 + αs)·sqrt(2n/π) is δ/2.
func chebDegree(n, dmax int, alpha, beta, s, delta float64) int {
	a := acosh1p(alpha*s - 32*unitRoundoff)
	if !(a > 0) {
		return math.MaxInt
	}
	need := math.Acosh(2 * 1.0201 * math.Sqrt(2*float64(n)/math.Pi) / delta)
	hi := max(1, int(math.Ceil(need/a)))
	if chebDelta(n, dmax, alpha, beta, s, hi) > delta {
		return hi
	}
	lo := max(1, int(float64(hi)*0.9)) // the main term alone needs more than this
	for lo < hi {
		m := (lo + hi) / 2
		if chebDelta(n, dmax, alpha, beta, s, m) <= delta {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return hi
}

// chebWidth inverts chebDegree: the least s for which degree m suffices.
func chebWidth(n int, alpha float64, m int, delta float64) float64 {
	need := math.Acosh(2 * 1.0201 * math.Sqrt(2*float64(n)/math.Pi) / delta)
	h := math.Sinh(need / float64(m) / 2)
	return 2*h*h/alpha + 64*unitRoundoff/alpha
}

// acosh1p returns acosh(1 + x), accurately for small x ≥ 0.
func acosh1p(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return math.Log1p(x + math.Sqrt(x*(x+2)))
}

// denseUpper certifies μ₂ ≤ upper deterministically for a graph small
// enough to hold densely, or returns ok = false. The matrix
//
//	B = tI − N + 2u₁u₁ᵀ,  N = D^{−1/2}AD^{−1/2},  u₁ = sqrt(d/vol),
//
// has the eigenvalue t + 1 on u₁ and t − μ_i on the other eigenvectors of
// N, so it is positive definite exactly when μ₂ < t. If the Cholesky
// factorisation of the computed B̂ succeeds, R̂ᵀR̂ = B̂ + ΔB with
// |ΔB| ≤ γ_{n+1}|R̂ᵀ||R̂| for any order of the inner products [Higham 2002,
// Thm 10.3 and Lemma 8.4], so λ_min(B̂) ≥ −γ_{n+1}ρ with
// ρ = min(‖R̂‖²_F, ‖R̂‖₁‖R̂‖_∞) ≥ ‖R̂‖₂²; and ‖B̂ − B‖_F ≤
// γ_{7+k}((1 + |t|)·sqrt(n) + 2) from forming the entries, k the largest
// number of times a neighbour repeats in a row (1 for a simple graph; an
// entry of a multigraph takes one subtraction per parallel edge). Then
// μ₂ ≤ t + γ_{n+1}ρ + γ_{7+k}((1 + |t|)·sqrt(n) + 2) = upper. It takes
// O(n²) memory and n³/3 floating-point operations.
func (w *walk) denseUpper(t float64) (upper float64, ok bool) {
	n := w.n
	isd := make([]float64, n)
	u1 := make([]float64, n)
	for v := range n {
		d, _ := w.degree(v)
		isd[v] = 1 / math.Sqrt(d)
		u1[v] = math.Sqrt(d / w.vol)
	}
	b := mat.NewSymDense(n, nil)
	raw := b.RawSymmetric()
	for v := range n {
		row := raw.Data[v*raw.Stride : v*raw.Stride+n]
		for u := v; u < n; u++ {
			row[u] = 2 * u1[v] * u1[u]
		}
		row[v] += t
		// Each entry of the row once: a parallel edge as often as it is
		// one, a loop twice on the diagonal (A_vv = 2 a loop).
		for _, u := range w.adj[w.off[v]:w.off[v+1]] {
			if int(u) >= v {
				row[u] -= isd[v] * isd[u]
			}
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(b) {
		return 0, false
	}
	var r mat.TriDense
	ch.UTo(&r)
	// ‖|R̂ᵀ||R̂|‖₂ ≤ ‖R̂‖₂² ≤ min(‖R̂‖²_F, ‖R̂‖₁·‖R̂‖_∞): the second is far
	// smaller when the rows of R̂ are short, as for sparse graphs.
	var f2, rowMax float64
	col := make([]float64, n)
	tri := r.RawTriangular()
	for i := range n {
		var row float64
		for j, x := range tri.Data[i*tri.Stride+i : i*tri.Stride+n] {
			f2 += x * x
			row += math.Abs(x)
			col[i+j] += math.Abs(x)
		}
		rowMax = max(rowMax, row)
	}
	norm2 := min(f2, rowMax*slices.Max(col)) * (1 + gammaK(n))
	upper = t + gammaK(n+1)*norm2 + gammaK(7+w.maxMultiplicity())*((1+math.Abs(t))*math.Sqrt(float64(n))+2)
	return upper + 4*unitRoundoff*(math.Abs(upper)+1), true
}

// maxMultiplicity returns the largest number of times a vertex appears in
// one row: 1 for a simple graph with an edge, k for k parallel edges, 2
// for a loop. O(n + |E|).
func (w *walk) maxMultiplicity() int {
	count := make([]int32, w.n)
	k := int32(1)
	for v := range w.n {
		row := w.adj[w.off[v]:w.off[v+1]]
		for _, u := range row {
			count[u]++
			k = max(k, count[u])
		}
		for _, u := range row {
			count[u] = 0
		}
	}
	return int(k)
}
