package alloc

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// refImplicit is the reference ball of Graphical on the implicit graphs,
// drawing as the fast loops do (implicitgraph.go) through the public Rand
// methods and the graphs' own Perm: it returns the bin lesser chooses
// (refChoose's rule, graphical (1+β) included) and the two candidates, and
// fails t unless they are adjacent.
func refImplicit(t *testing.T, g graphgen.Graph, p Graphical, r *Rand, lesser func(u, v uint64) uint64) (uint64, []uint64) {
	t.Helper()
	n := uint64(g.Order())
	var u, v uint64
	switch g := g.(type) {
	case graphgen.PermutationRegular:
		u = r.Uint64n(n)
		j := r.Uint64n(uint64(2 * g.Permutations()))
		v = uint64(g.Perm(int(j/2), int(u)))
		if j%2 == 1 {
			u, v = v, u
		}
	case graphgen.Lattice:
		if g.Side() == 2 {
			u = r.Uint64n(n)
			j := r.Uint64n(uint64(2 * g.Dim()))
			v = u ^ 1<<(j/2)
			if j%2 == 1 {
				u, v = v, u
			}
			break
		}
		side := uint64(g.Side())
		j := r.Uint64n(uint64(2 * g.Dim()))
		stride := uint64(1)
		for range j / 2 {
			stride *= side
		}
		a := r.Uint64n(stride)
		x := r.Uint64n(side)
		h := r.Uint64n(n / (stride * side))
		u = a + stride*(x+side*h)
		y := (x + 1) % side
		if j%2 == 1 {
			y = (x + side - 1) % side
		}
		v = a + stride*(y+side*h)
	}
	if p.Ties == TiesLeft && p.Sample == SampleEdge {
		u, v = min(u, v), max(u, v)
	}
	if !slices.Contains(neighbours(g, int(u)), int(v)) {
		t.Fatalf("%T: candidates %d, %d are not adjacent", g, u, v)
	}
	return lesser(u, v), []uint64{u, v}
}

func neighbours(g graphgen.Graph, v int) []int {
	var nb []int
	g.Visit(v, func(w int, _ int64) bool { nb = append(nb, w); return false })
	return nb
}

// implicitCases are the implicit graphs the tests run on, on about n
// vertices (tori round n to side^dim).
func implicitCases(t *testing.T, n int) []struct {
	name string
	p    Process
} {
	perm, err := graphgen.NewPermutationRegular(n, 6, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	perm2, err := graphgen.NewPermutationRegular(n, 2, rand.NewPCG(3, 5))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		name string
		p    Process
	}
	add := func(name string, g graphgen.Graph) {
		for _, s := range []Sampling{SampleEdge, SampleVertex} {
			for _, ties := range []Ties{TiesRandom, TiesLeft} {
				cases = append(cases, struct {
					name string
					p    Process
				}{fmt.Sprintf("%s/%s/%s", name, s, ties), Graphical{Graph: g, Sample: s, Ties: ties}})
			}
		}
	}
	add("perm6", perm)
	add("perm2", perm2)
	return cases
}

// latticeCases are tori and a hypercube with exactly n = 64 vertices.
func latticeCases(t *testing.T) []struct {
	name string
	g    graphgen.Lattice
} {
	var out []struct {
		name string
		g    graphgen.Lattice
	}
	for _, ds := range [][2]int{{1, 64}, {2, 8}, {3, 4}, {6, 2}} {
		g, err := graphgen.NewTorusLattice(ds[0], ds[1])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			name string
			g    graphgen.Lattice
		}{fmt.Sprintf("torus%dx%d", ds[0], ds[1]), g})
	}
	h, _ := graphgen.NewHypercubeLattice(6)
	return append(out, struct {
		name string
		g    graphgen.Lattice
	}{"hypercube6", h})
}

