package graphgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// regularAlpha is the significance level of the statistical tests. The
// tests use fixed seeds and so are deterministic; regularAlpha is the chance
// that a correct generator fails one of them after a change of seeds or of
// the way it consumes randomness. It is small because the biases these tests
// exist to catch give statistics far beyond even this critical value: the
// repair path without its mixing steps scored χ² ≈ 300 on 69 degrees of
// freedom in the exhaustive test below, against a critical value of 121.4.
const regularAlpha = 1e-4

// checkRegular fails t unless g is a simple Delta-regular graph on n
// vertices: sorted rows without repeats or loops, symmetric, every degree
// Delta. fromRows trusts its rows, so this is the generator's own check.
func checkRegular(t *testing.T, g *CSR, n, Delta int) {
	t.Helper()
	if g.Order() != n {
		t.Fatalf("Order() = %d, want %d", g.Order(), n)
	}
	if want := int64(n) * int64(Delta) / 2; g.Size() != want {
		t.Fatalf("Size() = %d, want n*Delta/2 = %d", g.Size(), want)
	}
	for v := range n {
		if g.Degree(v) != Delta {
			t.Fatalf("Degree(%d) = %d, want %d", v, g.Degree(v), Delta)
		}
		row := g.Neighbors(v)
		for i, w := range row {
			if int(w) >= n {
				t.Fatalf("vertex %d has neighbour %d >= n", v, w)
			}
			if int(w) == v {
				t.Fatalf("loop at %d", v)
			}
			if i > 0 && w <= row[i-1] {
				t.Fatalf("row %d not strictly increasing: %v", v, row)
			}
			if !g.HasEdge(int(w), v) {
				t.Fatalf("edge {%d, %d} is missing from row %d", v, w, w)
			}
		}
	}
}

func TestRandomRegular(t *testing.T) {
	tests := []struct {
		name     string
		n, Delta int
		// How the graph is made, from the rules in RandomRegular.
		complement, repair bool
	}{
		{name: "empty", n: 0, Delta: 0},
		{name: "single vertex", n: 1, Delta: 0},
		{name: "one edge", n: 2, Delta: 1},
		{name: "4-cycle", n: 4, Delta: 2},
		{name: "K5", n: 5, Delta: 4, complement: true},
		{name: "n=6 cubic", n: 6, Delta: 3},
		{name: "K10", n: 10, Delta: 9, complement: true},
		{name: "n=1000 cubic", n: 1000, Delta: 3},
		{name: "n=1000 Delta=n/2", n: 1000, Delta: 500, repair: true},
		{name: "n=1000 Delta=990", n: 1000, Delta: 990, complement: true, repair: true},
		{name: "n=100000 Delta=16", n: 100000, Delta: 16, repair: true},
		{name: "n=12 Delta=5 tiny", n: 12, Delta: 5},
		{name: "n=14 Delta=6", n: 14, Delta: 6, repair: true},
		{name: "n=20 Delta=9 odd", n: 20, Delta: 9, repair: true},
		{name: "n=21 Delta=12 complement of odd", n: 21, Delta: 12, complement: true, repair: true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, st, err := RandomRegular(tt.n, tt.Delta, rand.NewPCG(uint64(i), 1))
			if err != nil {
				t.Fatal(err)
			}
			checkRegular(t, g, tt.n, tt.Delta)
			if st.Complement != tt.complement {
				t.Errorf("Complement = %v, want %v", st.Complement, tt.complement)
			}
			// A graph with edges needs at least one pairing. The repair
			// path switches both to repair, unless the pairing happened to
			// be simple (probability about exp(-(Delta²-1)/4) < e^{-6} for
			// these cases), and to mix; the other paths never switch.
			k := tt.Delta
			if tt.complement {
				k = tt.n - 1 - tt.Delta
			}
			if wantPairing := k > 0; (st.PairingAttempts > 0) != wantPairing {
				t.Errorf("PairingAttempts = %d, want > 0: %v", st.PairingAttempts, wantPairing)
			}
			if (st.Switches > 0) != tt.repair {
				t.Errorf("Switches = %d, want > 0: %v", st.Switches, tt.repair)
			}
		})
	}
}

