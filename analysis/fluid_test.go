package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"

	"gonum.org/v1/gonum/stat/distuv"
)

// logPoissonTail returns ln P(Poisson(t) ≥ i), summing the terms from
// k = i upward in log space so that tails far below 1e-300 keep their
// relative accuracy. An independent reference for one-choice, whose fluid
// limit ds_i/dt = s_{i−1} − s_i is solved by s_i(t) = P(Poisson(t) ≥ i).
// For t ≤ 50 the partial sums stay below e^50: no overflow.
func logPoissonTail(t float64, i int) float64 {
	if i == 0 {
		return 0
	}
	lg, _ := math.Lgamma(float64(i) + 1)
	l0 := -t + float64(i)*math.Log(t) - lg // ln of the k = i term
	sum, term := 1.0, 1.0
	for k := i + 1; ; k++ {
		term *= t / float64(k)
		sum += term
		if term < 1e-18*sum {
			break
		}
	}
	return l0 + math.Log(sum)
}

func mustTails(t *testing.T, p FluidProcess, at float64) []float64 {
	t.Helper()
	s, err := Tails(p, at)
	if err != nil {
		t.Fatalf("Tails(%+v, %g): %v", p, at, err)
	}
	return s
}

// The contract every result of Tails keeps: s_0 = 1, values in [0, 1],
// non-increasing, the last entry ≥ DefaultTailTol.
func checkShape(t *testing.T, s []float64) {
	t.Helper()
	if len(s) == 0 || s[0] != 1 {
		t.Fatalf("tails must start with s_0 = 1, got %v", s[:min(len(s), 3)])
	}
	for i := 1; i < len(s); i++ {
		if !(s[i] >= 0 && s[i] <= s[i-1]) {
			t.Fatalf("s_%d = %g after s_%d = %g: not in [0, s_{i-1}]", i, s[i], i-1, s[i-1])
		}
	}
	if last := s[len(s)-1]; last < DefaultTailTol {
		t.Fatalf("last tail %g below the cut-off %g", last, DefaultTailTol)
	}
}

// Greedy[2]: ds_1/dt = 1 − s_1², s_1(0) = 0, so s_1(t) = tanh t exactly.
func TestTailsGreedy2Tanh(t *testing.T) {
	for _, at := range []float64{0.01, 0.1, 0.5, 1, 2, 5, 20} {
		s := mustTails(t, FluidProcess{Family: alloc.FamilyGreedy, D: 2}, at)
		checkShape(t, s)
		if err := math.Abs(s[1] - math.Tanh(at)); err > 1e-9 {
			t.Errorf("t=%g: s_1 = %.15g, tanh t = %.15g, error %.2g > 1e-9", at, s[1], math.Tanh(at), err)
		}
	}
}

// One-choice: every level against the Poisson tails, absolutely to 1e-9 and
// relatively where the tails are around 1e-12 (1e-14..1e-10, "deep in the
// tail"); and down to the cut-off, relatively to 1e-3. The
// result must stop where the Poisson tails fall below 1e-300.
func TestTailsOneChoicePoisson(t *testing.T) {
	for _, at := range []float64{1e-6, 1e-3, 0.5, 1, 3, 10, 50} {
		t.Run(fmt.Sprintf("t=%g", at), func(t *testing.T) {
			s := mustTails(t, FluidProcess{Family: alloc.FamilyOneChoice}, at)
			checkShape(t, s)
			deep := 0
			for i, v := range s {
				lp := logPoissonTail(at, i)
				p := math.Exp(lp)
				if err := math.Abs(v - p); err > 1e-9 {
					t.Errorf("s_%d = %.15g, Poisson %.15g: absolute error %.2g > 1e-9", i, v, p, err)
				}
				if p >= 1e-14 && p <= 1e-10 {
					deep++
					if rel := math.Abs(v/p - 1); rel > 1e-6 {
						t.Errorf("s_%d = %.10g, Poisson %.10g: relative error %.2g > 1e-6", i, v, p, rel)
					}
				}
				if rel := math.Abs(math.Log(v) - lp); rel > 1e-3 {
					t.Errorf("s_%d = %.6g, Poisson %.6g: relative error %.2g > 1e-3", i, v, p, rel)
				}
			}
			if at >= 0.5 && deep == 0 {
				t.Errorf("no level with a tail in [1e-14, 1e-10] was checked")
			}
			// Length: the last level with a Poisson tail ≥ 1e-300 (allowing a
			// level either way for a tail within 1e-3 of the cut-off).
			want := 0
			for logPoissonTail(at, want+1) >= math.Log(DefaultTailTol) {
				want++
			}
			if got := len(s) - 1; got < want-1 || got > want+1 {
				t.Errorf("last level %d, want %d", got, want)
			}
		})
	}
}

