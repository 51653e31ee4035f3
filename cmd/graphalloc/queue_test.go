package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestQueueBadInput: every bad queue command line is one line on stderr
// starting "graphalloc: " and exit 2.
func TestQueueBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"lambda 1", []string{"queue", "--lambda", "1"}, "--lambda"},
		{"lambda above 1", []string{"queue", "--lambda", "1.5"}, "λ ≥ 1 has no steady state"},
		{"lambda 0", []string{"queue", "--lambda", "0"}, "--lambda"},
		{"lambda negative", []string{"queue", "--lambda", "-0.5"}, "--lambda"},
		{"no shortest queue", []string{"queue", "-p", "unbalanced"}, "greedy, one-choice or graph"},
		{"left", []string{"queue", "-p", "left"}, "greedy, one-choice or graph"},
		{"unknown sampler", []string{"queue", "-p", "graph", "--sample", "walk"}, "unknown sampler"},
		{"edge with d=3", []string{"queue", "-p", "graph", "-g", "cycle", "-n", "64", "-d", "3"}, "d must be 2"},
		{"d=0", []string{"queue", "-d", "0"}, "d <= "},
		{"time 0", []string{"queue", "--time", "0"}, "--time"},
		{"warm-up past the time", []string{"queue", "--time", "5", "--warmup", "5"}, "warm-up"},
		{"bad warm-up", []string{"queue", "--warmup", "soon"}, "--warmup"},
		{"bad engine", []string{"queue", "--engine", "gpu"}, "--engine"},
		{"levels on a graph", []string{"queue", "-p", "graph", "-g", "cycle", "-n", "64", "--engine", "levels"}, "level engine"},
		{"bad start", []string{"queue", "--start", "full"}, "--start"},
		{"hypergraph", []string{"queue", "-p", "graph", "-g", "hypergraph:rank=3,edges=50", "-n", "64"}, "hypergraph"},
		{"trials 0", []string{"queue", "-t", "0"}, "--trials"},
		{"bad format", []string{"queue", "-f", "xml"}, "--format"},
		{"servers beyond memory", []string{"queue", "-n", "4e9", "--engine", "servers", "--max-memory", "2G"}, "needs about"},
		{"extra argument", []string{"queue", "now"}, "unexpected argument"},
		{"shard K of K", []string{"queue", "--shard", "2/2"}, "--shard"},
		{"shard without K", []string{"queue", "--shard", "1"}, "--shard"},
		{"shard negative", []string{"queue", "--shard", "-1/2"}, "--shard"},
		{"resume no file", []string{"queue", "-n", "64", "--time", "5", "--resume", "testdata/none.jsonl"}, "--resume"},
		{"resume a run's file", []string{"queue", "-n", "64", "--time", "5", "--resume", "../../testdata/hostile/inputs/run.jsonl"}, "not the json or jsonl output of graphalloc queue"},
		{"plot no extension", []string{"queue", "--plot", "figure"}, "--plot"},
		{"plot over the output", []string{"queue", "-o", "q.png", "--plot", "q.png"}, "q.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			checkBadInput(t, out, errs, code, tc.want)
		})
	}
}

// TestQueueWorkers: the same seed gives the same file whatever the
// worker count, for each engine and a graph.
func TestQueueWorkers(t *testing.T) {
	for _, args := range [][]string{
		{"queue", "-n", "2^10", "--time", "20", "-t", "3", "-f", "json", "--every", "5"},
		{"queue", "-n", "2^10", "--time", "20", "-t", "3", "-f", "csv", "--engine", "servers"},
		{"queue", "-p", "graph", "-g", "regular:degree=3", "--sample", "vertex", "-d", "3", "-n", "2^10", "--time", "20", "-t", "3"},
	} {
		one, _, c1 := invoke(append(args, "-w", "1")...)
		two, _, c2 := invoke(append(args, "-w", "2")...)
		if c1 != 0 || c2 != 0 || one != two {
			t.Errorf("%v: -w 1 and -w 2 differ (exit %d, %d)", args, c1, c2)
		}
	}
}