func TestRandomRegularErrors(t *testing.T) {
	src := rand.NewPCG(1, 1)
	tests := []struct {
		name     string
		n, Delta int
		src      rand.Source
		want     string // the whole message
	}{
		{"negative n", -1, 0, src, "graphgen: regular graph needs 0 <= n <= 4294967295, got n=-1"},
		{"n too large", MaxOrder + 1, 2, src, "graphgen: regular graph needs 0 <= n <= 4294967295, got n=4294967296"},
		{"negative Delta", 10, -1, src, "graphgen: regular graph needs 0 <= Delta <= n-1, got n=10 Delta=-1"},
		{"Delta = n", 10, 10, src, "graphgen: regular graph needs 0 <= Delta <= n-1, got n=10 Delta=10"},
		{"edge on no vertices", 0, 1, src, "graphgen: regular graph needs 0 <= Delta <= n-1, got n=0 Delta=1"},
		{"odd n*Delta", 5, 3, src, "graphgen: regular graph needs n*Delta even, got n=5 Delta=3"},
		{"odd n*Delta complement", 7, 5, src, "graphgen: regular graph needs n*Delta even, got n=7 Delta=5"},
		{"too many edges", MaxOrder - 1, MaxOrder - 2, src, "graphgen: regular graph with n=4294967294 Delta=4294967293 has too many edges"},
		{"nil source", 4, 2, nil, "graphgen: regular graph needs a random source, got nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _, err := RandomRegular(tt.n, tt.Delta, tt.src)
			if err == nil {
				t.Fatalf("RandomRegular(%d, %d) returned no error", tt.n, tt.Delta)
			}
			if g != nil {
				t.Errorf("RandomRegular(%d, %d) returned a graph with its error", tt.n, tt.Delta)
			}
			if err.Error() != tt.want {
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}

func TestRandomRegularDeterministic(t *testing.T) {
	for _, c := range []struct{ n, Delta int }{{1000, 3}, {1000, 40}, {1000, 990}} {
		t.Run(fmt.Sprintf("n=%d/Delta=%d", c.n, c.Delta), func(t *testing.T) {
			g1, st1, err1 := RandomRegular(c.n, c.Delta, rand.NewPCG(7, 8))
			g2, st2, err2 := RandomRegular(c.n, c.Delta, rand.NewPCG(7, 8))
			g3, _, err3 := RandomRegular(c.n, c.Delta, rand.NewPCG(7, 9))
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(err1, err2, err3)
			}
			if st1 != st2 || !slices.Equal(g1.EdgeList(), g2.EdgeList()) {
				t.Error("same seed gave different graphs")
			}
			if slices.Equal(g1.EdgeList(), g3.EdgeList()) {
				t.Error("different seeds gave the same graph")
			}
		})
	}
}

// allRegular lists every labelled Delta-regular graph on n vertices as a
// bit mask over the pairs u < v in lexicographic order, mapping each mask to
// its index.
func allRegular(n, Delta int) map[uint64]int {
	pairs := n * (n - 1) / 2
	index := make(map[uint64]int)
	deg := make([]int, n)
	for mask := uint64(0); mask < 1<<pairs; mask++ {
		clear(deg)
		k := 0
		for u := range n {
			for v := u + 1; v < n; v++ {
				if mask>>k&1 == 1 {
					deg[u]++
					deg[v]++
				}
				k++
			}
		}
		if !slices.ContainsFunc(deg, func(d int) bool { return d != Delta }) {
			index[mask] = len(index)
		}
	}
	return index
}

// rowsMask returns the pair mask (see allRegular) of the graph with
// fixed-width rows adj.
func rowsMask(adj []uint32, n, Delta int) uint64 {
	var mask uint64
	for u := range n {
		for _, v := range adj[u*Delta : u*Delta+Delta] {
			if int(v) > u {
				// Index of the pair (u, v) in lexicographic order.
				k := u*(2*n-u-1)/2 + int(v) - u - 1
				mask |= 1 << k
			}
		}
	}
	return mask
}

// checkUniformCounts fails t unless the counts are consistent, at level
// regularAlpha, with a uniform distribution over their cells.
func checkUniformCounts(t *testing.T, counts []int) {
	t.Helper()
	total := 0
	for _, c := range counts {
		total += c
	}
	e := float64(total) / float64(len(counts))
	chi2 := 0.0
	for _, c := range counts {
		chi2 += (float64(c) - e) * (float64(c) - e) / e
	}
	df := float64(len(counts) - 1)
	crit := distuv.ChiSquared{K: df}.Quantile(1 - regularAlpha)
	if chi2 > crit {
		t.Errorf("χ² = %.1f on %v degrees of freedom over %d samples, above the critical value %.1f at level %g",
			chi2, df, total, crit, regularAlpha)
	} else {
		t.Logf("χ² = %.1f on %v degrees of freedom over %d samples (critical value %.1f)", chi2, df, total, crit)
	}
}

// samplesPerGraph is the expected count of each graph in the exhaustive
// tests: at 200 the χ² approximation to the multinomial is excellent (it
// wants expected counts of at least 5) and a cell 15% off uniform is
// detectable; under -short 50 still keeps every expected count far above 5.
func samplesPerGraph() int {
	if testing.Short() {
		return 50
	}
	return 200
}

// TestRandomRegularUniform compares the generator with the uniform law over
// every labelled Delta-regular graph on a few vertices, enumerated
// exhaustively: 70 2-regular graphs on 6 vertices (60 hexagons and 10 pairs
// of triangles), their 70 complements, which are 3-regular, and the 15
// perfect matchings, whose complements are the 4-regular graphs. These take
// the exact paths: redrawn pairings, and the complement of one.
func TestRandomRegularUniform(t *testing.T) {
	tests := []struct {
		name     string
		n, Delta int
		graphs   int // the number of labelled Delta-regular graphs on n vertices
	}{
		{"n=6/Delta=2", 6, 2, 70},
		{"n=6/Delta=3", 6, 3, 70},
		{"n=6/Delta=4 complement", 6, 4, 15},
		{"n=5/Delta=2", 5, 2, 12}, // 4!/2 pentagons
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			index := allRegular(tt.n, tt.Delta)
			if len(index) != tt.graphs {
				t.Fatalf("enumerated %d graphs, want %d", len(index), tt.graphs)
			}
			for seed := range uint64(2) {
				counts := make([]int, len(index))
				src := rand.NewPCG(seed, 100)
				for range samplesPerGraph() * len(index) {
					g, _, err := RandomRegular(tt.n, tt.Delta, src)
					if err != nil {
						t.Fatal(err)
					}
					k, ok := index[rowsMask(g.Adjacency(), tt.n, tt.Delta)]
					if !ok {
						t.Fatalf("not a %d-regular graph: %v", tt.Delta, g.EdgeList())
					}
					counts[k]++
				}
				checkUniformCounts(t, counts)
			}
		})
	}
}

