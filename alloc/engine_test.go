package alloc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// The per-bin engine's fast paths that the contract tests (small n, few
// balls) do not reach: compact loads promoted to uint32 in the middle of a
// batch, and the pipelined loops. Each must give exactly the loads of the
// reference implementation (refPlace in reference_test.go).

// enginePaths runs f with the loops pipelined at every size, then not at
// all, then with the loops in phases (permRegularPhased, graphEdgePhased)
// at every size, and with bins of every size starting compact.
func enginePaths(t *testing.T, f func(t *testing.T)) { enginePathsPacked(t, false, f) }

// enginePathsPacked is enginePaths, then, if packed, once more with the
// loads packed (Bins.placePacked) at every size: only the implicit regular
// graph has a packed loop.
func enginePathsPacked(t *testing.T, packed bool, f func(t *testing.T)) {
	saved, savedCompact, savedPhased, savedEdge, savedNib := pipelineMin, compactMin, permPhasedMin, edgePhasedMin, nibbleMin
	defer func() {
		pipelineMin, compactMin, permPhasedMin, edgePhasedMin, nibbleMin = saved, savedCompact, savedPhased, savedEdge, savedNib
	}()
	compactMin = 0
	for _, pipe := range []bool{true, false} {
		pipelineMin = 1 << 62
		if pipe {
			pipelineMin = 0
		}
		t.Run(fmt.Sprintf("pipelined=%v", pipe && havePrefetch), f)
	}
	pipelineMin, permPhasedMin, edgePhasedMin = 0, 0, 0
	t.Run("phased", f)
	if packed {
		nibbleMin = 0
		t.Run("packed", f)
	}
}

