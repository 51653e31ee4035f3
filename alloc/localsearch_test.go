package alloc

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/graphgen"
)

// refLocalSearch places one ball of p by its definition, plainly, through
// the public Rand methods in the order the fast loops draw (see
// LocalSearch): the start u, then the seed of the ball's own generator.
// It checks every step of the walk — to a neighbour, strictly lighter, of
// the least load among the neighbours — and returns the bin, the
// neighbourhood the ball stopped in (c must be least loaded in it), the
// loads the definition reads and the moves.
func refLocalSearch(t *testing.T, p LocalSearch, L []uint32, r *Rand) (c uint64, hood []uint64, probes, moves int64) {
	t.Helper()
	n := uint64(len(L))
	u := r.Uint64n(n)
	tr := NewRand(r.Uint64())
	left := p.Ties == TiesLeft
	if _, ok := p.Graph.(graphgen.Complete); ok {
		// Every other bin is a neighbour: a ball whose start is not least
		// loaded goes to a least loaded bin, found as the fast loop does
		// (completeTries uniform tries, then the j-th least loaded bin).
		mu := slices.Min(L)
		var least []uint64
		all := make([]uint64, n)
		for i := range n {
			all[i] = i
			if L[i] == mu {
				least = append(least, i)
			}
		}
		if L[u] == mu {
			return u, all, int64(n), 0
		}
		c, found := uint64(0), false
		for i := 0; i < completeTries && !left; i++ {
			if v := tr.Uint64n(n); L[v] == mu {
				c, found = v, true
				break
			}
		}
		if !found {
			j := uint64(0)
			if !left {
				j = tr.Uint64n(uint64(len(least)))
			}
			c = least[j]
		}
		return c, all, int64(n) + int64(n) - 1, 1
	}
	neighbours := func(v uint64) []uint64 {
		var nb []uint64
		switch g := p.Graph.(type) {
		case *graphgen.CSR:
			for _, w := range g.Neighbors(int(v)) {
				nb = append(nb, uint64(w))
			}
		case graphgen.Circulant:
			for _, d := range g.ConnectionSet() {
				nb = append(nb, (v+uint64(d))%n)
			}
		default:
			t.Fatalf("no reference for %T", g)
		}
		return nb
	}
	probes = 1
	for {
		nb := neighbours(u)
		probes += int64(len(nb))
		least := L[u]
		for _, w := range nb {
			least = min(least, L[w])
		}
		if least == L[u] {
			return u, append(nb, u), probes, moves
		}
		// A uniform one of the neighbours of the least load: the j-th in
		// adjacency order, j uniform (the first with left ties).
		var lightest []uint64
		for _, w := range nb {
			if L[w] == least {
				lightest = append(lightest, w)
			}
		}
		j := uint64(0)
		if !left {
			j = tr.Uint64n(uint64(len(lightest)))
		}
		c := lightest[j]
		if !slices.Contains(nb, c) || L[c] >= L[u] {
			t.Fatalf("local search: step %d → %d is not to a lighter neighbour", u, c)
		}
		u = c
		moves++
	}
}