// TestRandomRegularRepairUniform runs the repair path (which RandomRegular
// keeps for larger graphs) on every 2- and 3-regular graph on 6 vertices.
// That path is close to, not exactly, uniform; this checks that at these
// sample sizes its bias is undetectable, small as the graphs are: here the
// repairs touch an eighth to a quarter of the edges, a worse case than any
// graph the path is used for.
func TestRandomRegularRepairUniform(t *testing.T) {
	for _, c := range []struct{ n, Delta int }{{6, 2}, {6, 3}} {
		t.Run(fmt.Sprintf("n=%d/Delta=%d", c.n, c.Delta), func(t *testing.T) {
			index := allRegular(c.n, c.Delta)
			counts := make([]int, len(index))
			src := rand.NewPCG(3, 300)
			var st RegularStats
			for range samplesPerGraph() * len(index) {
				adj := randomRegularRows(c.n, c.Delta, src, &st, true, nil)
				k, ok := index[rowsMask(adj, c.n, c.Delta)]
				if !ok {
					t.Fatalf("not a %d-regular graph: %v", c.Delta, adj)
				}
				counts[k]++
			}
			if st.Switches == 0 {
				t.Fatal("no switches: the repair path was not exercised")
			}
			checkUniformCounts(t, counts)
		})
	}
}

