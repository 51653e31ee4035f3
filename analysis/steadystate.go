package analysis

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat/distuv"
)

// Steady-state estimation from one long run: where to cut the warm-up
// (MSER) and how uncertain the mean of what remains is (batch means). Both
// take a series of equal-length batch averages y_0, …, y_{B−1} of the
// quantity, in time order.

// MSER returns the number of leading batches to discard, the d that
// minimises the Marginal Standard Error Rule statistic
//
//	MSER(d) = Σ_{j≥d} (y_j − ȳ_d)² / (B − d)²,  ȳ_d the mean of y_d … y_{B−1},
//
// over 0 ≤ d ≤ B/2 (White 1997; White, Cobb and Spratt 2000, whose
// MSER-5 applies it to averages of 5 observations, as batches are here). It
// trades the bias the early batches carry against the variance of a
// shorter mean. ok is false when the minimum falls at B/2, the edge of
// the search, which says that the run is too short to have reached its
// steady state; the cut is then B/2. B < 4 gives 0 and false.
func MSER(y []float64) (cut int, ok bool) {
	B := len(y)
	if B < 4 {
		return 0, false
	}
	// Suffix sums give every MSER(d) in O(B).
	var sum, sq float64
	best := math.Inf(1)
	stats := make([]float64, B/2+1)
	for d := B - 1; d >= 0; d-- {
		sum += y[d]
		sq += y[d] * y[d]
		if d <= B/2 {
			k := float64(B - d)
			ss := max(sq-sum*sum/k, 0)
			stats[d] = ss / (k * k)
		}
	}
	for d, s := range stats {
		if s < best {
			best, cut = s, d
		}
	}
	return cut, cut < B/2
}

// BatchMeans returns the mean of y and the half-width of its two-sided
// confidence interval of level 1 − alpha by the method of batch means: y is
// cut into g consecutive groups of nearly equal size, whose means are
// treated as independent and normal, and
// half = t_{g−1, 1−alpha/2} · sd(group means) / √g.
//
// The groups must be long against the series' correlation, or their means
// are correlated and the interval too narrow. So g is at most groups (20
// is the usual choice) and at most B/(5τ), τ the integrated
// autocorrelation time of y (IntegratedTime), but at least 2: each group
// spans five correlation times or more where the series allows it. A
// series too short for that gets 2 or 3 groups and the wide interval
// their t quantile gives (12.7 standard errors for 2), which says: run
// longer. g is the number of groups used; with fewer than 2 values half
// is +Inf.
func BatchMeans(y []float64, groups int, alpha float64) (mean, half float64, g int) {
	B := len(y)
	if B == 0 {
		return math.NaN(), math.Inf(1), 0
	}
	for _, v := range y {
		mean += v
	}
	mean /= float64(B)
	g = min(groups, B, int(float64(B)/(5*IntegratedTime(y))))
	g = max(g, min(2, B))
	if g < 2 {
		return mean, math.Inf(1), g
	}
	gm := make([]float64, g)
	for i := range g {
		lo, hi := i*B/g, (i+1)*B/g
		for _, v := range y[lo:hi] {
			gm[i] += v
		}
		gm[i] /= float64(hi - lo)
	}
	return mean, StudentHalf(gm, alpha), g
}

// IntegratedTime returns τ = 1 + 2 Σ_{k≥1} ρ_k, the integrated
// autocorrelation time of the series y in steps (the variance of its mean
// is τ times that of independent values), by Geyer's initial positive
// sequence estimator (Geyer 1992): the sums Γ_m = γ_{2m} + γ_{2m+1} of
// consecutive sample autocovariances are added while they stay positive.
// It is at least 1; 1 for a constant series or fewer than 4 values. The
// autocovariances are summed directly, O(B) each; a series longer than
// directLags whose sum has not stopped after directLags lags (a long
// correlation) gets all of them from one FFT instead (O(B log B), where
// direct sums would cost O(B) a lag over thousands of lags).
func IntegratedTime(y []float64) float64 {
	B := len(y)
	if B < 4 {
		return 1
	}
	var m float64
	for _, v := range y {
		m += v
	}
	m /= float64(B)
	gamma := directCovariance(y, m)
	g0 := gamma(0)
	if g0 <= 0 {
		return 1
	}
	sum := -g0
	for k := 0; k+1 < B; k += 2 {
		if k == directLags && B > 4*directLags {
			gamma = fftCovariances(y, m)
		}
		G := gamma(k) + gamma(k+1)
		if G <= 0 {
			break
		}
		sum += 2 * G
	}
	return max(sum/g0, 1)
}

// directLags is how many lags IntegratedTime sums directly before it
// takes the rest from an FFT (series of more than 4·directLags values).
const directLags = 64

// directCovariance returns γ(k) = (1/B) Σ_i (y_i − m)(y_{i+k} − m) of y,
// whose mean is m, summed when asked for.
func directCovariance(y []float64, m float64) func(k int) float64 {
	B := len(y)
	return func(k int) float64 {
		var s float64
		for i := 0; i+k < B; i++ {
			s += (y[i] - m) * (y[i+k] - m)
		}
		return s / float64(B)
	}
}

// fftCovariances returns γ of directCovariance, every lag computed at once
// from the power spectrum of y − m padded with zeros to at least 2B (so
// that no lag wraps around).
func fftCovariances(y []float64, m float64) func(k int) float64 {
	B := len(y)
	n := 1
	for n < 2*B {
		n *= 2
	}
	x := make([]float64, n)
	for i, v := range y {
		x[i] = v - m
	}
	fft := fourier.NewFFT(n)
	c := fft.Coefficients(nil, x)
	for i, z := range c {
		c[i] = complex(real(z)*real(z)+imag(z)*imag(z), 0)
	}
	acov := fft.Sequence(x, c)
	return func(k int) float64 { return acov[k] / float64(n) / float64(B) }
}

// StudentHalf is the half-width t_{k−1, 1−alpha/2}·s/√k of the Student-t
// confidence interval of level 1 − alpha for the mean of the k values x
// (s their sample standard deviation); +Inf for fewer than 2 values.
func StudentHalf(x []float64, alpha float64) float64 {
	k := len(x)
	if k < 2 {
		return math.Inf(1)
	}
	var m, ss float64
	for _, v := range x {
		m += v
	}
	m /= float64(k)
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return studentHalf(math.Sqrt(ss/float64(k-1)), k, alpha)
}

// studentHalf is t_{k−1, 1−alpha/2}·sd/√k: the half-width of the Student-t
// interval of level 1 − alpha for the mean of k ≥ 2 values of sample
// standard deviation sd.
func studentHalf(sd float64, k int, alpha float64) float64 {
	return StudentQuantile(1-alpha/2, k-1) * sd / math.Sqrt(float64(k))
}

// StudentQuantile is the p-quantile of Student's t with nu degrees of
// freedom.
func StudentQuantile(p float64, nu int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(nu)}.Quantile(p)
}
