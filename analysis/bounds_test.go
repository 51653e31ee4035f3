package analysis

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// Hand-computed constants (6+ significant digits):
//
//	n = 65536 = 2^16: ln n = 16 ln 2 = 11.090355, ln ln n = 2.406076,
//	                  log₂ n = 16, log₂ log₂ n = 4, log⁴ n = 16^4 = 65536
//	n = 2^20:         log₂ n = 20, log₂ log₂ n = log₂ 20 = 4.321928,
//	                  log⁴ n = 20^4 = 160000
//	ln 2 = 0.693147, ln 3 = 1.098612
//	φ_2 = 1.618034 (ln 0.481212), φ_3 = 1.839287 (ln 0.609378)

// worstRegular is the name of the [KP06] reference.
const worstRegular = "max load, " + WorstRegularLabel + ", m = n [KP06]"

func findBound(t *testing.T, bs []Bound, process, name string) Bound {
	t.Helper()
	for _, b := range bs {
		if b.Process == process && b.Name == name {
			return b
		}
	}
	var names []string
	for _, b := range bs {
		names = append(names, b.Process+": "+b.Name)
	}
	t.Fatalf("no bound %q for %s among %q", name, process, names)
	return Bound{}
}

type wantBound struct {
	process, name string
	value         float64 // checked to 1e-5 absolute
	kind, base    string
	applies       bool
	reason        string // a substring of Reason
}

// checkBounds checks the bounds of q against wants. A case that leaves M
// out is at m = n: the test fills it in, Query has no default (m = 0 fails
// Validate).
func checkBounds(t *testing.T, q Query, wants []wantBound) {
	t.Helper()
	if q.M == 0 {
		q.M = q.N
	}
	bs := Bounds(q)
	for _, w := range wants {
		b := findBound(t, bs, w.process, w.name)
		if math.Abs(b.Value-w.value) > 1e-5 {
			t.Errorf("%s %q: value %.7g, want %.7g", w.process, w.name, b.Value, w.value)
		}
		if b.Applies != w.applies {
			t.Errorf("%s %q: applies %v, want %v (reason %q)", w.process, w.name, b.Applies, w.applies, b.Reason)
		}
		if w.kind != "" && b.Kind != w.kind {
			t.Errorf("%s %q: kind %q, want %q", w.process, w.name, b.Kind, w.kind)
		}
		if w.base != "" && b.Base != w.base {
			t.Errorf("%s %q: base %q, want %q", w.process, w.name, b.Base, w.base)
		}
		if !strings.Contains(b.Reason, w.reason) {
			t.Errorf("%s %q: reason %q, want it to mention %q", w.process, w.name, b.Reason, w.reason)
		}
	}
}

func TestBoundsGreedyLeftOneChoice(t *testing.T) {
	const n = 65536
	// ln ln n / ln 2 = 2.406076 / 0.693147 = 3.471234
	checkBounds(t, Query{N: n, Process: "greedy"}, []wantBound{
		{"greedy", "max load, m = n [ABKU99]", 3.471234, KindLeading, "ln", true, "w.h.p."},
		{"greedy", "max load, any m [BCSV06]", 1 + 3.471234, KindLeading, "ln", true, "every m"},
		{"greedy", "gap, any m [BCSV06]", 3.471234, KindLeading, "ln", true, "every m"},
	})
	// d = 3: 2.406076 / 1.098612 = 2.190105; m = 16n: m ≠ n, and the
	// heavily loaded bound is 16 + 2.190105.
	checkBounds(t, Query{N: n, M: 16 * n, Process: "greedy", Params: alloc.Params{D: 3}}, []wantBound{
		{"greedy", "max load, m = n [ABKU99]", 2.190105, KindLeading, "ln", false, "stated for m = n"},
		{"greedy", "max load, any m [BCSV06]", 18.190105, KindLeading, "ln", true, ""},
		{"greedy", "gap, any m [BCSV06]", 2.190105, KindLeading, "ln", true, ""},
	})
	checkBounds(t, Query{N: n, Process: "greedy", Params: alloc.Params{D: 1}}, []wantBound{
		{"greedy", "gap, any m [BCSV06]", 0, "", "", false, "one-choice"},
	})
	// Left: d = 2: 2.406076 / (2 · 0.481212) = 2.500017;
	// d = 3: 2.406076 / (3 · 0.609378) = 2.406076 / 1.828134 = 1.316138.
	checkBounds(t, Query{N: n, Process: "left"}, []wantBound{
		{"left", "max load, m = n [V03]", 2.500017, KindLeading, "ln", true, "leftmost"},
	})
	checkBounds(t, Query{N: n, Process: "left", Params: alloc.Params{D: 3}}, []wantBound{
		{"left", "max load, m = n [V03]", 1.316138, KindLeading, "ln", true, "φ_3 = 1.8393"},
		{"left", "max load, any m [BCSV06]", 2.316138, KindLeading, "ln", true, ""},
		{"left", "gap, any m [BCSV06]", 1.316138, KindLeading, "ln", true, ""},
	})
	checkBounds(t, Query{N: n, Process: "left", Params: alloc.Params{D: 2.5}}, []wantBound{
		{"left", "gap, any m [BCSV06]", 0, "", "", false, "integer d"},
	})
	// One-choice, m = n: ln n / ln ln n = 11.090355 / 2.406076 = 4.609312;
	// heavy needs m ≥ n ln n = 11.09 n.
	checkBounds(t, Query{N: n, Process: "one-choice"}, []wantBound{
		{"one-choice", "max load, m = n [RS98]", 4.609312, KindAsymptotic, "ln", true, ""},
		{"one-choice", "max load, heavily loaded [RS98]", 1 + math.Sqrt(2*11.090355), KindAsymptotic, "ln", false, "m ≫ n ln n"},
	})
	// m = 16n: sqrt(2 · 16 · 11.090355) = sqrt(354.891) = 18.838560.
	checkBounds(t, Query{N: n, M: 16 * n, Process: "one-choice"}, []wantBound{
		{"one-choice", "max load, m = n [RS98]", 4.609312, KindAsymptotic, "ln", false, "m/n = 16"},
		{"one-choice", "max load, heavily loaded [RS98]", 34.838560, KindAsymptotic, "ln", true, ""},
		{"one-choice", "gap, heavily loaded [RS98]", 18.838560, KindAsymptotic, "ln", true, ""},
	})
}

