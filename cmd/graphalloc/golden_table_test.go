package main

import (
	"strings"
	"testing"
)

// goldenTable is the table of run, compare and study invocations whose JSON
// is recorded under testdata/golden/table: every process with
// representative parameters, on the complete graph and on a random regular
// graph where the process takes a graph, a compare grid and every study at
// its tiny size. A redesign must reproduce these bytes; an intended change
// is regenerated with -update and named in its commit.
var goldenTable = [][]string{
	{"run", "-p", "one-choice", "-n", "1000", "-t", "3"},
	{"run", "-p", "greedy", "-d", "3", "-n", "1000", "-m", "4n", "-t", "3"},
	{"run", "-p", "left", "-d", "2", "-n", "1000", "-t", "3"},
	{"run", "-p", "firstdiff", "-d", "3", "-n", "1000", "-t", "3"},
	{"run", "-p", "unbalanced", "-d", "2", "-n", "1000", "-t", "3"},
	{"run", "-p", "one-plus-beta", "--beta", "0.3", "-n", "1000", "-t", "3"},
	{"run", "-p", "rank", "-d", "2", "-n", "1000", "-t", "3"},
	{"run", "-p", "rank", "-d", "1.5", "-n", "1000", "-t", "3"},
	{"run", "-p", "graph", "-n", "1000", "-t", "3"},
	{"run", "-p", "graph", "-g", "regular:degree=6", "-n", "1000", "-t", "3"},
	{"run", "-p", "graph", "-g", "regular:degree=6", "--sample", "vertex", "-n", "1000", "-t", "3"},
	{"run", "-p", "graph", "-g", "cycle", "-n", "1000", "-m", "10n", "-t", "3", "--every", "5n"},
	{"run", "-p", "graph", "-g", "torus:dim=2", "-n", "1024", "-t", "3"},
	{"run", "-p", "graph", "-g", "nonregular:mindeg=8,core=64", "-n", "1024", "-t", "3"},
	{"run", "-p", "grouped", "-d", "4", "-n", "1024", "-t", "3"},
	{"run", "-p", "window", "-d", "4", "-n", "1024", "-t", "3"},
	{"run", "-p", "weighted", "-d", "2", "-n", "1000", "-t", "3"},
	{"run", "-p", "weighted", "--weights", "pareto:shape=3", "-n", "1000", "-t", "3"},
	{"run", "-p", "greedy", "-n", "1000", "-t", "2", "--engine", "levels", "--profile"},
	{"run", "-p", "quantile", "--delta", "0.3", "-n", "1000", "-m", "4n", "-t", "3"},
	{"run", "-p", "quantile", "-n", "1000", "-t", "2", "--engine", "levels"},
	{"compare", "-g", "regular:degree=4", "-g", "cycle", "-g", "complete", "-n", "2^8,2^10", "-t", "3"},
	{"compare", "-p", "one-choice,greedy,left,one-plus-beta,rank", "-n", "2^10", "-t", "3"},
	{"study", "two-choices", "--tiny"},
	{"study", "graph-degree", "--tiny"},
	{"study", "contiguous", "--tiny"},
	{"study", "firstdiff", "--tiny"},
	{"study", "unbalanced", "--tiny"},
	{"study", "heavy", "--tiny"},
	{"study", "7", "--tiny"},
	{"study", "8", "--tiny"},
	{"study", "noise", "--tiny"},
	{"study", "batches", "--tiny"},
	{"study", "local-search", "--tiny"},
	{"study", "degree-scale", "--tiny"},
	{"study", "information", "--tiny"},
	{"study", "deletions", "--tiny"},
	{"study", "supermarket", "--tiny"},
}

// TestGoldenTable reruns every invocation of goldenTable with -f json and
// compares the output byte for byte with its recorded file.
func TestGoldenTable(t *testing.T) {
	var cases []goldenCase
	for _, args := range goldenTable {
		name := strings.NewReplacer("/", "_", ":", "_", "=", "_", ",", "_", "^", "p").Replace(strings.Join(args, "_")) + ".json"
		cases = append(cases, goldenCase{"table/" + name, append(args, "-f", "json")})
	}
	goldenCases(t, cases)
}
