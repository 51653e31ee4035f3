package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// invoke runs the command line as main would and returns stdout, stderr
// and the exit status.
func invoke(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	err := run(context.Background(), &out, &errb, args)
	code := report(&errb, err)
	return out.String(), errb.String(), code
}

// root is the repository root, where the README's commands run.
const root = "../.."

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(root, "testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/graphalloc -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if the change is intended):\n%s", path, got)
	}
}

// goldenCase is a command line whose output is recorded in
// testdata/golden/name.
type goldenCase struct {
	name string
	args []string
}

// goldenCases runs each case and compares its output with its golden file.
func goldenCases(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, tc.name, out)
		})
	}
}

func TestGolden(t *testing.T) {
	goldenCases(t, []goldenCase{
		{"run_default_small.table", []string{"run", "-n", "2^12", "-t", "4"}},
		{"run_left3.json", []string{"run", "-p", "left", "-d", "3", "-n", "1000", "-m", "2n", "-t", "3", "-f", "json"}},
		{"run_onechoice.csv", []string{"run", "-p", "one-choice", "-n", "1e3", "-t", "5", "-f", "csv"}},
		{"run_graph_regular.json", []string{"run", "-p", "graph", "-g", "regular:degree=8", "-n", "512", "-t", "2", "-f", "json"}},
		{"run_graph_file.table", []string{"run", "-p", "graph", "-g", root + "/testdata/graphs/two_communities.txt", "-t", "3", "-m", "100n"}},
		{"run_every.jsonl", []string{"run", "-p", "greedy", "-n", "256", "-m", "8n", "--every", "2n", "-t", "2", "-f", "jsonl"}},
		// The series CSV, its gap and spread rows each with its own
		// interval, and a profile. Control: the spread rows carrying the
		// gap's interval (p.GapCI for p.SpreadCI in writeCSV) changes
		// this file.
		{"run_every.csv", []string{"run", "-p", "greedy", "-n", "256", "-m", "8n", "--every", "2n", "-t", "3", "--profile", "-f", "csv"}},
	})
}

// TestWorkersByteIdentical: the same seed gives byte-identical JSON
// whatever --workers is.
func TestWorkersByteIdentical(t *testing.T) {
	var first string
	for _, w := range []string{"1", "2", "3", "8"} {
		out, errs, code := invoke("run", "-p", "graph", "-g", "regular:degree=6", "-n", "2000", "-t", "7", "-f", "json", "-w", w, "--seed", "99")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("workers=%s: output differs from workers=1", w)
		}
	}
	var v results.File
	if err := json.Unmarshal([]byte(first), &v); err != nil {
		t.Fatal(err)
	}
	for _, tr := range v.Trials {
		var bins, balls int64
		for i, c := range tr.LoadCounts {
			bins += c
			balls += int64(i) * c
		}
		if bins != v.Config.N || balls != v.Config.M {
			t.Fatalf("trial %d: load_counts hold %d bins and %d balls", tr.Trial, bins, balls)
		}
	}
}