func TestBoundsRankBetaGroupedWindowWeighted(t *testing.T) {
	const n = 65536
	checkBounds(t, Query{N: n, Process: "rank", Params: alloc.Params{D: 3}}, []wantBound{
		{"rank", "max load, m = n [ABKU99]", 2.190105, KindLeading, "ln", true, "Rank[d] is Greedy[d]"},
	})
	// d = 2.5: ln ln n / ln 2.5 = 2.406076 / 0.916291 = 2.625887, for
	// reference only.
	checkBounds(t, Query{N: n, Process: "rank", Params: alloc.Params{D: 2.5}}, []wantBound{
		{"rank", "max load, m = n [ABKU99]", 2.625887, KindLeading, "ln", false, "integer d only"},
	})
	// (1+β): log₂ n / β = 16 / 0.5 = 32.
	// A heavily loaded statement: from m/n >= ln n / β² = 11.090355 / 0.25
	// = 44.36142.
	checkBounds(t, Query{N: n, M: 1000 * n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.5}}, []wantBound{
		{"one-plus-beta", "gap, heavily loaded [PTW15]", 32, KindOrder, "log2", true, "ln n / β² = 44.36"},
	})
	checkBounds(t, Query{N: n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.5}}, []wantBound{
		{"one-plus-beta", "gap, heavily loaded [PTW15]", 32, KindOrder, "log2", false, "from m/n >= 44.36; here m/n = 1"},
	})
	checkBounds(t, Query{N: n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0}}, []wantBound{
		{"one-plus-beta", "gap, heavily loaded [PTW15]", 0, KindOrder, "log2", false, "one-choice"},
	})
	checkBounds(t, Query{N: n, M: 1000 * n, Process: "one-plus-beta", Params: alloc.Params{Beta: 1}}, []wantBound{
		{"one-plus-beta", "gap, heavily loaded [PTW15]", 16, KindOrder, "log2", false, "greedy with d = 2"},
	})
	// Grouped d = 8: log₂ log₂ n / d = 4 / 8 = 0.5; window: 4 / log₂ 8 = 4/3.
	checkBounds(t, Query{N: n, Process: "grouped", Params: alloc.Params{D: 8}}, []wantBound{
		{"grouped", "max load, m = n [KP06]", 0.5, KindOrder, "log2", true, "aligned groups"},
	})
	checkBounds(t, Query{N: n, Process: "window", Params: alloc.Params{D: 8}}, []wantBound{
		{"window", "max load, m = n [KP06]", 4.0 / 3, KindOrder, "log2", true, "lower bound"},
	})
	checkBounds(t, Query{N: n, Process: "grouped", Params: alloc.Params{D: 3}}, []wantBound{
		{"grouped", "max load, m = n [KP06]", 4.0 / 3, KindOrder, "log2", false, "even d"},
	})
	checkBounds(t, Query{N: n, M: 2 * n, Process: "window", Params: alloc.Params{D: 8}}, []wantBound{
		{"window", "max load, m = n [KP06]", 4.0 / 3, KindOrder, "log2", false, "stated for m = n"},
	})
	// Weighted: a Pareto law with shape A has a finite second moment iff A > 2.
	for _, tc := range []struct {
		weights string
		d       float64
		applies bool
		reason  string
	}{
		{"exp", 0, true, "exp weights"},
		{"uniform:a=1,b=3", 2, true, "uniform"},
		{"pareto:shape=3", 2, true, "shape 3"},
		{"pareto:shape=1.5", 2, false, "finite second moment"},
		{"exp", 3, false, "two choices"},
	} {
		checkBounds(t, Query{N: n, Process: "weighted", Params: alloc.Params{D: tc.d, Weights: mustWeights(tc.weights)}}, []wantBound{
			{"weighted", "gap independent of m [TW07]", 0, KindUpper, "", tc.applies, tc.reason},
		})
	}
}

