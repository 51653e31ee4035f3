package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEngine: --engine and the automatic choice.
func TestEngine(t *testing.T) {
	type out struct {
		Config struct {
			N      int64  `json:"n"`
			Engine string `json:"engine"`
		} `json:"config"`
		Trials []struct {
			LoadCounts []int64 `json:"load_counts"`
		} `json:"trials"`
	}
	parse := func(t *testing.T, args ...string) out {
		t.Helper()
		stdout, errs, code := invoke(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var o out
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	for _, tc := range []struct {
		name   string
		args   []string
		engine string
	}{
		// auto: the per-bin engine wherever it runs, so that outputs
		// from before the level engine stay the same.
		{"auto/small", []string{"run", "-n", "2^12", "-t", "2"}, ""},
		{"auto/beyond-2^32", []string{"run", "-n", "1e10", "-m", "1e4", "-t", "2"}, "levels"},
		{"forced", []string{"run", "-p", "left", "-d", "3", "-n", "2^12", "-t", "2", "--engine", "levels"}, "levels"},
		{"forced/graph-complete", []string{"run", "-p", "graph", "-n", "1000", "-t", "2", "--engine", "levels"}, "levels"},
		// A graph process on K_n beyond 2^32 − 1 takes the level engine,
		// as run without -p graph does.
		{"auto/graph-complete-beyond-2^32", []string{"run", "-p", "graph", "-g", "complete", "-n", "1e10", "-m", "1e4", "-t", "2"}, "levels"},
		// The same when the spec sets n (a spec's n= overrides -n).
		{"auto/graph-complete-spec-n-beyond-2^32", []string{"run", "-p", "graph", "-g", "complete:n=10000000000", "-m", "1e4", "-t", "2"}, "levels"},
		{"forced/rank", []string{"run", "-p", "rank", "-d", "2.5", "-n", "2^40", "-m", "1e4", "-t", "1", "--every", "5000", "--profile"}, "levels"},
		{"bins", []string{"run", "-n", "2^12", "-t", "2", "--engine", "bins"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := parse(t, append(tc.args, "-f", "json")...)
			if o.Config.Engine != tc.engine {
				t.Fatalf("engine %q, want %q", o.Config.Engine, tc.engine)
			}
			for _, tr := range o.Trials {
				var bins int64
				for _, c := range tr.LoadCounts {
					bins += c
				}
				if bins != o.Config.N {
					t.Fatalf("load counts %v do not add up to n=%d", tr.LoadCounts, o.Config.N)
				}
			}
		})
	}
	// The level engine's output does not depend on the workers either.
	a, _, _ := invoke("run", "-n", "2^14", "-t", "5", "--engine", "levels", "-f", "json", "-w", "1")
	b, _, _ := invoke("run", "-n", "2^14", "-t", "5", "--engine", "levels", "-f", "json", "-w", "2")
	if a != b || a == "" {
		t.Error("level engine output depends on --workers")
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown", []string{"run", "--engine", "fast"}, "--engine"},
		{"bins beyond 2^32", []string{"run", "-n", "2^40", "--engine", "bins"}, "--engine levels"},
		{"beyond 2^62", []string{"run", "-n", "2^62+1"}, "--bins"},
		{"beyond 2^62", []string{"run", "-n", "2^63"}, "--bins"},
		{"graph beyond 2^32", []string{"run", "-p", "graph", "-g", "cycle", "-n", "2^33"}, "--bins: need 1 <= n <= 4294967295"},
		{"implicit beyond 2^40", []string{"run", "-p", "graph", "-g", "regular:degree=4,implicit", "-n", "1.1e12"}, "2^40 for an implicit graph"},
		{"graph complete beyond 2^32 on bins", []string{"run", "-p", "graph", "-g", "complete", "-n", "2^33", "--engine", "bins"}, "--bins: need 1 <= n <= 4294967295"},
		{"graph complete spec n beyond 2^32 on bins", []string{"run", "-p", "graph", "-g", "complete:n=8589934592", "--engine", "bins"}, "need n <= 4294967295"},
		{"info implicit spec n beyond 2^32", []string{"info", "-g", "regular:degree=4,implicit,n=10000000000"}, "need n <= 4294967295"},
		{"compare complete spec n beyond 2^32", []string{"compare", "-g", "complete:n=8589934592", "-p", "graph", "-t", "1", "-n", "2^10"}, "need n <= 4294967295"},
		{"complete beyond 2^62", []string{"run", "-p", "graph", "-n", "2^62+1", "--engine", "levels"}, "--bins"},
		{"not exchangeable", []string{"run", "-p", "graph", "-g", "cycle", "-n", "100", "--engine", "levels"}, "--engine levels"},
		{"weighted", []string{"run", "-p", "weighted", "--engine", "levels"}, "--engine levels"},
		// The level engine draws no walk: it would run walk:len=3 as Greedy[2].
		{"graph walk", []string{"run", "-p", "graph", "--sample", "walk:len=3", "-n", "1000", "--engine", "levels"}, "--engine levels"},
		{"g-bounded walk", []string{"run", "-p", "g-bounded", "--sample", "walk:len=0", "-n", "1000", "--engine", "levels"}, "--engine levels"},
		{"graph walk beyond 2^32", []string{"run", "-p", "graph", "--sample", "walk:len=3", "-n", "2^33", "-m", "10"}, "--bins: need 1 <= n <= 4294967295"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := invoke(tc.args...)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, %q; want exit 2 mentioning %q", code, errs, tc.want)
			}
		})
	}
}