// TestShardsCoverRun: the shards of a run hold exactly its trials.
func TestShardsCoverRun(t *testing.T) {
	full, _, _ := invoke("run", "-n", "500", "-t", "5", "-f", "csv")
	rows := map[string]bool{}
	for _, s := range []string{"0/2", "1/2"} {
		out, errs, code := invoke("run", "-n", "500", "-t", "5", "-f", "csv", "--shard", s)
		if code != 0 {
			t.Fatal(errs)
		}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			rows[l] = true
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(full), "\n")[1:] {
		if !rows[l] {
			t.Errorf("row %q missing from the shards", l)
		}
	}
	if len(rows) != 5 {
		t.Errorf("shards hold %d rows, want 5", len(rows))
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	malformed := filepath.Join(dir, "bad.txt")
	os.WriteFile(malformed, []byte("0 1\n1 2\n3\n"), 0o644)
	cases := []struct {
		name string
		args []string
		want string // a fragment the message must contain
	}{
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"unknown process", []string{"run", "-p", "magic"}, "unknown process"},
		{"d=0", []string{"run", "-d", "0"}, "d <= "},
		{"d not a number", []string{"run", "-d", "two"}, "--choices"},
		{"d fractional for greedy", []string{"run", "-d", "2.5"}, "whole number"},
		{"left d>n", []string{"run", "-p", "left", "-d", "9", "-n", "8"}, "every group"},
		{"n=0", []string{"run", "-n", "0"}, "--bins"},
		{"n garbage", []string{"run", "-n", "lots"}, "not a number"},
		{"m negative", []string{"run", "-m", "-5"}, "negative"},
		{"m fractional", []string{"run", "-n", "3", "-m", "0.5n"}, "whole"},
		{"m overflow", []string{"run", "-m", "2^70"}, "larger than"},
		{"trials=0", []string{"run", "-t", "0"}, "--trials"},
		{"unknown flag", []string{"run", "--frob"}, "unknown flag"},
		{"bad format", []string{"run", "-f", "xml"}, "--format"},
		{"bad ties", []string{"run", "--ties", "up"}, "tie rule"},
		{"bad sample", []string{"run", "-p", "graph", "--sample", "walk"}, "sampling"},
		{"sample without graph", []string{"run", "--sample", "vertex"}, "--sample applies only to -p graph"},
		{"bad shard", []string{"run", "--shard", "3/2"}, "--shard"},
		{"graph without -p graph", []string{"run", "-g", "cycle"}, "only to -p graph"},
		{"unknown graph kind", []string{"run", "-p", "graph", "-g", "moebius"}, "unknown graph kind"},
		{"unknown graph key", []string{"run", "-p", "graph", "-g", "regular:deg=3"}, "no key"},
		{"odd n*Delta", []string{"run", "-p", "graph", "-g", "regular:degree=3", "-n", "5"}, "even"},
		{"Delta >= n", []string{"run", "-p", "graph", "-g", "regular:degree=10", "-n", "10"}, "degree < n = 10"},
		{"missing file", []string{"run", "-p", "graph", "-g", "file:" + filepath.Join(dir, "nope.txt")}, "nope.txt"},
		{"malformed edge list", []string{"run", "-p", "graph", "-g", "file:" + malformed}, "bad.txt:3"},
		{"n mismatch with file", []string{"run", "-p", "graph", "-g", root + "/testdata/graphs/star.txt", "-n", "100"}, "vertices"},
		{"extra argument", []string{"run", "extra"}, "unexpected argument"},
		{"n beyond memory", []string{"run", "-n", "4e9", "--max-memory", "2G"}, "needs about"}, // 1 byte a bin, 2 workers
		// Compact processes whose loads are four bytes a bin after all
		// (alloc.Descriptor.LoadBytes), each of which would fit at one:
		// promoted (5 bytes a bin during the promotion), batches,
		// graphical (1+β).
		{"promoted loads beyond memory", []string{"run", "-n", "1e9", "-m", "300n", "-w", "1", "-t", "1", "--max-memory", "4G"}, "needs about 4.66 GiB"},
		{"batch loads beyond memory", []string{"run", "-n", "2e9", "--batch", "1000", "-w", "1", "-t", "1", "--max-memory", "6G"}, "needs about 7.45 GiB"},
		{"graph batch beyond memory", []string{"run", "-p", "graph", "-g", "complete", "-n", "1e9", "--batch", "n", "-w", "1", "-t", "1", "--max-memory", "7G"}, "needs about 7.45 GiB"}, // loads and the batch, 4 bytes a bin each
		{"graph beta loads beyond memory", []string{"run", "-p", "graph", "-g", "complete", "--beta", "0.5", "-n", "2e9", "-w", "1", "-t", "1", "--max-memory", "6G"}, "needs about 7.45 GiB"},
		{"graph beyond memory", []string{"run", "-p", "graph", "-g", "regular:degree=64", "-n", "4e8", "--max-memory", "8G"}, "needs about"},
		{"bad max-memory", []string{"run", "--max-memory", "lots"}, "--max-memory"},
		{"truncated gzip", []string{"run", "-p", "graph", "-g", "file:" + root + "/testdata/graphs/bad/truncated.txt.gz"}, "truncated.txt.gz"},
		{"binary garbage", []string{"run", "-p", "graph", "-g", "file:" + root + "/testdata/graphs/bad/garbage.bin"}, "garbage.bin:1"},
		{"mtx index beyond size", []string{"run", "-p", "graph", "-g", root + "/testdata/graphs/bad/bad_index.mtx"}, "beyond declared size"},
		{"edge list one field", []string{"run", "-p", "graph", "-g", root + "/testdata/graphs/bad/bad_field.txt"}, "bad_field.txt:"},
		{"resume missing file", []string{"run", "--resume", "/nonexistent/x.jsonl"}, "--resume"},
		{"merge no files", []string{"merge"}, "no files"},
		{"merge not a run", []string{"merge", root + "/testdata/graphs/star.txt"}, "star.txt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			checkBadInput(t, out, errs, code, tc.want)
		})
	}
}

