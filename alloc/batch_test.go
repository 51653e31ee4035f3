package alloc

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestRuleMatchesPlace: every process's rule (see rule), run one ball at a
// time and through the batched driver with batches of one ball, places the
// very balls Place places, with the same draws (the generator ends in the
// same state) and the same stats. This is what makes the rules the
// processes: the batched driver differs from Place only in when the
// balls are added to the loads. Every per-bin process has a rule.

// noBatch are the processes with no batched form: those that run whole
// trials on a state of their own (rank's sorted structure, weighted loads).
var noBatch = map[string]bool{"rank": true, "weighted": true}

// batchCases are the cases of the batch tests: the contract cases of the
// processes that run in batches, and memory and kd-choice, whose rules keep
// a state through the trial (memoryKDCases).
func batchCases(t *testing.T) []struct {
	name string
	n    int
	p    Process
} {
	cases := memoryKDCases()
	for _, tc := range contractCases(t) {
		p, _, _ := strings.Cut(tc.name, "/")
		if !noBatch[p] {
			cases = append(cases, tc)
		}
	}
	// The implicit graphs' rule (implicitRule), two-choice and
	// graphical (1+β).
	add := func(name string, n int, p Process) {
		cases = append(cases, struct {
			name string
			n    int
			p    Process
		}{name, n, p})
	}
	for _, ic := range implicitCases(t, 64) {
		add("graph/"+ic.name, 64, ic.p)
		if g := ic.p.(Graphical); g.Ties == TiesRandom {
			g.OneMinusBeta = 0.5
			add("graph-beta/"+ic.name, 64, g)
		}
	}
	for _, lc := range latticeCases(t) {
		n := lc.g.Order()
		add("graph/"+lc.name, n, Graphical{Graph: lc.g})
		add("graph/"+lc.name+"/vertex/left", n, Graphical{Graph: lc.g, Sample: SampleVertex, Ties: TiesLeft})
		add("graph-beta/"+lc.name, n, Graphical{Graph: lc.g, OneMinusBeta: 0.3})
	}
	return cases
}

func TestRuleMatchesPlace(t *testing.T) {
	for _, tc := range batchCases(t) {
		bp, ok := tc.p.(batchable)
		if !ok {
			t.Fatalf("%s: %T has no rule", tc.name, tc.p)
		}
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []int64{0, 1, 3 * int64(tc.n)} {
				b := NewBins(tc.n)
				want := NewRand(42)
				wantSt := tc.p.Place(b, m, want)

				L := make([]uint32, tc.n)
				r := NewRand(42)
				st := bp.rule(tc.n).run(L, m, nil, r)
				if !slices.Equal(L, b.Loads()) || *r != *want || st != wantSt {
					t.Fatalf("m=%d: the rule one ball at a time differs from Place (stats %+v, want %+v)", m, st, wantSt)
				}

				b1 := NewBins(tc.n)
				bt := newBatcher(1, tc.n, m)
				r = NewRand(42)
				ru := bp.rule(tc.n)
				st = bt.place(b1, ru, m/3, r)
				st.Add(bt.place(b1, ru, m-m/3, r))
				if !slices.Equal(b1.Loads(), b.Loads()) || *r != *want || st != wantSt || b1.Balls() != m {
					t.Fatalf("m=%d: batches of one ball differ from Place", m)
				}
			}
		})
	}
}

// refBatches is the plain batched simulator: at the start of every batch
// it copies the loads, and each ball of the batch chooses by the reference
// rule of p (refChoose) from that copy, its ball added to the loads at
// once. It returns the final loads and, if every > 0, the max and min load
// after every `every` balls and after the last.
func refBatches(t *testing.T, p Process, n int, m, batch, every int64, r *Rand) (L []uint32, series [][2]uint32) {
	t.Helper()
	L = make([]uint32, n)
	var snap []uint32
	state := refStateful(p, n)
	for k := int64(0); k < m; k++ {
		if k%batch == 0 {
			snap = slices.Clone(L)
		}
		if state != nil {
			L[state(snap, r)]++
		} else {
			L[refChoose(t, p, snap, k, r)]++
		}
		if every > 0 && ((k+1)%every == 0 || k+1 == m) {
			series = append(series, [2]uint32{slices.Max(L), slices.Min(L)})
		}
	}
	return L, series
}

