package study

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure/render"
	"github.com/graphalloc/graphalloc/graphgen"
)

// specs are the topologies of the spec literals ss.
func specs(ss ...string) []graphgen.Spec {
	var sps []graphgen.Spec
	for _, s := range ss {
		sps = append(sps, graphgen.MustParseSpec(s))
	}
	return sps
}

func TestPointsOrderAndShard(t *testing.T) {
	g := Grid{Processes: []string{"greedy", "graph"}, Graphs: specs("cycle", "complete"), Ns: []int{8, 16}, Trials: 1}
	cycle, complete := graphgen.MustParseSpec("cycle"), graphgen.MustParseSpec("complete")
	want := []Point{{graphgen.Spec{}, 8, "greedy"}, {graphgen.Spec{}, 16, "greedy"}, {cycle, 8, "graph"}, {cycle, 16, "graph"}, {complete, 8, "graph"}, {complete, 16, "graph"}}
	got := g.Points()
	if len(got) != len(want) {
		t.Fatalf("points %v, want %v", got, want)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("points %v, want %v", got, want)
		}
	}
	g.Shard.Index, g.Shard.Of = 1, 4
	if got := g.Points(); len(got) != 2 || !reflect.DeepEqual(got[0], want[1]) || !reflect.DeepEqual(got[1], want[5]) {
		t.Errorf("shard 1/4: %v", got)
	}
}

func TestCheck(t *testing.T) {
	ok := Grid{Processes: []string{"graph"}, Graphs: specs("cycle"), Ns: []int{8}, Trials: 1}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		mod  func(*Grid)
	}{
		{"no process", func(g *Grid) { g.Processes = nil }},
		{"unknown process", func(g *Grid) { g.Processes = []string{"magic"} }},
		{"no graphs", func(g *Grid) { g.Graphs = nil }},
		{"no n", func(g *Grid) { g.Ns = nil }},
		{"n = 0", func(g *Grid) { g.Ns = []int{0} }},
		{"no trials", func(g *Grid) { g.Trials = 0 }},
		{"bad shard", func(g *Grid) { g.Shard.Index, g.Shard.Of = 3, 2 }},
		{"negative m", func(g *Grid) { g.Balls = func(int) int64 { return -1 } }},
	}
	for _, tc := range cases {
		g := ok
		tc.mod(&g)
		if err := g.Check(); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func runRows(t *testing.T, g Grid) ([]Row, []*BuildError) {
	t.Helper()
	var rows []Row
	skipped, err := Run(context.Background(), g, func(r Row) error { rows = append(rows, r); return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rows, skipped
}

// Rows do not depend on the number of workers.
func TestRunWorkersIdentical(t *testing.T) {
	g := Grid{Processes: []string{"graph", "left"}, Graphs: specs("regular:degree=5", "cycle"), Ns: []int{200, 400},
		Params: alloc.Params{D: 2}, Trials: 6, Seed: 3}
	var first []byte
	for _, w := range []int{1, 2, 5} {
		g.Workers = w
		rows, _ := runRows(t, g)
		b, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("workers=%d: rows differ from workers=1", w)
		}
	}
}

// A topology that cannot be built at some n skips those points; one that
// can be built at no n is an error.
func TestRunSkips(t *testing.T) {
	g := Grid{Processes: []string{"graph"}, Graphs: specs("nonregular:mindeg=3,core=40", "cycle"), Ns: []int{32, 128},
		Params: alloc.Params{D: 2}, Trials: 2, Seed: 1}
	var progressed int
	g.Progress = func(trials, total int, balls, ballsTotal int64) {
		progressed = trials
		if total != 8 || ballsTotal != 2*(32+128)*2 {
			t.Errorf("progress totals %d trials, %d balls", total, ballsTotal)
		}
	}
	rows, skipped := runRows(t, g)
	if len(rows) != 3 || len(skipped) != 1 || skipped[0].N != 32 || !strings.Contains(skipped[0].Error(), "core") {
		t.Fatalf("rows %d, skipped %v", len(rows), skipped)
	}
	if progressed != 8 {
		t.Errorf("progress reached %d of 8 trials", progressed)
	}
	g.Graphs = specs("regular:degree=3", "cycle")
	g.Ns = []int{9, 33}
	g.Progress = nil
	_, err := Run(context.Background(), g, func(Row) error { return nil }, nil)
	var be *BuildError
	if !errors.As(err, &be) || be.Spec != "regular:degree=3" {
		t.Errorf("never-buildable spec: %v", err)
	}
}

// SpecQuery, from the spec alone, agrees with GraphQuery on the built graph.
func TestSpecQueryMatchesGraph(t *testing.T) {
	cases := []struct {
		spec string
		n    int
	}{
		{"complete", 50},
		{"cycle", 50},
		{"regular:degree=6", 50},
		{"regular:eps=0.5", 51}, // ⌈√51⌉ = 8, odd n·8 is fine
		{"regular:eps=0.5", 49}, // 7, n·Δ odd: moved to 8
		{"torus:dim=2", 50},     // side 8, n = 64
		{"torus:dim=3,side=2", 0},
		{"hypercube", 64},
		{"hypercube:dim=5", 0},
		{"circulant:degree=6", 50},
		{"nonregular:mindeg=4,core=20", 200},
		{"gnp:degree=4", 300},
	}
	for _, tc := range cases {
		t.Run(tc.spec, func(t *testing.T) {
			sp, err := graphgen.ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			var qs, qg analysis.Query
			nn, err := SpecQuery(&qs, sp, tc.n, 1)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := sp.Build(tc.n, alloc.NewRand(alloc.DeriveSeed(1, alloc.StreamGraph, 0)))
			if err != nil {
				t.Fatal(err)
			}
			GraphQuery(&qg, sp, g)
			if nn != g.Order() {
				t.Errorf("SpecQuery says n = %d, graph has %d", nn, g.Order())
			}
			if qs.Topology != qg.Topology || qs.Degree != qg.Degree || qs.MinDegree != qg.MinDegree || qs.Eps != qg.Eps || qs.Core != qg.Core {
				t.Errorf("spec %+v, graph %+v", qs, qg)
			}
			// The spec's core fraction leaves out the few joins of a
			// disconnected remainder: within a percent.
			if math.Abs(qs.CoreFraction-qg.CoreFraction) > 0.01*qg.CoreFraction {
				t.Errorf("core fraction: spec %g, graph %g", qs.CoreFraction, qg.CoreFraction)
			}
		})
	}
}

func TestMeanTails(t *testing.T) {
	// Two trials of 4 bins: loads {0,1,1,2} and {1,1,1,1}.
	rs := []alloc.Result{{LoadCounts: []int64{1, 2, 1}}, {LoadCounts: []int64{0, 4}}}
	got := MeanTails(rs, 4)
	want := []float64{1, (3.0/4 + 1) / 2, (1.0 / 4) / 2}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Fatalf("MeanTails = %v, want %v", got, want)
		}
	}
}

