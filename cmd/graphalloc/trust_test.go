package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/results"
)

// TestPrintedFigures: each printed figure that once misled, as a command
// line and what its output must (and must not) say.
func TestPrintedFigures(t *testing.T) {
	file := root + "/testdata/graphs/two_communities.txt"
	for _, tc := range []struct {
		name       string
		args       []string
		want, not  []string
		wantStderr string
	}{
		{"one trial has no interval", []string{"run", "-n", "1000", "-t", "1"},
			[]string{"95% CI —"}, []string{"[3.000, 3.000]"}, ""},
		{"agreeing trials say so", []string{"run", "-n", "2^12", "-t", "4"},
			[]string{"all 4 trials gave"}, nil, ""},
		{"a max load's interval stays at or above 0", []string{"compare", "-g", "cycle", "-n", "2^10", "-t", "2"},
			[]string{"[2.118, 4.882]"}, []string{"[-"}, ""},
		{"a file graph runs once, at its own n", []string{"compare", "-g", file, "-g", "cycle", "-n", "2^4..2^6", "-t", "2"},
			[]string{"runs once, at that n"}, nil, ""},
		{"the degree column says degree", []string{"compare", "-g", "cycle", "-n", "2^6", "-t", "2"},
			[]string{"degree min/mean/max"}, []string{"Δ min/mean/max"}, ""},
		{"no empty base", []string{"run", "-p", "weighted", "-n", "1000", "-t", "2"},
			nil, []string{"()"}, ""},
		{"gnp warns of isolated vertices", []string{"run", "-p", "graph", "-g", "gnp:p=0.0001", "-n", "1000", "-t", "2"},
			nil, nil, "isolated (degree 0)"},
		{"infinite variance is flagged", []string{"run", "-p", "weighted", "--weights", "pareto:shape=1.5", "-n", "1000", "-t", "2"},
			nil, nil, "infinite variance"},
		{"any case, one name", []string{"run", "-p", "Greedy", "-n", "1000", "-t", "2"},
			[]string{"Greedy[2]"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
			if !strings.Contains(errs, tc.wantStderr) {
				t.Errorf("stderr %q lacks %q", errs, tc.wantStderr)
			}
		})
	}
}

// TestRefusedBeforeWork: inputs refused with exit 2 and one line, before
// any simulation.
func TestRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"m = 0, run", []string{"run", "-m", "0"}, "--balls: need m >= 1"},
		{"m = 0, bounds", []string{"bounds", "-p", "greedy", "-m", "0"}, "--balls: need m >= 1"},
		{"m = 0, compare", []string{"compare", "-p", "greedy", "-m", "0", "-n", "2^10"}, "--balls: need m >= 1"},
		{"-o in a missing directory", []string{"run", "-o", "/nonexistent/x.json", "-n", "2^24", "-m", "100n"}, "--output: cannot write /nonexistent/x.json"},
		{"-o a directory", []string{"run", "-o", dir}, "is a directory"},
		{"--plot in a missing directory", []string{"compare", "-p", "greedy", "-n", "2^20", "--plot", "/nonexistent/x.png"}, "--plot: cannot write /nonexistent/x.png"},
		{"negative workers", []string{"run", "-w", "-1"}, "--workers"},
		{"a near name", []string{"run", "-p", "greedi"}, `did you mean "greedy"`},
		{"graph flags on a process without one", []string{"bounds", "-p", "greedy", "-g", "cycle"}, "--graph applies only to -p graph"},
		// -d follows --beta: refused where no process reads d, even
		// at its default value, and accepted where one does.
		{"-d on graph", []string{"run", "-p", "graph", "-g", "cycle", "-d", "7"}, "--choices applies only to -p greedy"},
		{"-d 2 on graph", []string{"run", "-p", "graph", "-g", "cycle", "-d", "2"}, "not to -p graph"},
		{"-d on one-choice", []string{"run", "-p", "one-choice", "-d", "3"}, "not to -p one-choice"},
		{"-d on one-plus-beta, bounds", []string{"bounds", "-p", "one-plus-beta", "-d", "3"}, "not to -p one-plus-beta"},
		{"-d on threshold, fluid", []string{"fluid", "-p", "threshold", "-d", "3"}, "not to -p threshold"},
		{"-d on a grid without d", []string{"compare", "-p", "one-choice,quantile", "-d", "3", "-n", "2^8"}, "not to -p one-choice,quantile"},
		{"infinite mean weights, compare", []string{"compare", "-p", "weighted", "--weights", "pareto:shape=0.5", "-n", "2^10"}, "finite mean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			checkBadInput(t, out, errs, code, tc.want)
		})
	}
}