// engineCases are the processes with compact or pipelined loops, on n
// bins.
func engineCases(t *testing.T, n int) []struct {
	name string
	p    Process
} {
	g, _, err := graphgen.RandomRegular(n, 4, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	circ, err := graphgen.RandomCirculant(n, 5, rand.NewPCG(3, 4)) // odd degree: n/2 in S
	if err != nil {
		t.Fatal(err)
	}
	// A path on the first third of the vertices, the rest isolated: the
	// isolated-vertex rule of vertex sampling on one-byte loads.
	var path []uint32
	for v := range uint32(n/3 - 1) {
		path = append(path, v, v+1)
	}
	sparse, _, err := graphgen.FromEdges(n, path)
	if err != nil {
		t.Fatal(err)
	}
	// Hypergraphs: 3-uniform, and one of hyperedges of 1 to 4 vertices.
	hyp3, err := graphgen.RandomUniformHypergraph(n, 3, n, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	off, verts := []int{0}, []uint32(nil)
	for v := range n {
		for j := range v%4 + 1 {
			verts = append(verts, uint32((v+7*j)%n))
		}
		off = append(off, len(verts))
	}
	mixed, err := graphgen.FromHyperedges(n, off, verts)
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		p    Process
	}{
		{"one-choice", OneChoice{}},
		{"greedy/d=2", Greedy{D: 2}},
		{"greedy/d=3", Greedy{D: 3}},
		{"greedy/d=8", Greedy{D: 8}},
		{"greedy/d=9", Greedy{D: 9}},
		{"left/d=1", Left{D: 1}},
		{"left/d=2", Left{D: 2}},
		{"left/d=3", Left{D: 3}},
		{"left/d=3/random", Left{D: 3, Ties: TiesRandom}},
		{"graph/regular4/edge", Graphical{Graph: g}},
		{"graph/regular4/edge/left", Graphical{Graph: g, Ties: TiesLeft}},
		{"graph/regular4/vertex", Graphical{Graph: g, Sample: SampleVertex}},
		{"graph/regular4/vertex/left", Graphical{Graph: g, Sample: SampleVertex, Ties: TiesLeft}},
		{"graph/complete", Graphical{Graph: graphgen.Complete(n)}},
		{"graph/complete/left", Graphical{Graph: graphgen.Complete(n), Ties: TiesLeft}},
		{"graph/circulant", Graphical{Graph: circ}},
		{"graph/circulant/vertex/left", Graphical{Graph: circ, Sample: SampleVertex, Ties: TiesLeft}},
		{"graph/sparse/edge", Graphical{Graph: sparse}},
		{"graph/sparse/vertex", Graphical{Graph: sparse, Sample: SampleVertex}},
		{"graph/regular4/beta=0.5", Graphical{Graph: g, OneMinusBeta: 0.5}},
		{"one-plus-beta/beta=0.5", OnePlusBeta{Beta: 0.5}},
		{"one-plus-beta/beta=0", OnePlusBeta{Beta: 0}},
		{"one-plus-beta/beta=1", OnePlusBeta{Beta: 1}},
		{"unbalanced/d=2", MaxOf{D: 2}},
		{"unbalanced/d=3", MaxOf{D: 3}},
		{"firstdiff/d=2", FirstDiff{D: 2}},
		{"firstdiff/d=3/cap=64", FirstDiff{D: 3, Cap: 64}},
		{"grouped/d=2", Grouped{D: 2}},
		{"grouped/d=4", Grouped{D: 4}},
		{"grouped/d=4/random", Grouped{D: 4, Ties: TiesRandom}},
		{"window/d=4", Window{D: 4}},
		{"window/d=6/random", Window{D: 6, Ties: TiesRandom}},
		{"hyper/3-uniform", Hyper{H: hyp3}},
		{"hyper/3-uniform/left", Hyper{H: hyp3, Ties: TiesLeft}},
		{"hyper/mixed", Hyper{H: mixed}},
		{"mean-thinning", MeanThinning{}},
		{"threshold/L=1", Threshold{L: 1}},
		{"threshold/L=300", Threshold{L: 300}},
		{"twinning", Twinning{}},
		{"packing", Packing{}},
		{"memory/d=1/K=1", Memory{D: 1, K: 1}},
		{"memory/d=2/K=1/left", Memory{D: 2, K: 1, Ties: TiesLeft}},
		{"memory/d=2/K=3", Memory{D: 2, K: 3}},
		{"memory/d=1/K=2/left", Memory{D: 1, K: 2, Ties: TiesLeft}},
		{"kd/k=1/d=2", KD{D: 2, K: 1}},
		{"kd/k=2/d=4", KD{D: 4, K: 2}},
		{"kd/k=3/d=3", KD{D: 3, K: 3}},
		{"kd/k=5/d=7", KD{D: 7, K: 5}},
		{"local-search/regular4", LocalSearch{Graph: g}},
		{"quantile/delta=0.5", Quantile{Delta: 0.5}},
		{"quantile/delta=0.3", Quantile{Delta: 0.3}},
		{"local-search/regular4/left", LocalSearch{Graph: g, Ties: TiesLeft}},
		{"g-bounded/g=2", GBounded{Tolerance: 2}},
		{"g-myopic/g=1", GMyopic{Tolerance: 1}},
		{"noisy/sigma=2", Noisy{Sigma: 2}},
		{"g-bounded/g=1/regular4/edge", GBounded{Tolerance: 1, Graph: g}},
		{"g-bounded/g=1/regular4/edge/left", GBounded{Tolerance: 1, Graph: g, Ties: TiesLeft}},
		{"g-bounded/g=2/sparse/vertex", GBounded{Tolerance: 2, Graph: sparse, Sample: SampleVertex}},
		{"g-bounded/g=0/circulant/edge/left", GBounded{Tolerance: 0, Graph: circ, Ties: TiesLeft}},
		{"g-myopic/g=1/regular4/vertex", GMyopic{Tolerance: 1, Graph: g, Sample: SampleVertex}},
		{"g-myopic/g=2/circulant", GMyopic{Tolerance: 2, Graph: circ}},
		{"noisy/sigma=1/regular4/edge", Noisy{Sigma: 1, Graph: g}},
		{"noisy/sigma=3/sparse/edge", Noisy{Sigma: 3, Graph: sparse}},
		{"noisy/sigma=0.5/circulant/vertex", Noisy{Sigma: 0.5, Graph: circ, Sample: SampleVertex}},
		// Walk sampling: blocks of walks drawn ahead on the regular graph
		// (where there is a prefetch), ball after ball on the others.
		{"graph/regular4/walk:len=3", Graphical{Graph: g, Sample: SampleWalk(3)}},
		{"graph/regular4/walk:len=2/left", Graphical{Graph: g, Sample: SampleWalk(2), Ties: TiesLeft}},
		{"graph/regular4/walk:len=3/beta=0.5", Graphical{Graph: g, Sample: SampleWalk(3), OneMinusBeta: 0.5}},
		{"graph/sparse/walk:len=4", Graphical{Graph: sparse, Sample: SampleWalk(4)}},
		{"graph/complete/walk:len=2/beta=0.5", Graphical{Graph: graphgen.Complete(n), Sample: SampleWalk(2), OneMinusBeta: 0.5}},
		{"g-bounded/g=1/regular4/walk:len=2", GBounded{Tolerance: 1, Graph: g, Sample: SampleWalk(2)}},
		{"g-bounded/g=0/sparse/walk:len=3", GBounded{Tolerance: 0, Graph: sparse, Sample: SampleWalk(3)}},
		{"g-bounded/g=2/walk:len=1", GBounded{Tolerance: 2, Sample: SampleWalk(1)}},
	}
}

// trialPlace returns p's Place, or for a process whose rule keeps a state
// of the trial (memory, kd-choice) a Place through one rule, which keeps
// that state from call to call as Config.Trial does.
func trialPlace(p Process, n int) func(b *Bins, m int64, r *Rand) Stats {
	if tr, ok := p.(trialRuler); ok {
		ru := tr.rule(n)
		return func(b *Bins, m int64, r *Rand) Stats { return placeRule(b, ru, m, r) }
	}
	return p.Place
}

// wideOnly reports whether p places its balls on four-byte loads from the
// start: graphical (1+β) on the samplers but the walks, which runs on the
// generic driver.
func wideOnly(p Process) bool {
	if p, ok := p.(Graphical); ok {
		_, walk := p.Sample.Walk()
		return p.OneMinusBeta != 0 && !walk
	}
	return false
}

// TestEnginePromotion: with m = 300n every bin passes 254 balls, so each
// process is promoted from one-byte to four-byte loads part-way through a
// batch; the loads must still be the reference's, ball for ball, and the
// stats those of the same balls on four-byte loads.
func TestEnginePromotion(t *testing.T) {
	enginePaths(t, func(t *testing.T) {
		const n = 38 // n·4 even for the regular graph
		for _, tc := range engineCases(t, n) {
			t.Run(tc.name, func(t *testing.T) {
				for _, m := range []int64{1, 200 * n, 250 * n, 300 * n} {
					b := NewBins(n)
					r := NewRand(9)
					// Uneven batches: promotion may fall in any.
					place := trialPlace(tc.p, n)
					var st Stats
					for done, k := int64(0), int64(1); done < m; k *= 3 {
						k = min(k, m-done)
						st.Add(place(b, k, r))
						done += k
					}
					// The same balls on four-byte loads from the start,
					// in one batch: the same loads (below) and stats.
					w := NewBins(n)
					w.wide()
					if ws := tc.p.Place(w, m, NewRand(9)); st != ws {
						t.Fatalf("m=%d: stats %+v, on four-byte loads %+v", m, st, ws)
					}
					ref, rr := make([]uint32, n), NewRand(9)
					refPlace(t, tc.p, ref, m, rr)
					graph := wideOnly(tc.p) // uint32 loads from the start
					promoted := slices.Max(ref) >= 255 || graph
					if got := b.BytesPerBin(); (got == 4) != promoted {
						t.Fatalf("m=%d: %d bytes a bin with max load %d", m, got, slices.Max(ref))
					}
					// Counts before Loads: on compact loads too.
					counts, err := b.Counts()
					if err != nil {
						t.Fatal(err)
					}
					var sum int64
					for l, c := range counts {
						sum += int64(l) * c
					}
					if !slices.Equal(b.Loads(), ref) || sum != m || b.Balls() != m {
						t.Fatalf("m=%d: loads differ from the reference (sum %d, balls %d)", m, sum, b.Balls())
					}
					if !slices.Equal(w.Loads(), ref) {
						t.Fatalf("m=%d: loads on four-byte loads differ from the reference", m)
					}
					// The generator is left where the reference left it.
					if r.state != rr.state {
						t.Fatalf("m=%d: generator state differs after the run", m)
					}
				}
			})
		}
	})
}

// TestEngineLarge: the contract on a few thousand bins, batches cut at
// awkward places, compact throughout.
func TestEngineLarge(t *testing.T) {
	enginePaths(t, func(t *testing.T) {
		const n, m = 5002, 4 * 5002
		for _, tc := range engineCases(t, n) {
			t.Run(tc.name, func(t *testing.T) {
				b := NewBins(n)
				r := NewRand(3)
				place := trialPlace(tc.p, n)
				place(b, 17, r)
				place(b, ahead-1, r)
				place(b, m-17-(ahead-1), r)
				if graph := wideOnly(tc.p); b.BytesPerBin() != 1 && !graph {
					t.Fatal("promoted at m = 4n")
				}
				ref := make([]uint32, n)
				refPlace(t, tc.p, ref, m, NewRand(3))
				if !slices.Equal(b.Loads(), ref) {
					t.Fatal("loads differ from the reference")
				}
			})
		}
	})
}

// TestBinsHugePages: a load array of several huge pages is mapped, used,
// promoted and handed back to the heap by Loads without losing a ball.
func TestBinsHugePages(t *testing.T) {
	n := 3 * hugePageSize
	if testing.Short() {
		n = hugePageSize
	}
	b := NewBins(n)
	if !b.fresh() {
		t.Fatal("NewBins allocated before first use")
	}
	r := NewRand(1)
	Greedy{D: 2}.Place(b, int64(n), r)
	if b.mem == nil || b.mem.small == nil {
		t.Logf("no huge-page mapping on this system")
	}
	b.wide() // promote: a mapped uint32 array
	Greedy{D: 2}.Place(b, int64(n), r)
	L := b.Loads()
	var sum int64
	for _, l := range L {
		sum += int64(l)
	}
	if sum != 2*int64(n) {
		t.Fatalf("loads add up to %d, want %d", sum, 2*n)
	}
	if b.mem != nil && (b.mem.small != nil || b.mem.loads != nil) {
		t.Fatal("mappings left after Loads")
	}
	b.Reset()
	if mx, mn := b.MaxMin(); mx != 0 || mn != 0 || b.Balls() != 0 {
		t.Fatal("Reset left balls")
	}
}

// TestBinsLazy: a process with only a uint32 loop gets uint32 loads at
// once, without a byte array first; fresh bins read as empty.
func TestBinsLazy(t *testing.T) {
	b := NewBins(10)
	if mx, mn := b.MaxMin(); mx != 0 || mn != 0 {
		t.Fatal("fresh bins not empty")
	}
	if c, err := b.Counts(); err != nil || !slices.Equal(c, []int64{10}) {
		t.Fatalf("fresh counts %v, %v", c, err)
	}
	b.Reset()
	b.Update(func(L []uint32) int64 { L[3] += 5; return 5 }) // a process with only a uint32 loop
	if b.small != nil || b.loads == nil || b.BytesPerBin() != 4 || b.Balls() != 5 {
		t.Fatal("a uint32 process allocated compact loads")
	}
	if e := NewBins(0); len(e.Loads()) != 0 || e.N() != 0 {
		t.Fatal("empty bins")
	}
}

// TestRewind: rewind finds the state before each ball of a batch, also
// when draws were rejected (n = 2^63 + 1 rejects about half of them).
func TestRewind(t *testing.T) {
	for _, n := range []uint64{1, 7, 1000, 1<<63 + 1} {
		for _, draws := range []int{1, 2, 3} {
			start := uint64(12345)
			s := start
			for range 200 {
				before := s
				for range draws {
					s, _ = below(s, n)
				}
				if got := rewind(s, start, n, draws); got != before {
					t.Fatalf("n=%d draws=%d: rewind gives %x, want %x", n, draws, got, before)
				}
			}
		}
	}
}

// TestMaxMin checks both MaxMin paths against a plain scan.
func TestMaxMin(t *testing.T) {
	r := NewRand(4)
	for _, n := range []int{0, 1, 2, 3, 5, 8, 100, 1001} {
		L8 := make([]uint8, n)
		L32 := make([]uint32, n)
		for i := range L8 {
			L8[i] = uint8(r.Uint64n(255))
			L32[i] = uint32(L8[i]) << (r.Uint64n(2) * 20)
		}
		want := func(L []uint32) (uint32, uint32) {
			if len(L) == 0 {
				return 0, 0
			}
			return slices.Max(L), slices.Min(L)
		}
		wide := make([]uint32, n)
		for i, l := range L8 {
			wide[i] = uint32(l)
		}
		mx, mn := maxMin8(L8)
		wx, wn := want(wide)
		if mx != wx || mn != wn {
			t.Errorf("n=%d: maxMin8 = %d, %d, want %d, %d", n, mx, mn, wx, wn)
		}
		mx, mn = maxMin32(L32)
		wx, wn = want(L32)
		if mx != wx || mn != wn {
			t.Errorf("n=%d: maxMin32 = %d, %d, want %d, %d", n, mx, mn, wx, wn)
		}
	}
}

// TestPlaceRefusesInvalid: Place with parameters that fail Check places no
// ball and reports no probes, for every process (no panic, no garbage).
func TestPlaceRefusesInvalid(t *testing.T) {
	cycle, _ := graphgen.Cycle(3)
	for _, p := range []Process{
		Greedy{D: 0}, Left{D: 5}, FirstDiff{D: 0}, MaxOf{D: 0}, OnePlusBeta{Beta: 2},
		Rank{D: 0.5}, Grouped{D: 3}, Window{D: 1}, Graphical{Graph: cycle}, Graphical{},
	} {
		b := NewBins(4)
		if st := p.Place(b, 10, NewRand(1)); st != (Stats{}) || b.Balls() != 0 {
			t.Errorf("%v: placed %d balls, stats %+v", p, b.Balls(), st)
		}
	}
	if st := (OneChoice{}).Place(NewBins(0), 5, NewRand(1)); st != (Stats{}) {
		t.Errorf("one-choice on no bins: %+v", st)
	}
}

// TestLoadBytes: the memory guard's estimate (Descriptor.LoadBytes) agrees
// with the loads each process's Place leaves: every process whose Place
// keeps bins of compact size at one byte a bin at m = n says BinBytes 1,
// and every process that says so keeps them, except with the parameters
// whose loop has four-byte loads only (graphical (1+β), walk sampling),
// for which LoadBytes counts 4; and LoadBytes counts 4 below 2^17 bins and
// with batches, 5 when m is large.
func TestLoadBytes(t *testing.T) {
	saved := compactMin
	defer func() { compactMin = saved }()
	compactMin = 0
	const n = 64
	g, _, err := graphgen.RandomRegular(n, 4, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	h, err := graphgen.RandomUniformHypergraph(n, 3, n, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	walk, err := ParseSampling("walk:len=3")
	if err != nil {
		t.Fatal(err)
	}
	const big = 1 << 30 // bins enough to start compact
	for _, d := range Descriptors() {
		// Parameters every process accepts, then the ones whose loop
		// has four-byte loads only.
		p := Params{D: 2, Beta: 0.5, Threshold: 1, K: 1, Memory: 1, Delta: 0.5}
		if d.Uses&ParamGraph != 0 {
			p.Graph = g
			if d.Family == FamilyHyper {
				p.Graph = h
			}
		}
		for _, p := range paramVariants(d, p, walk) {
			name := d.Label(p)
			if p.Sample == walk {
				name += "/walk"
			}
			t.Run(name, func(t *testing.T) {
				ru, err := d.New(p)
				if err != nil {
					t.Fatalf("parameters refused: %v (extend the test's parameters)", err)
				}
				pr, ok := ru.(Process)
				if !ok {
					t.Skipf("%T runs only through the trial runner", ru)
				}
				b := NewBins(n)
				pr.Place(b, n, NewRand(1))
				est := d.LoadBytes(p, big, big, 0)
				if compact := b.BytesPerBin() == 1; compact != (est == 1) {
					t.Fatalf("Place leaves %d bytes a bin, LoadBytes counts %d (BinBytes %d)", b.BytesPerBin(), est, d.BinBytes)
				}
				if est != 1 {
					return
				}
				for _, c := range []struct {
					n, m, batch int64
					want        int
				}{
					{compactMinBins - 1, compactMinBins - 1, 0, 4},
					{big, big, 1000, 4},
					{big, 1000 * big, 0, 5},
				} {
					if got := d.LoadBytes(p, c.n, c.m, c.batch); got != c.want {
						t.Errorf("LoadBytes(n=%d, m=%d, batch=%d) = %d, want %d", c.n, c.m, c.batch, got, c.want)
					}
				}
			})
		}
	}
}

// TestLoadBytesPacked: a descriptor says its loop runs on packed loads
// (packed) exactly when its Place packs them, on the implicit regular
// graph, with every sampler and with graphical (1+β); and LoadBytes then
// counts 1 byte a bin at m = n from 2^33 bins, and 2 above packedBound·n
// (unpacking holds both forms), where a process on byte loads counts 1.
func TestLoadBytesPacked(t *testing.T) {
	saved, savedCompact := nibbleMin, compactMin
	defer func() { nibbleMin, compactMin = saved, savedCompact }()
	nibbleMin, compactMin = 0, 0
	const n = 64
	g, err := graphgen.NewPermutationRegular(n, 4, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	walk, err := ParseSampling("walk:len=3")
	if err != nil {
		t.Fatal(err)
	}
	packedSeen := 0
	for _, d := range Descriptors() {
		if d.Uses&ParamGraph == 0 || d.Family == FamilyHyper {
			continue
		}
		p := Params{D: 2, Beta: 0.5, Threshold: 1, K: 1, Memory: 1, Delta: 0.5, Graph: g}
		for _, p := range paramVariants(d, p, SampleVertex, walk) {
			ru, err := d.New(p)
			if err != nil {
				t.Fatalf("%s: parameters refused: %v", d.Label(p), err)
			}
			pr, ok := ru.(Process)
			if !ok {
				continue
			}
			b := NewBins(n)
			pr.Place(b, n, NewRand(1))
			says := d.packed != nil && d.packed(p)
			if packed := b.nib != nil; packed != says {
				t.Errorf("%s (%v): Place packs the loads %v, the descriptor says %v", d.Label(p), p.Sample, packed, says)
			}
			if !says || d.BinBytes != 1 {
				continue
			}
			packedSeen++
			const big = nibbleMinBins
			for _, c := range []struct {
				n, m int64
				want int
			}{{big, big, 1}, {big, packedBound * big, 1}, {big, 10 * big, 2}, {big - 1, 10 * big, 1}} {
				if got := d.LoadBytes(p, c.n, c.m, 0); got != c.want {
					t.Errorf("%s: LoadBytes(n=%d, m=%d) = %d, want %d", d.Label(p), c.n, c.m, got, c.want)
				}
			}
		}
	}
	if packedSeen == 0 {
		t.Fatal("no process packs its loads: the test tests nothing")
	}
}

// paramVariants returns p, then p with graphical (1+β) for a graph process
// that takes β, then p with each of the samplers for a process that takes
// one: the parameters whose loops differ in their load widths.
func paramVariants(d *Descriptor, p Params, samplers ...Sampling) []Params {
	variants := []Params{p}
	if d.Uses&ParamBeta != 0 && d.Uses&ParamGraph != 0 {
		q := p
		q.GraphBeta = true
		variants = append(variants, q)
	}
	if d.Uses&ParamSample != 0 {
		for _, s := range samplers {
			q := p
			q.Sample = s
			variants = append(variants, q)
		}
	}
	return variants
}