// localSearchCases are the topologies of the ball-for-ball tests: a cycle,
// a torus, a random regular graph, a star with isolated vertices, a
// circulant and the complete graph, with both tie rules.
func localSearchCases(t *testing.T) []struct {
	name string
	n    int
	p    LocalSearch
} {
	cycle, err := graphgen.Cycle(500)
	if err != nil {
		t.Fatal(err)
	}
	torus, err := graphgen.Torus(2, 20)
	if err != nil {
		t.Fatal(err)
	}
	reg, _, err := graphgen.RandomRegular(500, 6, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	// The star K_{1,8} plus the edge {8, 9} and the isolated 10 and 11.
	star, _, err := graphgen.FromEdges(12, []uint32{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 8, 9})
	if err != nil {
		t.Fatal(err)
	}
	circ, err := graphgen.RandomCirculant(500, 6, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		n    int
		p    LocalSearch
	}{
		{"cycle", 500, LocalSearch{Graph: cycle}},
		{"torus", 400, LocalSearch{Graph: torus}},
		{"regular", 500, LocalSearch{Graph: reg}},
		{"regular/left", 500, LocalSearch{Graph: reg, Ties: TiesLeft}},
		{"star", 12, LocalSearch{Graph: star}},
		{"circulant", 500, LocalSearch{Graph: circ}},
		{"circulant/left", 500, LocalSearch{Graph: circ, Ties: TiesLeft}},
		{"complete", 300, LocalSearch{Graph: graphgen.Complete(300)}},
		{"complete/left", 300, LocalSearch{Graph: graphgen.Complete(300), Ties: TiesLeft}},
		{"K1", 1, LocalSearch{Graph: graphgen.Complete(1)}},
	}
}

// TestLocalSearchStats: the loads, the probes and the moves of the fast
// loops are the reference's, ball for ball, and the generator is left
// where the reference leaves it: in uneven batches, on four-byte and
// one-byte loads, pipelined or not, from empty bins and from uneven
// loads (which make ties below the start's load, and least loads that
// rise by more than one).
func TestLocalSearchStats(t *testing.T) {
	savedCompact, savedPipe := compactMin, pipelineMin
	defer func() { compactMin, pipelineMin = savedCompact, savedPipe }()
	for _, v := range []struct {
		name           string
		compact, piped bool
		uneven         bool
	}{
		{"plain", false, false, false},
		{"compact", true, false, false},
		{"pipelined", false, true, false},
		{"compact/pipelined", true, true, false},
		{"uneven", false, false, true},
		{"uneven/pipelined", false, true, true},
	} {
		compactMin, pipelineMin = savedCompact, 1<<62
		if v.compact {
			compactMin = 0
		}
		if v.piped {
			pipelineMin = 0
		}
		for _, tc := range localSearchCases(t) {
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				for _, m := range []int64{1, int64(tc.n), 5*int64(tc.n) + 7} {
					L := make([]uint32, tc.n)
					if v.uneven {
						init := rand.New(rand.NewPCG(uint64(m), 8))
						for i := range L {
							L[i] = uint32(init.IntN(10))
						}
					}
					b := NewBins(tc.n)
					var placed int64
					for _, l := range L {
						placed += int64(l)
					}
					if placed > 0 {
						b.Update(func(loads []uint32) int64 { copy(loads, L); return placed })
					}
					r := NewRand(11)
					var st Stats
					for done, k := int64(0), int64(1); done < m; k *= 2 {
						k = min(k, m-done)
						st.Add(tc.p.Place(b, k, r))
						done += k
					}
					rr := NewRand(11)
					var want Stats
					for range m {
						c, _, probes, moves := refLocalSearch(t, tc.p, L, rr)
						L[c]++
						want.Add(Stats{Probes: probes, MaxProbes: probes, Moves: moves, MaxMoves: moves})
					}
					if !slices.Equal(b.Loads(), L) {
						t.Fatalf("m=%d: loads differ from the reference", m)
					}
					if st != want {
						t.Fatalf("m=%d: stats %+v, reference %+v", m, st, want)
					}
					if *r != *rr {
						t.Fatalf("m=%d: generator left at %+v, reference at %+v", m, *r, *rr)
					}
				}
			})
		}
	}
}

