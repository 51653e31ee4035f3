package graphgen

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Memory tolerances of TestPlanMatchesBuild. Plan counts the arrays that
// grow with n, |E| or Δ; measured on the kinds below they come within 5%
// of the heap allocated (13% for the complement of a small regular graph,
// whose short rows have more slack), plus a few KiB of fixed allocations
// (BuildInfo, closures, slice headers) that Plan leaves out.
const (
	planMemFactor = 1.25
	planMemSlack  = 16 << 10
)

// TestPlanMatchesBuild compares what Plan says a spec will make with what
// Build makes: order, degree range, edges, regularity, notes, parameters
// and memory.
func TestPlanMatchesBuild(t *testing.T) {
	cases := []struct {
		spec string
		n    int
	}{
		{"complete", 1},
		{"complete", 2},
		{"complete", 1000},
		{"cycle", 1},
		{"cycle", 2},
		{"cycle", 3},
		{"cycle", 1 << 12},
		{"torus", 1000}, // side ⌈√1000⌉ = 32: 1024 vertices, and a note
		{"torus:dim=3", 1 << 12},
		{"torus:dim=3,side=2", 0},
		{"torus:dim=1,side=1", 0},
		{"hypercube", 1 << 10},
		{"hypercube:dim=0", 5},
		{"regular:degree=0", 0},
		{"regular:degree=3", 1 << 12},
		{"regular:degree=32", 1 << 12}, // the repair path
		{"regular:degree=150", 300},    // Δ > n/2: the complement
		{"regular:eps=0.5", 101},       // ⌈√101⌉ = 11, moved to 12: a note
		{"regular:eps=0.5", 1 << 12},
		{"regular:eps=1", 1},
		{"gnp:p=0", 50},
		{"gnp:p=1", 50},
		{"gnp:p=0.5", 1},
		{"gnp:degree=8", 1 << 12},
		{"gnp:p=0.3", 200},
		{"circulant:degree=7", 1000},
		{"circulant:degree=16,n=1000000000", 0},
		{"circulant:degree=400", 1000}, // selection sampling of the pairs
		{"nonregular:mindeg=8,core=64", 1 << 12},
		{"nonregular:mindeg=3,core=20", 200},
		{"ba:m=1", 2}, // K_2
		{"ba:m=3", 4}, // K_4: regular
		{"ba:m=3", 5}, // Δ = m+1
		{"ba:m=4", 1 << 12},
		{"ba:m=50,n=300", 0},
		{"file:../testdata/graphs/path10.txt", 0},
		{"file:../testdata/graphs/path10.txt.gz", 0},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/n=%d", tc.spec, tc.n), func(t *testing.T) {
			s, err := ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.Plan(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			g, info, total := buildMeasured(t, s, tc.n)
			checkPlan(t, s, p, g, info)
			checkPlanBytes(t, p, total, heldBytes(g))
		})
	}
}