// refStateful returns, for a process whose balls depend on the balls before
// them beyond the loads (memory's remembered bins, kd-choice's round,
// twinning and packing's step in progress), its plain reference in batches:
// a function that chooses the next ball's bin from the loads L at the
// start of its batch, keeping that state in its own variables across
// balls and batches (docs/theory.md, section Batches); nil for the other
// processes. It reads L only.
func refStateful(p Process, n int) func(L []uint32, r *Rand) uint64 {
	un := uint64(n)
	switch p := p.(type) {
	case Twinning, Packing:
		// A step reads its bin and the average t/n, t the sum of L;
		// its later balls go to its bin without a draw.
		var owed int64
		var bin uint64
		return func(L []uint32, r *Rand) uint64 {
			if owed > 0 {
				owed--
				return bin
			}
			var tt int64
			for _, l := range L {
				tt += int64(l)
			}
			bin = r.Uint64n(un)
			x, k := int64(L[bin]), int64(1)
			if x*int64(n) < tt {
				k = 2
				if _, pack := p.(Packing); pack {
					k = (tt+int64(n)-1)/int64(n) + 1 - x
				}
			}
			owed = k - 1
			return bin
		}
	case Memory:
		// The candidates' loads, the memory's too, from L; the new
		// memory ranks the candidates by L with the ball in its bin.
		var mem []uint64
		return func(L []uint32, r *Rand) uint64 {
			var cands []uint64
			for range p.D {
				cands = append(cands, r.Uint64n(un))
			}
			cands = append(cands, mem...)
			c, seen := cands[0], uint64(1)
			for _, x := range cands[1:] {
				switch {
				case L[x] < L[c]:
					c, seen = x, 1
				case L[x] == L[c] && p.Ties != TiesLeft:
					seen++
					if r.Uint64n(seen) == 0 {
						c = x
					}
				}
			}
			after := func(x uint64) int {
				if x == c {
					return int(L[x]) + 1
				}
				return int(L[x])
			}
			var distinct []uint64
			for _, x := range cands {
				if !slices.Contains(distinct, x) {
					distinct = append(distinct, x)
				}
			}
			slices.SortStableFunc(distinct, func(a, b uint64) int { return after(a) - after(b) })
			mem = distinct[:min(p.K, len(distinct))]
			return c
		}
	case KD:
		// Rounds of K balls from the first; a round sorted by the
		// loads its first ball reads.
		var slots []uint64
		var ball int
		return func(L []uint32, r *Rand) uint64 {
			if ball%p.K == 0 {
				slots = slots[:0]
				for range p.D {
					slots = append(slots, r.Uint64n(un))
				}
				slices.SortStableFunc(slots, func(a, b uint64) int { return int(L[a]) - int(L[b]) })
			}
			ball++
			return slots[(ball-1)%p.K]
		}
	}
	return nil
}