// TestCompareShardsMerge: the shards of a compare grid merge into the
// unsharded output, byte for byte.
func TestCompareShardsMerge(t *testing.T) {
	dir := t.TempDir()
	grid := []string{"compare", "-g", "cycle", "-g", "regular:degree=4", "-p", "graph,greedy", "-n", "2^6..2^8", "-t", "2"}
	var parts []string
	for i, s := range []string{"0/3", "1/3", "2/3"} {
		p := filepath.Join(dir, "s"+string(rune('0'+i))+".jsonl")
		if _, errs, code := invoke(append(grid, "--shard", s, "-f", "jsonl", "-o", p)...); code != 0 {
			t.Fatal(errs)
		}
		parts = append(parts, p)
	}
	whole, _, _ := invoke(append(grid, "-f", "json")...)
	merged, errs, code := invoke(append([]string{"merge", "-f", "json"}, parts...)...)
	if code != 0 || merged != whole {
		t.Fatalf("merged (exit %d, %s) differs from the whole grid:\n%s\nwant\n%s", code, errs, merged, whole)
	}
	var g results.Grid
	if err := json.Unmarshal([]byte(merged), &g); err != nil || len(g.Points) != 9 {
		t.Errorf("merged grid: %d points, %v", len(g.Points), err)
	}
	csv := filepath.Join(dir, "r.csv")
	os.WriteFile(csv, []byte("trial,max_load\n0,3\n"), 0o644)
	out, errs, code := invoke("merge", csv)
	checkBadInput(t, out, errs, code, "merge reads the -f json or -f jsonl output")
}

// TestExpansionFlag: --expansion feeds the [PTW15] gap bound in run, bounds
// and compare, is recorded in run's config (so merge recomputes the same
// summary), and is refused where it means nothing.
func TestExpansionFlag(t *testing.T) {
	// log2(4096) / 0.3 = 40, on each command's terms.
	for _, tc := range []struct {
		want string
		args []string
	}{
		{"O(log n / σ) = 40.000", []string{"run", "-p", "graph", "-g", "regular:degree=8", "-n", "4096", "-m", "100n", "-t", "2", "--expansion", "0.3"}},
		{"40.0000  O(log n / σ)", []string{"bounds", "-g", "regular:degree=8", "-n", "4096", "-m", "100n", "--expansion", "0.3"}},
		{"a O 40.00", []string{"compare", "-g", "regular:degree=8", "-n", "4096", "-m", "100n", "-t", "2", "--expansion", "0.3"}},
	} {
		out, errs, code := invoke(tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%s: exit %d (%s); %q not in:\n%s", tc.args[0], code, errs, tc.want, out)
		}
		without, _, _ := invoke(tc.args[:len(tc.args)-2]...)
		if strings.Contains(without, tc.want) {
			t.Errorf("%s without --expansion shows the bound", tc.args[0])
		}
	}
	out, _, _ := invoke("run", "-p", "graph", "-g", "regular:degree=8", "-n", "512", "-t", "2", "--expansion", "0.3", "-f", "json")
	var f results.File
	if err := json.Unmarshal([]byte(out), &f); err != nil || f.Config.Expansion != 0.3 {
		t.Errorf("config expansion %g (%v)", f.Config.Expansion, err)
	}
	for _, args := range [][]string{
		{"run", "--expansion", "0.3"},
		{"run", "-p", "graph", "-g", "cycle", "--expansion", "2"},
		{"compare", "-g", "cycle", "-g", "complete", "--expansion", "0.3"},
	} {
		out, errs, code := invoke(args...)
		checkBadInput(t, out, errs, code, "--expansion")
	}
}

// TestChoicesWhereRead: -d reaches the processes that read it, alone or
// in a grid with one that does not.
func TestChoicesWhereRead(t *testing.T) {
	for _, args := range [][]string{
		{"run", "-p", "left", "-d", "3", "-n", "64", "-t", "1"},
		{"run", "-p", "rank", "-d", "1.5", "-n", "64", "-t", "1"},
		{"compare", "-p", "one-choice,greedy", "-d", "3", "-n", "2^6", "-t", "1"},
		{"bounds", "-d", "3", "-n", "2^10"},
	} {
		if _, errs, code := invoke(args...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
}