// TestPlanFileBytes checks the estimate for a file of a realistic size:
// an edge list of a random 8-regular graph on 2^13 vertices, about 11
// bytes a line, without the graphalloc header, so that the reader
// relabels the ids as it must for most files found elsewhere: the costlier
// way to read (with the header, or as Matrix Market, it takes about half:
// the declared edge count sizes the edge array and there is no id table).
func TestPlanFileBytes(t *testing.T) {
	h, _, err := RandomRegular(1<<13, 8, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteEdgeList(&b, h); err != nil {
		t.Fatal(err)
	}
	text := b.Bytes()[bytes.IndexByte(b.Bytes(), '\n')+1:] // drop the header
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	s := Spec{Kind: "file", Path: path}
	p, err := s.Plan(0)
	if err != nil {
		t.Fatal(err)
	}
	g, info, total := buildMeasured(t, s, 0)
	checkPlan(t, s, p, g, info)
	// 5 bytes a byte of text, about 55 a line of this file: BuildBytes
	// lies within 1.5× of what the reader allocates. Bytes assumes 4
	// bytes a line, the shortest, and so bounds the CSR.
	if r := float64(total) / float64(p.BuildBytes); r < 1/1.5 || r > 1.5 {
		t.Errorf("BuildBytes %d, Build allocated %d (ratio %.3f)", p.BuildBytes, total, r)
	}
	if held := heldBytes(g); held > p.Bytes {
		t.Errorf("Bytes %d, the graph holds %d", p.Bytes, held)
	}
}

// buildMeasured builds s on n vertices and returns the graph and what
// Build allocated in all (the runtime's TotalAlloc).
func buildMeasured(t *testing.T, s Spec, n int) (Graph, *BuildInfo, int64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g, info, err := s.Build(n, rand.NewPCG(1, 2))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return g, info, int64(after.TotalAlloc - before.TotalAlloc)
}

// heldBytes is the memory of the arrays g holds (for gnp the edge array
// may hold more than its capacity shows: Gnp trims the room it reserved).
func heldBytes(g Graph) int64 {
	switch g := g.(type) {
	case *CSR:
		return 8*int64(cap(g.off)) + 4*int64(cap(g.adj)) + 4*int64(cap(g.edges))
	case Circulant:
		return 4 * int64(cap(g.s))
	}
	return 0
}

// checkPlan compares p with the graph g that Build made, and its info.
func checkPlan(t *testing.T, s Spec, p Plan, g Graph, info *BuildInfo) {
	t.Helper()
	n := g.Order()
	lo, hi := math.MaxInt, 0
	if n == 0 {
		lo = 0
	}
	for v := range n {
		lo, hi = min(lo, g.Degree(v)), max(hi, g.Degree(v))
		if _, isCSR := g.(*CSR); !isCSR {
			break // implicit graphs are regular
		}
	}
	if s.Kind == "file" {
		if p.N != -1 || p.MinDegree != -1 || p.MaxDegree != -1 || p.Edges != -1 || p.Regular {
			t.Errorf("a file's plan claims to know its graph: %+v", p)
		}
		return
	}
	if p.N != n {
		t.Errorf("N = %d, graph has %d vertices", p.N, n)
	}
	if p.MinDegree >= 0 && p.MinDegree != lo || p.MaxDegree >= 0 && p.MaxDegree != hi {
		t.Errorf("degrees [%d, %d], graph has [%d, %d]", p.MinDegree, p.MaxDegree, lo, hi)
	}
	if p.Regular != (lo == hi && p.MaxDegree >= 0) {
		t.Errorf("Regular = %v, graph degrees [%d, %d]", p.Regular, lo, hi)
	}
	if p.Edges >= 0 && p.Edges != g.Size() {
		t.Errorf("Edges = %d, graph has %d", p.Edges, g.Size())
	}
	if n > 0 && math.Abs(p.MeanDegree-2*p.ExpectedEdges/float64(n)) > 1e-12*p.MeanDegree {
		t.Errorf("MeanDegree %g, ExpectedEdges %g", p.MeanDegree, p.ExpectedEdges)
	}
	switch s.Kind {
	case "gnp":
		// Binomial(n(n−1)/2, p): within 6 standard deviations.
		if sd := math.Sqrt(p.ExpectedEdges * (1 - p.P)); math.Abs(float64(g.Size())-p.ExpectedEdges) > 6*sd {
			t.Errorf("%d edges, expected %g ± %g", g.Size(), p.ExpectedEdges, sd)
		}
	case "nonregular":
		// mindeg >= 3 in the table: the remainder is connected and the
		// count exact (with these seeds).
		if float64(g.Size()) != p.ExpectedEdges || p.CoreEdges != info.Nonregular.CoreEdges || p.Core != info.Nonregular.Core {
			t.Errorf("%d edges (core %d of %d), plan %g (core %d of %d)", g.Size(), info.Nonregular.CoreEdges, info.Nonregular.Core, p.ExpectedEdges, p.CoreEdges, p.Core)
		}
	}
	// Build adds notes on the graph it drew (gnp's isolated vertices) after
	// the plan's.
	if len(info.Notes) < len(p.Notes) || !slices.Equal(p.Notes, info.Notes[:len(p.Notes)]) || p.Dim != info.Dim || p.Side != info.Side || p.P != info.P {
		t.Errorf("notes %q dim %d side %d p %g; Build says %q %d %d %g", p.Notes, p.Dim, p.Side, p.P, info.Notes, info.Dim, info.Side, info.P)
	}
	if _, isCSR := g.(*CSR); isCSR == p.Implicit {
		t.Errorf("Implicit = %v for a %T", p.Implicit, g)
	}
}

// checkPlanBytes compares Plan's memory with what Build allocated in all
// (total) and what the graph holds.
func checkPlanBytes(t *testing.T, p Plan, total, held int64) {
	t.Helper()
	within := func(plan, got int64) bool {
		return float64(got) <= planMemFactor*float64(plan)+planMemSlack &&
			float64(plan) <= planMemFactor*float64(got)+planMemSlack
	}
	if !within(p.BuildBytes, total) {
		t.Errorf("BuildBytes %d, Build allocated %d", p.BuildBytes, total)
	}
	if !within(p.Bytes, held) {
		t.Errorf("Bytes %d, the graph holds %d", p.Bytes, held)
	}
	if p.Bytes > p.BuildBytes {
		t.Errorf("Bytes %d > BuildBytes %d", p.Bytes, p.BuildBytes)
	}
}

// TestPlanErrors: Plan rejects what Build rejects, with Build's error,
// naming the key and what is allowed.
func TestPlanErrors(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		want string
	}{
		{"regular:degree=70000", 65536, "graphgen: regular:degree=70000 needs degree < n = 65536"},
		{"regular:degree=3", 9, "graphgen: regular:degree=3 needs n*degree even, got n=9"},
		{"regular:degree=1", 0, "needs degree < n = 0"},
		{"regular:eps=0.5", 0, "graphgen: regular:eps=0.5 needs n >= 1, got n=0"},
		{"regular:eps=0", 10, "0 < eps <= 1"},
		{"regular:eps=1.5", 10, "0 < eps <= 1"},
		{"regular:degree=2,eps=0.5", 10, "not both"},
		{"regular", 10, "degree=D or eps=E"},
		{"regular:degree=-1", 10, "integer in [0, 4294967295]"},
		{"regular:degree=2147483648", MaxOrder, "edge ends"},
		{"cycle:n=-1", 10, "integer"},
		{"cycle", MaxOrder + 1, "0 <= n <= 4294967295"},
		{"gnp:p=2", 10, "0 <= p <= 1"},
		{"gnp:p=NaN", 10, "0 <= p <= 1"},
		{"gnp:degree=10", 10, "degree <= n-1"},
		{"gnp:p=0.5", 1 << 20, "graphgen: gnp:p=0.5 on n=1048576 expects 2.75e+11 edges, more than 4294967296"},
		{"circulant:degree=100", 100, "graphgen: circulant:degree=100 needs degree < n = 100"},
		{"circulant:degree=3", 11, "graphgen: circulant:degree=3 needs n even for an odd degree (the element n/2), got n=11"},
		{"circulant:degree=0", 0, "1 <= n"},
		{"nonregular:mindeg=0,core=5", 100, "graphgen: nonregular:mindeg=0 needs mindeg >= 1"},
		{"nonregular:mindeg=3,core=3", 100, "graphgen: nonregular:core=3 needs core >= mindeg+1 = 4"},
		{"nonregular:mindeg=3,core=10", 12, "needs n-core >= mindeg+1 vertices outside the core, got n=12"},
		{"nonregular:mindeg=3,core=9", 100, "(n-core)*mindeg even for the regular remainder, got n-core=91"},
		{"ba", 100, "graphgen: ba needs m=K"},
		{"ba:m=0", 100, "graphgen: ba:m=0 needs m >= 1"},
		{"ba:m=100", 100, "graphgen: ba:m=100 needs m < n = 100 (the seed is the clique on m+1 vertices)"},
		{"ba:m=1", 0, "needs m < n = 0"},
		{"ba:m=x", 100, "graphgen: ba:m needs an integer"},
		{"ba:m=2147483648", MaxOrder, "edge ends"},
		{"torus:dim=0", 100, "1 <= dim <= 64"},
		{"torus:dim=9", 100, "set side= explicitly or use a smaller dim"},
		{"torus:side=3,n=10", 0, "has 9 vertices, but the spec sets n=10"},
		{"torus:dim=2,side=100000", 0, "side^dim > 4294967295 vertices"},
		{"hypercube", 100, "power of two"},
		{"hypercube:dim=40", 0, "0 <= dim <= 31, got dim=40"},
		{"file:no/such/file.txt", 0, "no such file"},
	}
	for _, tc := range cases {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Plan(tc.n)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Plan(%d) error %v, want one containing %q", tc.n, err, tc.want)
			}
			if s.Kind == "file" || tc.n > 1<<16 {
				return // Build reads the file itself; do not build the big ones
			}
			if _, _, berr := s.Build(tc.n, rand.NewPCG(1, 2)); berr == nil || berr.Error() != err.Error() {
				t.Errorf("Build error %v, Plan error %v", berr, err)
			}
		})
	}
}