// TestLocalSearchCheck: unsupported graphs and mismatched orders are
// rejected; a graph without edges is one-choice and accepted.
func TestLocalSearchCheck(t *testing.T) {
	empty, _, _ := graphgen.FromEdges(3, nil)
	if err := (LocalSearch{Graph: empty}).Check(3); err != nil {
		t.Errorf("edgeless graph rejected: %v", err)
	}
	for _, tc := range []struct {
		name string
		p    LocalSearch
		n    int
		want string
	}{
		{"nil", LocalSearch{}, 3, "local-search needs a graph"},
		{"order", LocalSearch{Graph: graphgen.Complete(3)}, 4, "graph has 3 vertices but the run has n=4 bins"},
		{"n=0", LocalSearch{Graph: graphgen.Complete(0)}, 0, "needs at least one bin"},
	} {
		err := tc.p.Check(tc.n)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestLocalSearchCompleteExact: on K_n every ball goes to a least loaded
// bin, so after any m balls the loads are ⌈m/n⌉ and ⌊m/n⌋, exactly; and
// ball k (from 0) moves iff its start is not least loaded, which happens
// with probability (k mod n)/n, independently of the other balls (the
// number of least loaded bins before ball k is n − (k mod n) whatever the
// draws). So the total moves of m = qn + r balls is a sum of independent
// Bernoulli variables with mean q(n−1)/2 + r(r−1)/(2n): the mean over
// trials must lie within 4.5 standard errors (two-sided 7e-6) of it. Both
// engines.
func TestLocalSearchCompleteExact(t *testing.T) {
	const n = 1000
	trials := 400
	if testing.Short() {
		trials = 100
	}
	for _, engine := range []Engine{EngineBins, EngineLevels} {
		for _, m := range []int64{n, 3*n + 417} {
			var mean, variance float64
			for k := range m {
				p := float64(k%n) / n
				mean += p
				variance += p * (1 - p)
			}
			c := Config{Process: LocalSearch{Graph: graphgen.Complete(n)}, Engine: engine, N: n, M: m, Seed: 21}
			b := NewBins(n)
			sum := 0.0
			for i := range trials {
				res, err := c.Trial(context.Background(), i, b)
				if err != nil {
					t.Fatal(err)
				}
				if int64(res.MaxLoad) != (m+n-1)/n || int64(res.MinLoad) != m/n {
					t.Fatalf("%v, m=%d: loads in [%v, %v], want ⌊m/n⌋ = %d and ⌈m/n⌉ = %d", engine, m, res.MinLoad, res.MaxLoad, m/n, (m+n-1)/n)
				}
				if res.MaxMoves > 1 || res.Moves < 0 || res.Probes != m*n+res.Moves*(n-1) {
					t.Fatalf("%v, m=%d: %d moves, at most %d for a ball, %d probes", engine, m, res.Moves, res.MaxMoves, res.Probes)
				}
				sum += float64(res.Moves)
			}
			got := sum / float64(trials)
			se := math.Sqrt(variance / float64(trials))
			if math.Abs(got-mean) > 4.5*se {
				t.Errorf("%v, m=%d: mean moves %.2f, exact %.2f (standard error %.3f)", engine, m, got, mean, se)
			}
		}
	}
}

// TestLocalSearchTiesUniform: a ball that starts at the centre of a star
// whose leaves are all empty and the centre loaded goes to a uniform leaf:
// χ² over the leaves at significance 1e-4.
func TestLocalSearchTiesUniform(t *testing.T) {
	const leaves = 7
	var e []uint32
	for v := uint32(1); v <= leaves; v++ {
		e = append(e, 0, v)
	}
	star, _, err := graphgen.FromEdges(leaves+1, e)
	if err != nil {
		t.Fatal(err)
	}
	p := LocalSearch{Graph: star}
	const trials = 14000
	var seen [leaves + 1]float64
	L := make([]uint32, leaves+1)
	for i := range trials {
		b := NewBins(leaves + 1)
		b.Update(func(loads []uint32) int64 { loads[0] = 1; return 1 })
		r := NewRand(DeriveSeed(5, StreamTrial, uint64(i)))
		// Keep the balls whose walk starts at the centre.
		for {
			saved := *r
			if r.Uint64n(leaves+1) == 0 {
				*r = saved
				break
			}
		}
		p.Place(b, 1, r)
		copy(L, b.Loads())
		for v := 1; v <= leaves; v++ {
			seen[v] += float64(L[v])
		}
	}
	chi2 := 0.0
	exp := float64(trials) / leaves
	for v := 1; v <= leaves; v++ {
		chi2 += (seen[v] - exp) * (seen[v] - exp) / exp
	}
	if crit := (distuv.ChiSquared{K: leaves - 1}).Quantile(1 - 1e-4); chi2 > crit {
		t.Errorf("χ² = %.1f over the leaves %v, above %.1f", chi2, seen[1:], crit)
	}
}

// plainLocalSearchCycle is a second simulator of local search on the cycle
// C_n, written from the definition with math/rand/v2 (a different
// generator): a uniform start, then, while a neighbour is strictly
// lighter, a step to the lighter neighbour (a fair coin between the two
// if both are lightest). It returns the max load and the moves of m balls.
func plainLocalSearchCycle(n, m int, rng *rand.Rand) (int, int) {
	L := make([]int, n)
	moves := 0
	for range m {
		u := rng.IntN(n)
		for {
			a, b := (u+n-1)%n, (u+1)%n
			lo := min(L[a], L[b])
			if lo >= L[u] {
				break
			}
			switch {
			case L[a] == L[b]:
				if rng.IntN(2) == 0 {
					u = a
				} else {
					u = b
				}
			case L[a] == lo:
				u = a
			default:
				u = b
			}
			moves++
		}
		L[u]++
	}
	return slices.Max(L), moves
}

// twoSampleChi2 is the χ² statistic of two samples of the same size on the
// same categories, Σ (a_i − b_i)² / (a_i + b_i), with the categories whose
// pooled count is below 10 merged into one, and its degrees of freedom.
func twoSampleChi2(a, b map[int]int) (float64, int) {
	keys := map[int]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	chi2, cells := 0.0, 0
	var ra, rb float64
	for k := range keys {
		x, y := float64(a[k]), float64(b[k])
		if x+y < 10 {
			ra, rb = ra+x, rb+y
			continue
		}
		chi2 += (x - y) * (x - y) / (x + y)
		cells++
	}
	if ra+rb > 0 {
		chi2 += (ra - rb) * (ra - rb) / (ra + rb)
		cells++
	}
	return chi2, cells - 1
}

// TestLocalSearchCycleTwoSample compares the max-load distribution of
// LocalSearch on a cycle with that of plainLocalSearchCycle (an
// independent simulator and generator) by a two-sample χ² test at
// significance 1e-4; the mean moves per ball must agree within 4.5
// standard errors of the difference. Negative control: graphical
// two-choice on the same cycle must be told apart by the same test.
func TestLocalSearchCycleTwoSample(t *testing.T) {
	const n = 256
	trials := 3000
	if testing.Short() {
		trials = 1500
	}
	g, err := graphgen.Cycle(n)
	if err != nil {
		t.Fatal(err)
	}
	sample := func(p Process) (map[int]int, []float64) {
		h := map[int]int{}
		var moves []float64
		for i := range trials {
			b := NewBins(n)
			st := p.Place(b, n, NewRand(DeriveSeed(31, StreamTrial, uint64(i))))
			mx, _ := b.MaxMin()
			h[int(mx)]++
			moves = append(moves, float64(st.Moves)/n)
		}
		return h, moves
	}
	fast, fastMoves := sample(LocalSearch{Graph: g})
	plain := map[int]int{}
	var plainMoves []float64
	rng := rand.New(rand.NewPCG(77, 78))
	for range trials {
		mx, mv := plainLocalSearchCycle(n, n, rng)
		plain[mx]++
		plainMoves = append(plainMoves, float64(mv)/n)
	}
	crit := func(df int) float64 { return distuv.ChiSquared{K: float64(df)}.Quantile(1 - 1e-4) }
	if chi2, df := twoSampleChi2(fast, plain); df < 1 || chi2 > crit(df) {
		t.Errorf("max load: χ² = %.1f on %d df (critical %.1f): local search %v, plain simulator %v", chi2, df, crit(df), fast, plain)
	}
	mean := func(x []float64) (float64, float64) {
		m, v := 0.0, 0.0
		for _, y := range x {
			m += y
		}
		m /= float64(len(x))
		for _, y := range x {
			v += (y - m) * (y - m)
		}
		return m, v / float64(len(x)-1) / float64(len(x))
	}
	m1, v1 := mean(fastMoves)
	m2, v2 := mean(plainMoves)
	if d := math.Abs(m1 - m2); d > 4.5*math.Sqrt(v1+v2) {
		t.Errorf("moves per ball: %.4f against the plain simulator's %.4f (standard error %.4f)", m1, m2, math.Sqrt(v1+v2))
	}
	t.Logf("max load: local search %v, plain %v; moves per ball %.4f, %.4f", fast, plain, m1, m2)
	// The control: two-choice on the edges of the same cycle.
	control, _ := sample(Graphical{Graph: g})
	chi2c, dfc := twoSampleChi2(control, plain)
	t.Logf("control: two-choice %v, χ² = %.1f on %d df", control, chi2c, dfc)
	if chi2, df := twoSampleChi2(control, plain); chi2 <= crit(df) {
		t.Errorf("control not rejected: χ² = %.1f on %d df (critical %.1f): two-choice %v, local search %v", chi2, df, crit(df), control, plain)
	}
}

// BenchmarkLocalSearch: balls/s of local search at m = n on the complete
// graph, a random 16-regular graph and a 2-dimensional torus
// (BENCHMARKS.md).
func BenchmarkLocalSearch(b *testing.B) {
	for _, lg := range []int{12, 20} {
		n := 1 << lg
		reg, _, err := graphgen.RandomRegular(n, 16, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		torus, err := graphgen.Torus(2, 1<<(lg/2))
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			g    graphgen.Graph
		}{
			{"complete", graphgen.Complete(n)},
			{"regular16", reg},
			{"torus2", torus},
		} {
			b.Run(fmt.Sprintf("local-search/%s/n=2^%d", c.name, lg), func(b *testing.B) {
				p := LocalSearch{Graph: c.g}
				bins := NewBins(n)
				r := NewRand(1)
				benchBalls(b, int64(n), func() {
					bins.Reset()
					p.Place(bins, int64(n), r)
				})
			})
		}
		// The random 16-regular graph without pipelining, for
		// comparison.
		b.Run(fmt.Sprintf("local-search/regular16/n=2^%d/pipelined=off", lg), func(b *testing.B) {
			saved := pipelineMin
			pipelineMin = 1 << 62
			defer func() { pipelineMin = saved }()
			p := LocalSearch{Graph: reg}
			bins := NewBins(n)
			r := NewRand(1)
			benchBalls(b, int64(n), func() {
				bins.Reset()
				p.Place(bins, int64(n), r)
			})
		})
	}
}

// TestLocalSearchBatchComplete: on K_n the batched rule keeps the least
// load and its index from one batch to the next (see lsRule); against the
// snapshot reference, ball for ball, over batch sizes that divide n or not,
// below and above n, and many rises of the least load.
func TestLocalSearchBatchComplete(t *testing.T) {
	const n = 50
	for _, ties := range []Ties{TiesRandom, TiesLeft} {
		p := LocalSearch{Graph: graphgen.Complete(n), Ties: ties}
		for _, batch := range []int64{2, 3, 7, n, n + 1, 3*n - 1, 40 * n} {
			var got []uint32
			c := Config{Process: p, N: n, M: 30*n + 11, Seed: 5, Batch: batch,
				Loads: func(_ int, L []uint32) { got = slices.Clone(L) }}
			if _, err := c.Trial(context.Background(), 3, NewBins(n)); err != nil {
				t.Fatal(err)
			}
			want, _ := refBatches(t, p, n, c.M, batch, 0, TrialRand(5, 3))
			if !slices.Equal(got, want) {
				t.Fatalf("ties %v, batch %d: loads differ from the snapshot reference", ties, batch)
			}
		}
	}
}
