package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/graphalloc/graphalloc/internal/jsonnull"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The methods of Summary.IntervalMethod.
const (
	// IntervalNone: fewer than two values, no interval. CI95 is then
	// [Min, Max] (zero for no value) and is not a confidence interval:
	// renderers print "—" and JSON has "ci95": null.
	IntervalNone = "none"
	// IntervalBinomialTails: the exact interval for values on a lattice
	// of step 1 (max loads, gaps at a whole m/n) that span at most
	// MaxExactSpan steps; see SummarizeAtLeast.
	IntervalBinomialTails = "binomial-tails"
	// IntervalStudentT: mean ± t·Std/√N, cut at the floor, for other
	// values (weighted gaps, wide-ranging counts).
	IntervalStudentT = "student-t"
)

// MaxExactSpan is the widest range max − min, in steps of 1, that gets
// the exact binomial-tails interval: its Bonferroni split, and so its
// width, grows with the span, and values spread wider are served by
// Student's t (on Poisson laws of mean 2 to 8, measured, it covers 94% to
// 96% from N = 5 on).
const MaxExactSpan = 4

// Summary describes a sample, typically one value per trial (max load,
// gap). The JSON field names are those of the CLI's run summary; the
// fields from IntervalMethod on came after mean, std, min, max, ci95 and
// counts, which keep their names and meaning.
type Summary struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"` // sample standard deviation (n − 1 denominator); 0 for one value
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	N    int     `json:"n"`
	// CI95 is a two-sided confidence interval of level at least 95% for
	// the mean, by IntervalMethod (see SummarizeAtLeast). It never reaches below
	// the floor given to SummarizeAtLeast. With N < 2 it is no interval
	// (IntervalNone), and JSON encodes it as null.
	CI95 [2]float64 `json:"ci95"`
	// Counts maps each value, formatted as an integer ("4"), to how often
	// it occurs, when every value is an integer; nil otherwise.
	Counts map[string]int `json:"counts,omitempty"`

	// IntervalMethod says how CI95 was made: IntervalNone,
	// IntervalBinomialTails or IntervalStudentT.
	IntervalMethod string `json:"interval_method"`
	// Mode is the most frequent value (the smallest of those tied) and
	// Agree the number of values equal to it: Agree == N says that every
	// trial gave Mode, which is evidence, not certainty (see OtherMax).
	Mode  float64 `json:"mode"`
	Agree int     `json:"agree"`
	// OtherMax is the upper end of the two-sided 95% Clopper–Pearson
	// interval for P(value ≠ Mode), from N − Agree of N: when all N
	// trials agree it is 1 − 0.025^{1/N} (0.31 for N = 10, 0.036 for
	// N = 100), the largest chance of another value that N agreeing trials
	// do not rule out. 1 for N = 0.
	OtherMax float64 `json:"p_other_max"`
	// Values lists each value with its count and the two-sided 95%
	// Clopper–Pearson interval for its probability ("max load is 4 in 8 of
	// 10 trials, 95% CI for P(max = 4) [0.44, 0.97]"), in increasing order,
	// when every value is an integer (as Counts); nil otherwise. Each
	// interval holds on its own, not jointly.
	Values []ValueFreq `json:"values,omitempty"`
}

// MarshalJSON encodes s with "ci95": null when it has no interval
// (IntervalNone): one trial gives no confidence interval, and a
// zero-width [v, v] would read as certainty. A null ci95 decodes as the
// zero array.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	b, err := json.Marshal(plain(s))
	if err != nil || s.IntervalMethod != IntervalNone {
		return b, err
	}
	return jsonnull.Field(b, "ci95", s.CI95)
}

// ValueFreq is a value of a sample, how often it occurs, and the two-sided
// 95% Clopper–Pearson interval for its probability.
type ValueFreq struct {
	Value float64    `json:"value"`
	Count int        `json:"count"`
	P95   [2]float64 `json:"p_ci95"`
}

// AllAgree reports whether there are two or more values and all are equal.
func (s Summary) AllAgree() bool { return s.N >= 2 && s.Agree == s.N }

// Agreement returns "all N trials gave V (P(other) ≤ p)" when AllAgree,
// and "" otherwise: what a renderer should print beside an interval that
// rests on agreeing trials. V is printed with %g.
func (s Summary) Agreement() string {
	if !s.AllAgree() {
		return ""
	}
	return fmt.Sprintf("all %s gave %g (P(other) ≤ %.2g)", Count(s.N, "trial"), s.Mode, s.OtherMax)
}

// Interval formats CI95 with the verb format ("%.3f") as "[lo, hi]", "—"
// when there is no interval (one trial), followed by Agreement's words when
// every trial agreed: the form every table of the toolkit prints.
func (s Summary) Interval(format string) string {
	if s.IntervalMethod == IntervalNone || s.N < 2 {
		return "—"
	}
	out := fmt.Sprintf("["+format+", "+format+"]", s.CI95[0], s.CI95[1])
	if a := s.Agreement(); a != "" {
		out += "; " + a
	}
	return out
}