// TestQueueOutput: the JSON holds what the table prints, the predictions
// say their kind and regime, and a graph run lists the predictions that
// do not apply with their reasons.
func TestQueueOutput(t *testing.T) {
	out, errs, code := invoke("queue", "-n", "2^12", "--time", "60", "-t", "2", "-f", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var f struct {
		Config struct {
			Engine string `json:"engine"`
		} `json:"config"`
		Trials []struct {
			WarmupRule string `json:"warmup_rule"`
		} `json:"trials"`
		Summary struct {
			Predictions []struct {
				Name, Kind, Regime string
				Applies            bool
			} `json:"predictions"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if f.Config.Engine != "levels" || len(f.Trials) != 2 || !strings.HasPrefix(f.Trials[0].WarmupRule, "mser") {
		t.Errorf("engine %q, %d trials, warm-up rule %q", f.Config.Engine, len(f.Trials), f.Trials[0].WarmupRule)
	}
	for _, p := range f.Summary.Predictions {
		if p.Kind == "" || p.Regime == "" {
			t.Errorf("prediction %q without kind or regime", p.Name)
		}
	}
	table, _, _ := invoke("queue", "-p", "graph", "-g", "cycle", "-n", "2^10", "--lambda", "0.7", "--time", "200", "-t", "2")
	for _, want := range []string{"pair approximation [approximation]", "not shown: fixed point on graphs", "does not grow with n", "chosen by MSER"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	// Too short to settle: the stationary predictions are withheld.
	table, _, _ = invoke("queue", "-p", "graph", "-g", "cycle", "-n", "2^10", "--time", "5", "-t", "1")
	if !strings.Contains(table, "not shown: pair approximation") || !strings.Contains(table, "run longer") {
		t.Errorf("a transient run shows a stationary prediction:\n%s", table)
	}
}

// TestQueueHelpExamples runs the examples of queue --help (each in a few
// seconds), the last writing to a file in a temporary directory.
func TestQueueHelpExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("short: a few seconds")
	}
	help, _, code := invoke("queue", "--help")
	if code != 0 || !strings.Contains(help, "Usage: graphalloc queue") || !strings.Contains(help, "Examples") {
		t.Fatalf("queue --help: exit %d", code)
	}
	t.Chdir(t.TempDir()) // the examples write their files there
	for _, line := range regexp.MustCompile(`(?m)^  graphalloc (queue .*)$`).FindAllStringSubmatch(help, -1) {
		args, _, _ := strings.Cut(line[1], "#")
		if _, errs, code := invoke(strings.Fields(args)...); code != 0 {
			t.Errorf("%s: exit %d: %s", line[1], code, errs)
		}
	}
}

// queueExamples are the runs of queue --help's examples that write their
// output to stdout in the default format: the command lines without -f
// and -o.
func queueExamples(t *testing.T) [][]string {
	help, _, _ := invoke("queue", "--help")
	var runs [][]string
	for _, line := range helpExamples(help) {
		args, err := shellWords(line)
		if err != nil {
			t.Fatal(err)
		}
		if args[1] != "queue" || slices.Contains(args, "--shard") || slices.Contains(args, "--resume") {
			continue
		}
		var run []string
		for i := 1; i < len(args); i++ {
			switch args[i] {
			case "-f", "-o", "--plot":
				i++
			default:
				run = append(run, args[i])
			}
		}
		runs = append(runs, run)
	}
	if len(runs) < 5 {
		t.Fatalf("%d examples of queue --help found", len(runs))
	}
	return runs
}

// TestQueueShardsMerge: for every example of queue --help, the shards of
// the run (2 and 3 of them, JSON lines), merged, are byte for byte the
// JSON of the unsharded run, whose summary merge rebuilds from the files'
// config (the predictions on the graph included); without a shard merge
// refuses, naming the missing trials and the shard not given, and
// --partial merges what is there.
func TestQueueShardsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs every example of queue --help five times")
	}
	dir := t.TempDir()
	for _, args := range queueExamples(t) {
		whole, errs, code := invoke(append(args, "-f", "json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for _, k := range []int{2, 3} {
			var files []string
			for i := range k {
				file := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
				if _, errs, code := invoke(append(args, "--shard", fmt.Sprintf("%d/%d", i, k), "-f", "jsonl", "-o", file)...); code != 0 {
					t.Fatalf("%v shard %d/%d: exit %d: %s", args, i, k, code, errs)
				}
				files = append(files, file)
			}
			merged, errs, code := invoke(append([]string{"merge"}, files...)...)
			if code != 0 || merged != whole {
				t.Errorf("%v: %d shards merged differ from the run (exit %d, %s):\n%s\nwant\n%s", args, k, code, errs, merged, whole)
			}
		}
		if !slices.Contains(args, "-t") || args[slices.Index(args, "-t")+1] != "1" {
			s0 := filepath.Join(dir, "s0.jsonl")
			_, errs, code := invoke("merge", s0)
			if code != 2 || !strings.Contains(errs, "missing") || !strings.Contains(errs, "shards 1/3, 2/3 not given") {
				t.Errorf("%v: one shard of 3 merged: exit %d, %s", args, code, errs)
			}
			if _, errs, code := invoke("merge", "--partial", s0, "-f", "table"); code != 0 || !strings.Contains(errs, "trials; the output is of those alone") {
				t.Errorf("%v: merge --partial: exit %d, %s", args, code, errs)
			}
		}
	}
}

// TestQueueResume cuts an uninterrupted run's JSON lines after each line,
// with half a line after the cut as a kill mid-write leaves, and resumes:
// the same file continued, and the JSON written from it, are byte for
// byte those of the uninterrupted run (trial i draws from (seed, i)
// alone). The file of another run is refused, and so is one of its
// shards' for a run of other trials.
func TestQueueResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"queue", "-p", "graph", "-g", "regular:degree=3", "-n", "2^9", "--lambda", "0.8", "--time", "30", "-t", "5", "--every", "5"}
	full := filepath.Join(dir, "full.jsonl")
	if _, errs, code := invoke(append(args, "-f", "jsonl", "-o", full)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, _ := os.ReadFile(full)
	wantJSON, _, _ := invoke(append(args, "-f", "json")...)
	lines := strings.SplitAfter(string(want), "\n")
	for cut := 1; cut < len(lines)-1; cut++ {
		part := filepath.Join(dir, "part.jsonl")
		if err := os.WriteFile(part, []byte(strings.Join(lines[:cut], "")+lines[cut][:len(lines[cut])/2]), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errs, code := invoke(append(args, "-f", "json", "--resume", part)...); code != 0 || out != wantJSON {
			t.Errorf("cut after line %d, json: exit %d, %s", cut, code, errs)
		}
		if _, errs, code := invoke(append(args, "-f", "jsonl", "-o", part, "--resume", part)...); code != 0 {
			t.Fatalf("cut after line %d: exit %d: %s", cut, code, errs)
		}
		if got, _ := os.ReadFile(part); !bytes.Equal(got, want) {
			t.Errorf("cut after line %d: the continued file differs from the uninterrupted one:\n%s", cut, got)
		}
	}
	for _, other := range [][]string{{"-s", "2"}, {"--lambda", "0.7"}, {"-t", "6"}, {"-d", "3", "--sample", "vertex"}} {
		_, errs, code := invoke(append(append(args[:len(args):len(args)], other...), "--resume", full)...)
		checkBadInput(t, "", errs, code, "is the output of another queue run")
	}
}

// TestQueueInterrupt interrupts a queue run once a trial is done, in JSON
// lines and in JSON: the finished trials are kept, the message says how to
// continue, and continuing as it says gives the uninterrupted run's file.
func TestQueueInterrupt(t *testing.T) {
	dir := t.TempDir()
	args := []string{"queue", "-n", "2^12", "--lambda", "0.9", "--time", "100", "-t", "8", "-w", "1", "--engine", "servers"}
	for _, format := range []string{"jsonl", "json"} {
		full, part := filepath.Join(dir, "full."+format), filepath.Join(dir, "part."+format)
		start := time.Now()
		if _, errs, code := invoke(append(args, "-f", format, "-o", full)...); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		took := time.Since(start)
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb bytes.Buffer
		done := make(chan int)
		go func() {
			done <- report(&errb, run(ctx, &out, &errb, append(args, "-f", format, "-o", part)))
		}()
		time.Sleep(took / 2) // half the trials
		cancel()
		code := <-done
		if code == 0 {
			t.Skip("the run finished before the interrupt reached it")
		}
		msg := errb.String()
		if !strings.Contains(msg, "interrupted: ") || strings.Contains(msg, "interrupted: 0 of") {
			t.Skipf("no trial finished before the interrupt: %s", msg)
		}
		if want := "continue with --resume " + part; code != 1 || !strings.Contains(msg, want) {
			t.Fatalf("%s: interrupted: exit %d, %q; want exit 1 and %q", format, code, msg, want)
		}
		if _, errs, code := invoke(append(args, "-f", format, "-o", part, "--resume", part)...); code != 0 {
			t.Fatalf("%s: resume: exit %d: %s", format, code, errs)
		}
		want, _ := os.ReadFile(full)
		if got, _ := os.ReadFile(part); !bytes.Equal(got, want) {
			t.Errorf("%s: the resumed file differs from the uninterrupted one", format)
		}
	}
}
