package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/results"
)

// runJSON runs a command with -f json and decodes its run file.
func runJSON(t *testing.T, args ...string) (*results.File, string) {
	t.Helper()
	out, errs, code := invoke(append(args, "-f", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var f results.File
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	return &f, out
}

// conserved fails t unless every trial of f holds n bins and m balls.
func conserved(t *testing.T, f *results.File) {
	t.Helper()
	for _, tr := range f.Trials {
		var bins, balls int64
		for i, c := range tr.LoadCounts {
			bins += c
			balls += int64(i) * c
		}
		if bins != f.Config.N || balls != f.Config.M {
			t.Fatalf("trial %d: load_counts hold %d bins and %d balls", tr.Trial, bins, balls)
		}
	}
}

// TestBatchFlag: --batch 1 prints what no flag prints, byte for byte; a
// batched run records its batch size, which --resume checks; and the
// batched bounds replace the sequential ones.
func TestBatchFlag(t *testing.T) {
	_, plain := runJSON(t, "run", "-p", "left", "-d", "3", "-n", "1000", "-t", "3")
	_, one := runJSON(t, "run", "-p", "left", "-d", "3", "-n", "1000", "-t", "3", "--batch", "1")
	if plain != one {
		t.Fatal("--batch 1 changes the output")
	}

	f, _ := runJSON(t, "run", "-p", "greedy", "-n", "2^12", "-m", "8n", "-t", "3", "--batch", "n")
	if f.Config.Batch != 1<<12 {
		t.Fatalf("config batch = %d, want 4096", f.Config.Batch)
	}
	conserved(t, f)
	var names []string
	for _, b := range f.Summary.Bounds {
		names = append(names, b.Name)
	}
	if !strings.Contains(strings.Join(names, "|"), "batches of b = n [LS22a]") || strings.Contains(strings.Join(names, "|"), "[BCSV06]") {
		t.Errorf("bounds that apply to a batched Greedy[2] at b = n: %v", names)
	}
	if f.Summary.Fluid != nil {
		t.Error("a batched run reports the sequential fluid limit")
	}

	// --resume refuses a run of another batch size.
	path := filepath.Join(t.TempDir(), "b.json")
	if _, errs, code := invoke("run", "-n", "500", "-t", "4", "--shard", "0/2", "--batch", "64", "-f", "json", "-o", path); code != 0 {
		t.Fatal(errs)
	}
	_, errs, code := invoke("run", "-n", "500", "-t", "4", "--batch", "32", "-f", "json", "--resume", path)
	if code != 2 || !strings.Contains(errs, "batch differs") {
		t.Errorf("resume across batch sizes: exit %d, %q", code, errs)
	}
	if _, errs, code := invoke("run", "-n", "500", "-t", "4", "--batch", "64", "-f", "json", "--resume", path, "-o", filepath.Join(t.TempDir(), "c.json")); code != 0 {
		t.Errorf("resume of the same batched run: exit %d, %s", code, errs)
	}

	// compare: the grid and its rows record the batch.
	out, errs, code := invoke("compare", "-p", "greedy,one-plus-beta", "-n", "2^8,2^9", "-t", "2", "--batch", "256", "-f", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var g results.Grid
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	if g.Config.Batch != 256 || len(g.Points) != 4 || g.Points[0].Batch != 256 {
		t.Errorf("compare --batch 256: config batch %d, %d points, first row batch %d", g.Config.Batch, len(g.Points), g.Points[0].Batch)
	}
}

// TestBatchRefused: what --batch refuses, with exit 2 and the reason.
func TestBatchRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-p", "rank", "--batch", "4", "-n", "100"}, "--batch applies to every process but -p rank and -p weighted"},
		{[]string{"run", "-p", "weighted", "--batch", "4", "-n", "100"}, "not to -p weighted"},
		{[]string{"run", "--batch", "4", "--engine", "levels", "-n", "100"}, "level engine does not run batches"},
		{[]string{"run", "--batch", "0", "-n", "100"}, "--batch: need a batch size B >= 1"},
		{[]string{"run", "--batch", "x", "-n", "100"}, "--batch: need a batch size B >= 1"},
		{[]string{"compare", "-p", "greedy", "--batch", "n", "-n", "2^8"}, "give the batch size as a count"},
		{[]string{"compare", "-p", "greedy,rank", "--batch", "8", "-n", "2^8"}, "not to -p rank"},
		{[]string{"bounds", "-p", "rank", "--batch", "8", "-n", "2^8"}, "not to -p rank"},
		// The memory guard counts a batched run's pending balls (4
		// bytes each, min(B, n)) beside the loads (4 bytes a bin):
		// 8·10^8 bytes here, for the processes whose rules keep a
		// state too (theirs is a few bytes, or O(d + K)).
		{[]string{"run", "-p", "memory", "--memory", "1", "-n", "1e8", "-w", "1", "--batch", "n", "--max-memory", "600M"}, "needs about 763 MiB"},
		{[]string{"run", "-p", "kd-choice", "-d", "4", "--k", "2", "-n", "1e8", "-w", "1", "--batch", "n", "--max-memory", "600M"}, "needs about 763 MiB"},
		{[]string{"run", "-p", "twinning", "-n", "1e8", "-w", "1", "--batch", "n", "--max-memory", "600M"}, "needs about 763 MiB"},
		{[]string{"run", "-p", "packing", "-n", "1e8", "-w", "1", "--batch", "2^20", "--max-memory", "380M"}, "needs about 385 MiB"},
		// The graph process keeps one-byte loads, but four-byte ones in
		// batches: 29.6 MiB one ball at a time, 36.2 in batches of n.
		{[]string{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "1e6", "-w", "1", "--batch", "n", "--max-memory", "33M"}, "needs about 36.3 MiB"},
	} {
		_, errs, code := invoke(tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestGraphBetaFlag: -p graph is two-choice unless --beta is given (the
// default 0.5 of --beta is one-plus-beta's): no flag and --beta 1 give the
// same trials, and only the latter records β; --beta B runs graphical (1+β)
// on complete, torus:dim=2 and regular:degree=16; --beta 0 is refused.
func TestGraphBetaFlag(t *testing.T) {
	plain, _ := runJSON(t, "run", "-p", "graph", "-g", "regular:degree=6", "-n", "1000", "-t", "3")
	one, _ := runJSON(t, "run", "-p", "graph", "-g", "regular:degree=6", "-n", "1000", "-t", "3", "--beta", "1")
	if !reflect.DeepEqual(plain.Trials, one.Trials) {
		t.Error("--beta 1 changes the trials of -p graph")
	}
	if plain.Config.Beta != nil || one.Config.Beta == nil || *one.Config.Beta != 1 {
		t.Errorf("β recorded: %v without --beta, %v with --beta 1", plain.Config.Beta, one.Config.Beta)
	}
	// Beside one-plus-beta in a grid, graph stays two-choice without --beta.
	out, errs, code := invoke("compare", "-p", "one-plus-beta,graph", "-g", "complete", "-n", "2^8", "-t", "2", "-f", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var g results.Grid
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	if g.Config.GraphBeta || g.Config.Beta != 0.5 || g.Points[1].Fluid == nil || g.Points[1].Fluid.Process != "greedy" {
		t.Errorf("one-plus-beta,graph without --beta: config %+v, graph's fluid %+v", g.Config, g.Points[1].Fluid)
	}
	for _, spec := range []string{"complete", "torus:dim=2", "regular:degree=16"} {
		f, _ := runJSON(t, "run", "-p", "graph", "-g", spec, "--beta", "0.5", "-n", "1024", "-t", "3")
		conserved(t, f)
		if f.Config.Beta == nil || *f.Config.Beta != 0.5 || !strings.Contains(f.Config.Label(), "β = 0.5") {
			t.Errorf("%s: config %+v, label %q", spec, f.Config, f.Config.Label())
		}
		if spec == "complete" && (f.Summary.Fluid == nil || f.Summary.Fluid.Process != "one-plus-beta") {
			t.Errorf("graphical (1+β) on complete: fluid %+v, want one-plus-beta's", f.Summary.Fluid)
		}
		// The probes: one per one-choice step, two per comparison.
		if p := f.Summary.Probes; p < 1.45 || p > 1.55 {
			t.Errorf("%s: %.3f probes per ball, want about 1.5 at β = 0.5", spec, p)
		}
	}
	_, errs, code = invoke("run", "-p", "graph", "--beta", "0", "-n", "100")
	if code != 2 || !strings.Contains(errs, "0 < beta <= 1") {
		t.Errorf("--beta 0 with -p graph: exit %d, %q", code, errs)
	}
	if _, errs, code := invoke("run", "-p", "graph", "--beta", "0.5", "--engine", "levels", "-n", "2^12", "-t", "2"); code != 0 {
		t.Errorf("graphical (1+β) on the level engine: exit %d, %s", code, errs)
	}
}

// TestBoundsBatchEveryProcess: bounds --batch without -p keeps the batch,
// and --beta its graphical (1+β), for every process: the batched statements
// are listed and the sequential ones do not apply. Control: building the
// query a second time without Batch lists [BCSV06]'s sequential gap as
// applying to greedy and no batched statement.
func TestBoundsBatchEveryProcess(t *testing.T) {
	out, errs, code := invoke("bounds", "--batch", "16", "--beta", "0.5", "-n", "2^8", "-m", "2^12", "-f", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var r struct{ Bounds []analysis.Bound }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	batched, graphBeta := 0, 0
	for _, b := range r.Bounds {
		if strings.Contains(b.Name, "batches of b") {
			batched++
		}
		if strings.Contains(b.Name, "graphical (1+β)") {
			graphBeta++
		}
		if b.Process == "greedy" && strings.Contains(b.Name, "[BCSV06]") && b.Applies {
			t.Errorf("%s applies to greedy in batches of 16", b.Name)
		}
	}
	if batched == 0 || graphBeta == 0 {
		t.Errorf("bounds --batch 16 --beta 0.5: %d batched statements, %d of graphical (1+β); want both listed", batched, graphBeta)
	}
}