// TestBatchReference: Config.Batch against refBatches, ball for ball, for
// every process of the contract tests, batch sizes below and above n (both
// ways the driver keeps a batch), m not a multiple of B, and an --every
// interval that ends samples inside batches.
func TestBatchReference(t *testing.T) {
	for _, tc := range batchCases(t) {
		n := int64(tc.n)
		m := 5*n + 3
		// Pending bins (B ≤ n), small and large; per-bin counts (B > n).
		for _, batch := range []int64{2, n/2 + 1, 2*n + 7} {
			var got []uint32
			c := Config{Process: tc.p, N: tc.n, M: m, Seed: 9, Batch: batch, Every: n/3 + 1,
				Loads: func(_ int, L []uint32) { got = slices.Clone(L) }}
			if err := c.Check(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			res, err := c.Trial(context.Background(), 1, NewBins(tc.n))
			if err != nil {
				t.Fatal(err)
			}
			want, series := refBatches(t, tc.p, tc.n, m, batch, c.Every, TrialRand(9, 1))
			if !slices.Equal(got, want) {
				t.Fatalf("%s, batch %d: loads differ from the snapshot reference", tc.name, batch)
			}
			if len(res.Series) != len(series) {
				t.Fatalf("%s, batch %d: %d series points, want %d", tc.name, batch, len(res.Series), len(series))
			}
			for i, pt := range res.Series {
				if s := series[i]; pt.Spread != float64(s[0]-s[1]) || pt.Gap != float64(s[0])-float64(pt.Balls)/float64(n) {
					t.Fatalf("%s, batch %d: series point %d is %+v, want max %d min %d", tc.name, batch, i, pt, s[0], s[1])
				}
			}
		}
	}
}

// TestBatchOfOneIsSequential: Batch 0 and 1 are the sequential process,
// result for result (the same loops run), series and profile included.
func TestBatchOfOneIsSequential(t *testing.T) {
	for _, p := range []Process{Greedy{D: 2}, Left{D: 3}, OnePlusBeta{Beta: 0.4}, Graphical{Graph: graphgen.Complete(500)}} {
		c := Config{Process: p, N: 500, M: 3000, Seed: 4, Every: 700, Profile: true}
		a, err := c.Trial(context.Background(), 0, NewBins(500))
		if err != nil {
			t.Fatal(err)
		}
		c.Batch = 1
		b, err := c.Trial(context.Background(), 0, NewBins(500))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.LoadCounts, b.LoadCounts) || !slices.Equal(a.Series, b.Series) || a.Gap != b.Gap {
			t.Errorf("%v: batch 1 differs from the sequential run", p)
		}
	}
}

// TestBatchOneChoiceUnchanged is an exact negative control: one-choice
// reads no load, so batches change nothing, draw for draw.
func TestBatchOneChoiceUnchanged(t *testing.T) {
	const n = 1000
	var seq, bat []uint32
	c := Config{Process: OneChoice{}, N: n, M: 20 * n, Seed: 5, Loads: func(_ int, L []uint32) { seq = slices.Clone(L) }}
	if _, err := c.Trial(context.Background(), 0, NewBins(n)); err != nil {
		t.Fatal(err)
	}
	c.Batch, c.Loads = n, func(_ int, L []uint32) { bat = slices.Clone(L) }
	if _, err := c.Trial(context.Background(), 0, NewBins(n)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seq, bat) {
		t.Fatal("one-choice in batches differs from one-choice")
	}
}

// chiSquarePValue returns the p-value of Pearson's statistic for observed
// counts against expected ones, pooling the expected counts below 5 (from
// the end) into one cell so that the chi-squared approximation holds.
func chiSquarePValue(obs []float64, exp []float64) float64 {
	var o, e []float64
	var po, pe float64
	for i := range exp {
		po, pe = po+obs[i], pe+exp[i]
		if pe >= 5 {
			o, e = append(o, po), append(e, pe)
			po, pe = 0, 0
		}
	}
	if len(e) > 0 {
		o[len(o)-1] += po
		e[len(e)-1] += pe
	}
	var x float64
	for i := range e {
		x += (o[i] - e[i]) * (o[i] - e[i]) / e[i]
	}
	return distuv.ChiSquared{K: float64(len(e) - 1)}.Survival(x)
}

