package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/graphalloc/graphalloc/study"
)

// TestMemoryBudget holds run, info and gen to the one memory budget
// (study.RunMemory, graphgen.Plan, analysis.DescribeBytes): each case is
// refused before any work, with one line and exit 2, where a guard that
// counted only the loads let it run into the Go runtime's fatal "out of
// memory"; each control fits and runs.
func TestMemoryBudget(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // in the one line of a refusal; "" for a control, which runs
	}{
		// One bin: the histogram has m + 1 = 2^31 + 1 entries, 16 GiB.
		{"histogram", []string{"run", "-n", "1", "-m", "2^31", "-t", "1", "--max-memory", "1G"}, "most of it is the results held (16 GiB)"},
		// 10^8 points of 48 bytes in each of 10 trials.
		{"series", []string{"run", "--every", "1", "-m", "1e8", "-n", "2", "--max-memory", "1G"}, "most of it is the results held"},
		// 10^8 results of about 460 bytes, held until the output.
		{"trial list", []string{"run", "-t", "100000000", "-n", "2", "-m", "1", "--max-memory", "1G"}, "most of it is the results held"},
		// The shard's 10^5 trials, 448 bytes and a two-entry histogram each.
		{"trial list in a shard", []string{"run", "-t", "100000000", "-n", "2", "-m", "1", "--shard", "0/1000", "--max-memory", "1M"}, "needs about 44.3 MiB"},
		// A histogram of 10^6 entries: 8 MB, and 32 MB more of json text.
		{"json text", []string{"run", "-n", "2", "-m", "2e6", "-t", "1", "-f", "json", "--max-memory", "20M"}, "most of it is the results held (38.3 MiB)"},
		{"without json text", []string{"run", "-n", "2", "-m", "2e6", "-t", "1", "-f", "csv", "--max-memory", "20M"}, ""},
		{"fits", []string{"run", "-n", "2", "-m", "1e5", "-t", "3", "--every", "1000", "--max-memory", "1G"}, ""},
		{"info", []string{"info", "-g", "regular:degree=4", "-n", "1e6", "--max-memory", "100M"}, "this graph needs about"},
		{"info of a file", []string{"info", "-g", "file:../../testdata/graphs/karate.txt", "--max-memory", "1K"}, "this graph needs about"},
		// lesmis (77 vertices, 254 edges) is read within 100K (73.1 KiB
		// planned from its size); describing it then needs 112 KiB.
		{"info of a file, once read", []string{"info", "-g", "file:../../testdata/graphs/lesmis.txt", "--max-memory", "100K"}, "this graph needs about 112 KiB"},
		{"info of a file fits", []string{"info", "-g", "file:../../testdata/graphs/lesmis.txt", "--max-memory", "200K"}, ""},
		{"info fits", []string{"info", "-g", "regular:degree=4", "-n", "100", "--max-memory", "100M"}, ""},
		{"gen", []string{"gen", "-g", "regular:degree=4", "-n", "1e6", "--max-memory", "1M"}, "this graph needs about"},
		// The implicit K_2000 is listed before it is written: 16 MB.
		{"gen listing", []string{"gen", "-g", "complete", "-n", "2000", "--max-memory", "10M"}, "this graph needs about 15.3 MiB"},
		{"gen fits", []string{"gen", "-g", "regular:degree=4", "-n", "100", "--max-memory", "1M"}, ""},
		// Its first point, Greedy[d] at n = 2^6, holds 2.89 KiB.
		{"study", []string{"study", "two-choices", "--tiny", "--max-memory", "1K"}, "a point at n=64 needs about 2.89 KiB"},
		// run --delete: the deletion state counts before the graph is
		// built. 2^28 balls of 4 bytes in each of two running trials: 2 GiB.
		{"delete: ball array", []string{"run", "-n", "2^20", "-m", "2^28", "--delete", "abku", "--workers", "2", "--max-memory", "512M"}, "most of it is the deletion state (2 GiB)"},
		{"delete: ball array on a graph", []string{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^16", "-m", "2^30", "--delete", "fifo", "--workers", "1", "--max-memory", "1G"}, "needs about 4 GiB"},
		// The default 100n steps, a point each: 6.5·10^6 points of 80 bytes a trial.
		{"delete: series of the default steps", []string{"run", "-n", "2^16", "--delete", "random:beta=0.5", "--every", "1", "--max-memory", "1G"}, "most of it is the results held"},
		{"delete: random fits", []string{"run", "-n", "2^10", "--delete", "random:beta=0.5", "--every", "1n", "-t", "2", "--max-memory", "1G"}, ""},
		{"delete: abku fits", []string{"run", "-n", "2^10", "--delete", "abku", "--steps", "10n", "-t", "2", "--max-memory", "64M"}, ""},
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

// TestMaxMemoryRefused: a --max-memory that is not a size of at least a
// byte is bad usage in every command that takes it; NaN once read as no
// limit at all.
func TestMaxMemoryRefused(t *testing.T) {
	for _, cmd := range [][]string{{"run"}, {"compare"}, {"study", "two-choices", "--tiny"}, {"info", "-g", "complete", "-n", "5"}, {"gen", "-g", "complete", "-n", "5"}} {
		for _, v := range []string{"NaN", "Inf", "-Inf", "-1", "0", "0.5", "lots"} {
			args := append(append([]string{}, cmd...), "--max-memory", v)
			_, errs, code := invoke(args...)
			if code != 2 || !strings.Contains(errs, "--max-memory: ") || strings.Count(errs, "\n") != 1 {
				t.Errorf("%v: exit %d, %q; want exit 2 and one line about --max-memory", args, code, errs)
			}
		}
	}
}

// TestMemoryLimitSources: without --max-memory the limit is the least of
// the system's, here a fake cgroup's memory.max, and the refusal names it.
func TestMemoryLimitSources(t *testing.T) {
	dir := t.TempDir()
	fsys := fstest.MapFS{
		"proc/meminfo":          {Data: []byte("MemAvailable: 67108864 kB\n")}, // 64 GiB
		"proc/self/cgroup":      {Data: []byte("0::/job\n")},
		"cg/job/memory.max":     {Data: []byte("536870912\n")}, // 512 MiB
		"cg/job/memory.current": {Data: []byte("0\n")},
		"proc/self/status":      {Data: []byte("VmSize: 2097152 kB\n")}, // 2 GiB mapped
	}
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
	old := memorySources
	t.Cleanup(func() { memorySources = old })
	memorySources = study.MemorySources{Proc: filepath.Join(dir, "proc"), Cgroup: filepath.Join(dir, "cg"),
		AddressSpace: func() (uint64, bool) { return 0, false }}
	// 2^30 one-byte loads: within MemAvailable, not within the cgroup.
	_, errs, code := invoke("run", "-n", "2^30", "-t", "1", "-w", "1")
	want := "more than the memory available (512 MiB, the cgroup's memory.max less its use)"
	if code != 2 || !strings.Contains(errs, want) {
		t.Errorf("run under a 512 MiB cgroup: exit %d, %q; want exit 2 saying %q", code, errs, want)
	}
	// An address space limit below what the process maps already leaves
	// no room at all: a limit of 0 bytes, not the absence of a limit.
	memorySources.AddressSpace = func() (uint64, bool) { return 1 << 30, true }
	_, errs, code = invoke("run", "-n", "2^10", "-t", "1", "-w", "1")
	want = "more than the memory available (0 B, RLIMIT_AS less the memory mapped)"
	if code != 2 || !strings.Contains(errs, want) {
		t.Errorf("run under an exhausted RLIMIT_AS: exit %d, %q; want exit 2 saying %q", code, errs, want)
	}
}
