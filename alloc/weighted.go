package alloc

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// WeightKind names a weight distribution.
type WeightKind uint8

const (
	WeightConst   WeightKind = iota // every ball weighs 1
	WeightExp                       // exponential with mean 1
	WeightPareto                    // Pareto with scale 1: P(W > x) = x^−Shape for x ≥ 1
	WeightUniform                   // uniform on [A, B]
)

// WeightDist is the distribution of a ball's weight. The zero value is the
// constant weight 1.
type WeightDist struct {
	Kind  WeightKind
	Shape float64 // Pareto shape α > 0 (mean α/(α−1) for α > 1, variance finite for α > 2)
	A, B  float64 // uniform bounds, 0 ≤ A ≤ B
}

// ParseWeights parses the --weights grammar of the command line: `const`,
// `exp`, `pareto:shape=A` or `uniform:a=A,b=B`.
func ParseWeights(s string) (WeightDist, error) {
	kind, params, _ := strings.Cut(s, ":")
	kv := map[string]float64{}
	if params != "" {
		for _, f := range strings.Split(params, ",") {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return WeightDist{}, fmt.Errorf("alloc: weights %q: parameter %q is not key=value", s, f)
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return WeightDist{}, fmt.Errorf("alloc: weights %q: %s=%q is not a finite number", s, k, v)
			}
			if _, dup := kv[k]; dup {
				return WeightDist{}, fmt.Errorf("alloc: weights %q: %s given twice", s, k)
			}
			kv[k] = x
		}
	}
	want := func(keys ...string) error {
		for k := range kv {
			known := false
			for _, w := range keys {
				known = known || k == w
			}
			if !known {
				if len(keys) == 0 {
					return fmt.Errorf("alloc: weights %q: %s takes no parameters", s, kind)
				}
				return fmt.Errorf("alloc: weights %q: unknown parameter %q (%s takes %s)", s, k, kind, strings.Join(keys, ", "))
			}
		}
		for _, w := range keys {
			if _, ok := kv[w]; !ok {
				return fmt.Errorf("alloc: weights %q: %s needs %s=", s, kind, w)
			}
		}
		return nil
	}
	var w WeightDist
	var err error
	switch kind {
	case "const":
		err = want()
	case "exp":
		w.Kind = WeightExp
		err = want()
	case "pareto":
		w.Kind = WeightPareto
		if err = want("shape"); err == nil {
			w.Shape = kv["shape"]
		}
	case "uniform":
		w.Kind = WeightUniform
		if err = want("a", "b"); err == nil {
			w.A, w.B = kv["a"], kv["b"]
		}
	default:
		return WeightDist{}, fmt.Errorf("alloc: unknown weight distribution %q (allowed: const, exp, pareto:shape=A, uniform:a=A,b=B)", s)
	}
	if err != nil {
		return WeightDist{}, err
	}
	return w, w.Check()
}

// Check reports whether w is a valid distribution of non-negative weights.
func (w WeightDist) Check() error {
	switch w.Kind {
	case WeightConst, WeightExp:
		return nil
	case WeightPareto:
		if !(w.Shape > 0) || math.IsInf(w.Shape, 0) {
			return fmt.Errorf("alloc: pareto weights need a finite shape > 0, got shape=%g", w.Shape)
		}
		return nil
	case WeightUniform:
		if !(w.A >= 0 && w.A <= w.B) || math.IsInf(w.B, 0) {
			return fmt.Errorf("alloc: uniform weights need finite 0 <= a <= b, got a=%g b=%g", w.A, w.B)
		}
		return nil
	}
	return fmt.Errorf("alloc: unknown weight kind %d", w.Kind)
}

// String returns w in the --weights grammar.
func (w WeightDist) String() string {
	switch w.Kind {
	case WeightExp:
		return "exp"
	case WeightPareto:
		return "pareto:shape=" + strconv.FormatFloat(w.Shape, 'g', -1, 64)
	case WeightUniform:
		return "uniform:a=" + strconv.FormatFloat(w.A, 'g', -1, 64) + ",b=" + strconv.FormatFloat(w.B, 'g', -1, 64)
	}
	return "const"
}

// Mean returns the expected weight (+Inf for Pareto with shape ≤ 1).
func (w WeightDist) Mean() float64 {
	mean, _ := w.moments()
	return mean
}

