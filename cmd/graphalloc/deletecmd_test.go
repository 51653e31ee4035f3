package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeleteMemory: run --delete counts the deletion state in the estimate
// made before the graph is built (study.RunMemory: the ball array, the
// non-empty list, the sequence, and the series of the steps), so a run
// that cannot fit is refused up front with one line and exit 2; the
// controls fit and run.
func TestDeleteMemory(t *testing.T) {
	seq := filepath.Join(t.TempDir(), "seq.txt")
	if err := os.WriteFile(seq, []byte("insert\ninsert\ndelete 1\ninsert\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // in the one line of a refusal; "" for a control
	}{
		// 2^28 balls of 4 bytes in each of two running trials: 2 GiB.
		{"ball array", []string{"run", "-n", "2^20", "-m", "2^28", "--delete", "abku", "--workers", "2", "--max-memory", "512M"}, "most of it is the deletion state (2 GiB)"},
		// The same on a graph: refused before the graph is built.
		{"ball array on a graph", []string{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^16", "-m", "2^30", "--delete", "fifo", "--workers", "1", "--max-memory", "1G"}, "needs about 4 GiB"},
		// The default 100n steps, a point each: 6.5·10^6 points of 80 bytes a trial.
		{"series of the default steps", []string{"run", "-n", "2^16", "--delete", "random:beta=0.5", "--every", "1", "--max-memory", "1G"}, "most of it is the results held"},
		{"random fits", []string{"run", "-n", "2^10", "--delete", "random:beta=0.5", "--every", "1n", "-t", "2", "--max-memory", "1G"}, ""},
		{"abku fits", []string{"run", "-n", "2^10", "--delete", "abku", "--steps", "10n", "-t", "2", "--max-memory", "64M"}, ""},
		{"sequence fits", []string{"run", "-n", "4", "--delete", "file:" + seq, "-t", "2", "--max-memory", "64M"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := invoke(tc.args...)
			switch {
			case tc.want == "" && code != 0:
				t.Errorf("%v: exit %d, %s; want it to run", tc.args, code, errs)
			case tc.want != "" && (code != 2 || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1):
				t.Errorf("%v: exit %d, %q; want exit 2 and one line saying %q", tc.args, code, errs, tc.want)
			}
		})
	}
}

// TestDeleteSequenceRefused: a sequence file that deletes a ball not
// present is refused before the graph is built, naming its line.
func TestDeleteSequenceRefused(t *testing.T) {
	seq := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(seq, []byte("insert\ndelete 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := invoke("run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^16", "--delete", "file:"+seq)
	if code != 2 || !strings.Contains(errs, "line 2: delete 2") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, %q; want exit 2 and one line naming line 2", code, errs)
	}
}
