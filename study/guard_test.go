package study

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuard: the guard's refusals name the limit that binds and the
// largest part, and what fits passes.
func TestGuard(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	// 1 GiB available, no cgroup, no RLIMIT_AS.
	if err := os.WriteFile(filepath.Join(dir, "meminfo"), []byte("MemAvailable: 1048576 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := MemorySources{Proc: dir, Cgroup: filepath.Join(dir, "none"), AddressSpace: func() (uint64, bool) { return 0, false }}
	for _, c := range []struct {
		subject, largest string
		need, max        int64
		want             string // "" if it fits
	}{
		{"this run", "", 1 << 29, 0, ""},
		{"this run", "the loads (2 GiB)", 2 << 30, 0, "this run needs about 2 GiB, more than the memory available (1 GiB); most of it is the loads (2 GiB); use fewer workers"},
		{"this graph", "", 2 << 20, 1 << 20, "this graph needs about 2 MiB, more than --max-memory (1 MiB); use a smaller graph, or raise --max-memory"},
		{"this run", "", 1 << 20, 2 << 20, ""},
	} {
		err := s.Check(c.subject, c.need, c.largest, c.max)
		if (err == nil) != (c.want == "") || err != nil && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s needs %d of %d: %v, want %q", c.subject, c.need, c.max, err, c.want)
		}
	}
}