// TestImplicitContract replays the implicit graphs' loops against the
// reference, packed, compact and four-byte, pipelined and not, through
// both promotions (m = 300n passes 15, then 254, in every bin), in uneven
// batches, and
// checks the generator is left where the reference leaves it.
func TestImplicitContract(t *testing.T) {
	const n = 64
	cases := implicitCases(t, n)
	for _, lc := range latticeCases(t) {
		for _, ties := range []Ties{TiesRandom, TiesLeft} {
			for _, s := range []Sampling{SampleEdge, SampleVertex} {
				cases = append(cases, struct {
					name string
					p    Process
				}{fmt.Sprintf("%s/%s/%s", lc.name, s, ties), Graphical{Graph: lc.g, Sample: s, Ties: ties}})
			}
		}
	}
	enginePathsPacked(t, true, func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if err := tc.p.Check(n); err != nil {
					t.Fatal(err)
				}
				for _, m := range []int64{0, 1, 3 * n, 300 * n} {
					b := NewBins(n)
					r := NewRand(11)
					for done, k := int64(0), int64(1); done < m; k *= 3 {
						k = min(k, m-done)
						tc.p.Place(b, k, r)
						done += k
					}
					ref := make([]uint32, n)
					r2 := NewRand(11)
					refPlace(t, tc.p, ref, m, r2)
					if want := 1 + 3*btoi(slices.Max(ref) >= 255); m > 0 && b.BytesPerBin() != want {
						t.Fatalf("m=%d: %d bytes a bin, want %d", m, b.BytesPerBin(), want)
					}
					if !slices.Equal(b.Loads(), ref) || b.Balls() != m {
						t.Fatalf("m=%d: loads differ from the reference", m)
					}
					if r.state != r2.state {
						t.Fatalf("m=%d: generator state differs after the run", m)
					}
				}
			})
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestImplicitCheck: Check accepts the implicit graphs with edges and
// rejects a torus of side 1 (no edges) and a wrong order.
func TestImplicitCheck(t *testing.T) {
	g, _ := graphgen.NewPermutationRegular(100, 4, rand.NewPCG(1, 1))
	if err := (Graphical{Graph: g}).Check(100); err != nil {
		t.Error(err)
	}
	if err := (Graphical{Graph: g}).Check(99); err == nil {
		t.Error("order mismatch accepted")
	}
	one, _ := graphgen.NewTorusLattice(3, 1)
	if err := (Graphical{Graph: one}).Check(1); err == nil {
		t.Error("torus without edges accepted")
	}
}