// TestPlanSmall: on every n up to 12, Plan succeeds exactly when Build
// does, and then gives its order and edge count.
func TestPlanSmall(t *testing.T) {
	specs := []string{"complete", "cycle", "torus", "torus:dim=3", "torus:side=2", "hypercube", "hypercube:dim=2",
		"regular:degree=3", "regular:degree=0", "regular:eps=0.5", "regular:eps=1", "gnp:p=0.5", "gnp:degree=3",
		"circulant:degree=3", "circulant:degree=4", "nonregular:mindeg=2,core=3", "nonregular:mindeg=1,core=4",
		"ba:m=1", "ba:m=3"}
	for _, spec := range specs {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		for n := range 13 {
			p, perr := s.Plan(n)
			g, _, berr := s.Build(n, rand.NewPCG(uint64(n), 1))
			switch {
			case (perr == nil) != (berr == nil):
				t.Errorf("%s n=%d: Plan error %v, Build error %v", spec, n, perr, berr)
			case perr != nil:
			case p.N != g.Order() || p.Edges >= 0 && p.Edges != g.Size() || float64(g.Size()) < p.ExpectedEdges && s.Kind == "nonregular":
				t.Errorf("%s n=%d: plan %d vertices, %d edges (expected %g); built %d, %d", spec, n, p.N, p.Edges, p.ExpectedEdges, g.Order(), g.Size())
			}
		}
	}
}

