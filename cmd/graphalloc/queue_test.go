package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
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
	dir := t.TempDir()
	for _, line := range regexp.MustCompile(`(?m)^  graphalloc (queue .*)$`).FindAllStringSubmatch(help, -1) {
		args := strings.Fields(strings.ReplaceAll(line[1], "q.json", dir+"/q.json"))
		if _, errs, code := invoke(args...); code != 0 {
			t.Errorf("%s: exit %d: %s", line[1], code, errs)
		}
	}
}
