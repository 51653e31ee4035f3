package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeleteSequence: a sequence file is read before the graph is built
// and counted by the memory guard (TestMemoryBudget holds the other
// models' cases): a good one runs, and one that deletes a ball not present
// is refused with one line naming its line, exit 2.
func TestDeleteSequence(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "seq.txt"), filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(good, []byte("insert\ninsert\ndelete 1\ninsert\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("insert\ndelete 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := invoke("run", "-n", "4", "--delete", "file:"+good, "-t", "2", "--max-memory", "64M"); code != 0 {
		t.Errorf("a good sequence: exit %d, %s", code, errs)
	}
	_, errs, code := invoke("run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^16", "--delete", "file:"+bad)
	if code != 2 || !strings.Contains(errs, "line 2: delete 2") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, %q; want exit 2 and one line naming line 2", code, errs)
	}
}