// Level 1 of every process in closed form. With level 0 fixed at 1:
//
//	one-choice      s' = 1 − s                        s = 1 − e^{−t}
//	greedy d=2      s' = 1 − s²                       s = tanh t
//	unbalanced d    s' = (1 − s)^d                    s = 1 − (1 + (d−1)t)^{−1/(d−1)}
//	one-plus-beta   s' = (1 − s)(1 + βs)              s = 1 − (1+β)/(β + e^{(1+β)t})
//	left d=2        y_0' = 2(1 − y_0)                 y_0 = 1 − e^{−2t}
//	                y_1' = 2(1 − y_1)·y_0             y_1 = 1 − exp(−2t + 1 − e^{−2t})
//	                s = (y_0 + y_1)/2
//
// (one-plus-beta: u = 1 − s solves the Bernoulli equation
// u' = −(1+β)u + βu², u(0) = 1.)
func TestTailsLevelOneClosedForms(t *testing.T) {
	cases := []struct {
		name string
		p    FluidProcess
		s1   func(t float64) float64
	}{
		{"one-choice", FluidProcess{Family: alloc.FamilyOneChoice}, func(t float64) float64 { return -math.Expm1(-t) }},
		{"greedy/d=2", FluidProcess{Family: alloc.FamilyGreedy, D: 2}, math.Tanh},
		{"unbalanced/d=2", FluidProcess{Family: alloc.FamilyMaxOf, D: 2}, func(t float64) float64 { return t / (1 + t) }},
		{"unbalanced/d=3", FluidProcess{Family: alloc.FamilyMaxOf, D: 3}, func(t float64) float64 { return 1 - 1/math.Sqrt(1+2*t) }},
		{"unbalanced/d=5", FluidProcess{Family: alloc.FamilyMaxOf, D: 5}, func(t float64) float64 { return 1 - math.Pow(1+4*t, -0.25) }},
		{"one-plus-beta/beta=0.3", FluidProcess{Family: alloc.FamilyOnePlusBeta, Beta: 0.3}, func(t float64) float64 { return 1 - 1.3/(0.3+math.Exp(1.3*t)) }},
		{"one-plus-beta/beta=0.9", FluidProcess{Family: alloc.FamilyOnePlusBeta, Beta: 0.9}, func(t float64) float64 { return 1 - 1.9/(0.9+math.Exp(1.9*t)) }},
		{"left/d=2", FluidProcess{Family: alloc.FamilyLeft, D: 2}, func(t float64) float64 {
			e := math.Exp(-2 * t)
			return 1 - (e+math.Exp(-2*t+1-e))/2
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, at := range []float64{0.05, 0.5, 1, 2.5, 8} {
				s := mustTails(t, tc.p, at)
				checkShape(t, s)
				if err := math.Abs(s[1] - tc.s1(at)); err > 1e-9 {
					t.Errorf("t=%g: s_1 = %.15g, closed form %.15g, error %.2g", at, s[1], tc.s1(at), err)
				}
			}
		})
	}
}