// TestBoundsHyper: [God08]'s O(1) applies with hyperedges of at least
// ln n vertices on a balanced hypergraph (max degree at most
// MaxHyperBalance times the mean); the greedy reference on s-uniform
// hypergraphs, ln ln n / ln s.
func TestBoundsHyper(t *testing.T) {
	const n = 1 << 16 // ln n = 11.09
	god := "max load, hyperedges of Ω(log n) vertices, balanced, m = n [God08]"
	ref := "max load, every s-subset a hyperedge (greedy, d = s), m = n [ABKU99]"
	for _, tc := range []struct {
		name           string
		q              Query
		godOK, refOK   bool
		godWhy, refWhy string
		refValue       float64
	}{
		{"rank 16, balanced", Query{MinRank: 16, Balance: 2.25, Params: alloc.Params{D: 16}}, true, true, "balanced", "complete 16-uniform", math.Log(math.Log(n)) / math.Log(16)},
		{"rank 4", Query{MinRank: 4, Balance: 1, Params: alloc.Params{D: 4}}, false, true, "at least ln n = 11.09; the smallest has 4", "greedy with d = 4", math.Log(math.Log(n)) / math.Log(4)},
		{"unbalanced", Query{MinRank: 16, Balance: 5, Params: alloc.Params{D: 16}}, false, true, "here 5 ×", "", math.Log(math.Log(n)) / math.Log(16)},
		{"mixed sizes", Query{MinRank: 12, Balance: 1.5, Params: alloc.Params{D: 14.5}}, true, false, "balanced", "this one is not", 0},
		{"unknown", Query{}, false, false, "needs the least hyperedge size", "this one is not", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			q.N, q.Process = n, "hyper"
			checkBounds(t, q, []wantBound{
				{"hyper", god, 1, KindOrder, "", tc.godOK, tc.godWhy},
				{"hyper", ref, tc.refValue, KindReference, "ln", tc.refOK, tc.refWhy},
			})
		})
	}
	if bs := Bounds(Query{N: n, M: 8 * n, MinRank: 16, Balance: 1, Process: "hyper", Params: alloc.Params{D: 16}}); bs[0].Applies {
		t.Errorf("m = 8n: %+v applies outside m = n", bs[0])
	}
}

