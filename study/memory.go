package study

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// ParseBytes parses a size (graphalloc's --max-memory): 1000, 512M, 4G, 4GiB, 1.5T (K, M, G, T are
// powers of 1024, with or without "iB"/"B").
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
	if err != nil || x <= 0 || math.IsInf(x, 0) || x*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size (examples: 512M, 4G, 1.5T)", s)
	}
	return int64(x * mult), nil
}

// AvailableMemory returns the memory the kernel reports as available
// (MemAvailable), or 0 if it cannot tell.
func AvailableMemory() int64 {
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