// TestImplicitRegularMatchesExplicit is the two-sample test of the
// permutation model against the uniform model on what the simulator
// reports: two-choice with m = n = 2^20 on the implicit 16-regular
// multigraph (a fresh graph each trial) and on an explicit random
// 16-regular simple graph (RandomRegular). The maximum load is 4 in
// nearly every trial of both (measured: 60 of 60), so its histogram is
// compared as a check, and the power comes from the tail that makes it:
// the number of bins holding 3 balls or more, about 10,800 with a
// standard deviation near 100 per trial. Welch's t on that count over 16
// trials a side must stay below 4.5 (two-sided p ≈ 10^-4 at 30 degrees of
// freedom; the tolerance comes from the trials' own spread). Negative
// controls, which must exceed it: the cycle (about 22,900 bins, max load
// 5 or 6; t ≈ 300) and the implicit 8-regular graph (about 12,400; t ≈ 40).
func TestImplicitRegularMatchesExplicit(t *testing.T) {
	if testing.Short() {
		t.Skip("2^20 bins, an explicit 16-regular graph and 64 trials")
	}
	const n, trials, tMax = 1 << 20, 16, 4.5
	reg, _, err := graphgen.RandomRegular(n, 16, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	cycle, err := graphgen.NewCirculant(n, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	implicit := func(Delta int) func(i int) graphgen.Graph {
		return func(i int) graphgen.Graph {
			g, err := graphgen.NewPermutationRegular(n, Delta, rand.NewPCG(uint64(i), 77))
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
	}
	sample := func(mk func(i int) graphgen.Graph) (tail []float64, maxes map[uint32]int) {
		maxes = map[uint32]int{}
		b := NewBins(n)
		for i := range trials {
			b.Reset()
			Graphical{Graph: mk(i)}.Place(b, n, TrialRand(2024, i))
			c, err := b.Counts()
			if err != nil {
				t.Fatal(err)
			}
			var k int64
			for l := 3; l < len(c); l++ {
				k += c[l]
			}
			tail = append(tail, float64(k))
			maxes[uint32(len(c)-1)]++
		}
		return tail, maxes
	}
	ref, refMax := sample(func(int) graphgen.Graph { return reg })
	for _, tc := range []struct {
		name  string
		mk    func(i int) graphgen.Graph
		match bool
	}{
		{"implicit 16-regular", implicit(16), true},
		{"cycle (control)", func(int) graphgen.Graph { return cycle }, false},
		{"implicit 8-regular (control)", implicit(8), false},
	} {
		tail, maxes := sample(tc.mk)
		w := welchT(tail, ref)
		t.Logf("%s: bins with load >= 3 %.0f against %.0f, Welch t = %.2f; max loads %v against %v",
			tc.name, mean(tail), mean(ref), w, maxes, refMax)
		if tc.match && (w > tMax || w < -tMax) {
			t.Errorf("%s: Welch t = %.2f on the bins with load >= 3, want |t| <= %g", tc.name, w, tMax)
		}
		if tc.match && modeOf(maxes) != modeOf(refMax) {
			t.Errorf("%s: most frequent max load %d, the explicit graph's %d", tc.name, modeOf(maxes), modeOf(refMax))
		}
		if !tc.match && w <= tMax && w >= -tMax {
			t.Errorf("%s: not told apart from the explicit graph (Welch t = %.2f)", tc.name, w)
		}
	}
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// welchT is Welch's t statistic of the difference of the means of x and y.
func welchT(x, y []float64) float64 {
	vx, vy := 0.0, 0.0
	mx, my := mean(x), mean(y)
	for _, v := range x {
		vx += (v - mx) * (v - mx)
	}
	for _, v := range y {
		vy += (v - my) * (v - my)
	}
	vx /= float64(len(x) - 1)
	vy /= float64(len(y) - 1)
	return (mx - my) / math.Sqrt(vx/float64(len(x))+vy/float64(len(y)))
}

// BenchmarkImplicitGraph: two-choice on the implicit graphs against
// Greedy[2] at the same n (m = n, a fresh Bins each iteration, so the
// loads start compact as in a run). BENCHMARKS.md has the figures.
func BenchmarkImplicitGraph(b *testing.B) {
	for _, lg := range []int{20, 26} {
		n := 1 << lg
		perm, err := graphgen.NewPermutationRegular(n, 16, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		torus, _ := graphgen.NewTorusLattice(2, 1<<(lg/2))
		cube, _ := graphgen.NewHypercubeLattice(lg)
		for _, tc := range []struct {
			name string
			p    Process
		}{
			{"greedy/d=2", Greedy{D: 2}},
			{"graph/regular16-implicit", Graphical{Graph: perm}},
			{"graph/regular16-implicit/vertex", Graphical{Graph: perm, Sample: SampleVertex}},
			{"graph/torus2-implicit", Graphical{Graph: torus}},
			{"graph/hypercube-implicit", Graphical{Graph: cube}},
			// The packed loads and phased draws that n ≥ 2^33 runs.
			{"graph/regular16-implicit/packed", Graphical{Graph: perm}},
		} {
			b.Run(fmt.Sprintf("%s/n=2^%d", tc.name, lg), func(b *testing.B) {
				if strings.HasSuffix(tc.name, "/packed") {
					saved := nibbleMin
					defer func() { nibbleMin = saved }()
					nibbleMin = 0
				}
				r := NewRand(1)
				benchBalls(b, int64(n), func() {
					tc.p.Place(NewBins(n), int64(n), r)
				})
			})
		}
	}
}

// modeOf returns the most frequent key of h (the least among ties).
func modeOf(h map[uint32]int) uint32 {
	var best uint32
	for k, c := range h {
		if c > h[best] || (c == h[best] && k < best) {
			best = k
		}
	}
	return best
}

// TestPackedLoads checks what Bins reads from packed loads (Counts, MaxMin,
// Loads) against the same balls on byte loads, on an even and an odd
// number of bins (whose last byte holds one bin), packed throughout (m = n)
// and unpacked on the way (m = 40n passes 15), and that the loads were
// packed while they could be.
func TestPackedLoads(t *testing.T) {
	saved := nibbleMin
	defer func() { nibbleMin = saved }()
	for _, n := range []int{1000, 1001} {
		g, err := graphgen.NewPermutationRegular(n, 8, rand.NewPCG(9, uint64(n)))
		if err != nil {
			t.Fatal(err)
		}
		p := Graphical{Graph: g}
		for _, m := range []int64{int64(n), 40 * int64(n)} {
			run := func(min int) *Bins {
				nibbleMin = min
				b := NewBins(n)
				p.Place(b, m, NewRand(5))
				return b
			}
			packed, bytes := run(0), run(1<<62)
			if still := packed.nib != nil; still != (m == int64(n)) {
				t.Fatalf("n=%d m=%d: packed after the run %v", n, m, still)
			}
			if bytes.nib != nil {
				t.Fatalf("n=%d: packed above nibbleMin", n)
			}
			pc, err1 := packed.Counts()
			bc, err2 := bytes.Counts()
			if err1 != nil || err2 != nil || !slices.Equal(pc, bc) {
				t.Fatalf("n=%d m=%d: counts %v (%v), bytes %v (%v)", n, m, pc, err1, bc, err2)
			}
			px, pn := packed.MaxMin()
			bx, bn := bytes.MaxMin()
			if px != bx || pn != bn {
				t.Fatalf("n=%d m=%d: max, min %d %d, bytes %d %d", n, m, px, pn, bx, bn)
			}
			if !slices.Equal(packed.Loads(), bytes.Loads()) {
				t.Fatalf("n=%d m=%d: loads differ", n, m)
			}
		}
	}
}

// TestImplicitRuleLimits: the rule of the implicit graphs has 32-bit bins,
// so graphical (1+β) and batches refuse more than 2^32 − 1 of them with an
// error, where two-choice on the same graph runs (the control).
func TestImplicitRuleLimits(t *testing.T) {
	const n = 1<<32 + 2
	g, err := graphgen.NewPermutationRegular(n, 4, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := (Graphical{Graph: g}).Check(n); err != nil {
		t.Fatalf("two-choice refused: %v", err)
	}
	if err := (Graphical{Graph: g, OneMinusBeta: 0.5}).Check(n); err == nil || !strings.Contains(err.Error(), "2^32 − 1") {
		t.Fatalf("graphical (1+β) at n = 2^32 + 2: %v", err)
	}
	c := Config{Process: Graphical{Graph: g}, N: n, M: 10, Batch: 4}
	if err := c.checkBatch(); err == nil || !strings.Contains(err.Error(), "2^32 − 1") {
		t.Fatalf("batches at n = 2^32 + 2: %v", err)
	}
	c.Batch = 1
	if err := c.checkBatch(); err != nil {
		t.Fatalf("no batches refused: %v", err)
	}
}

// TestMultigraphFileMatchesImplicit: the permutation model listed as a
// multigraph CSR in the order of its permutations (PermutationRegular.CSR,
// and the same read back from the edge list that graphgen writes of it, as
// gen writes it) is drawn from its lines as the implicit graph is drawn
// from its permutations (linesDraw, permDraw), so the graph process places
// every ball on the same bin: the same loads and the same generator state,
// under both tie rules and both sampling rules, for two-choice and
// graphical (1+β), through every engine path of the implicit graph (n
// below and at a power of 4, so that cycle walking runs and does not).
//
// Control: drawing the multigraph from its sorted rows instead
// (regularEdge, the CSR's sampler before multiLines) gives other loads.
func TestMultigraphFileMatchesImplicit(t *testing.T) {
	type pair struct {
		name           string
		implicit, file Graphical
	}
	var cases []pair
	for _, c := range []struct{ n, Delta int }{{1000, 4}, {256, 8}, {300, 2}} {
		g, err := graphgen.NewPermutationRegular(c.n, c.Delta, NewRand(uint64(c.n)))
		if err != nil {
			t.Fatal(err)
		}
		listed, _, err := g.CSR()
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		if err := graphgen.WriteEdgeList(&text, listed); err != nil {
			t.Fatal(err)
		}
		read, _, err := graphgen.ReadGraph(&text, "x.el")
		if err != nil {
			t.Fatal(err)
		}
		for _, ties := range []Ties{TiesRandom, TiesLeft} {
			for _, s := range []Sampling{SampleEdge, SampleVertex} {
				for _, omb := range []float64{0, 0.5} {
					name := fmt.Sprintf("n=%d/Δ=%d/%s/%s/1-β=%g", c.n, c.Delta, s, ties, omb)
					p := Graphical{Graph: g, Sample: s, Ties: ties, OneMinusBeta: omb}
					for _, f := range []graphgen.Graph{listed, read} {
						q := p
						q.Graph = f
						cases = append(cases, pair{name, p, q})
					}
				}
			}
		}
	}
	enginePathsPacked(t, true, func(t *testing.T) {
		for _, tc := range cases {
			n := tc.implicit.Graph.Order()
			m := int64(5 * n)
			var loads [2][]uint32
			var state [2]uint64
			for i, p := range []Graphical{tc.implicit, tc.file} {
				b, r := NewBins(n), NewRand(7)
				for done, k := int64(0), int64(1); done < m; k *= 3 {
					k = min(k, m-done)
					p.Place(b, k, r)
					done += k
				}
				loads[i], state[i] = b.Loads(), r.state
			}
			if !slices.Equal(loads[0], loads[1]) || state[0] != state[1] {
				t.Errorf("%s: the file's loads differ from the implicit graph's", tc.name)
			}
		}
	})
}
