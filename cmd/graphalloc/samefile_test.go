package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameFileRefused: an output that would overwrite an input, or
// another output, is refused with one line and exit 2 before any work, in
// every command; the input is left as it was. --resume and -o may name one
// file (the run reads it whole first), and so may two inputs.
func TestSameFileRefused(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	karate, err := os.ReadFile(filepath.Join(root, "testdata", "graphs", "karate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(at("k.txt"), karate, 0o644)
	os.WriteFile(at("k.svg"), karate, 0o644) // a graph file with a figure's name
	os.Symlink("k.txt", at("klink.txt"))
	if _, errs, code := invoke("run", "-n", "64", "-t", "2", "-f", "json", "-o", at("r.json")); code != 0 {
		t.Fatal(errs)
	}
	b, _ := os.ReadFile(at("r.json"))
	os.WriteFile(at("r.svg"), b, 0o644) // a result with a figure's name
	graph := []string{"run", "-p", "graph", "-g", "file:" + at("k.txt"), "-t", "2"}
	for _, tc := range []struct {
		args []string
		want string // part of the one line
	}{
		{append(graph, "-o", at("k.txt")), "--output: " + at("k.txt") + " is the file --graph reads"},
		{append(graph, "-o", at("klink.txt")), "is the file --graph reads"},
		{append(graph, "--per-vertex", at("./k.txt")), "--per-vertex: "},
		{append(graph, "-o", at("same.json"), "--per-vertex", at("same.json")), "--output and --per-vertex both name"},
		{append(graph, "-o", at("p.svg"), "--plot", at("p.svg")), "--output and --plot both name"},
		{append(graph, "--per-vertex", "-"), "the results and --per-vertex both write to stdout"},
		{append(graph, "-o", "-", "--per-vertex", "-"), "--output and --per-vertex both write to stdout"},
		{[]string{"run", "-n", "64", "-t", "2", "-f", "json", "--resume", at("r.svg"), "--plot", at("r.svg")}, "--plot: " + at("r.svg") + " is the file --resume reads"},
		{[]string{"compare", "-g", at("k.txt"), "-o", at("k.txt")}, "is the file --graph reads"},
		{[]string{"compare", "-g", "cycle", "--graphs", "star;file:" + at("k.svg"), "--plot", at("k.svg")}, "is the file --graph reads"},
		{[]string{"study", "1", "-o", at("s.svg"), "--plot", at("s.svg")}, "both name"},
		{[]string{"gen", "-g", at("k.txt"), "-o", at("k.txt")}, "is the file --graph reads"},
		{[]string{"merge", at("r.json"), at("k.txt"), "-o", at("k.txt")}, "is the file merge reads"},
		{[]string{"plot", at("r.json"), "-o", at("r.json"), "--format", "svg"}, "is the file plot reads"},
	} {
		out, errs, code := invoke(tc.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, len(out), errs, tc.want)
		}
	}
	if b, _ := os.ReadFile(at("k.txt")); string(b) != string(karate) {
		t.Error("the graph file was changed")
	}
	if _, errs, code := invoke("run", "-n", "64", "-t", "2", "-f", "json", "--resume", at("r.json"), "-o", at("r.json")); code != 0 {
		t.Errorf("--resume r.json -o r.json: exit %d, %s", code, errs)
	}
	if _, errs, code := invoke("run", "-p", "graph", "-g", at("k.txt"), "-t", "1", "--per-vertex", "-", "-o", at("r2.json")); code != 0 {
		t.Errorf("--per-vertex - with -o FILE: exit %d, %s", code, errs)
	}
}