func TestUsageAndVersion(t *testing.T) {
	out, errs, code := invoke()
	if code != 2 || out != "" || !strings.HasPrefix(errs, "graphalloc: no command: usage: graphalloc COMMAND") || strings.Count(errs, "\n") != 1 {
		t.Errorf("no arguments: want the usage in one line on stderr and exit 2, got exit %d, %q, %q", code, out, errs)
	}
	out, _, code = invoke("help")
	if code != 0 || !strings.Contains(out, "Usage: graphalloc COMMAND") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	out, _, code = invoke("version")
	if code != 0 || out != "graphalloc "+Version+"\n" {
		t.Errorf("version: exit %d, %q", code, out)
	}
	out, _, code = invoke("run", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--process") {
		t.Errorf("run --help: exit %d, %q", code, out)
	}
}

func TestOutputFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "res.json")
	_, errs, code := invoke("run", "-n", "100", "-t", "2", "-f", "json", "-o", path)
	if code != 0 {
		t.Fatal(errs)
	}
	b, err := os.ReadFile(path)
	if err != nil || !json.Valid(b) {
		t.Fatalf("output file: %v, valid JSON %v", err, json.Valid(b))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestParseCount(t *testing.T) {
	good := []struct {
		in   string
		n    int64
		want int64
	}{
		{"1000000", 0, 1000000},
		{"1_000_000", 0, 1000000},
		{"1e6", 0, 1000000},
		{"2.5e3", 0, 2500},
		{"2^20", 0, 1 << 20},
		{"n", 10, 10},
		{"16n", 10, 160},
		{"0.5n", 10, 5},
		{"2^3n", 10, 80},
		{"0", 0, 0},
		{"9223372036854775807", 0, 1<<63 - 1},
	}
	for _, tc := range good {
		got, err := study.ParseCount(tc.in, tc.n)
		if err != nil || got != tc.want {
			t.Errorf("study.ParseCount(%q, %d) = %d, %v; want %d", tc.in, tc.n, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "x", "-1", "1.5", "n", "1e99999", "2^-1", "2^99", "9223372036854775808", "1e", "^2", "0.35n"} {
		if got, err := study.ParseCount(in, map[bool]int64{true: 0, false: 10}[in == "n"]); err == nil {
			t.Errorf("study.ParseCount(%q) = %d, want an error", in, got)
		}
	}
}

// TestHelpTexts: every command has its help text, with examples, and
// --help prints it.
func TestHelpTexts(t *testing.T) {
	for _, cmd := range []string{"run", "compare", "study", "gen", "info", "bounds", "fluid", "merge"} {
		out, _, code := invoke(cmd, "--help")
		if code != 0 || !strings.Contains(out, "Usage: graphalloc "+cmd) || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: exit %d, output %.80q", cmd, code, out)
		}
	}
	if out, _, _ := invoke("run", "--help"); !strings.Contains(out, "Greedy[d]: d uniform bins") || strings.Contains(out, "{{") {
		t.Errorf("run --help does not list the processes: %.300q", out)
	}
}
