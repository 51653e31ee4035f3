package study

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// LineFit is the least-squares line y = Intercept + Slope·x through k
// points, with the standard error of the slope and its two-sided 95%
// confidence interval from Student's t on k − 2 degrees of freedom:
//
//	SE = sqrt( Σ r_i² / (k − 2) / Σ (x_i − x̄)² ),  CI = Slope ± t_{0.975, k−2}·SE,
//
// r_i the residuals. The interval assumes independent, normal scatter of
// the points about the line; its residual variance includes any lack of
// fit, so a curve that is not a line widens it.
type LineFit struct {
	Slope, Intercept float64
	SE               float64  // standard error of the slope
	CI95             Interval // Slope ± t·SE
	DF               int      // k − 2
	R2               float64
}

// FitLine fits y against x. It needs at least three points and two
// distinct x (an interval needs a residual degree of freedom).
func FitLine(x, y []float64) (LineFit, error) {
	k := len(x)
	if k != len(y) {
		return LineFit{}, fmt.Errorf("study: FitLine needs as many y as x, got %d and %d", len(y), k)
	}
	if k < 3 {
		return LineFit{}, fmt.Errorf("study: a slope with an interval needs at least 3 points, got %d", k)
	}
	xm := stat.Mean(x, nil)
	var sxx float64
	for _, v := range x {
		sxx += (v - xm) * (v - xm)
	}
	if sxx == 0 {
		return LineFit{}, fmt.Errorf("study: FitLine needs two distinct x")
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	var rss float64
	for i := range x {
		r := y[i] - (a + b*x[i])
		rss += r * r
	}
	f := LineFit{Slope: b, Intercept: a, DF: k - 2}
	f.SE = math.Sqrt(rss / float64(k-2) / sxx)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(k - 2)}.Quantile(0.975)
	f.CI95 = Interval{b - t*f.SE, b + t*f.SE}
	f.R2 = math.NaN()
	for _, v := range y {
		if v != y[0] {
			f.R2 = stat.RSquared(x, y, nil, a, b)
			break
		}
	}
	return f, nil
}

// meanCI returns the mean of x and its 95% Student-t interval (the
// interval is [mean, mean] for one value).
func meanCI(x []float64) (float64, Interval) {
	if len(x) == 0 {
		return math.NaN(), Interval{math.NaN(), math.NaN()}
	}
	if len(x) == 1 {
		return x[0], Interval{x[0], x[0]}
	}
	m, s := stat.MeanStdDev(x, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(x) - 1)}.Quantile(0.975)
	h := t * s / math.Sqrt(float64(len(x)))
	return m, Interval{m - h, m + h}
}