// TestBatchOneBatchLaw: with one batch of m balls (B ≥ m) every ball reads
// the empty loads, so every candidate of every ball is tied and the tie rule
// alone decides (docs/theory.md, section Batches):
//
//   - Greedy[2] (first drawn of the tied wins) sends ball k to its first
//     draw: exactly, the loads are the counts of the first of each ball's two
//     draws; in law, Multinomial(m; 1/n, …, 1/n), one-choice's, so the
//     number of bins holding j balls has mean n·Binomial(m, 1/n)(j), tested
//     by chi-squared (sequential Greedy[2] is the negative control);
//   - Twinning and Packing see t = 0, so every step places one ball:
//     one-choice, draw for draw; (k, d)-choice fills the first K of each
//     round's D draws; Memory with left ties sends each ball to its first
//     draw (exactly; two batches of m/2 are the negative control);
//   - Left[2] sends every ball to the leftmost group, exactly;
//   - the graph process on K_n with left ties and edge sampling sends every
//     ball to the smaller end of a uniform edge: bin i with probability
//     2(n−1−i)/(n(n−1)), tested per bin by chi-squared (random ties, which
//     give uniform bins, are the negative control).
//
// A test fails at p < 1e-6; the seeds are fixed, so the test is
// deterministic.
func TestBatchOneBatchLaw(t *testing.T) {
	const n, m = 1000, 8000
	const T = 16

	t.Run("greedy/exact", func(t *testing.T) {
		var got []uint32
		c := Config{Process: Greedy{D: 2}, N: n, M: m, Seed: 3, Batch: m, Loads: func(_ int, L []uint32) { got = slices.Clone(L) }}
		if _, err := c.Trial(context.Background(), 2, NewBins(n)); err != nil {
			t.Fatal(err)
		}
		want := make([]uint32, n)
		r := TrialRand(3, 2)
		for range m {
			want[r.Uint64n(n)]++
			r.Uint64n(n)
		}
		if !slices.Equal(got, want) {
			t.Fatal("one batch of Greedy[2]: loads are not the counts of the first draws")
		}
	})

	// histogram pools the load counts of T trials.
	histogram := func(c Config) []float64 {
		h := make([]float64, 64)
		for i := range T {
			res, err := c.Trial(context.Background(), i, NewBins(n))
			if err != nil {
				t.Fatal(err)
			}
			for j, k := range res.LoadCounts {
				h[j] += float64(k)
			}
		}
		return h
	}
	binom := distuv.Binomial{N: m, P: 1.0 / n}
	exp := make([]float64, 64)
	for j := range exp {
		exp[j] = T * n * binom.Prob(float64(j))
	}
	for _, tc := range []struct {
		name   string
		batch  int64
		reject bool
	}{
		{"greedy/one-batch", m, false},
		{"greedy/batch-above-m", 3 * m, false},
		{"greedy/sequential", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := chiSquarePValue(histogram(Config{Process: Greedy{D: 2}, N: n, M: m, Seed: 11, Batch: tc.batch}), exp)
			t.Logf("p = %.3g", p)
			if (p < 1e-6) != tc.reject {
				t.Errorf("p = %.3g against one-choice's law (want rejected: %v)", p, tc.reject)
			}
		})
	}

	// The processes with a state, exactly: in one batch t = 0, so no bin
	// is below the average and every step of Twinning or Packing places
	// one ball into its one draw (one-choice, draw for draw); every
	// round of (k, d)-choice sorts D tied slots, so its K balls go to its
	// first K draws; Memory with left ties sends every ball to its first
	// draw (all candidates tied), d draws a ball.
	for _, tc := range []struct {
		name string
		p    Process
		want func(r *Rand, L []uint32)
	}{
		{"twinning/exact", Twinning{}, func(r *Rand, L []uint32) {
			for range m {
				L[r.Uint64n(n)]++
			}
		}},
		{"packing/exact", Packing{}, func(r *Rand, L []uint32) {
			for range m {
				L[r.Uint64n(n)]++
			}
		}},
		{"kd-choice/exact", KD{D: 5, K: 2}, func(r *Rand, L []uint32) {
			for range m / 2 {
				for j := range 5 {
					if x := r.Uint64n(n); j < 2 {
						L[x]++
					}
				}
			}
		}},
		{"memory/left/exact", Memory{D: 2, K: 1, Ties: TiesLeft}, func(r *Rand, L []uint32) {
			for range m {
				L[r.Uint64n(n)]++
				r.Uint64n(n)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []uint32
			c := Config{Process: tc.p, N: n, M: m, Seed: 3, Batch: m, Loads: func(_ int, L []uint32) { got = slices.Clone(L) }}
			if _, err := c.Trial(context.Background(), 1, NewBins(n)); err != nil {
				t.Fatal(err)
			}
			want := make([]uint32, n)
			tc.want(TrialRand(3, 1), want)
			if !slices.Equal(got, want) {
				t.Fatalf("one batch of %v: loads differ from the prediction", tc.p)
			}
			// Negative control: in batches of half of m the second
			// half reads the first, so the loads differ.
			c.Batch = m / 2
			if _, err := c.Trial(context.Background(), 1, NewBins(n)); err != nil {
				t.Fatal(err)
			}
			if slices.Equal(got, want) {
				t.Fatalf("two batches of %v give the loads of one", tc.p)
			}
		})
	}

	t.Run("left/exact", func(t *testing.T) {
		var got []uint32
		c := Config{Process: Left{D: 2}, N: n, M: m, Seed: 3, Batch: m, Loads: func(_ int, L []uint32) { got = slices.Clone(L) }}
		if _, err := c.Trial(context.Background(), 0, NewBins(n)); err != nil {
			t.Fatal(err)
		}
		var left uint32
		for _, l := range got[:n/2] {
			left += l
		}
		if left != m || slices.Max(got[n/2:]) != 0 {
			t.Fatalf("one batch of Left[2]: %d of %d balls in the left group, want all", left, m)
		}
	})

	// The smaller end of a uniform edge of K_n.
	edgeLaw := make([]float64, n)
	for i := range edgeLaw {
		edgeLaw[i] = T * m * 2 * float64(n-1-i) / (n * (n - 1))
	}
	for _, tc := range []struct {
		name   string
		ties   Ties
		reject bool
	}{
		{"graph/complete/left", TiesLeft, false},
		{"graph/complete/random", TiesRandom, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs := make([]float64, n)
			c := Config{Process: Graphical{Graph: graphgen.Complete(n), Ties: tc.ties}, N: n, M: m, Seed: 12, Batch: m,
				Loads: func(_ int, L []uint32) {
					for i, l := range L {
						obs[i] += float64(l)
					}
				}}
			for i := range T {
				if _, err := c.Trial(context.Background(), i, NewBins(n)); err != nil {
					t.Fatal(err)
				}
			}
			p := chiSquarePValue(obs, edgeLaw)
			t.Logf("p = %.3g", p)
			if (p < 1e-6) != tc.reject {
				t.Errorf("p = %.3g against the smaller-end law (want rejected: %v)", p, tc.reject)
			}
		})
	}
}