func TestBoundsGraph(t *testing.T) {
	const n = 65536
	// Random 16-regular graph, n = 2^16, m = n. ε = ln 16 / ln 2^16 = 1/4:
	// log₂ log₂ n + 1/ε = 4 + 4 = 8. Δ = 16 ≤ log⁴ n = 65536: the upper
	// bound is not meaningful. Lower: 4 + 16 / log₂(16 · 16) = 4 + 16/8 = 6.
	// Spread: log₂ n + Δ/k = 16 + 1 (k = Δ w.h.p.), but m < n ln n.
	checkBounds(t, Query{N: n, Process: "graph", Topology: "regular:degree=16", Degree: 16}, []wantBound{
		{"graph", "max load, degree n^ε, m = n [KP06]", 8, KindUpper, "log2", true, "ε = 0.25"},
		{"graph", "max load, Δ-regular, m = n [KP06]", 0, KindUpper, "log2", false, "Δ > log⁴ n = 6.554e+04"},
		{"graph", worstRegular, 6, KindReference, "log2", true, "worst case over Δ-regular graphs (some graph attains it)"},
		{"graph", "max load, dense core of a non-regular graph [KP06]", 0, KindLower, "", false, "regular"},
		{"graph", "gap, edge expansion σ, any m [PTW15]", 0, KindOrder, "log2", false, "needs the edge expansion"},
		{"graph", "max − min, any allocation strategy [BF22]", 17, KindOrder, "log2", false, "from m/n >= 11.09"},
		{"graph", "max load, complete graph, m = n [ABKU99]", 3.471234, KindLeading, "ln", false, "topology is regular"},
	})
	// With σ = 1/4 and m = 16n ≥ n ln n: gap 16 / 0.25 = 64; spread 17.
	checkBounds(t, Query{N: n, M: 16 * n, Process: "graph", Topology: "regular", Degree: 16, Expansion: 0.25}, []wantBound{
		{"graph", "gap, edge expansion σ, any m [PTW15]", 64, KindOrder, "log2", true, "σ = 0.25"},
		{"graph", "max − min, any allocation strategy [BF22]", 17, KindOrder, "log2", true, "Δ/k = 1"},
		{"graph", "max load, degree n^ε, m = n [KP06]", 8, KindUpper, "log2", false, "stated for m = n"},
	})
	// Dense 2^19-regular graph on n = 2^20: log⁴ n = 160000 < Δ = 524288.
	// Upper: 4.321928 + 20 / log₂(524288/160000) = 4.321928 + 20/1.712288
	// = 4.321928 + 11.680281 = 16.002209. Lower: 4.321928 + 20 / log₂(2^19·20)
	// = 4.321928 + 20/23.321928 = 4.321928 + 0.857562 = 5.179490.
	// ε = 19/20: 4.321928 + 1/0.95 = 5.374560.
	checkBounds(t, Query{N: 1 << 20, Process: "graph", Topology: "regular", Degree: 1 << 19}, []wantBound{
		{"graph", "max load, Δ-regular, m = n [KP06]", 16.002209, KindUpper, "log2", true, "Δ = 524288"},
		{"graph", worstRegular, 5.179490, KindReference, "log2", true, "worst case"},
		{"graph", "max load, degree n^ε, m = n [KP06]", 5.374560, KindUpper, "log2", true, "ε = 0.95"},
	})
	// Given ε directly (regular:eps=0.5): 4 + 1/0.5 = 6.
	checkBounds(t, Query{N: n, Process: "graph", Topology: "regular", Degree: 256, Eps: 0.5}, []wantBound{
		{"graph", "max load, degree n^ε, m = n [KP06]", 6, KindUpper, "log2", true, "ε = 0.5"},
	})
	// The cycle: Δ = 2 inferred, ε = 1/16 < 1/log log n = 1/4.
	checkBounds(t, Query{N: n, M: 16 * n, Process: "graph", Topology: "cycle"}, []wantBound{
		{"graph", "max load, degree n^ε, m = n [KP06]", 20, KindUpper, "log2", false, "stated for m = n"},
		{"graph", "max − min, any allocation strategy [BF22]", 17, KindOrder, "log2", true, "Δ/k = 1"},
	})
	checkBounds(t, Query{N: n, Process: "graph", Topology: "cycle"}, []wantBound{
		{"graph", "max load, degree n^ε, m = n [KP06]", 20, KindUpper, "log2", false, "ε not too small"},
	})
	// The complete graph (the default topology): Δ = n − 1 inferred, which
	// is just below log⁴ n = n for n = 2^16. Two-choice: ln ln n / ln 2.
	// ε = ln 65535 / ln 65536 = 0.9999986: 4 + 1.0000014.
	checkBounds(t, Query{N: n, Process: "graph"}, []wantBound{
		{"graph", "max load, complete graph, m = n [ABKU99]", 3.471234, KindLeading, "ln", true, "distinct"},
		{"graph", "gap, complete graph, any m [BCSV06]", 3.471234, KindLeading, "ln", true, ""},
		{"graph", "max load, Δ-regular, m = n [KP06]", 0, KindUpper, "log2", false, "Δ = 65535"},
		{"graph", "max load, degree n^ε, m = n [KP06]", 5.000001, KindUpper, "log2", true, ""},
	})
	// Non-regular graph with a dense core of c = 1024 vertices holding half
	// the edges: m f / c = 65536 · 0.5 / 1024 = 32 under edge sampling.
	core := Query{N: n, Process: "graph", Topology: "nonregular:mindeg=16,core=1024", MinDegree: 16, Core: 1024, CoreFraction: 0.5}
	checkBounds(t, core, []wantBound{
		{"graph", "max load, dense core of a non-regular graph [KP06]", 32, KindLower, "", true, "core"},
		{"graph", "max load, degree n^ε, m = n [KP06]", 0, KindUpper, "log2", false, "δ = 16"},
		{"graph", "max load, Δ-regular, m = n [KP06]", 0, KindUpper, "log2", false, "not regular, or its degrees are not known"},
		{"graph", "gap, edge expansion σ, any m [PTW15]", 0, KindOrder, "log2", false, "regular"},
	})
	core.Sample = alloc.SampleVertex
	checkBounds(t, core, []wantBound{
		{"graph", "max load, dense core of a non-regular graph [KP06]", 32, KindLower, "", false, "vertex sampling"},
	})
}