// Summarize is SummarizeAtLeast(x, −∞): the summary of values with no
// known floor.
func Summarize(x []float64) Summary { return SummarizeAtLeast(x, math.Inf(-1)) }

// SummarizeAtLeast returns the summary of x, values of a quantity that
// cannot be below floor (0 for a max load, and for a gap, max − average ≥
// 0), in O(N log N) for N = len(x). The values must be finite; a value
// below floor lowers the floor to it (a gap computed in floating point can
// come out a rounding error below 0). For an empty x it returns N = 0 and
// IntervalNone, with zeros elsewhere.
//
// # The interval for the mean
//
// Max loads are small integers, a few consecutive values between them: a
// normal or Student-t interval from two trials 3 and 4 reads [−2.85,
// 9.85], below the support, and from agreeing trials a zero-width
// [4, 4] that claims certainty; a bootstrap is as blind to values no trial
// showed. SummarizeAtLeast uses an exact interval instead when the values
// lie on a lattice of step 1, min + k (every value an integer, or every
// difference one: gaps at a whole or fractional m/n), and span at most
// MaxExactSpan steps:
//
//  1. The working support is the lattice from s = min − 1 (or min, if
//     min − 1 is below the floor) to max + 1: one step beyond what the
//     trials showed on each side, so that the interval allows the values
//     next to the ones seen, the only ones a concentrated law like that of
//     a max load puts a noticeable mass on.
//  2. On that support the mean is s + Σ_j P(X ≥ j) over the lattice
//     points j > s, and X ≥ j occurred in c_j of the N trials:
//     c_j ~ Binomial(N, P(X ≥ j)).
//  3. The lower end adds Clopper–Pearson lower bounds of the P(X ≥ j) for
//     s < j ≤ max, each one-sided at level 1 − 0.025/K (K of them), and
//     the upper end Clopper–Pearson upper bounds for min < j ≤ max + 1,
//     likewise (a Bonferroni split of each end's 2.5%).
//
// For a law on two consecutive values k, k+1 (the max load of Greedy[d]
// at m = n is one, up to probabilities below 10^-3 by MaxLoadDist) the
// working support always holds the law, only the threshold k+1 can fail,
// and its bound fails with probability at most 0.025 at each end: the
// coverage is at least 95% for every such law and every N ≥ 2. For wider
// laws it is as long as no value lies two steps beyond the sample. The
// tests measure it, over 2000 samples each: 96% to 100% on the max loads
// of Greedy[2] (n = 2^10, 2^14) and one-choice (4 to 10 at n = 2^10) for
// N = 2 to 30, where Student's t covers as little as 1% (and 17% at N = 30
// for Greedy[2] at 2^10); on a law with a value three steps out it falls to
// 92% at N = 5, as Student's t's does.
//
// The interval is conservative, never below the floor, and never of zero
// width: N trials that all gave 4 (with floor 0) give [3 + 0.025^{1/N},
// 5 − 0.025^{1/N}] — [3.69, 4.31] for N = 10 — since a value 3 or 5 of
// probability up to 1 − 0.025^{1/N} is not ruled out. Where Student's t
// happens to cover (many trials of a balanced law) it is 1.5 to 2 times
// as wide: the price of exactness and of the values next to the sample.
//
// Other values — not on a lattice (weighted gaps) or spanning more than
// MaxExactSpan steps (a one-choice gap under heavy load, reachability
// counts) — get Student's t with N − 1 degrees of freedom, mean ±
// t·Std/√N, with its lower end raised to the floor when below (the mean is
// at least the floor, so this never loses coverage). That interval is
// asymptotic: exact for normal values, close to 95% for many distinct
// values, and short of it for few trials of a skewed law. With N = 1 no
// interval is given (IntervalNone).
func SummarizeAtLeast(x []float64, floor float64) Summary {
	n := len(x)
	s := Summary{N: n, IntervalMethod: IntervalNone, OtherMax: 1}
	if n == 0 {
		return s
	}
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	integer := true
	for _, v := range x {
		s.Min = min(s.Min, v)
		s.Max = max(s.Max, v)
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			integer = false
		}
	}
	floor = min(floor, s.Min)

	sorted := slices.Clone(x)
	slices.Sort(sorted)
	for i := 0; i < n; {
		j := i
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		if j-i > s.Agree {
			s.Mode, s.Agree = sorted[i], j-i
		}
		if integer {
			s.Values = append(s.Values, ValueFreq{Value: sorted[i], Count: j - i, P95: clopperPearson(j-i, n, 0.025)})
		}
		i = j
	}
	s.OtherMax = clopperPearson(n-s.Agree, n, 0.025)[1]
	if integer {
		s.Counts = make(map[string]int, len(s.Values))
		for _, v := range s.Values {
			s.Counts[strconv.FormatInt(int64(v.Value), 10)] = v.Count
		}
	}

	if n == 1 {
		s.Mean = x[0]
		s.CI95 = [2]float64{x[0], x[0]}
		return s
	}
	// Two-pass, compensated mean and unbiased variance.
	s.Mean, s.Std = stat.MeanStdDev(x, nil)
	if steps, ok := latticeSteps(sorted); ok && steps[n-1] <= MaxExactSpan {
		s.IntervalMethod = IntervalBinomialTails
		s.CI95 = binomialTails(steps, s.Min, floor)
		return s
	}
	s.IntervalMethod = IntervalStudentT
	s.CI95 = studentT95(s.Mean, s.Std, n)
	s.CI95[0] = max(s.CI95[0], floor)
	return s
}