// normalisedEigenvalues returns the eigenvalues of D^{−1/2}AD^{−1/2} of a
// small graph without isolated vertices, ascending, from a dense symmetric
// eigendecomposition (gonum/mat): an oracle independent of the closed forms.
func normalisedEigenvalues(t *testing.T, g Graph) []float64 {
	t.Helper()
	n := g.Order()
	a := mat.NewSymDense(n, nil)
	for v := range n {
		g.Visit(v, func(w int, _ int64) bool {
			a.SetSym(v, w, 1/math.Sqrt(float64(g.Degree(v))*float64(g.Degree(w))))
			return false
		})
	}
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		t.Fatal("eigendecomposition failed")
	}
	return es.Values(nil)
}

// TestPlanSpectrum compares the closed-form spectra with a dense solve:
// every eigenvalue with its multiplicity, μ₂, μ_n and the gap, to 1e-12
// (the dense solver's error on matrices this small is near 1e-15).
func TestPlanSpectrum(t *testing.T) {
	const tol = 1e-12
	cases := []struct {
		spec string
		n    int
	}{
		{"complete", 2},
		{"complete", 7},
		{"cycle", 2},
		{"cycle", 3},
		{"cycle", 9},
		{"cycle", 10},
		{"torus:dim=1,side=6", 0},
		{"torus:dim=2,side=3", 0},
		{"torus:dim=2,side=4", 0},
		{"torus:dim=2,side=5", 0},
		{"torus:dim=3,side=3", 0},
		{"torus:dim=3,side=2", 0}, // Q_3
		{"hypercube", 16},
		{"hypercube:dim=1", 0},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/n=%d", tc.spec, tc.n), func(t *testing.T) {
			s, err := ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.Plan(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := s.Build(tc.n, nil)
			if err != nil {
				t.Fatal(err)
			}
			sp := p.Spectrum
			if sp == nil {
				t.Fatal("no spectrum")
			}
			want := normalisedEigenvalues(t, g)
			got := make([]float64, p.N)
			for j := range got {
				got[j] = sp.Eigenvalue(j)
			}
			slices.Sort(got)
			for i := range want {
				if math.Abs(got[i]-want[i]) > tol {
					t.Fatalf("eigenvalues %v, dense solve %v", got, want)
				}
			}
			n := len(want)
			if math.Abs(sp.Second-want[n-2]) > tol || math.Abs(sp.Gap-(1-want[n-2])) > tol || math.Abs(sp.Smallest-want[0]) > tol {
				t.Errorf("μ₂ %g gap %g μ_n %g; dense solve μ₂ %g μ_n %g", sp.Second, sp.Gap, sp.Smallest, want[n-2], want[0])
			}
		})
	}
	// No closed form before building: random kinds, files, and graphs
	// with an isolated vertex.
	for _, spec := range []string{"regular:degree=4", "gnp:p=0.5", "circulant:degree=4", "nonregular:mindeg=2,core=5", "ba:m=2",
		"complete:n=1", "cycle:n=1", "torus:dim=2,side=1", "hypercube:dim=0", "file:../testdata/graphs/path10.txt"} {
		s, _ := ParseSpec(spec)
		if p, err := s.Plan(20); err != nil || p.Spectrum != nil {
			t.Errorf("%s: spectrum %+v, error %v; want none", spec, p.Spectrum, err)
		}
	}
}