// Every bound, for a grid of queries valid and not: finite Value (JSON
// encodes it), a known Kind and Base, the process asked for, a Reason, and
// no bound that applies to an invalid query.
func TestBoundsWellFormed(t *testing.T) {
	var queries []Query
	for _, n := range []float64{0, 1, 2, 3, 1000, 1 << 20, math.NaN()} {
		for _, m := range []float64{0, 1, n, 50 * n} {
			for _, d := range []float64{0, 1, 2, 2.5, 3, 8} {
				for _, p := range append([]string{"", "nope"}, processNames()...) {
					queries = append(queries, Query{N: n, M: m, Process: p, Params: alloc.Params{D: d, Beta: 0.5}})
				}
			}
		}
	}
	for _, topo := range []string{"", "complete", "cycle", "torus:dim=2", "hypercube", "regular:degree=4", "nonregular", "gnp:p=0.01", "file:x.txt"} {
		for _, deg := range []float64{0, 4} {
			queries = append(queries, Query{N: 1024, M: 1024, Process: "graph", Topology: topo, Degree: deg, Expansion: 0.1})
			queries = append(queries, Query{N: 1024, M: 1024, Process: "local-search", Topology: topo, Degree: deg})
		}
	}
	queries = append(queries, Query{N: 1024, M: 1024, Process: "graph", Expansion: 3}, Query{N: 1024, M: 1024, Process: "one-plus-beta", Params: alloc.Params{Beta: 2}})
	// Batches, and graphical (1+β).
	for _, n := range []float64{3, 1000, 1 << 20} {
		for _, b := range []float64{2, n, 16 * n, 1e12} {
			for _, m := range []float64{1, n, 16 * n} {
				for _, p := range append([]string{""}, processNames()...) {
					queries = append(queries, Query{N: n, M: m, Expansion: 0.2, Process: p, Batch: b, Params: alloc.Params{Beta: 0.5, GraphBeta: true}})
				}
			}
		}
	}
	kinds := []string{KindUpper, KindLower, KindLeading, KindAsymptotic, KindOrder, KindReference}
	for _, q := range queries {
		bs := Bounds(q)
		if bs == nil {
			t.Fatalf("%+v: nil bounds", q)
		}
		js, err := json.Marshal(bs)
		if err != nil {
			t.Errorf("%+v: %v", q, err)
		}
		var back []Bound
		if err := json.Unmarshal(js, &back); err != nil || !slices.Equal(back, bs) {
			t.Errorf("%+v: JSON round trip: %v\n%+v\n%+v", q, err, back, bs)
		}
		invalid := q.Validate() != nil || q.N < 3
		load := q.M / q.N // m/n; M = 0 means m = n
		if q.M == 0 {
			load = 1
		}
		for _, b := range bs {
			if math.IsNaN(b.Value) || math.IsInf(b.Value, 0) || math.IsNaN(b.HeavyFrom) || math.IsInf(b.HeavyFrom, 0) {
				t.Errorf("%+v: %s: value %g, heavy_from %g", q, b.Name, b.Value, b.HeavyFrom)
			}
			if b.NoValue && b.Value != 0 {
				t.Errorf("%+v: %s: no value but Value %g", q, b.Name, b.Value)
			}
			if !slices.Contains(kinds, b.Kind) || !slices.Contains([]string{"ln", "log2", ""}, b.Base) {
				t.Errorf("%+v: %s: kind %q base %q", q, b.Name, b.Kind, b.Base)
			}
			if !slices.Contains([]string{QuantityMaxLoad, QuantityGap, QuantitySpread}, b.Quantity) ||
				!slices.Contains([]string{RegimeMEqN, RegimeAnyM, RegimeHeavy}, b.Regime) {
				t.Errorf("%+v: %s: quantity %q regime %q", q, b.Name, b.Quantity, b.Regime)
			}
			if (b.Kind == KindOrder) != (b.Order != "") || (b.Kind == KindLeading || b.Kind == KindAsymptotic) != (b.Precision != "") ||
				(b.Kind == KindAsymptotic) != (b.Precision == PrecisionFactor) {
				t.Errorf("%+v: %s: kind %q with order %q, precision %q", q, b.Name, b.Kind, b.Order, b.Precision)
			}
			if b.Applies && !b.InRegime(load) {
				t.Errorf("%+v: %s applies outside its regime %s (m/n = %g)", q, b.Name, b.Regime, load)
			}
			if q.Process != "" && b.Process != q.Process {
				t.Errorf("%+v: bound for process %q", q, b.Process)
			}
			if b.Reason == "" || b.Name == "" || b.Formula == "" {
				t.Errorf("%+v: %+v: empty field", q, b)
			}
			if invalid && b.Applies {
				t.Errorf("%+v: %s applies to an invalid query", q, b.Name)
			}
		}
		if q.Process == "firstdiff" || q.Process == "nope" {
			if len(bs) != 0 {
				t.Errorf("%s: got %d bounds, want none", q.Process, len(bs))
			}
		}
	}
	// All processes but rank: 3 one-choice + 3 greedy + 3 left + 1 (1+β) +
	// 8 graph + 1 grouped + 1 window + 1 weighted + 2 hyper + 4 local-search.
	// 8 graph + 1 grouped + 1 window + 1 weighted + 2 hyper + 4 local-search
	// + 3 g-bounded + 3 g-myopic + 1 noisy + 3 memory (K = 0, Greedy[d]'s)
	// + 3 kd-choice (Greedy[d]'s) + 4 thinning (mean-thinning, threshold,
	// twinning, packing: one each) + 2 quantile.
	if got := len(Bounds(Query{N: 1000, M: 1000})); got != 46 {
		t.Errorf("Bounds for every process: %d, want 46", got)
	}
	if bs := Bounds(Query{N: 2, M: 2, Process: "greedy"}); bs[0].Applies || !strings.Contains(bs[0].Reason, "n >= 3") {
		t.Errorf("n = 2: %+v", bs[0])
	}
}

// TestBoundsNoBalls: m = 0 is an invalid query, not a stand-in for m = n,
// so no bound applies (m/n + ln ln n / ln d once read 4.47 at m = 0).
func TestBoundsNoBalls(t *testing.T) {
	bs := Bounds(Query{N: 1 << 16, Process: "greedy"})
	if len(bs) == 0 {
		t.Fatal("no bounds")
	}
	for _, b := range bs {
		if b.Applies || !strings.Contains(b.Reason, "m >= 1") {
			t.Errorf("m = 0: %s applies %v (%s)", b.Name, b.Applies, b.Reason)
		}
	}
}

