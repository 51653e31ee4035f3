package analysis

import (
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Summary describes a sample, typically one value per trial (max load,
// gap). The JSON field names are those of the CLI's run summary.
type Summary struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"` // sample standard deviation (n − 1 denominator); 0 for one value
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	N    int     `json:"n"`
	// CI95 is the two-sided 95% confidence interval of the mean from
	// Student's t with N − 1 degrees of freedom: mean ± t·Std/√N. It is
	// [mean, mean] for N = 1.
	CI95 [2]float64 `json:"ci95"`
	// Counts maps each value, formatted as an integer ("4"), to how often
	// it occurs, when every value is an integer; nil otherwise.
	Counts map[string]int `json:"counts,omitempty"`
}

// Summarize returns the summary of x in O(len(x)). For an empty x it
// returns the zero Summary (N = 0). The values must be finite.
func Summarize(x []float64) Summary {
	n := len(x)
	if n == 0 {
		return Summary{}
	}
	s := Summary{N: n, Min: math.Inf(1), Max: math.Inf(-1)}
	integer := true
	for _, v := range x {
		s.Min = min(s.Min, v)
		s.Max = max(s.Max, v)
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			integer = false
		}
	}
	if n == 1 {
		s.Mean = x[0]
		s.CI95 = [2]float64{x[0], x[0]}
	} else {
		// Two-pass, compensated mean and unbiased variance.
		s.Mean, s.Std = stat.MeanStdDev(x, nil)
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
		half := t * s.Std / math.Sqrt(float64(n))
		s.CI95 = [2]float64{s.Mean - half, s.Mean + half}
	}
	if integer {
		s.Counts = make(map[string]int)
		for _, v := range x {
			s.Counts[strconv.FormatInt(int64(v), 10)]++
		}
	}
	return s
}

// FitLogLog fits maxLoad ≈ slope·ln ln n + intercept by least squares and
// returns the coefficients and R². For Greedy[d] the slope estimates
// 1/ln d [ABKU99]; for left, 1/(d ln φ_d) [V03].
//
// n and maxLoad must have the same length (FitLogLog panics otherwise) and
// every n must exceed 1. With fewer than two distinct n the fit is
// undefined and slope, intercept and r2 are NaN; r2 is NaN too when every
// maxLoad is equal (nothing to explain).
func FitLogLog(n []float64, maxLoad []float64) (slope, intercept, r2 float64) {
	if len(n) != len(maxLoad) {
		panic("analysis: FitLogLog needs as many max loads as sizes")
	}
	x := make([]float64, len(n))
	distinct := false
	for i, v := range n {
		x[i] = math.Log(math.Log(v))
		distinct = distinct || x[i] != x[0]
	}
	if !distinct {
		nan := math.NaN()
		return nan, nan, nan
	}
	intercept, slope = stat.LinearRegression(x, maxLoad, nil, false)
	r2 = math.NaN()
	for _, y := range maxLoad {
		if y != maxLoad[0] {
			r2 = stat.RSquared(x, maxLoad, nil, intercept, slope)
			break
		}
	}
	return slope, intercept, r2
}