// Variance returns the variance of the weight: 0 for const, 1 for exp,
// (B−A)²/12 for uniform, and α/((α−1)²(α−2)) for Pareto with shape α > 2,
// +Inf for α ≤ 2 (Pareto's second moment E[W²] = α/(α−2) is finite only
// for α > 2; for α ≤ 1 the mean is infinite too).
func (w WeightDist) Variance() float64 {
	_, variance := w.moments()
	return variance
}

// moments returns the mean and the variance of the weight (see Mean and
// Variance).
func (w WeightDist) moments() (mean, variance float64) {
	switch w.Kind {
	case WeightExp:
		return 1, 1
	case WeightPareto:
		a := w.Shape
		mean, variance = a/(a-1), a/((a-1)*(a-1)*(a-2))
		if a <= 2 {
			variance = math.Inf(1)
		}
		if a <= 1 {
			mean = math.Inf(1)
		}
		return mean, variance
	case WeightUniform:
		return (w.A + w.B) / 2, (w.B - w.A) * (w.B - w.A) / 12
	}
	return 1, 0
}

// FiniteMoments reports whether the weight has a finite mean and a finite
// variance. Only Pareto weights can fail either: the mean needs shape > 1,
// the variance shape > 2.
//
// Weighted refuses weights without a finite mean (see Weighted.Check). An
// infinite variance is allowed but worth a warning: [TW07]'s gap that does
// not grow with m assumes a finite second moment, so no bound speaks to
// the measured gap (Caveat gives the sentence).
func (w WeightDist) FiniteMoments() (mean, variance bool) {
	m, v := w.moments()
	return !math.IsInf(m, 1), !math.IsInf(v, 1)
}

// Caveat returns a one-line warning for weights that Weighted accepts but
// whose variance is infinite, and "" otherwise.
func (w WeightDist) Caveat() string {
	if mean, variance := w.FiniteMoments(); mean && !variance {
		return fmt.Sprintf("weights %s have infinite variance (pareto needs shape > 2 for a finite one): "+
			"the gap bound independent of m [TW07] assumes a finite one and does not apply", w)
	}
	return ""
}

// Weighted is Greedy[d] with weighted balls (Talwar, Wieder, "Balanced
// allocations: the weighted case", STOC 2007): each ball draws a weight from
// Weights, draws D bins uniformly and independently, and goes to the one
// with the least total weight (ties to the first drawn, which has the law of
// random ties, as for Greedy). Loads are float64 sums of weights. For
// weight distributions with a finite second moment (and a mild condition
// on the tail) the gap, max load minus average load, does not grow with m
// [TW07].
//
// Randomness: per ball the D bins are drawn first, in the order Greedy
// draws them, then the weight (no draw at all for const). With constant
// weights the process is therefore Greedy[d] draw for draw: the same seed
// places every ball in the same bin.
//
// Exponential weights are −ln U and Pareto weights U^{−1/α} = exp(−ln U / α),
// with U = (k+1)·2^-53 in (0, 1] for a uniform 53-bit k; uniform weights are
// A + (B−A)·k·2^-53.
//
// Weighted is a TrialRunner, not a Process: Run and Config.Trial give it
// the whole trial, on float64 loads of its own (8 bytes a bin). Its Result
// has real MaxLoad and MinLoad, Gap = MaxLoad − (total weight)/n, the
// --every series on the same terms, and no LoadCounts. PlaceWeighted places
// balls in float loads of the caller's.
type Weighted struct {
	D       int
	Weights WeightDist
	Ties    Ties
}

var weightedDescriptor = Descriptor{
	Name:     "weighted",
	Synopsis: "Greedy[d] with balls weighted by --weights; real loads",
	Uses:     ParamD | ParamWeights,
	Family:   FamilyWeighted,
	BinBytes: 8,
	build:    func(p Params) Rule { return Weighted{D: intD(p), Weights: p.Weights, Ties: p.Ties} },
}

// Name returns the command-line name, "weighted".
func (Weighted) Name() string { return weightedDescriptor.Name }

// String returns "weighted[d]".
func (p Weighted) String() string { return fmt.Sprintf("%s[%d]", p.Name(), p.D) }