func TestQueryValidate(t *testing.T) {
	good := Query{N: 1024, M: 2048, Process: "graph", Params: alloc.Params{D: 2, Beta: 0.5, Sample: alloc.SampleVertex, Weights: mustWeights("pareto:shape=2.5")}}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid query: %v", err)
	}
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{N: 0}, "analysis: query needs n >= 1, got 0"},
		{Query{N: 10, M: -1}, "m >= 1"},
		// m = 0 is not a default for m = n: no balls, nothing to bound.
		{Query{N: 10}, "analysis: query needs m >= 1, got 0"},
		{Query{N: 10, M: 10, Params: alloc.Params{D: 0.5}}, "d >= 1"},
		{Query{N: 10, M: 10, Params: alloc.Params{Beta: 1.5}}, "0 <= beta <= 1"},
		{Query{N: 10, M: 10, Process: "greedyy"}, `unknown process "greedyy"`},
		{Query{N: 10, M: 10, Expansion: 8}, "degree-normalised edge expansion in [0, 1], got 8"},
		{Query{N: 10, M: 10, Eps: 2}, "eps"},
		{Query{N: 10, M: 10, CoreFraction: 2}, "CoreFraction"},
		{Query{N: 10, M: 10, Params: alloc.Params{Tolerance: -1}}, "got g=-1"},
		{Query{N: 10, M: 10, Params: alloc.Params{Sigma: math.NaN()}}, "noise level 0 <= sigma"},
	} {
		if err := tc.q.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.q, err, tc.want)
		}
	}
}

// mustWeights is the weight distribution s names (alloc.ParseWeights).
func mustWeights(s string) alloc.WeightDist {
	w, err := alloc.ParseWeights(s)
	if err != nil {
		panic(err)
	}
	return w
}

func TestPhi(t *testing.T) {
	cases := []struct {
		d    int
		want float64
	}{
		{1, 1},
		{2, (1 + math.Sqrt(5)) / 2}, // the golden ratio 1.6180339887…
		{3, 1.8392867552141612},     // the tribonacci constant
		{4, 1.9275619754829254},     // the tetranacci constant
		{5, 1.9659482366454853},     // the pentanacci constant
		{60, 2 - math.Pow(2, -60)},  // φ_d = 2 − φ_d^{−d} ≈ 2 − 2^{−d}: 2 to double precision
	}
	for _, tc := range cases {
		if got := Phi(tc.d); math.Abs(got-tc.want) > 4e-16 {
			t.Errorf("Phi(%d) = %.17g, want %.17g", tc.d, got, tc.want)
		}
	}
	for d := 2; d <= 40; d++ {
		x := Phi(d)
		// x^d = 1 + x + … + x^{d−1}, i.e. x^{d+1} − 2x^d + 1 = 0, x ≠ 1.
		var rhs float64
		for k := range d {
			rhs += math.Pow(x, float64(k))
		}
		if r := math.Pow(x, float64(d)) / rhs; math.Abs(r-1) > 1e-13 {
			t.Errorf("Phi(%d) = %g: x^d / Σ x^k = %.17g", d, x, r)
		}
		if d > 2 && !(x > Phi(d-1)) {
			t.Errorf("Phi not increasing at d = %d", d)
		}
	}
	if !math.IsNaN(Phi(0)) {
		t.Errorf("Phi(0) = %g, want NaN", Phi(0))
	}
}

// processNames lists every process of package alloc.
func processNames() []string {
	var names []string
	for _, d := range alloc.Descriptors() {
		names = append(names, d.Name)
	}
	return names
}

