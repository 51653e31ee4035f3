package queue

import (
	"context"
	"flag"
	"fmt"
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// fixedPointFull runs TestFixedPoint at full size, n = 2^16
// for λ ∈ {0.5, 0.9, 0.95} and d ∈ {1, 2, 3} (50 s of CPU, 75 s on a
// machine loaded 3-fold; .ci/run runs it). Without it the test runs n = 2^10 at
// λ ∈ {0.5, 0.9}.
var fixedPointFull = flag.Bool("queue-fixed-point", false, "run TestFixedPoint at n = 2^16, λ up to 0.95")

// qStrict is the two-sided Student-t quantile at 1 − 1e-6/2 with e's
// degrees of freedom: every comparison of a test fails by chance with
// probability at most 1e-6.
func qStrict(e Estimate) float64 { return analysis.StudentQuantile(1-1e-6/2, max(e.DF, 1)) }

// se is e's standard error.
func se(e Estimate) float64 { return e.StdErr }

// fixedPointRun measures the stationary tails of uniform d-sampling.
// d ≥ 2 starts empty and the warm-up is MSER's. d = 1 starts in its exact
// stationary law (independent M/M/1 queues, whose relaxation from empty
// takes 1/(1 − √λ)² time units, 1560 at λ = 0.95) and measures over a
// window long against the correlation time of the tails' fluctuations;
// the horizon grows like 1/(1 − λ) for d ≥ 2, whose tails relax faster:
// 300/(1 − λ) is long enough for about ten batch-means groups of five
// correlation times each, which minDF checks (at 200/(1 − λ), s_1 of
// λ = 0.5, d = 2 has 4 degrees of freedom under the level engine's pair
// draws).
func fixedPointRun(t *testing.T, n int64, lambda float64, d int) Trial {
	T := 300 / (1 - lambda)
	c := Config{N: n, D: d, Lambda: lambda, Time: T, Warmup: -1, Seed: 5}
	if d == 1 {
		// 200 relaxation times. The queues are independent: n only
		// adds events.
		c.Start = StartFixed
		c.Time = 200 / math.Pow(1-math.Sqrt(lambda), 2)
		c.N = 128
		c.Warmup = 0
	}
	tr, err := c.Trial(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if tr.WarmupRule == "mser-edge" {
		t.Fatalf("λ=%g d=%d: MSER found no steady state within T=%g", lambda, d, c.Time)
	}
	minDF(t, tr, fmt.Sprintf("λ=%g d=%d", lambda, d))
	return tr
}

// minDF fails a test whose run is too short to test anything: an
// interval of fewer than 5 degrees of freedom (6 groups) at a level
// above 1%, where qStrict passes 30 standard errors or more.
func minDF(t *testing.T, tr Trial, what string) {
	t.Helper()
	for i, e := range tr.Tails {
		if e.Mean > 0.01 && e.DF < 5 {
			t.Fatalf("%s: s_%d has %d degrees of freedom: the run is too short to test", what, i+1, e.DF)
		}
	}
}

// tailsAgree reports the first level at which the measured tails differ
// from s by more than qStrict(e) standard errors plus 5/n (the finite-n
// distance of the stationary law from the limit, O(1/n) per level), or
// "" if none does. Levels up to len(s) and len(tr.Tails) are compared.
func tailsAgree(tr Trial, s []float64, n int64) string {
	for i := 1; i < len(s) && i <= len(tr.Tails); i++ {
		e := tr.Tails[i-1]
		if tol := qStrict(e)*se(e) + 5/float64(n); math.Abs(e.Mean-s[i]) > tol {
			return fmt.Sprintf("s_%d = %.5f ± %.5f, predicted %.5f (tolerance %.5f)", i, e.Mean, se(e), s[i], tol)
		}
	}
	return ""
}

// TestFixedPoint holds the level engine's stationary tails to the fixed
// point s_i = λ^((d^i−1)/(d−1)) level by level, and rejects the negative
// control: d = 2 measured against d = 1's λ^i.
func TestFixedPoint(t *testing.T) {
	n, lambdas := int64(1<<10), []float64{0.5, 0.9}
	if *fixedPointFull {
		n, lambdas = 1<<16, []float64{0.5, 0.9, 0.95}
	}
	if testing.Short() {
		lambdas = lambdas[:1]
	}
	for _, lambda := range lambdas {
		for _, d := range []int{1, 2, 3} {
			tr := fixedPointRun(t, n, lambda, d)
			if msg := tailsAgree(tr, FixedPoint(lambda, d, 1e-9), n); msg != "" {
				t.Errorf("λ=%g d=%d: %s", lambda, d, msg)
			}
			if d == 2 {
				if tailsAgree(tr, FixedPoint(lambda, 1, 1e-9), n) == "" {
					t.Errorf("λ=%g: d = 2 passed as d = 1's λ^i (negative control)", lambda)
				}
			}
		}
	}
}

// TestLittle follows every job of a run of the per-server engine in FIFO
// order, with the engine's own draws, and holds the mean sojourn time of
// the jobs that arrive after the warm-up and leave before the horizon to
// the engine's Little's-law estimate L/λ and its interval.
func TestLittle(t *testing.T) {
	c := Config{N: 512, D: 2, Lambda: 0.9, Time: 3000, Warmup: 100, Engine: EngineServers, Seed: 9}
	tr, err := c.Trial(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	tp, _ := layout(&c)
	got := fifoSojourn(&c, &tp)
	e := tr.MeanSojourn
	// The jobs' mean differs from L/λ by the arrival rate's fluctuation
	// and the jobs cut at the window's ends, both far inside the interval.
	if got < e.CI95[0] || got > e.CI95[1] {
		t.Errorf("mean sojourn of the jobs %.4f, Little's law L/λ = %.4f, 95%% interval [%.4f, %.4f]", got, e.Mean, e.CI95[0], e.CI95[1])
	}
	// Negative control: the jobs' mean sojourn must not pass as d = 1's
	// 1/(1 − λ).
	if mm1 := 1 / (1 - c.Lambda); math.Abs(got-mm1) < 5*se(e) {
		t.Errorf("mean sojourn %.4f is d = 1's %.4f", got, mm1)
	}
}

// fifoSojourn replays trial 0 of c on the per-server engine's draws with a
// FIFO list of arrival times at each server and returns the mean sojourn
// time of the jobs that arrive after c.Warmup and leave by c.Time.
func fifoSojourn(c *Config, tp *topology) float64 {
	r := trialRand(c)
	n := uint64(c.N)
	fifo := make([][]float64, n)
	Q := make([]uint32, n)
	gap := meanGap(c.Lambda, n)
	thr := arrivalThreshold(c.Lambda)
	now, sum, jobs := 0.0, 0.0, 0
	for {
		s, e := exponential(r.State())
		r.SetState(s)
		if now += e * gap; now >= c.Time {
			return sum / float64(jobs)
		}
		if r.Uint64() >= thr {
			v := r.Uint64n(n)
			if len(fifo[v]) > 0 {
				if a := fifo[v][0]; a >= c.Warmup {
					sum += now - a
					jobs++
				}
				fifo[v] = fifo[v][1:]
				Q[v]--
			}
			continue
		}
		cand := refCandidates(tp, r, n)
		best := cand[0]
		for _, v := range cand {
			if Q[v] < Q[best] {
				best = v
			}
		}
		Q[best]++
		fifo[best] = append(fifo[best], now)
	}
}

// TestLevelsMatchServers compares the two engines on K_n with a
// two-sample t test per level (levels 1–5, for uniform sampling and for
// edge sampling on K_n: 10 comparisons), on 20 independent trials of each:
// |difference of the means| within t_{1−α/2, 38} standard errors of the
// difference, α = 10⁻³ / 10 (Bonferroni: a false alarm once in a thousand
// runs of the test). Negative control: the level engine at λ − 0.01 must
// be rejected against the servers at λ at some level.
func TestLevelsMatchServers(t *testing.T) {
	const trials = 20
	const alpha = 1e-3 / 10
	q := analysis.StudentQuantile(1-alpha/2, 2*(trials-1))
	tails := func(c Config) [][]float64 { // [level][trial]
		var m [][]float64
		idx := make([]int, trials)
		for i := range idx {
			idx[i] = i
		}
		err := Run(context.Background(), c, idx, 0, func(tr Trial) error {
			for i, s := range tr.Tails {
				for len(m) <= i {
					m = append(m, make([]float64, trials))
				}
				m[i][tr.Trial] = s.Mean
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// rejected reports the first level whose means differ by more than q
	// standard errors, 0 if none.
	rejected := func(a, b [][]float64) (int, string) {
		for i := 0; i < min(len(a), len(b), 5); i++ {
			sa, sb := analysis.Summarize(a[i]), analysis.Summarize(b[i])
			diff := math.Abs(sa.Mean - sb.Mean)
			se := math.Sqrt((sa.Std*sa.Std + sb.Std*sb.Std) / trials)
			if diff > q*se+1e-12 {
				return i + 1, fmt.Sprintf("s_%d %.5f against %.5f: |diff| %.5f > %.1f SE = %.5f", i+1, sa.Mean, sb.Mean, diff, q, q*se)
			}
		}
		return 0, ""
	}
	for _, c := range []Config{
		{N: 1 << 12, D: 2, Lambda: 0.9, Sample: Uniform},
		{N: 1 << 12, D: 2, Lambda: 0.8, Sample: Edge, Graph: graphgen.Complete(1 << 12)},
	} {
		c.Time, c.Warmup, c.Seed = 60, 30, 3
		c.Engine = EngineServers
		servers := tails(c)
		c.Engine = EngineLevels
		if lv, msg := rejected(servers, tails(c)); lv != 0 {
			t.Errorf("%s: servers against levels: %s", c.Sample, msg)
		}
		c.Lambda -= 0.01
		c.Seed = 4
		if lv, _ := rejected(servers, tails(c)); lv == 0 {
			t.Errorf("%s: negative control: the levels at λ = %.2f pass as the servers at λ + 0.01", c.Sample, c.Lambda)
		}
	}
}

// TestPairApproximationSimulated holds the per-server engine's tails with
// edge sampling on the cycle and on random 3- and 4-regular graphs to the
// pair approximation, at λ = 0.7: within qStrict standard errors plus 3% of
// the predicted value (the approximation's own error, which Gast15 reports
// small and which has no bound) on the levels above 1%; the mean-field
// fixed point, off by far more there, must be rejected (negative control).
func TestPairApproximationSimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("short: about 3 s")
	}
	for _, spec := range []string{"cycle", "regular:degree=3", "regular:degree=4"} {
		s, _ := graphgen.ParseSpec(spec)
		g, _, err := s.Build(1<<12, trialRand(&Config{Seed: 4}))
		if err != nil {
			t.Fatal(err)
		}
		c := Config{N: 1 << 12, D: 2, Lambda: 0.7, Time: 1000, Warmup: -1, Sample: Edge, Graph: g, Seed: 2}
		tr, err := c.Trial(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		minDF(t, tr, spec)
		pa, err := PairApproximation(c.Lambda, Describe(s, g).Regular())
		if err != nil {
			t.Fatal(err)
		}
		fp := FixedPoint(c.Lambda, 2, 1e-12)
		var rejected bool
		for i := 1; i <= len(tr.Tails) && i < len(pa) && pa[i] > 0.01; i++ {
			e := tr.Tails[i-1]
			if tol := qStrict(e)*se(e) + 0.03*pa[i]; math.Abs(e.Mean-pa[i]) > tol {
				t.Errorf("%s: s_%d = %.5f, pair approximation %.5f (tolerance %.5f)", spec, i, e.Mean, pa[i], tol)
			}
			if i < len(fp) && math.Abs(e.Mean-fp[i]) > qStrict(e)*se(e)+0.03*fp[i] {
				rejected = true
			}
		}
		if !rejected {
			t.Errorf("%s: the mean-field fixed point passed (negative control)", spec)
		}
	}
}

// TestPairApproximationLargeDegree: as the degree grows the pair
// approximation tends to the mean-field fixed point of two choices (the
// edge's other end is then almost independent of the rest), and for
// every degree s_1 = λ (the servers' utilisation).
func TestPairApproximationLargeDegree(t *testing.T) {
	for _, lambda := range []float64{0.5, 0.8} {
		fp := FixedPoint(lambda, 2, 1e-9)
		for _, k := range []int{2, 3, 1000} {
			s, err := PairApproximation(lambda, k)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(s[1]-lambda) > 1e-9 {
				t.Errorf("λ=%g k=%d: s_1 = %.12f, want λ", lambda, k, s[1])
			}
			if k < 1000 {
				continue
			}
			// The correction is O(1/k) a level.
			for i := 1; i < len(fp); i++ {
				if math.Abs(s[i]-fp[i]) > 5.0/float64(k) {
					t.Errorf("λ=%g k=%d: s_%d = %.6f, fixed point %.6f", lambda, k, i, s[i], fp[i])
				}
			}
		}
	}
}

// TestODE: the mean-field trajectory from empty reaches the fixed point,
// and for d = 2 at small t its s_1 follows the exact solution of
// ds_1/dt = λ(1 − s_1²) − (s_1 − s_2) with s_2 = O(t³): s_1 ≈ λt − … .
func TestODE(t *testing.T) {
	for _, d := range []int{1, 2, 3} {
		lambda := 0.8
		if d == 1 {
			lambda = 0.5 // d = 1 relaxes in 1/(1 − √λ)²: 12 time units, 90 at λ = 0.8
		}
		p := ODE(lambda, d, []float64{1e-3, 400})
		fp := FixedPoint(lambda, d, 1e-15)
		if math.Abs(p[0].S[0]-lambda*1e-3) > 1e-6 {
			t.Errorf("d=%d: s_1(1e-3) = %g, want about λt", d, p[0].S[0])
		}
		if math.Abs(p[1].Mean-MeanOf(fp)) > 1e-6 || math.Abs(p[1].S[1]-fp[2]) > 1e-8 {
			t.Errorf("d=%d: at t = 400 mean %.8f s_2 %.8f, fixed point %.8f %.8f", d, p[1].Mean, p[1].S[1], MeanOf(fp), fp[2])
		}
	}
}

// TestExponential checks the ziggurat's variates: mean 1, second moment 2,
// and P(E > x) = e^{−x} at x = 0.5, 2, 5, 9 (beyond the tail start
// 7.697), each within 6 standard errors of 10^6 draws.
func TestExponential(t *testing.T) {
	const N = 1_000_000
	s := uint64(12345)
	var m1, m2 float64
	xs := []float64{0.5, 2, 5, 9}
	above := make([]float64, len(xs))
	for range N {
		var e float64
		s, e = exponential(s)
		m1 += e
		m2 += e * e
		for j, x := range xs {
			if e > x {
				above[j]++
			}
		}
	}
	if math.Abs(m1/N-1) > 6*1/math.Sqrt(N) {
		t.Errorf("mean %g", m1/N)
	}
	if math.Abs(m2/N-2) > 6*math.Sqrt(20.0/N) { // Var(E²) = 24 − 4
		t.Errorf("second moment %g", m2/N)
	}
	for j, x := range xs {
		p := math.Exp(-x)
		if math.Abs(above[j]/N-p) > 6*math.Sqrt(p*(1-p)/N)+1/float64(N) {
			t.Errorf("P(E > %g) = %g, want %g", x, above[j]/N, p)
		}
	}
}
