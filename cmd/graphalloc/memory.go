package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Memory guard: before anything large is allocated, run estimates what the
// loads and the graph will take and refuses a run that cannot fit, with a
// message instead of the Go runtime's fatal "out of memory".

// parseBytes parses a size: 1000, 512M, 4G, 4GiB, 1.5T (K, M, G, T are
// powers of 1024, with or without "iB"/"B").
func parseBytes(s string) (int64, error) {
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
	if err != nil || x <= 0 || math.IsInf(x, 0) || x*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size (examples: 512M, 4G, 1.5T)", s)
	}
	return int64(x * mult), nil
}

// availableMemory returns the memory the kernel reports as available
// (MemAvailable), or 0 if it cannot tell.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// checkMemory refuses a run whose estimate exceeds limit (or, if limit is
// 0, the available memory).
func checkMemory(need, limit int64) error {
	what := "the memory available"
	if limit == 0 {
		limit = availableMemory()
	} else {
		what = "--max-memory"
	}
	if limit > 0 && need > limit {
		return usagef("this run needs about %s, more than %s (%s); use fewer workers, a smaller n, or raise --max-memory", graphgen.FormatBytes(need), what, graphgen.FormatBytes(limit))
	}
	return nil
}