// TestCirculantSpectrumDense: a circulant's closed form, which Plan
// cannot give before S is drawn, Eigenvalue(j)/Δ over all j, is its
// spectrum.
func TestCirculantSpectrumDense(t *testing.T) {
	for _, tc := range []struct{ n, Delta int }{{30, 6}, {20, 5}, {17, 16}} {
		g, err := RandomCirculant(tc.n, tc.Delta, rand.NewPCG(uint64(tc.n), 7))
		if err != nil {
			t.Fatal(err)
		}
		want := normalisedEigenvalues(t, g)
		got := make([]float64, tc.n)
		for j := range got {
			got[j] = g.Eigenvalue(j) / float64(tc.Delta)
		}
		slices.Sort(got)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("n=%d Δ=%d: eigenvalues %v, dense solve %v", tc.n, tc.Delta, got, want)
			}
		}
	}
}

// TestSpectrumLarge: the gap of a large torus or cycle, 2·sin²(π/s)/k,
// keeps its relative accuracy where 1 − cos(2π/s) would not.
func TestSpectrumLarge(t *testing.T) {
	s, _ := ParseSpec("cycle")
	p, err := s.Plan(MaxOrder)
	if err != nil {
		t.Fatal(err)
	}
	// 1 − cos x = x²/2 − x⁴/24 + …, x = 2π/n: the first term to 1e-19.
	x := 2 * math.Pi / float64(MaxOrder)
	if want := x * x / 2; math.Abs(p.Spectrum.Gap-want) > 1e-14*want {
		t.Errorf("gap of C_n, n = 2^32 − 1: %g, want %g", p.Spectrum.Gap, want)
	}
	if p.Bytes != csrBytes(MaxOrder, MaxOrder)-8*MaxOrder { // regular: no edge array
		t.Errorf("Bytes %d", p.Bytes)
	}
}

// TestPlanLargest: the largest graphs are planned without overflow.
func TestPlanLargest(t *testing.T) {
	s, _ := ParseSpec("complete")
	p, err := s.Plan(MaxOrder)
	// n(n−1)/2 for n = 2^32 − 1 is 2^63 − 3·2^31 + 1.
	if want := int64(math.MaxInt64 - 3<<31 + 2); err != nil || p.Edges != want {
		t.Errorf("K_n, n = 2^32 − 1: %d edges (%v), want %d", p.Edges, err, want)
	}
}

// TestGzipText: the text of a gzip file of at most 1 MiB is measured
// exactly; a larger one's is estimated from its first MiB, with half
// again, so it lies between the text and 1.5 times it (and at most 10
// times the file) for a file that compresses alike throughout.
func TestGzipText(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, lines := range []int{5000, 600_000} {
		var text bytes.Buffer
		for range lines {
			fmt.Fprintf(&text, "%d %d\n", r.IntN(1e6), r.IntN(1e6))
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(text.Bytes())
		zw.Close()
		size, want := int64(z.Len()), int64(text.Len())
		got := gzipText(bytes.NewReader(z.Bytes()), size, io.Discard)
		small := size <= gzipPrefix
		if small && got != want || !small && (got < want || got > want*3/2 || got > 10*size) {
			t.Errorf("%d bytes of text in %d of gzip: estimated %d", want, size, got)
		}
	}
}