// TestSettingFluid: the fluid prediction of a setting comes from its
// descriptor: the graph process on K_n and Rank[d] for a whole d follow
// Greedy's rule, heavy settings get none.
func TestSettingFluid(t *testing.T) {
	cycle, err := graphgen.Cycle(100)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		proc  string
		graph graphgen.Graph
		d     float64
		m, n  int64
		want  string
	}{
		{"graph", graphgen.Complete(100), 2, 100, 100, "greedy"},
		{"graph", cycle, 2, 100, 100, ""},
		{"left", nil, 3, 100, 100, "left"},
		{"rank", nil, 2, 100, 100, "greedy"},
		{"rank", nil, 2.5, 100, 100, ""},
		{"unbalanced", nil, 2, 100, 100, "unbalanced"},
		{"greedy", nil, 2, 10000, 100, ""}, // m/n > 64
	}
	for _, tc := range cases {
		desc, err := alloc.Lookup(tc.proc)
		if err != nil {
			t.Fatal(err)
		}
		f, why := Setting{Process: desc, Params: alloc.Params{D: tc.d, Graph: tc.graph}, N: tc.n, M: tc.m}.Fluid()
		got := ""
		if f != nil {
			got = f.Process
		}
		if got != tc.want {
			t.Errorf("%s d=%g on %v: fluid %q, want %q", tc.proc, tc.d, tc.graph, got, tc.want)
		}
		if (f == nil) == (why == "") {
			t.Errorf("%s d=%g on %v: fluid %v, reason %q: want one of them", tc.proc, tc.d, tc.graph, f != nil, why)
		}
	}
}

// A grid's figure draws: at one n, the series on a categorical axis.
func TestGridFigureDraws(t *testing.T) {
	rows, _ := runRows(t, Grid{Processes: []string{"graph"}, Graphs: specs("complete"), Ns: []int{64}, Params: alloc.Params{D: 2}, Trials: 2})
	f, err := GridFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := render.Draw(&b, f, render.Options{Format: render.FormatSVG}); err != nil || !strings.Contains(b.String(), "<svg") {
		t.Errorf("svg: %v", err)
	}
}
