package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// hyperFile is a 4-uniform hypergraph on 12 vertices, every vertex in 3
// of its 9 hyperedges.
const hyperFile = "hyper:../../testdata/graphs/hyper.txt"

// TestHyperCommands: run, compare, bounds and info take both hypergraph
// specs, name the process's bound in the user's terms, and the graph
// process refuses a hypergraph.
func TestHyperCommands(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string // substrings of stdout
	}{
		{"run file", []string{"run", "-p", "hyper", "-g", hyperFile, "-t", "3"},
			[]string{"hyper on " + hyperFile + ": n=12 m=12", "probes/ball"}},
		{"run generated", []string{"run", "-p", "hyper", "-g", "hypergraph:rank=12,edges=4096", "-n", "4096", "-t", "2", "-f", "json"},
			[]string{`"process": "hyper"`, `"min_rank": 12`, `"d": 12`}},
		{"compare", []string{"compare", "-p", "hyper,one-choice", "-g", "hypergraph:rank=4,edges=2048", "-n", "2048", "-t", "2"},
			[]string{"hypergraph:edges=2048,rank=4", "hyper", "one-choice"}},
		{"bounds applies", []string{"bounds", "-p", "hyper", "-g", "hypergraph:rank=16,edges=4096", "-n", "4096"},
			[]string{"[God08]", "O(1)"}},
		{"bounds file", []string{"bounds", "-p", "hyper", "-g", hyperFile},
			[]string{"n=12 m=12", "d=4"}},
		{"info file", []string{"info", "-g", hyperFile},
			[]string{"hyperedges:   9", "rank:         min 4, mean 4, max 4 (4-uniform)", "degree:       min 3, mean 3, max 3"}},
		{"info generated", []string{"info", "-g", "hypergraph:rank=3,edges=100", "-n", "50"},
			[]string{"vertices:     50", "hyperedges:   100", "(3-uniform)", "mean 6"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := invoke(tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	// The bound applies with hyperedges of 16 >= ln 4096 vertices on a
	// balanced random hypergraph, and not with 3.
	for _, tc := range []struct {
		rank    string
		applies bool
	}{{"16", true}, {"3", false}} {
		out, errOut, code := invoke("bounds", "-f", "json", "-p", "hyper", "-g", "hypergraph:rank="+tc.rank+",edges=4096", "-n", "4096")
		if code != 0 {
			t.Fatal(errOut)
		}
		var res struct {
			Bounds []struct {
				Name    string
				Applies bool
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Bounds) == 0 || !strings.Contains(res.Bounds[0].Name, "[God08]") || res.Bounds[0].Applies != tc.applies {
			t.Errorf("rank=%s: bounds %+v, want [God08] applying: %v", tc.rank, res.Bounds, tc.applies)
		}
	}
	if _, errOut, code := invoke("run", "-p", "graph", "-g", "hypergraph:rank=3,edges=10", "-n", "20"); code != 2 || !strings.Contains(errOut, "use the hyper process") {
		t.Errorf("graph on a hypergraph: exit %d, %s", code, errOut)
	}
	if _, errOut, code := invoke("gen", "-g", "hypergraph:rank=3,edges=10", "-n", "20"); code != 2 || !strings.Contains(errOut, "gen writes graphs") {
		t.Errorf("gen on a hypergraph: exit %d, %s", code, errOut)
	}
	if _, errOut, code := invoke("run", "-p", "hyper", "-g", "regular:degree=4", "-n", "20"); code != 2 || !strings.Contains(errOut, "hyper process needs a hypergraph") {
		t.Errorf("hyper on a graph: exit %d, %s", code, errOut)
	}
}
