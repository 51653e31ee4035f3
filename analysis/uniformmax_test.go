package analysis

import (
	"math"
	"testing"
)

// TestExpectedMaxUniform checks the exact expectation against every one of
// the n^m assignments of a few small cases, against the normal limit
// √(m/4)·E[max of 4 standard normals] (1.02938) for 4 bins at m = 1024,
// and that it refuses what it cannot do.
func TestExpectedMaxUniform(t *testing.T) {
	for _, c := range []struct{ n, m int }{{2, 2}, {2, 7}, {3, 5}, {4, 6}, {5, 4}, {1, 9}, {4, 0}} {
		got, err := ExpectedMaxUniform(c.n, c.m)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteMax(c.n, c.m)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("n=%d m=%d: %.12f, enumeration %.12f", c.n, c.m, got, want)
		}
	}
	e, err := ExpectedMaxUniform(4, 1024)
	if err != nil {
		t.Fatal(err)
	}
	// The normal limit; the finite-m skew moves it by about 1%.
	if z := (e - 256) / (16 * 1.02938); math.Abs(z-1) > 0.02 {
		t.Errorf("n=4 m=1024: E[max] − m/4 = %.3f, %.4f of the normal limit", e-256, z)
	}
	for _, c := range []struct{ n, m int }{{0, 4}, {4, -1}, {4, 1 << 30}, {256, 16384}} {
		if _, err := ExpectedMaxUniform(c.n, c.m); err == nil {
			t.Errorf("n=%d m=%d: no error", c.n, c.m)
		}
	}
}

// bruteMax is E[max load] of m uniform balls in n bins by enumeration.
func bruteMax(n, m int) float64 {
	total, count := 0.0, 0
	loads := make([]int, n)
	var rec func(k int)
	rec = func(k int) {
		if k == m {
			mx := 0
			for _, l := range loads {
				mx = max(mx, l)
			}
			total += float64(mx)
			count++
			return
		}
		for b := range loads {
			loads[b]++
			rec(k + 1)
			loads[b]--
		}
	}
	rec(0)
	return total / float64(count)
}
