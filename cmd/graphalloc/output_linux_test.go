package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/internal/testfs"
)

// oneLine fails t unless the command exited with want and said one line
// on stderr (none for exit 0).
func oneLine(t *testing.T, what string, code, want int, errs string) {
	t.Helper()
	lines := strings.Count(errs, "\n")
	if code != want || (want != 0 && lines != 1) || (want == 0 && errs != "") {
		t.Errorf("%s: exit %d, stderr %q; want exit %d and one line", what, code, errs, want)
	}
}

// TestOutputTargets: every command that writes a file writes a device
// node in place (it stays a device: as root, the atomic rename used to
// turn /dev/null into a regular file), follows a symlink (kept) to a
// device or a file, feeds a FIFO's reader, and fails on a full device
// with one line and exit 1. The devices are the test's own, never /dev.
func TestOutputTargets(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	null := testfs.Null(t, dir, "null")
	testfs.Full(t, dir, "full")
	os.Symlink("null", at("null.svg"))
	os.Symlink("real.json", at("link.json"))
	os.Symlink("sub/new.json", at("dangling.json"))
	os.Mkdir(at("sub"), 0o755)
	run := []string{"run", "-n", "64", "-t", "2"}
	graph := []string{"run", "-p", "graph", "-g", "cycle", "-n", "64", "-t", "2"}
	for _, args := range [][]string{
		append(run, "-f", "json", "-o", null),
		append(run, "-f", "jsonl", "-o", null),
		append(graph, "-o", null, "--per-vertex", null, "--plot", at("null.svg")),
		{"compare", "-g", "cycle", "-n", "64", "-t", "1", "-o", null, "--plot", at("null.svg")},
		{"gen", "-g", "cycle", "-n", "64", "-o", null},
		// Its vertex names would go beside the output: not beside a device.
		{"gen", "-g", filepath.Join(root, "testdata", "graphs", "strings.txt"), "--format", "mtx", "-o", null},
		append(run, "-f", "json", "-o", at("link.json")),
		append(run, "-f", "json", "-o", at("dangling.json")),
	} {
		if _, errs, code := invoke(args...); code != 0 {
			t.Errorf("%s: exit %d, %s", strings.Join(args, " "), code, errs)
		}
	}
	if !testfs.IsCharDevice(t, null) {
		t.Fatalf("%s is no longer a device", null)
	}
	for _, f := range []string{"real.json", "sub/new.json"} {
		if b, err := os.ReadFile(at(f)); err != nil || !json.Valid(b) {
			t.Errorf("%s, written through a symlink: %v, %.40q", f, err, b)
		}
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"dangling.json", "full", "link.json", "null", "null.svg", "real.json", "sub"}) {
		t.Errorf("the directory holds %q", got)
	}
	_, errs, code := invoke(append(run, "-o", at("full"))...)
	oneLine(t, "-o full", code, 1, errs)
	if !strings.Contains(errs, "no space left on device") {
		t.Errorf("-o full: %q", errs)
	}
}

// TestOutputFIFO: a FIFO's reader gets the whole output, and its end.
func TestOutputFIFO(t *testing.T) {
	fifo := testfs.FIFO(t, t.TempDir(), "fifo")
	got := testfs.ReadAll(fifo)
	_, errs, code := invoke("run", "-n", "64", "-t", "2", "-f", "json", "-o", fifo)
	oneLine(t, "-o fifo", code, 0, errs)
	if b := <-got; !json.Valid(b) {
		t.Errorf("the reader got %.60q", b)
	}
}

// TestOutputFileSystems: a read-only file system is refused before any
// work (exit 2); a full one fails the write (exit 1), keeping the old file
// and leaving no temporary file. One line each.
func TestOutputFileSystems(t *testing.T) {
	ro := testfs.Tmpfs(t, "size=64k", true, nil)
	_, errs, code := invoke("run", "-n", "64", "-t", "2", "-o", filepath.Join(ro, "r.txt"))
	oneLine(t, "read-only", code, 2, errs)
	if !strings.Contains(errs, "read-only file system") {
		t.Errorf("read-only: %q", errs)
	}
	full := testfs.Tmpfs(t, "size=64k", false, func(dir string) {
		os.WriteFile(filepath.Join(dir, "g.txt"), []byte("old"), 0o644)
	})
	// A cycle on 2^16 vertices: about 700 KB of edge list.
	_, errs, code = invoke("gen", "-g", "cycle", "-n", "2^16", "-o", filepath.Join(full, "g.txt"))
	oneLine(t, "full disk", code, 1, errs)
	if b, _ := os.ReadFile(filepath.Join(full, "g.txt")); string(b) != "old" {
		t.Errorf("full disk: the old file holds %d bytes", len(b))
	}
	if got := testfs.Names(t, full); !slices.Equal(got, []string{"g.txt"}) {
		t.Errorf("full disk: left %q", got)
	}
}