// Σ_{i≥1} s_i = t: every ball sits in some bin (each right-hand side
// telescopes to 1 over the levels). A wrong factor in left's equation, for
// one, would give t·(factor).
func TestTailsConservation(t *testing.T) {
	procs := []FluidProcess{
		{Family: alloc.FamilyOneChoice},
		{Family: alloc.FamilyGreedy, D: 2}, {Family: alloc.FamilyGreedy, D: 3}, {Family: alloc.FamilyGreedy, D: 10},
		{Family: alloc.FamilyLeft, D: 2}, {Family: alloc.FamilyLeft, D: 3}, {Family: alloc.FamilyLeft, D: 4},
		{Family: alloc.FamilyMaxOf, D: 2}, {Family: alloc.FamilyMaxOf, D: 3},
		{Family: alloc.FamilyOnePlusBeta, Beta: 0.25}, {Family: alloc.FamilyOnePlusBeta, Beta: 0.75},
		{Family: alloc.FamilyGBounded, Tolerance: 3}, {Family: alloc.FamilyGMyopic, Tolerance: 3}, {Family: alloc.FamilyNoisy, Sigma: 1.5},
	}
	loads := []float64{0.3, 1, 4, 25, 100}
	if testing.Short() {
		loads = loads[:4]
	}
	for _, p := range procs {
		for _, at := range loads {
			if at > 25 && pairRule(p) != nil {
				continue // the two-sample rules: O(levels²) a step (noisy), 1–3 s at t = 100
			}
			s := mustTails(t, p, at)
			checkShape(t, s)
			var sum float64
			for _, v := range s[1:] {
				sum += v
			}
			if err := math.Abs(sum - at); err > 1e-9 {
				t.Errorf("%+v t=%g: Σ s_i = %.15g, error %.2g", p, at, sum, err)
			}
		}
	}
}

