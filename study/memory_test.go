package study

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/graphalloc/graphalloc/alloc"
)

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64 // 0: refused
	}{
		{"1000", 1000},
		{"512M", 512 << 20},
		{"4GiB", 4 << 30},
		{"1.5K", 1536},
		{"NaN", 0},
		{"nan", 0},
		{"Inf", 0},
		{"-Inf", 0},
		{"+Inf", 0},
		{"-1", 0},
		{"-1G", 0},
		{"0", 0},
		{"0.5", 0}, // under a byte: it would truncate to 0, which means no limit
		{"", 0},
		{"lots", 0},
		{"1e30", 0},
	} {
		got, err := ParseBytes(tc.in)
		if (tc.want == 0) != (err != nil) || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// fakeSystem writes the files MemoryLimit reads under a temporary
// directory: files maps a path under it to its contents.
func fakeSystem(t *testing.T, files map[string]string) MemorySources {
	dir := t.TempDir()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	}
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
	return MemorySources{Proc: filepath.Join(dir, "proc"), Cgroup: filepath.Join(dir, "cg"),
		AddressSpace: func() (uint64, bool) { return 0, false }}
}

func TestMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	meminfo := "MemTotal: 33554432 kB\nMemAvailable: 16777216 kB\n" // 16 GiB available
	status := "Name: graphalloc\nVmSize: 1048576 kB\n"              // 1 GiB mapped
	for _, tc := range []struct {
		name  string
		files map[string]string
		as    uint64 // soft RLIMIT_AS; 0: none
		want  Limit
	}{
		{"nothing readable", nil, 0, Limit{}},
		{"MemAvailable only", map[string]string{"proc/meminfo": meminfo}, 0, Limit{16 * gib, "MemAvailable"}},
		{"rlimit below", map[string]string{"proc/meminfo": meminfo, "proc/self/status": status}, 3 * gib,
			Limit{2*gib - runtimeMargin, "RLIMIT_AS less the memory mapped"}},
		{"rlimit above", map[string]string{"proc/meminfo": meminfo, "proc/self/status": status}, 64 * gib,
			Limit{16 * gib, "MemAvailable"}},
		{"rlimit under what is mapped", map[string]string{"proc/meminfo": meminfo, "proc/self/status": status}, gib,
			Limit{0, "RLIMIT_AS less the memory mapped"}},
		{"cgroup v2 max", map[string]string{
			"proc/meminfo": meminfo, "proc/self/cgroup": "0::/user.slice/job\n",
			"cg/user.slice/job/memory.max": "4294967296\n", "cg/user.slice/job/memory.current": "1073741824\n",
			"cg/user.slice/job/memory.stat": "anon 1\ninactive_file 536870912\nactive_file 2\n",
		}, 0, Limit{3*gib + gib/2, "the cgroup's memory.max less its use"}},
		{"cgroup v2 unlimited", map[string]string{
			"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job\n",
			"cg/job/memory.max": "max\n", "cg/job/memory.current": "1073741824\n",
		}, 0, Limit{16 * gib, "MemAvailable"}},
		{"cgroup v2 parent binds", map[string]string{
			"proc/meminfo": meminfo, "proc/self/cgroup": "0::/a/b\n",
			"cg/a/memory.max": "2147483648\n", "cg/a/memory.current": "1073741824\n",
			"cg/a/b/memory.max": "max\n", "cg/a/b/memory.current": "1000\n",
		}, 0, Limit{gib, "the cgroup's memory.max less its use"}},
		{"cgroup v2 namespace root", map[string]string{
			"proc/meminfo": meminfo, "proc/self/cgroup": "0::/host/path/not/here\n",
			"cg/memory.max": "1073741824\n", "cg/memory.current": "0\n",
		}, 0, Limit{gib, "the cgroup's memory.max less its use"}},
		{"cgroup v1 limit", map[string]string{
			"proc/meminfo": meminfo, "proc/self/cgroup": "5:cpu,cpuacct:/\n4:memory:/job\n0::/\n",
			"cg/memory/job/memory.limit_in_bytes": "2147483648\n", "cg/memory/job/memory.usage_in_bytes": "536870912\n",
		}, 0, Limit{gib + gib/2, "the cgroup's memory.limit_in_bytes less its use"}},
		{"cgroup v1 unlimited", map[string]string{
			"proc/meminfo": meminfo, "proc/self/cgroup": "4:memory:/job\n",
			"cg/memory/job/memory.limit_in_bytes": "9223372036854771712\n", "cg/memory/job/memory.usage_in_bytes": "5\n",
		}, 0, Limit{16 * gib, "MemAvailable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fakeSystem(t, tc.files)
			if tc.as > 0 {
				s.AddressSpace = func() (uint64, bool) { return tc.as, true }
			}
			if got := s.MemoryLimit(); got != tc.want {
				t.Errorf("MemoryLimit() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestHistogramLen(t *testing.T) {
	for _, tc := range []struct {
		n, m, want int64
	}{
		{1, 1 << 31, 1<<31 + 1}, // one bin holds every ball
		{5, 0, 1},
		{5, 3, 4}, // at most m balls in a bin
		// m/n + 4·√((m/n + 1)·ln n) + 4·ln n + 16 = 1 + 21.06 + 55.45 + 16, and the load 0.
		{1 << 20, 1 << 20, 94},
	} {
		if got := HistogramLen(tc.n, tc.m); got != tc.want {
			t.Errorf("HistogramLen(%d, %d) = %d, want %d", tc.n, tc.m, got, tc.want)
		}
	}
	// Far above one-choice's largest load, which at m = n = 2^20 is
	// about ln n / ln ln n ≈ 5.
	if h := HistogramLen(1<<20, 1<<20); h < 10 || h > 200 {
		t.Errorf("HistogramLen(2^20, 2^20) = %d, want a small multiple of ln n", h)
	}
}

// TestRunMemoryParts checks that each part the estimate counts can, alone,
// carry over a limit a run whose loads fit it, which is all a guard that
// counts only the loads sees.
func TestRunMemoryParts(t *testing.T) {
	greedy, err := alloc.Lookup("greedy")
	if err != nil {
		t.Fatal(err)
	}
	base := RunMemory{Process: greedy, Params: alloc.Params{D: 2}, N: 1 << 20, M: 1 << 20, Running: 2, Held: 10}
	const limit = 16 << 20 // base: 2 MiB of one-byte loads and 10 small trials
	if b := base.Bytes(); b > limit {
		t.Fatalf("base run takes %d bytes, want it within %d", b, limit)
	}
	for _, tc := range []struct {
		name string
		with func(r *RunMemory)
		part string
	}{
		{"histogram", func(r *RunMemory) { r.N, r.M = 2, 1e8 }, "the results held"},
		{"series", func(r *RunMemory) { r.Every = 1 }, "the results held"},
		{"trial list", func(r *RunMemory) { r.Held = 1e6 }, "the results held"},
		{"profile", func(r *RunMemory) { r.N, r.M, r.Held, r.Profile = 4, 4e6, 1, true }, "the results held"},
		{"json", func(r *RunMemory) { r.Held, r.JSON = 8000, true }, "the results held"},
		{"per-vertex", func(r *RunMemory) { r.PerVertex = 26 }, "the per-vertex sums"},
		{"graph", func(r *RunMemory) { r.Graph = 32 << 20 }, "the graph"},
		{"loads", func(r *RunMemory) { r.N, r.Running = 1<<24, 4 }, "the loads"},
	} {
		r := base
		tc.with(&r)
		if b := r.Bytes(); b <= limit {
			t.Errorf("%s: %d bytes, want more than %d", tc.name, b, limit)
		}
		if loads := r.Parts()[1]; tc.part != "the loads" && loads.Bytes > limit {
			t.Errorf("%s: the loads alone take %d bytes, want them within %d", tc.name, loads.Bytes, limit)
		}
		if got := r.Largest().What; got != tc.part {
			t.Errorf("%s: largest part %q, want %q", tc.name, got, tc.part)
		}
	}
	// The level engine holds no loads; a huge m saturates, never wraps.
	lv := RunMemory{Process: greedy, N: 1 << 62, M: math.MaxInt64, Levels: true, Every: 1, Held: 1 << 40}
	if b := lv.Bytes(); b != math.MaxInt64 {
		t.Errorf("saturated estimate = %d, want MaxInt64", b)
	}
}

// TestHardLimit: the limits a --max-memory cannot raise leave MemAvailable
// out (control: MemoryLimit takes it on the same files).
func TestHardLimit(t *testing.T) {
	const gib = 1 << 30
	files := map[string]string{
		"proc/meminfo":     "MemAvailable: 1048576 kB\n", // 1 GiB available
		"proc/self/status": "VmSize: 1048576 kB\n",       // 1 GiB mapped
	}
	s := fakeSystem(t, files)
	s.AddressSpace = func() (uint64, bool) { return 5 * gib, true }
	if got, want := s.HardLimit(), (Limit{4*gib - runtimeMargin, "RLIMIT_AS less the memory mapped"}); got != want {
		t.Errorf("HardLimit() = %+v, want %+v", got, want)
	}
	if got := s.MemoryLimit(); got.Bytes != gib {
		t.Errorf("MemoryLimit() = %+v, want MemAvailable's 1 GiB", got)
	}
	s.AddressSpace = func() (uint64, bool) { return 0, false }
	if got := s.HardLimit(); got.Source != "" {
		t.Errorf("HardLimit() with no rlimit or cgroup = %+v, want none", got)
	}
}
