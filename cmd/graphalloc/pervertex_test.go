package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPerVertexFlag: --per-vertex writes a row a vertex, and the memory
// guard counts what it gathers (26 bytes a vertex, and each trial's loads
// as four bytes a bin): refused with one line where the same run without
// it passes (the control).
func TestPerVertexFlag(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "pv.csv")
	_, errs, code := invoke("run", "-p", "graph", "-g", "regular:degree=4", "-n", "1000", "-t", "3", "--per-vertex", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(b), "\n"); rows != 1001 {
		t.Fatalf("%d lines, want a header and 1000 vertices", rows)
	}
	big := []string{"run", "-p", "graph", "-g", "regular:degree=4,implicit", "-n", "1e8", "-m", "1", "-t", "1", "-w", "1", "--max-memory", "1GiB"}
	if _, errs, code := invoke(big...); code != 0 {
		t.Fatalf("without --per-vertex: exit %d: %s", code, errs)
	}
	_, errs, code = invoke(append(big, "--per-vertex", csv)...)
	if code != 2 || !strings.Contains(errs, "needs about 2.89 GiB") || strings.Count(strings.TrimSpace(errs), "\n") > 1 {
		t.Fatalf("with --per-vertex: exit %d, %q; want exit 2 and the memory it needs", code, errs)
	}
}

// TestPerVertexNeedsVertices: --per-vertex for a process that has no
// vertices (not a graph process) is one line and exit 2, before the run
// (2^40 balls would take hours); "-" is stdout.
func TestPerVertexNeedsVertices(t *testing.T) {
	for _, p := range []string{"greedy", "one-choice", "weighted", "left"} {
		out, errs, code := invoke("run", "-p", p, "-n", "2^20", "-m", "2^40", "--per-vertex", filepath.Join(t.TempDir(), "pv.csv"))
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "-p "+p+" has no vertices") {
			t.Errorf("-p %s: exit %d, stdout %q, stderr %q", p, code, out, errs)
		}
	}
	out, errs, code := invoke("run", "-p", "graph", "-g", "cycle", "-n", "8", "-t", "1", "-o", filepath.Join(t.TempDir(), "r.txt"), "--per-vertex", "-")
	if code != 0 || !strings.HasPrefix(out, "vertex,degree,mean_load,sd_load,max_fraction\n") || strings.Count(out, "\n") != 9 {
		t.Errorf("--per-vertex -: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