// TestRandomRegularEdgeFrequency checks, on the repair path, that every pair
// of vertices is an edge with probability Delta/(n-1), as for the uniform
// random regular graph (by symmetry, each vertex's Delta neighbours are
// spread over the n-1 others).
func TestRandomRegularEdgeFrequency(t *testing.T) {
	const n, Delta = 200, 40 // 376 expected defects among 4000 edges
	if !useRepair(n, Delta) || Delta > n/2 {
		t.Fatal("the test case no longer takes the repair path")
	}
	samples := 400
	if testing.Short() {
		samples = 100
	}
	p := float64(Delta) / float64(n-1)
	counts := make([]int, n*n) // counts[u*n+v], u < v
	src := rand.NewPCG(5, 500)
	var switches int64
	for range samples {
		g, st, err := RandomRegular(n, Delta, src)
		if err != nil {
			t.Fatal(err)
		}
		switches += st.Switches
		e := g.EdgeList()
		for k := 0; k < len(e); k += 2 {
			counts[int(e[k])*n+int(e[k+1])]++
		}
	}
	if switches == 0 {
		t.Fatal("no switches: the repair path was not exercised")
	}
	// Each count is Binomial(samples, p): the samples are independent, even
	// though the edges of one graph are not. So
	// Σ (X - samples·p)² / (samples·p(1-p)) over the n(n-1)/2 pairs has mean
	// exactly n(n-1)/2 and, pairs that share a vertex having correlation
	// -1/(n-2), variance 2·n(n-1)/2·(1 + O(1/n)): χ² with that many degrees
	// of freedom, to about 1% of its standard deviation.
	mean, variance := float64(samples)*p, float64(samples)*p*(1-p)
	chi2 := 0.0
	// The pairs {v, v+1}, whose points start side by side in the pairing,
	// are also summed on their own: a bias from the order in which pairs
	// are drawn would show there first.
	adjacent := 0
	for u := range n {
		for v := u + 1; v < n; v++ {
			d := float64(counts[u*n+v]) - mean
			chi2 += d * d / variance
			if v == u+1 {
				adjacent += counts[u*n+v]
			}
		}
	}
	pairs := float64(n * (n - 1) / 2)
	if crit := (distuv.ChiSquared{K: pairs}).Quantile(1 - regularAlpha); chi2 > crit {
		t.Errorf("edge counts: χ² = %.0f on %v pairs, above the critical value %.0f at level %g", chi2, pairs, crit, regularAlpha)
	}
	// The n-1 adjacent pairs are nearly independent (correlation -1/(n-2)
	// for those sharing a vertex), so their total has variance
	// (n-1)·variance·(1 + O(1/n)); allow the two-sided normal quantile.
	z := (float64(adjacent) - float64(n-1)*mean) / math.Sqrt(float64(n-1)*variance)
	if zc := (distuv.UnitNormal).Quantile(1 - regularAlpha/2); math.Abs(z) > zc {
		t.Errorf("pairs {v, v+1}: z = %.2f, beyond ±%.2f", z, zc)
	}
	t.Logf("χ² = %.0f on %v pairs; adjacent pairs z = %.2f; %d samples", chi2, pairs, z, samples)
}

// TestExpectedDefects checks the defect count behind the number of mixing
// steps against its sparse limit (Delta²-1)/4 [B80] and against the mean
// defect count of actual pairings, within five standard errors.
func TestExpectedDefects(t *testing.T) {
	if got, want := expectedDefects(1e6, 10), (10.0*10-1)/4; math.Abs(got-want) > 0.01 {
		t.Errorf("expectedDefects(1e6, 10) = %v, want about %v", got, want)
	}
	const n, Delta, trials = 200, 40, 200
	src := rand.NewPCG(6, 600)
	adj := make([]uint32, n*Delta)
	deg := make([]uint32, n)
	pts := make([]uint32, regularScratchLen(n, Delta))
	var sum, sumSq float64
	for range trials {
		drawPairing(adj, deg, pts, Delta, src, false, nil)
		d := float64(countDefects(adj, n, Delta))
		sum += d
		sumSq += d * d
	}
	mean := sum / trials
	sd := math.Sqrt((sumSq/trials - mean*mean) / trials) // standard error of the mean
	want := expectedDefects(n, Delta)
	if math.Abs(mean-want) > 5*sd {
		t.Errorf("mean defects %.1f ± %.1f, expectedDefects %.1f", mean, sd, want)
	}
}