// meanGap runs T trials of c and returns the mean gap and its standard
// error.
func meanGap(t *testing.T, c Config, T int) (mean, se float64) {
	t.Helper()
	ids := make([]int, T)
	for i := range ids {
		ids[i] = i
	}
	var g []float64
	if err := Run(context.Background(), c, ids, 0, func(r Result) error { g = append(g, r.Gap); return nil }); err != nil {
		t.Fatal(err)
	}
	var ss float64
	for _, x := range g {
		mean += x
	}
	mean /= float64(T)
	for _, x := range g {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(T-1) / float64(T))
}

// TestBatchGapGrows: the gap of batched Greedy[2] as the papers describe it
// (docs/theory.md, section Batches). Tolerances: a difference of two means
// is significant when it exceeds q·se (se of the difference, Welch; q the
// 1 − 1e-6/2 quantile of Student's t with T − 1 degrees of freedom), so a
// process whose gap does not grow passes a step with probability about
// 1e-6; seeds are fixed.
//
//   - The gap grows with B, at every step of B = 1, n/2, 2n, 8n, 32n
//     (n = 2^12, m = 64n, a multiple of every B: the gap is read at a batch
//     end). Negative control: one-choice, whose gap cannot depend on B
//     (TestBatchOneChoiceUnchanged), shows no step.
//   - B = n: [LS22a] prove a gap Θ(log n / log log n), and [LS23] that up
//     to B = n log n it follows the gap of one-choice with B balls. The
//     measured ratio of the two (one-choice with m = n balls at the same
//     n) must lie in [1/2, 2] beyond its standard error, at n = 2^10 and
//     2^14; the same ratio for B = 1 (Θ(log log n): below 1/2) and for
//     B = 16n (Θ(B/n) from B = n log n [LS23]: above 2) are the negative
//     controls. The factor 2 is the test's reading of Θ: the papers give
//     no constants.
func TestBatchGapGrows(t *testing.T) {
	// 24 trials in short mode too: with fewer, the t quantile at 1e-6
	// (8.0 at T = 12) no longer resolves the first step (about 1.8).
	const T = 24
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(T - 1)}.Quantile(1 - 1e-6/2)
	const n = 1 << 12
	steps := []int64{1, n / 2, 2 * n, 8 * n, 32 * n}
	for _, p := range []Process{Greedy{D: 2}, OneChoice{}} {
		var prev, prevSE float64
		for i, b := range steps {
			mean, se := meanGap(t, Config{Process: p, N: n, M: 64 * n, Seed: 21, Batch: b}, T)
			t.Logf("%v, B = %d: gap %.2f ± %.2f", p, b, mean, se)
			if i > 0 {
				grew := mean-prev > q*math.Hypot(se, prevSE)
				if _, control := p.(OneChoice); grew == control {
					t.Errorf("%v: B = %d after %d: gap %.2f against %.2f (grew: %v)", p, b, steps[i-1], mean, prev, grew)
				}
			}
			prev, prevSE = mean, se
		}
	}

	for _, lg := range []int{10, 14} {
		n := 1 << lg
		ref, refSE := meanGap(t, Config{Process: OneChoice{}, N: n, M: int64(n), Seed: 22}, T)
		for _, tc := range []struct {
			batch  int64
			lo, hi bool // the ratio must lie above 1/2, below 2
		}{
			{int64(n), true, true},
			{1, false, true},
			{16 * int64(n), true, false},
		} {
			mean, se := meanGap(t, Config{Process: Greedy{D: 2}, N: n, M: 16 * int64(n), Seed: 23, Batch: tc.batch}, T)
			ratio := mean / ref
			// The ratio's standard error, to first order.
			rse := ratio * math.Hypot(se/mean, refSE/ref)
			above := ratio-q*rse > 0.5
			below := ratio+q*rse < 2
			t.Logf("n = 2^%d, B = %d: gap %.2f, one-choice's %.2f, ratio %.2f ± %.2f", lg, tc.batch, mean, ref, ratio, rse)
			if above != tc.lo || below != tc.hi {
				t.Errorf("n = 2^%d, B = %d: ratio %.2f ± %.2f to one-choice's gap (want above 1/2: %v, below 2: %v)", lg, tc.batch, ratio, q*rse, tc.lo, tc.hi)
			}
		}
	}
}