// Each bound carries its quantity, its kind and its regime, applies only in
// that regime, and reads as a max load only by the conversion its quantity
// allows. n = 2^16 throughout (constants at the top of the file).
func TestBoundQuantityKindRegime(t *testing.T) {
	const n = 65536
	none := math.NaN() // no max-load reading
	cases := []struct {
		name          string
		q             Query
		bound         string
		applies       bool
		quantity      string
		kind, order   string
		noValue       bool
		maxLoadAt     float64 // MaxLoadAt(m/n), to 1e-5
		reasonMention string
	}{
		{"(1+β) at m = n: Θ(log n / β) is heavily loaded", Query{N: n, M: n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.5}},
			"gap, heavily loaded [PTW15]", false, QuantityGap, KindOrder, "Θ", false, 1 + 32, "only the upper bound"},
		// m/n = 1000 >= ln n / β² = 44.36: 1000 + log₂ n / β = 1032.
		{"(1+β) at m = 1000n", Query{N: n, M: 1000 * n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.5}},
			"gap, heavily loaded [PTW15]", true, QuantityGap, KindOrder, "Θ", false, 1000 + 32, "every m"},
		// β = 0.1: ln n / β² = 1109.04 > 1000.
		{"(1+β), β = 0.1, at m = 1000n: not yet", Query{N: n, M: 1000 * n, Process: "one-plus-beta", Params: alloc.Params{Beta: 0.1}},
			"gap, heavily loaded [PTW15]", false, QuantityGap, KindOrder, "Θ", false, 1000 + 160, "1109"},
		{"weighted balls: the gap bound of [TW07] has no value", Query{N: n, M: n, Process: "weighted"},
			"gap independent of m [TW07]", true, QuantityGap, KindUpper, "", true, none, "finite second moment"},
		// ln ln n / ln 2 = 3.471234, plus m/n = 16 as a max load.
		{"[BCSV06]'s gap reads as a max load plus m/n", Query{N: n, M: 16 * n, Process: "greedy"},
			"gap, any m [BCSV06]", true, QuantityGap, KindLeading, "", false, 16 + 3.471234, "every m"},
		{"[BCSV06]'s max load is already one", Query{N: n, M: 16 * n, Process: "greedy"},
			"max load, any m [BCSV06]", true, QuantityMaxLoad, KindLeading, "", false, 16 + 3.471234, "every m"},
		// σ = 1/4: log₂ n / σ = 64, plus m/n = 16.
		{"[PTW15]'s expansion gap is an O(·), read as a max load plus m/n",
			Query{N: n, M: 16 * n, Process: "graph", Topology: "regular", Degree: 16, Expansion: 0.25},
			"gap, edge expansion σ, any m [PTW15]", true, QuantityGap, KindOrder, "O", false, 16 + 64, "σ = 0.25"},
		{"[BF22] bounds the spread, which no max load reads",
			Query{N: n, M: 16 * n, Process: "graph", Topology: "regular", Degree: 16},
			"max − min, any allocation strategy [BF22]", true, QuantitySpread, KindOrder, "Ω", false, none, "Δ/k = 1"},
		// log₂ log₂ n / d = 4 / 8.
		{"grouped: O(log log n / d), not a leading term", Query{N: n, M: n, Process: "grouped", Params: alloc.Params{D: 8}},
			"max load, m = n [KP06]", true, QuantityMaxLoad, KindOrder, "O", false, 0.5, "aligned"},
		{"window: Ω(log log n / log d)", Query{N: n, M: n, Process: "window", Params: alloc.Params{D: 8}},
			"max load, m = n [KP06]", true, QuantityMaxLoad, KindOrder, "Ω", false, 4.0 / 3, "unaligned"},
		// m/n = 16 >= ln n = 11.09: sqrt(2 · 16 · 11.090355) = 18.838560.
		{"one-choice's heavy gap from m/n >= ln n", Query{N: n, M: 16 * n, Process: "one-choice"},
			"gap, heavily loaded [RS98]", true, QuantityGap, KindAsymptotic, "", false, 16 + 18.838560, "m >= n ln n"},
		{"one-choice's heavy gap not at m = 8n < n ln n", Query{N: n, M: 8 * n, Process: "one-choice"},
			"gap, heavily loaded [RS98]", false, QuantityGap, KindAsymptotic, "", false, 8 + math.Sqrt(2*8*11.090355), "from m/n >= 11.09"},
		// [LS22], g = 2 ≤ ln n: g / max(1, ln 2) · ln ln n = 2 · 2.406076.
		{"g-bounded, g = 2: Θ(g/log g · log log n) from m = n", Query{N: n, M: n, Process: "g-bounded", Params: alloc.Params{Tolerance: 2}},
			"gap, g ≤ log n, any m ≥ n [LS22]", true, QuantityGap, KindOrder, "Θ", false, 1 + 2*2.406076, "matching lower bound"},
		// O(g + log n) = 2 + 11.090355, not for m < n.
		{"g-myopic: O(g + log n) is for m ≥ n", Query{N: n, M: n / 2, Process: "g-myopic", Params: alloc.Params{Tolerance: 2}},
			"gap, any m ≥ n [LS22]", false, QuantityGap, KindOrder, "O", false, 0.5 + 13.090355, "every m ≥ n"},
		{"g-myopic, g = 20 > ln n: only O(g + log n)", Query{N: n, M: 4 * n, Process: "g-myopic", Params: alloc.Params{Tolerance: 20}},
			"gap, g ≤ log n, any m ≥ n [LS22]", false, QuantityGap, KindOrder, "Θ", false, 4 + 20/math.Log(20)*2.406076, "O(g)"},
		{"g-bounded on a torus: [LS22] is for two uniform bins", Query{N: n, M: n, Process: "g-bounded", Topology: "torus:dim=2", Params: alloc.Params{Tolerance: 1}},
			"gap, any m ≥ n [LS22]", false, QuantityGap, KindOrder, "O", false, 1 + 1 + 11.090355, "complete graph"},
		// ln ln n / ln 2 = 3.471234 at g = 0 and σ = 0 only.
		{"g-bounded, g = 0: Two-Choice", Query{N: n, M: 16 * n, Process: "g-bounded"},
			"gap, g = 0, any m [BCSV06]", true, QuantityGap, KindLeading, "", false, 16 + 3.471234, "Two-Choice"},
		{"noisy, σ = 0.5: no bound stated", Query{N: n, M: n, Process: "noisy", Params: alloc.Params{Sigma: 0.5}},
			"gap, σ = 0, any m [BCSV06]", false, QuantityGap, KindLeading, "", false, 1 + 3.471234, "σ = 0 only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := findBound(t, Bounds(tc.q), tc.q.Process, tc.bound)
			if b.Applies != tc.applies || b.Quantity != tc.quantity || b.Kind != tc.kind || b.Order != tc.order || b.NoValue != tc.noValue {
				t.Errorf("applies %v quantity %q kind %q order %q no value %v, want %v %q %q %q %v (reason %q)",
					b.Applies, b.Quantity, b.Kind, b.Order, b.NoValue, tc.applies, tc.quantity, tc.kind, tc.order, tc.noValue, b.Reason)
			}
			if !strings.Contains(b.Reason, tc.reasonMention) {
				t.Errorf("reason %q, want it to mention %q", b.Reason, tc.reasonMention)
			}
			load := tc.q.M / tc.q.N
			if tc.q.M == 0 {
				load = 1
			}
			if b.Applies && !b.InRegime(load) {
				t.Errorf("applies outside its regime %s", b.Regime)
			}
			v, ok := b.MaxLoadAt(load)
			switch {
			case math.IsNaN(tc.maxLoadAt) && ok:
				t.Errorf("MaxLoadAt(%g) = %g, want no max-load reading", load, v)
			case !math.IsNaN(tc.maxLoadAt) && (!ok || math.Abs(v-tc.maxLoadAt) > 1e-5):
				t.Errorf("MaxLoadAt(%g) = %g, %v, want %.7g", load, v, ok, tc.maxLoadAt)
			}
			js, err := json.Marshal(b)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(js), `"value":null`); got != tc.noValue {
				t.Errorf("JSON %s: value null %v, want %v", js, got, tc.noValue)
			}
		})
	}
	// No statement known only up to a constant factor is labelled leading,
	// and no leading term is given without its precision.
	for _, b := range Bounds(Query{N: n, M: 16 * n, Process: "graph", Expansion: 0.5}) {
		order := strings.HasPrefix(b.Formula, "O(") || strings.HasPrefix(b.Formula, "Ω(") || strings.HasPrefix(b.Formula, "Θ(")
		if order && b.Kind != KindOrder {
			t.Errorf("%s: %s is kind %q, want %q", b.Name, b.Formula, b.Kind, KindOrder)
		}
	}
}