// countDefects counts the loops and extra copies of repeated edges of the
// multigraph with fixed-width rows adj, by sorting copies of the rows.
func countDefects(adj []uint32, n, Delta int) int {
	d := 0
	for v := range n {
		row := slices.Clone(adj[v*Delta : v*Delta+Delta])
		slices.Sort(row)
		for i, w := range row {
			switch {
			case int(w) == v:
				d++ // each loop is counted twice in its row
			case i > 0 && w == row[i-1]:
				d++ // each extra copy is counted in both rows
			}
		}
	}
	return d / 2
}

func BenchmarkRandomRegular(b *testing.B) {
	for _, c := range []struct {
		name     string
		n, Delta int
	}{
		{"n=1e6/Delta=3", 1_000_000, 3},
		{"n=1e3/Delta=900", 1000, 900},
		{"n=1e5/Delta=317", 100_000, 317},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := rand.NewPCG(1, 2)
			var attempts int
			for b.Loop() {
				_, st, err := RandomRegular(c.n, c.Delta, src)
				if err != nil {
					b.Fatal(err)
				}
				attempts += st.PairingAttempts
			}
			edges := float64(c.n) * float64(c.Delta) / 2
			b.ReportMetric(edges*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
			b.ReportMetric(float64(attempts)/float64(b.N), "pairings/op")
		})
	}
}

// TestPairingLoops checks the law of drawPairing where both its phases
// (rejection on the rows, then the listed tail) act on few points: n = 4,
// Delta = 4, 16 points, the last 2 in the tail. Under the configuration
// model each of the n·C(Delta, 2) pairs of points on one vertex is matched
// with probability 1/(N-1), so the mean number of loops is 24/15 = 1.6;
// the sample mean must lie within 5 standard errors of it. As a negative
// control the same test must reject a pairing that picks the partner's
// vertex uniformly among the vertices with an unmatched point and then one
// of its points (not a uniform point), which makes loops more likely.
func TestPairingLoops(t *testing.T) {
	const n, Delta, trials = 4, 4, 20000
	want := float64(n*Delta*(Delta-1)/2) / float64(n*Delta-1)
	check := func(name string, draw func(adj, deg []uint32)) bool {
		adj := make([]uint32, n*Delta)
		deg := make([]uint32, n)
		var sum, sumSq float64
		for range trials {
			draw(adj, deg)
			loops := 0
			for v := range n {
				for _, w := range adj[v*Delta : v*Delta+Delta] {
					if int(w) == v {
						loops++
					}
				}
			}
			l := float64(loops / 2)
			sum += l
			sumSq += l * l
		}
		mean := sum / trials
		se := math.Sqrt((sumSq/trials - mean*mean) / trials)
		t.Logf("%s: mean loops %.4f ± %.4f, configuration model %.4f", name, mean, se, want)
		return math.Abs(mean-want) <= 5*se
	}
	src := rand.NewPCG(7, 70)
	pts := make([]uint32, regularScratchLen(n, Delta))
	if !check("drawPairing", func(adj, deg []uint32) { drawPairing(adj, deg, pts, Delta, src, false, nil) }) {
		t.Error("drawPairing: the mean number of loops is not the configuration model's")
	}
	biased := func(adj, deg []uint32) {
		rem := make([]int, n)
		for v := range rem {
			rem[v] = Delta
		}
		clear(deg)
		for u := 0; u < n; u++ {
			for rem[u] > 0 {
				rem[u]-- // u's lowest unmatched point is the first
				var cand []int
				for w := range n {
					if rem[w] > 0 {
						cand = append(cand, w)
					}
				}
				w := cand[rand.New(src).IntN(len(cand))]
				rem[w]--
				adj[u*Delta+int(deg[u])] = uint32(w)
				deg[u]++
				adj[w*Delta+int(deg[w])] = uint32(u)
				deg[w]++
			}
		}
	}
	if check("vertex-uniform partner (control)", biased) {
		t.Error("the test does not reject the vertex-uniform partner")
	}
}