// Check requires n ≥ 1, 1 ≤ D ≤ 2^20 and a valid weight distribution with
// a finite mean: with E[W] = ∞ (Pareto with shape ≤ 1) the average load
// m·E[W]/n is infinite, so the gap, max load minus average load, is
// undefined and the measured total weight over n estimates nothing. An
// infinite variance passes (see WeightDist.FiniteMoments and Caveat).
func (p Weighted) Check(n int) error {
	return weightedDescriptor.checkRun(n, p.D, Params{Weights: p.Weights})
}

// checkWeights requires a valid weight distribution with a finite mean.
func checkWeights(name string, w WeightDist) error {
	if err := w.Check(); err != nil {
		return err
	}
	if mean, _ := w.FiniteMoments(); !mean {
		return fmt.Errorf("alloc: %s needs weights with a finite mean, and %s has E[W] = ∞ "+
			"(pareto needs shape > 1): the gap, max load − average load, is undefined", name, w)
	}
	return nil
}

// PlaceWeighted throws m weighted balls into the loads L and returns the
// probes made (D per ball).
func (p Weighted) PlaceWeighted(L []float64, m int64, r *Rand) Stats {
	if p.D == 2 && p.Weights.Kind == WeightConst {
		weighted2Const(L, m, r)
	} else {
		weightedD(L, m, p.D, p.Weights, r)
	}
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

// weighted2Const is greedy2 on float loads.
// Written by hand, as weightedD: float loads, which never overflow, and
// weights drawn after the choice; the templates are for integer loads.
func weighted2Const(L []float64, m int64, r *Rand) {
	n := uint64(len(L))
	s := r.state
	for k := int64(0); k < m; k++ {
		var i, j uint64
		s, i = below(s, n)
		s, j = below(s, n)
		li, lj := L[i], L[j]
		c, mn := i, li
		if lj < li {
			c, mn = j, lj
		}
		L[c] = mn + 1
	}
	r.state = s
}

func weightedD(L []float64, m int64, d int, w WeightDist, r *Rand) {
	n := uint64(len(L))
	s := r.state
	kind := w.Kind
	alpha := 1 / w.Shape
	a, span := w.A, w.B-w.A
	for k := int64(0); k < m; k++ {
		var c uint64
		s, c = below(s, n)
		mn := L[c]
		for j := 1; j < d; j++ {
			var x uint64
			s, x = below(s, n)
			if lx := L[x]; lx < mn {
				c, mn = x, lx
			}
		}
		// The weight: a switch on a loop invariant, predicted.
		wt := 1.0
		if kind != WeightConst {
			var x uint64
			s, x = next(s)
			switch kind {
			case WeightExp:
				wt = -math.Log(float64(x>>11+1) * 0x1p-53)
			case WeightPareto:
				wt = math.Exp(-math.Log(float64(x>>11+1)*0x1p-53) * alpha)
			case WeightUniform:
				wt = a + span*(float64(x>>11)*0x1p-53)
			}
		}
		L[c] = mn + wt
	}
	r.state = s
}

// RunTrial runs trial i of c on float64 loads (see Weighted).
func (p Weighted) RunTrial(ctx context.Context, c Config, i int) (Result, error) {
	L := make([]float64, c.N)
	r := TrialRand(c.Seed, i)
	res := Result{Trial: i}
	st, series, err := c.batches(ctx,
		func(k int64) Stats { return p.PlaceWeighted(L, k, r) },
		func(placed int64) Point {
			// The average is the weight placed per bin, not placed/n.
			mx, mn, sum := floatStats(L)
			return Point{Balls: placed, Gap: mx - sum/float64(c.N), Spread: mx - mn}
		})
	if err != nil {
		return Result{}, err
	}
	res.Series = series
	mx, mn, sum := floatStats(L)
	res.MaxLoad, res.MinLoad = mx, mn
	res.Gap = mx - sum/float64(c.N)
	res.Probes, res.MaxProbes = st.Probes, st.MaxProbes
	if c.Profile {
		res.Profile = ProfileFromLoads(L)
	}
	return res, nil
}

// floatStats returns the largest and smallest load and their sum. With
// whole-number loads below 2^53 (constant weights) the sum is exact, so the
// gap is exactly Greedy's max − m/n.
func floatStats(L []float64) (mx, mn, sum float64) {
	if len(L) == 0 {
		return 0, 0, 0
	}
	mx, mn = math.Inf(-1), math.Inf(1)
	for _, l := range L {
		mx = max(mx, l)
		mn = min(mn, l)
		sum += l
	}
	return mx, mn, sum
}