// The worst case over Δ-regular graphs [KP06] is shown, as a reference, on
// every regular topology at m = n, and never on a graph not known to be
// regular. n = 1024: log₂ n = 10, log₂ log₂ n = 3.321928.
func TestWorstRegularReference(t *testing.T) {
	const n = 1024
	cases := []struct {
		name  string
		q     Query
		shown bool
		value float64 // log log n + log n / log(Δ log n), to 1e-5
	}{
		// 3.321928 + 10 / log₂ 80 = 3.321928 + 10 / 6.321928.
		{"regular:degree=8", Query{N: n, M: n, Topology: "regular:degree=8", Degree: 8, MinDegree: 8}, true, 4.903724},
		// Δ = 4: 3.321928 + 10 / log₂ 40 = 3.321928 + 10 / 5.321928.
		{"torus", Query{N: n, M: n, Topology: "torus", Degree: 4, MinDegree: 4}, true, 5.200946},
		// Δ = 2 inferred: 3.321928 + 10 / log₂ 20.
		{"cycle", Query{N: n, M: n, Topology: "cycle"}, true, 5.635710},
		// Δ = log₂ n = 10 inferred: 3.321928 + 10 / log₂ 100.
		{"hypercube", Query{N: n, M: n, Topology: "hypercube"}, true, 4.827078},
		{"nonregular", Query{N: n, M: n, Topology: "nonregular:mindeg=8,core=64", MinDegree: 8, Core: 64, CoreFraction: 0.2}, false, 0},
		{"gnp", Query{N: n, M: n, Topology: "gnp", MinDegree: 1}, false, 0},
		{"regular:degree=8 at m = 2n: stated for m = n", Query{N: n, M: 2 * n, Topology: "regular", Degree: 8}, false, 4.903724},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Process = "graph"
			b := findBound(t, Bounds(tc.q), "graph", worstRegular)
			if b.Applies != tc.shown || b.Kind != KindReference || b.Mark() != "ref" {
				t.Errorf("applies %v kind %q mark %q, want %v %q ref (reason %q)", b.Applies, b.Kind, b.Mark(), tc.shown, KindReference, b.Reason)
			}
			if math.Abs(b.Value-tc.value) > 1e-5 {
				t.Errorf("value %.7g, want %.7g", b.Value, tc.value)
			}
			if tc.shown && !strings.Contains(b.Reason, "worst case over Δ-regular graphs (some graph attains it)") {
				t.Errorf("reason %q does not label it", b.Reason)
			}
		})
	}
}

// TestQuantileBounds: [PTW15]'s gap applies to Quantile(δ) for
// 1/3 <= ⌊δn⌋/n <= 2/3 only (δ = 0 in a query means 1/2), and [FG21]'s
// lower bound at m = n for every δ; δ = 1 is an invalid query.
func TestQuantileBounds(t *testing.T) {
	for _, tc := range []struct {
		delta float64
		ptw   bool
	}{{0, true}, {0.5, true}, {0.34, true}, {0.2, false}, {0.9, false}} {
		bs := Bounds(Query{N: 1000, M: 1000, Process: "quantile", Params: alloc.Params{Delta: tc.delta}})
		if len(bs) != 2 || bs[0].Applies != tc.ptw || !bs[1].Applies {
			t.Errorf("δ=%g: %+v", tc.delta, bs)
		}
	}
	if err := (Query{N: 10, M: 10, Params: alloc.Params{Delta: 1}}).Validate(); err == nil {
		t.Error("δ = 1 accepted")
	}
}