// TestBatchChecks: what Config.Check refuses, naming the problem.
func TestBatchChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Config
		want string
	}{
		{"negative", Config{Process: Greedy{D: 2}, N: 10, M: 10, Batch: -1}, "batch size must be 1 or more"},
		{"levels", Config{Process: Greedy{D: 2}, N: 10, M: 10, Batch: 4, Engine: EngineLevels}, "level engine does not run batches"},
		{"rank", Config{Process: Rank{D: 2}, N: 10, M: 10, Batch: 4}, "Rank[2] has no batched form"},
		{"weighted", Config{Process: Weighted{D: 2}, N: 10, M: 10, Batch: 4}, "has no batched form"},
		{"custom", Config{Process: customProcess{}, N: 10, M: 10, Batch: 4}, "has no batched form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
	for _, c := range []Config{
		{Process: Greedy{D: 2}, N: 10, M: 10, Batch: 1, Engine: EngineLevels},
		{Process: Rank{D: 2}, N: 10, M: 10, Batch: 1},
	} {
		if err := c.Check(); err != nil {
			t.Errorf("batch 1 refused: %v", err)
		}
	}
	for _, d := range Descriptors() {
		want := !noBatch[d.Name]
		if d.Batches() != want {
			t.Errorf("%s: Batches() = %v", d.Name, d.Batches())
		}
	}
}

// customProcess stands for a Process written outside the package: it has no
// rule, so it does not run in batches.
type customProcess struct{}

func (customProcess) Name() string                          { return "custom" }
func (customProcess) String() string                        { return "custom" }
func (customProcess) Check(n int) error                     { return checkBins("custom", n) }
func (customProcess) Place(b *Bins, m int64, r *Rand) Stats { return OneChoice{}.Place(b, m, r) }