// studentT95 returns mean ± t·std/√n with t the 0.975 quantile of Student's
// t with n − 1 degrees of freedom (studentHalf); n must be at least 2.
func studentT95(mean, std float64, n int) [2]float64 {
	half := studentHalf(std, n, 0.05)
	return [2]float64{mean - half, mean + half}
}

// latticeSteps returns the sorted values as whole steps above the first,
// k_i = x_i − x_0, and whether they are whole up to rounding: a gap x − m/n
// at a fractional m/n differs from another by a whole number only within
// a few units in the last place of x, allowed for as 1e-9 + |x|·2^−48.
func latticeSteps(sorted []float64) ([]int, bool) {
	steps := make([]int, len(sorted))
	for i, v := range sorted {
		d := v - sorted[0]
		k := math.Round(d)
		if math.Abs(d-k) > 1e-9+math.Abs(v)*0x1p-48 || k > 1<<30 {
			return nil, false
		}
		steps[i] = int(k)
	}
	return steps, true
}

// binomialTails is the exact interval of SummarizeAtLeast for the sorted
// lattice steps k (k[0] = 0) of values lo + k, none of which may be below
// floor.
func binomialTails(k []int, lo, floor float64) [2]float64 {
	n := len(k)
	span := k[n-1]
	// c[j] = #{i: k_i ≥ j} for j = 0 … span+1.
	c := make([]int, span+2)
	for _, v := range k {
		c[v]++
	}
	for j := span - 1; j >= 0; j-- {
		c[j] += c[j+1]
	}
	// The working support starts at s = lo − 1, or at lo when that is below
	// the floor; in steps, at s0 = −1 or 0. The threshold j = 0 (X ≥ lo)
	// then has c = n, and the thresholds below it (none here) would be 1.
	s0 := -1
	if lo-1 < floor {
		s0 = 0
	}
	count := func(j int) int {
		if j <= 0 {
			return n
		}
		return c[j]
	}
	var ci [2]float64
	ci[0] = float64(s0)
	if kLo := span - s0; kLo > 0 {
		beta := 0.025 / float64(kLo)
		for j := s0 + 1; j <= span; j++ {
			ci[0] += clopperPearson(count(j), n, beta)[0]
		}
	}
	// Upper: P(X ≥ j) ≤ 1 for s0 < j ≤ 0, bounded for 0 < j ≤ span + 1.
	ci[1] = 0
	beta := 0.025 / float64(span+1)
	for j := 1; j <= span+1; j++ {
		ci[1] += clopperPearson(count(j), n, beta)[1]
	}
	return [2]float64{lo + ci[0], lo + ci[1]}
}

// clopperPearson returns the Clopper–Pearson bounds for a probability p
// from x successes in n trials, each end one-sided at level 1 − beta:
// [B⁻¹(beta; x, n−x+1), B⁻¹(1−beta; x+1, n−x)] with B⁻¹ the beta quantile,
// 0 for x = 0 and 1 for x = n below and above, and the closed forms beta^{1/n}
// and 1 − beta^{1/n} for the other end when x = n or x = 0. beta = 0.025
// gives the two-sided 95% interval.
func clopperPearson(x, n int, beta float64) [2]float64 {
	var ci [2]float64
	switch {
	case x == 0:
		ci[0] = 0
	case x == n:
		ci[0] = math.Pow(beta, 1/float64(n))
	default:
		ci[0] = distuv.Beta{Alpha: float64(x), Beta: float64(n - x + 1)}.Quantile(beta)
	}
	switch {
	case x == n:
		ci[1] = 1
	case x == 0:
		ci[1] = 1 - math.Pow(beta, 1/float64(n))
	default:
		ci[1] = distuv.Beta{Alpha: float64(x + 1), Beta: float64(n - x)}.Quantile(1 - beta)
	}
	return ci
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

// Count writes n with its noun, singular for one ("1 trial", "3 trials"):
// the labels of tables and figures count trials and points with it.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