// Reduction cases: d = 1 (and β = 0) is one-choice, β = 1 is greedy d = 2.
func TestTailsSpecialCases(t *testing.T) {
	same := func(name string, a, b FluidProcess, at float64) {
		sa, sb := mustTails(t, a, at), mustTails(t, b, at)
		if len(sa) < len(sb)-1 || len(sa) > len(sb)+1 {
			t.Errorf("%s: %d levels against %d", name, len(sa), len(sb))
		}
		for i := range min(len(sa), len(sb)) {
			if err := math.Abs(sa[i] - sb[i]); err > 1e-11 {
				t.Errorf("%s: s_%d %.15g against %.15g", name, i, sa[i], sb[i])
			}
		}
	}
	one := FluidProcess{Family: alloc.FamilyOneChoice}
	for _, at := range []float64{0.7, 3} {
		same("greedy d=1", FluidProcess{Family: alloc.FamilyGreedy, D: 1}, one, at)
		same("left d=1", FluidProcess{Family: alloc.FamilyLeft, D: 1}, one, at)
		same("unbalanced d=1", FluidProcess{Family: alloc.FamilyMaxOf, D: 1}, one, at)
		same("one-plus-beta β=0", FluidProcess{Family: alloc.FamilyOnePlusBeta}, one, at)
		same("one-plus-beta β=1", FluidProcess{Family: alloc.FamilyOnePlusBeta, Beta: 1}, FluidProcess{Family: alloc.FamilyGreedy, D: 2}, at)
		// The two-sample rules: g = 0 and σ = 0 are Two-Choice; a g
		// beyond every load difference leaves every ball to the coin
		// (g-myopic: one-choice) or to the adversary (g-bounded: the
		// more loaded of two, MaxOf[2]).
		greedy2 := FluidProcess{Family: alloc.FamilyGreedy, D: 2}
		same("g-bounded g=0", FluidProcess{Family: alloc.FamilyGBounded}, greedy2, at)
		same("g-myopic g=0", FluidProcess{Family: alloc.FamilyGMyopic}, greedy2, at)
		same("noisy σ=0", FluidProcess{Family: alloc.FamilyNoisy}, greedy2, at)
		same("g-myopic g=1000", FluidProcess{Family: alloc.FamilyGMyopic, Tolerance: 1000}, one, at)
		same("g-bounded g=1000", FluidProcess{Family: alloc.FamilyGBounded, Tolerance: 1000}, FluidProcess{Family: alloc.FamilyMaxOf, D: 2}, at)
	}
	// σ → ∞: the readings are a coin, Φ(δ/(σ√2)) = 1/2 + O(δ/σ): one-choice
	// to O(1/σ) (measured 1.0e-4 at σ = 1024; 3e-4 allowed). Down to 1e-12:
	// the noise reads every level, O(levels²).
	sa, err := TailsTol(FluidProcess{Family: alloc.FamilyNoisy, Sigma: alloc.MaxSigma}, 1, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	sb := mustTails(t, one, 1)
	for i := range min(len(sa), len(sb)) {
		if math.Abs(sa[i]-sb[i]) > 3e-4 {
			t.Errorf("noisy σ=1024: s_%d %.10g against one-choice %.10g", i, sa[i], sb[i])
		}
	}
	if s := mustTails(t, FluidProcess{Family: alloc.FamilyLeft, D: 3}, 0); len(s) != 1 || s[0] != 1 {
		t.Errorf("t = 0: got %v, want [1]", s)
	}
	s, err := TailsTol(FluidProcess{Family: alloc.FamilyOneChoice}, 1, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	// P(Poisson(1) ≥ 9) = 1.1e-6 and P(Poisson(1) ≥ 10) = 1.1e-7.
	if len(s) != 10 {
		t.Errorf("cut-off 1e-6: %d levels, want 10 (s_9 = 1.1e-6 ≥ 1e-6 > s_10)", len(s))
	}
}

// rk4Reference integrates the equations of docs/theory.md, written out here
// independently of fluid.go (direct differences of powers, explicit
// products), with the classic fixed-step Runge–Kutta method, h = 1e-3, on
// levels 0..K. Its error is O(h⁴) ≈ 1e-12; it returns s_0..s_K.
func rk4Reference(p FluidProcess, at float64, K int) []float64 {
	d := max(p.D, 1)
	w := 1
	if p.Family == alloc.FamilyLeft {
		w = d
	}
	rhs := func(y, dy []float64) {
		if pairRule(p) != nil {
			pairRates(p, y, dy, K)
			return
		}
		for i := 1; i <= K; i++ {
			for j := range w {
				a, b := y[(i-1)*w+j], y[i*w+j]
				var v float64
				switch p.Family {
				case alloc.FamilyOneChoice:
					v = a - b
				case alloc.FamilyGreedy:
					v = math.Pow(a, float64(d)) - math.Pow(b, float64(d))
				case alloc.FamilyMaxOf:
					v = math.Pow(1-b, float64(d)) - math.Pow(1-a, float64(d))
				case alloc.FamilyOnePlusBeta:
					v = (1-p.Beta)*(a-b) + p.Beta*(a*a-b*b)
				case alloc.FamilyLeft:
					v = float64(d) * (a - b)
					for k := range d {
						if k < j {
							v *= y[i*w+k]
						} else if k > j {
							v *= y[(i-1)*w+k]
						}
					}
				}
				dy[i*w+j] = v
			}
		}
	}
	n := (K + 1) * w
	y := make([]float64, n)
	for j := range w {
		y[j] = 1
	}
	k1, k2, k3, k4, tmp := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	const h = 1e-3
	steps := int(math.Round(at / h))
	for range steps {
		rhs(y, k1)
		for c := range y {
			tmp[c] = y[c] + h/2*k1[c]
		}
		rhs(tmp, k2)
		for c := range y {
			tmp[c] = y[c] + h/2*k2[c]
		}
		rhs(tmp, k3)
		for c := range y {
			tmp[c] = y[c] + h*k3[c]
		}
		rhs(tmp, k4)
		for c := range y {
			y[c] += h / 6 * (k1[c] + 2*k2[c] + 2*k3[c] + k4[c])
		}
	}
	s := make([]float64, K+1)
	for i := range s {
		for j := range w {
			s[i] += y[i*w+j] / float64(w)
		}
	}
	return s
}

// pairRule returns, for a two-sample rule, P(the first of two candidates
// takes the ball | its load a, the other's b), straight from the
// definitions (nil for the other families): g-bounded sends a ball to the
// more loaded within g (either at a tie), g-myopic to either within g, and
// both to the lesser beyond; noisy compares a + σZ_1 with b + σZ_2.
func pairRule(p FluidProcess) func(a, b int) float64 {
	g := p.Tolerance
	switch p.Family {
	case alloc.FamilyGBounded:
		return func(a, b int) float64 {
			switch {
			case a == b:
				return 0.5
			case a-b > g || b-a > g:
				return b2f(a < b)
			}
			return b2f(a > b)
		}
	case alloc.FamilyGMyopic:
		return func(a, b int) float64 {
			if a-b > g || b-a > g {
				return b2f(a < b)
			}
			return 0.5
		}
	case alloc.FamilyNoisy:
		return func(a, b int) float64 {
			if p.Sigma == 0 || a == b {
				return b2f(a < b) + b2f(a == b)/2
			}
			return distuv.Normal{Mu: 0, Sigma: p.Sigma * math.Sqrt2}.CDF(float64(b - a))
		}
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// pairRates is the right-hand side of a two-sample rule's system written
// as the sum over ordered pairs of candidate loads (a, b): the ball raises
// a bin from i−1 to i when the candidate that takes it holds i−1 balls,
// dy_i = Σ_{a,b} p_a p_b [P(first | a, b)·[a = i−1] + (1 − P(first | a, b))·[b = i−1]],
// with p_k = y_k − y_{k+1} on levels 0..K (y_{K+1} = 0). O(K²) a level: the
// fast system's closed forms are not used.
func pairRates(p FluidProcess, y, dy []float64, K int) {
	first := pairRule(p)
	pk := func(k int) float64 {
		if k == K {
			return y[K]
		}
		return y[k] - y[k+1]
	}
	for i := 1; i <= K; i++ {
		dy[i] = 0
	}
	for a := 0; a <= K; a++ {
		for b := 0; b <= K; b++ {
			w := pk(a) * pk(b)
			if w == 0 {
				continue
			}
			f := first(a, b)
			if a+1 <= K {
				dy[a+1] += w * f
			}
			if b+1 <= K {
				dy[b+1] += w * (1 - f)
			}
		}
	}
}

// Every process against the independent RK4 reference, every level, to
// 1e-9 absolute.
func TestTailsAgainstRK4(t *testing.T) {
	procs := []FluidProcess{
		{Family: alloc.FamilyOneChoice}, {Family: alloc.FamilyGreedy, D: 2}, {Family: alloc.FamilyGreedy, D: 3},
		{Family: alloc.FamilyLeft, D: 2}, {Family: alloc.FamilyLeft, D: 3}, {Family: alloc.FamilyLeft, D: 4},
		{Family: alloc.FamilyMaxOf, D: 2}, {Family: alloc.FamilyMaxOf, D: 4},
		{Family: alloc.FamilyOnePlusBeta, Beta: 0.5},
		{Family: alloc.FamilyGBounded, Tolerance: 1}, {Family: alloc.FamilyGBounded, Tolerance: 3},
		{Family: alloc.FamilyGMyopic, Tolerance: 2}, {Family: alloc.FamilyNoisy, Sigma: 0.8},
	}
	const at, K = 2.0, 30 // t = 2: s_30 < 1e-20 for every process here
	for _, p := range procs {
		ref := rk4Reference(p, at, K)
		s := mustTails(t, p, at)
		for i := range K + 1 {
			var v float64
			if i < len(s) {
				v = s[i]
			}
			if err := math.Abs(v - ref[i]); err > 1e-9 {
				t.Errorf("%+v: s_%d = %.15g, RK4 %.15g, error %.2g", p, i, v, ref[i], err)
			}
		}
	}
}

// The doubly exponential decay: ln s_{i+1} / ln s_i → d for greedy and
// → φ_d^d for left [Vöcking 2003] (the left groups' tails follow the d-step
// Fibonacci recursion). φ_2² = 2.6180, φ_3³ = 6.2223, φ_4⁴ = 13.8049. The
// ratios approach their limits from above; at t = 1 the deepest one is
// within 5% (measured: 1.2%–3% for greedy, 0.7%–2.2% for left). And left's
// tails fall below greedy's.
func TestTailsDecayRate(t *testing.T) {
	for d := 2; d <= 4; d++ {
		g := mustTails(t, FluidProcess{Family: alloc.FamilyGreedy, D: d}, 1)
		l := mustTails(t, FluidProcess{Family: alloc.FamilyLeft, D: d}, 1)
		ratio := func(s []float64) float64 {
			k := len(s) - 1
			return math.Log(s[k]) / math.Log(s[k-1])
		}
		if r := ratio(g); r < float64(d) || r > 1.05*float64(d) {
			t.Errorf("greedy d=%d: deepest ln-ratio %.4f, want ≈ %d", d, r, d)
		}
		want := math.Pow(Phi(d), float64(d))
		if r := ratio(l); r < want || r > 1.05*want {
			t.Errorf("left d=%d: deepest ln-ratio %.4f, want ≈ φ_d^d = %.4f", d, r, want)
		}
		if len(l) > len(g) {
			t.Errorf("d=%d: left has %d levels, greedy %d", d, len(l), len(g))
		}
		for i := 3; i < len(l); i++ {
			if l[i] >= g[i] {
				t.Errorf("d=%d: left s_%d = %g ≥ greedy %g", d, i, l[i], g[i])
			}
		}
	}
}

// simulate throws m = n balls into n bins by process p, with its own
// minimal simulator (independent of package alloc), and returns the
// fractions of bins with load ≥ i for i = 0..levels-1. Greedy and
// unbalanced break ties uniformly at random, left to the leftmost group.
func simulate(p FluidProcess, n, levels int, r *rand.Rand) []float64 {
	load := make([]int32, n)
	d := p.D
	cand := make([]int, max(d, 2))
	// pick returns the candidate with the least (or, for unbalanced, the
	// most) load, ties uniformly at random.
	pick := func(k int, most bool) int {
		best, ties := cand[0], 1
		for _, c := range cand[1:k] {
			lc, lb := load[c], load[best]
			if most {
				lc, lb = -lc, -lb
			}
			switch {
			case lc < lb:
				best, ties = c, 1
			case lc == lb:
				ties++
				if r.IntN(ties) == 0 {
					best = c
				}
			}
		}
		return best
	}
	for range n {
		var b int
		switch p.Family {
		case alloc.FamilyOneChoice:
			b = r.IntN(n)
		case alloc.FamilyGreedy, alloc.FamilyMaxOf:
			for j := range d {
				cand[j] = r.IntN(n)
			}
			b = pick(d, p.Family == alloc.FamilyMaxOf)
		case alloc.FamilyLeft:
			b = -1
			for j := range d {
				lo, hi := j*n/d, (j+1)*n/d // group j: [⌊jn/d⌋, ⌊(j+1)n/d⌋)
				c := lo + r.IntN(hi-lo)
				if b < 0 || load[c] < load[b] {
					b = c
				}
			}
		case alloc.FamilyOnePlusBeta:
			cand[0], cand[1] = r.IntN(n), r.IntN(n)
			k := 1
			if r.Float64() < p.Beta {
				k = 2
			}
			b = pick(k, false)
		}
		load[b]++
	}
	f := make([]float64, levels)
	for _, l := range load {
		for i := 0; i <= int(l) && i < levels; i++ {
			f[i]++
		}
	}
	for i := range f {
		f[i] /= float64(n)
	}
	return f
}

// mcWorst simulates p T times with m = n and returns the largest
// |mean − want[i]| / tolerance over the levels i = 1..4. Tolerance as in
// alloc's statistical tests: q·se + 5/n, se the standard error of the mean
// of the T measured fractions (from their sample deviation), q the
// 1 − 1e-6/2 quantile of Student's t with T − 1 degrees of freedom, 5/n
// the O(1/n) finite-n bias of the mean-field limit [Kurtz 1970]. A correct
// prediction fails a level with probability about 1e-6; the seeds are
// fixed, so the test is deterministic.
func mcWorst(p FluidProcess, want []float64, n, T int, seed uint64) (worst float64, at int) {
	const levels = 5
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(T - 1)}.Quantile(1 - 1e-6/2)
	sum, sq := make([]float64, levels), make([]float64, levels)
	for trial := range T {
		f := simulate(p, n, levels, rand.New(rand.NewPCG(seed, uint64(trial))))
		for i := range f {
			sum[i] += f[i]
			sq[i] += f[i] * f[i]
		}
	}
	for i := 1; i < levels; i++ {
		mean := sum[i] / float64(T)
		se := math.Sqrt(max(0, (sq[i]-float64(T)*mean*mean)/float64(T-1)) / float64(T))
		var s float64
		if i < len(want) {
			s = want[i]
		}
		if dev := math.Abs(mean-s) / (q*se + 5/float64(n)); dev > worst {
			worst, at = dev, i
		}
	}
	return worst, at
}

func mcSize() (n, T int) {
	if testing.Short() {
		return 1 << 12, 8
	}
	return 1 << 16, 16
}

// The fluid limit of every process against simulation at t = 1, levels
// 1..4 (measured: every level within 0.25 tolerances).
func TestTailsMonteCarlo(t *testing.T) {
	n, T := mcSize()
	procs := []FluidProcess{
		{Family: alloc.FamilyOneChoice}, {Family: alloc.FamilyGreedy, D: 2}, {Family: alloc.FamilyGreedy, D: 3},
		{Family: alloc.FamilyLeft, D: 2}, {Family: alloc.FamilyLeft, D: 3}, {Family: alloc.FamilyMaxOf, D: 2},
		{Family: alloc.FamilyOnePlusBeta, Beta: 0.5},
	}
	for pi, p := range procs {
		if worst, at := mcWorst(p, mustTails(t, p, 1), n, T, 2026+uint64(pi)); worst > 1 {
			t.Errorf("%+v: level %d off the fluid limit by %.2f tolerances", p, at, worst)
		}
	}
}

// Negative controls: the Monte Carlo test must be able to tell left from
// greedy (the tie rule; measured 5.6 tolerances apart at n = 2^16) and to
// catch left's equation without the factor d (rates halved: the solution
// at t/2).
func TestTailsMonteCarloNegativeControls(t *testing.T) {
	if testing.Short() {
		t.Skip("needs n = 2^16 to separate the predictions")
	}
	n, T := mcSize()
	left, greedy := FluidProcess{Family: alloc.FamilyLeft, D: 2}, FluidProcess{Family: alloc.FamilyGreedy, D: 2}
	cases := []struct {
		name      string
		simulated FluidProcess
		wrong     []float64
	}{
		{"left against greedy", left, mustTails(t, greedy, 1)},
		{"greedy against left", greedy, mustTails(t, left, 1)},
		{"left against left without the factor d", left, mustTails(t, left, 0.5)},
	}
	for i, tc := range cases {
		if worst, _ := mcWorst(tc.simulated, tc.wrong, n, T, 99+uint64(i)); worst <= 1 {
			t.Errorf("%s: wrong prediction accepted (worst level %.2f tolerances)", tc.name, worst)
		}
	}
}

func TestTailsErrors(t *testing.T) {
	cases := []struct {
		p    FluidProcess
		t    float64
		want string
	}{
		{FluidProcess{Family: alloc.FamilyGreedy}, 1, "analysis: greedy needs 1 <= d <= 1024, got 0"},
		{FluidProcess{Family: alloc.FamilyLeft, D: -2}, 1, "analysis: left needs 1 <= d <= 1024, got -2"},
		{FluidProcess{Family: alloc.FamilyMaxOf, D: 2000}, 1, "analysis: unbalanced needs 1 <= d <= 1024, got 2000"},
		{FluidProcess{Family: alloc.FamilyOnePlusBeta, Beta: 1.5}, 1, "analysis: one-plus-beta needs 0 <= beta <= 1, got 1.5"},
		{FluidProcess{Family: alloc.FamilyOnePlusBeta, Beta: math.NaN()}, 1, "needs 0 <= beta <= 1"},
		{FluidProcess{Family: alloc.FamilyRank, D: 2}, 1, `no fluid limit for the rank family`},
		{FluidProcess{Family: alloc.FamilyGBounded, Tolerance: -1}, 1, "analysis: g-bounded needs 0 <= g <= 16383, got -1"},
		{FluidProcess{Family: alloc.FamilyNoisy, Sigma: math.NaN()}, 1, "analysis: noisy needs 0 <= sigma <= 1024, got NaN"},
		{FluidProcess{Family: alloc.FamilyOneChoice}, -1, "analysis: fluid limit needs a load t = m/n in [0, 10000], got -1"},
		{FluidProcess{Family: alloc.FamilyOneChoice}, math.NaN(), "got NaN"},
		{FluidProcess{Family: alloc.FamilyOneChoice}, math.Inf(1), "got +Inf"},
	}
	for _, tc := range cases {
		_, err := Tails(tc.p, tc.t)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Tails(%+v, %g) error %v, want %q", tc.p, tc.t, err, tc.want)
		}
	}
	if _, err := TailsTol(FluidProcess{Family: alloc.FamilyOneChoice}, 1, 0); err == nil || !strings.Contains(err.Error(), "tol") {
		t.Errorf("TailsTol with tol 0: error %v", err)
	}
}

func TestMaxLoadDist(t *testing.T) {
	// n = 1000: P(max ≥ i) = 1 − exp(−1000·s_i):
	// s_1 = 0.5 → 1 − e^{−500} = 1; s_2 = 1e-3 → 1 − e^{−1} = 0.632121;
	// s_3 = 1e-9 → 1 − e^{−1e-6} = 9.999995e-7.
	tails := []float64{1, 0.5, 1e-3, 1e-9}
	p := MaxLoadDist(tails, 1000)
	want := []float64{1, 1, 0.6321205588285577, 9.999995000001667e-07}
	for i := range want {
		if math.Abs(p[i]-want[i]) > 1e-15 {
			t.Errorf("P(max ≥ %d) = %.16g, want %.16g", i, p[i], want[i])
		}
	}
	// P(max = 1) = 0.368, P(max = 2) = 0.632 − 1e-6: the mode is 2.
	if got := PredictedMaxLoad(tails, 1000); got != 2 {
		t.Errorf("PredictedMaxLoad = %d, want 2", got)
	}
	if got := PredictedMaxLoad(nil, 10); got != 0 {
		t.Errorf("PredictedMaxLoad(nil) = %d, want 0", got)
	}
	// Greedy[2] at t = 1: s_4 = 6.05e-6, s_5 = 1.33e-12. With n = 2^20,
	// n·s_4 = 6.34 and n·s_5 = 1.4e-6: P(max ≥ 4) = 0.998, P(max ≥ 5) =
	// 1.4e-6, mode 4, as simulations at n = m = 2^20 show. One-choice:
	// P(max ≥ 9) = 0.693, P(max ≥ 10) = 0.110, mode 9.
	g := mustTails(t, FluidProcess{Family: alloc.FamilyGreedy, D: 2}, 1)
	if got := PredictedMaxLoad(g, 1<<20); got != 4 {
		t.Errorf("greedy d=2, n=2^20: predicted max %d, want 4", got)
	}
	o := mustTails(t, FluidProcess{Family: alloc.FamilyOneChoice}, 1)
	if got := PredictedMaxLoad(o, 1<<20); got != 9 {
		t.Errorf("one-choice, n=2^20: predicted max %d, want 9", got)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MaxLoadDist(n = 0) did not panic")
			}
		}()
		MaxLoadDist(tails, 0)
	}()
}

func BenchmarkTails(b *testing.B) {
	for _, bc := range []struct {
		p  FluidProcess
		at float64
	}{
		{FluidProcess{Family: alloc.FamilyGreedy, D: 2}, 1},
		{FluidProcess{Family: alloc.FamilyLeft, D: 3}, 1},
		{FluidProcess{Family: alloc.FamilyOneChoice}, 100},
		{FluidProcess{Family: alloc.FamilyGreedy, D: 2}, 100},
	} {
		b.Run(fmt.Sprintf("%s/d=%d/t=%g", bc.p.Family, bc.p.D, bc.at), func(b *testing.B) {
			for b.Loop() {
				if _, err := Tails(bc.p, bc.at); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
