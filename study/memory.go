package study

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
)

// ParseBytes parses a size (graphalloc's --max-memory): 1000, 512M, 4G, 4GiB, 1.5T (K, M, G, T are
// powers of 1024, with or without "iB"/"B"). It refuses what is not a size of at least one
// byte: NaN, infinities, negatives, zero.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := 1.0
	if t != "" {
		if i := strings.IndexByte("KMGT", t[len(t)-1]); i >= 0 {
			mult = math.Pow(1024, float64(i+1))
			t = t[:len(t)-1]
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	// !(x*mult >= 1) holds for NaN too, whose int64 conversion is
	// negative and would read as no limit at all.
	if err != nil || !(x*mult >= 1) || math.IsInf(x, 0) || x*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size (examples: 512M, 4G, 1.5T)", s)
	}
	return int64(x * mult), nil
}

// MemorySources says where MemoryLimit reads the limits from; the zero
// value reads the running process's own (/proc, /sys/fs/cgroup and
// getrlimit). Tests point it at files of their own.
type MemorySources struct {
	Proc   string // the proc file system: meminfo, self/cgroup, self/status; default /proc
	Cgroup string // where the cgroup hierarchies are mounted; default /sys/fs/cgroup
	// AddressSpace returns the soft RLIMIT_AS, and false if there is
	// none; nil: getrlimit(2).
	AddressSpace func() (uint64, bool)
}

// Limit is the memory a command may still take, and what sets it.
type Limit struct {
	Bytes  int64  // 0: unknown, no limit found
	Source string // what set it, in words ("MemAvailable", "RLIMIT_AS", …)
}

// runtimeMargin is what the address-space limit keeps back beyond what the
// process maps already: the Go runtime's own growth (goroutine stacks, the
// garbage collector's metadata, the heap's arena rounding).
const runtimeMargin = 64 << 20

// unlimited is the least value read as no limit: cgroup v1 writes
// 2^63 − 4096 for none.
const unlimited = 1 << 62

// MemoryLimit returns the smallest of the limits on what the process may
// still allocate: the kernel's MemAvailable; the soft RLIMIT_AS less the
// address space the process maps already (VmSize) and runtimeMargin; and
// for each cgroup from the process's own up to the root, its memory.max
// (v2) or memory.limit_in_bytes (v1) less what it uses, not counting the
// inactive file cache, which the kernel reclaims before it kills. Limits
// that cannot be read are skipped; with none at all, Bytes is 0.
func (s MemorySources) MemoryLimit() Limit { return s.limit(true) }

// HardLimit is MemoryLimit without MemAvailable: the limits that an
// allocation cannot pass (RLIMIT_AS, the cgroup's), which hold even when
// the user sets a budget of their own above the memory available (which
// swap and reclaimed cache may extend).
func (s MemorySources) HardLimit() Limit { return s.limit(false) }

func (s MemorySources) limit(available bool) Limit {
	proc := orDefault(s.Proc, "/proc")
	var best Limit
	take := func(v int64, src string) {
		if v < 0 {
			v = 0
		}
		if best.Source == "" || v < best.Bytes {
			best = Limit{v, src}
		}
	}
	if kb, ok := procField(path.Join(proc, "meminfo"), "MemAvailable:"); ok && available {
		take(kb*1024, "MemAvailable")
	}
	as := s.AddressSpace
	if as == nil {
		as = addressSpaceLimit
	}
	if soft, ok := as(); ok && soft < unlimited {
		vm, _ := procField(path.Join(proc, "self/status"), "VmSize:")
		take(int64(soft)-vm*1024-runtimeMargin, "RLIMIT_AS less the memory mapped")
	}
	if v, src, ok := cgroupLimit(proc, orDefault(s.Cgroup, "/sys/fs/cgroup")); ok {
		take(v, src)
	}
	return best
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// AvailableMemory returns the memory the process may still allocate, the
// smallest of its limits (MemorySources.MemoryLimit), or 0 if it cannot
// tell.
func AvailableMemory() int64 { return MemorySources{}.MemoryLimit().Bytes }

// procField returns the number after key on its line of the file name
// (a /proc file of "Key: value kB" lines), and whether it found one.
func procField(name, key string) (int64, bool) {
	f, err := os.Open(name)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			v, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// cgroupLimit returns the room left under the tightest memory limit of the
// process's cgroups (v2, else v1), read from proc/self/cgroup and the
// hierarchies under root, and what set it; false if there is none.
func cgroupLimit(proc, root string) (int64, string, bool) {
	data, err := os.ReadFile(path.Join(proc, "self/cgroup"))
	if err != nil {
		return 0, "", false
	}
	best, src, found := int64(math.MaxInt64), "", false
	for line := range strings.Lines(string(data)) {
		// hierarchy-ID:controllers:path; v2 is "0::path".
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		var dir, limFile, useFile, name string
		switch {
		case f[0] == "0" && f[1] == "":
			dir, limFile, useFile, name = root, "memory.max", "memory.current", "the cgroup's memory.max"
		case strings.Contains(","+f[1]+",", ",memory,"):
			dir, limFile, useFile, name = root+"/memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "the cgroup's memory.limit_in_bytes"
		default:
			continue
		}
		if v, ok := cgroupRoom(dir, path.Clean("/"+f[2]), limFile, useFile); ok && v < best {
			best, src, found = v, name+" less its use", true
		}
	}
	return best, src, found
}

// cgroupRoom returns the least room left under the limit file limFile,
// less the usage file useFile, in the cgroup dir/cg and in each of its ancestors
// (a parent's limit binds its children). A cgroup namespace mounts the
// process's own cgroup at dir while /proc/self/cgroup may name it from the
// host's root: paths that do not exist under dir are skipped, dir itself
// is read last.
func cgroupRoom(dir, cg, limFile, useFile string) (int64, bool) {
	best, found := int64(math.MaxInt64), false
	for {
		d := path.Join(dir, cg)
		if lim, ok := readCount(path.Join(d, limFile)); ok && lim < unlimited {
			use, _ := readCount(path.Join(d, useFile))
			if inactive, ok := procField(path.Join(d, "memory.stat"), "inactive_file "); ok {
				use -= min(inactive, use)
			}
			best, found = min(best, lim-use), true
		}
		if cg == "/" {
			return best, found
		}
		cg = path.Dir(cg)
	}
}

// readCount reads a file holding one number ("max" is no number).
func readCount(name string) (int64, bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return v, err == nil
}
