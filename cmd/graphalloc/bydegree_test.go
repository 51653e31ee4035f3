package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/results"
)

// The karate round trip: a run on a network whose degrees differ keeps
// its load against the degree in the JSON (summary.by_degree), so that
// plot redraws the degree panel, byte for byte the PNG run --plot drew,
// and a merge of its shards keeps it: the unsharded run's file, and its
// table's load-against-degree section; so does a run resumed from a file
// that holds it.
func TestByDegreeRoundTrip(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	run := []string{"run", "-p", "graph", "-g", "file:" + filepath.Join(root, "testdata", "graphs", "karate.txt"), "-t", "4"}
	mustRun(t, append(run, "-f", "json", "-o", at("k.json"), "--plot", at("k.png"))...)

	var f struct {
		Summary struct {
			ByDegree []results.DegreeStat `json:"by_degree"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(readFile(t, at("k.json")), &f); err != nil {
		t.Fatal(err)
	}
	bd := f.Summary.ByDegree
	vertices := 0
	for _, d := range bd {
		vertices += d.Vertices
		if d.Trials != 4 {
			t.Errorf("class %+v: want 4 trials", d)
		}
	}
	// Zachary's karate club: 34 members, degrees 1 to 17.
	if len(bd) < 2 || vertices != 34 || bd[0].DegreeLo != 1 || bd[len(bd)-1].DegreeHi != 17 {
		t.Fatalf("by_degree %+v", bd)
	}

	mustRun(t, "plot", at("k.json"), "-o", at("redrawn.png"))
	if !bytes.Equal(readFile(t, at("redrawn.png")), readFile(t, at("k.png"))) {
		t.Error("plot k.json draws another figure than run --plot (the degree panel lost?)")
	}

	mustRun(t, append(run, "--shard", "0/2", "-f", "json", "-o", at("k0.json"))...)
	mustRun(t, append(run, "--shard", "1/2", "-f", "jsonl", "-o", at("k1.jsonl"))...)
	mustRun(t, "merge", at("k0.json"), at("k1.jsonl"), "-o", at("merged.json"))
	if !bytes.Equal(readFile(t, at("merged.json")), readFile(t, at("k.json"))) {
		t.Error("the merged shards differ from the unsharded run's JSON")
	}
	// A run resumed from a file whose summary holds by_degree over its
	// trials (here shard 0/2's: trials 0 and 2) keeps it, merged with the
	// new trials'.
	mustRun(t, append(run, "-f", "json", "-o", at("resumed.json"), "--resume", at("k0.json"))...)
	if !bytes.Equal(readFile(t, at("resumed.json")), readFile(t, at("k.json"))) {
		t.Error("the run resumed from shard 0/2 differs from the unsharded run's JSON (by_degree lost?)")
	}
	table := mustRun(t, "merge", at("k0.json"), at("k1.jsonl"), "-f", "table")
	if want := mustRun(t, run...); table != want || !strings.Contains(table, "load against degree") {
		t.Errorf("merge -f table:\n%s\nwant run's table:\n%s", table, want)
	}
}
