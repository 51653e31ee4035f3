package analysis

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"gonum.org/v1/gonum/stat/distuv"
)

// The infinite process's fixed point: d = 1 is Poisson(lam)'s tails; for
// every d the tails hold lam balls a bin, fall, and fall faster with d.
func TestInfiniteTails(t *testing.T) {
	for _, lam := range []float64{0.5, 1, 4} {
		s, err := InfiniteTails(1, lam, 1e-15)
		if err != nil {
			t.Fatal(err)
		}
		pois := distuv.Poisson{Lambda: lam}
		for i := 1; i < len(s); i++ {
			if want := pois.Survival(float64(i) - 0.5); math.Abs(s[i]-want) > 1e-12+1e-9*want {
				t.Errorf("d = 1, lam = %g: s_%d = %g, Poisson's tail %g", lam, i, s[i], want)
			}
		}
		for _, d := range []int{1, 2, 3} {
			s, err := InfiniteTails(d, lam, 1e-30)
			if err != nil {
				t.Fatal(err)
			}
			var mass float64
			for i := 1; i < len(s); i++ {
				mass += s[i]
				if s[i] > s[i-1] {
					t.Errorf("d = %d, lam = %g: s_%d = %g above s_%d = %g", d, lam, i, s[i], i-1, s[i-1])
				}
			}
			if math.Abs(mass-lam) > 1e-9 {
				t.Errorf("d = %d, lam = %g: Σ s_i = %.12f", d, lam, mass)
			}
		}
	}
	a, _ := InfiniteTails(2, 1, 1e-30)
	b, _ := InfiniteTails(3, 1, 1e-30)
	if !(len(b) < len(a) && b[3] < a[3]) {
		t.Errorf("d = 3 falls no faster than d = 2: %v, %v", a[:4], b[:4])
	}
	for _, bad := range [][2]float64{{0, 1}, {2, 0}, {2, 17}, {2, math.NaN()}} {
		if _, err := InfiniteTails(int(bad[0]), bad[1], 1e-12); err == nil {
			t.Errorf("InfiniteTails(%v, %v) accepted", bad[0], bad[1])
		}
	}
}

// TestABKUInfiniteFixedPoint: ABKU's infinite process with Greedy[2] at
// m = n, after 20n steps (a ball lives n steps on average, so nearly every
// ball of the start has left), has the tails s_i of InfiniteTails, level
// by level: |mean − s_i| ≤ q·se + 5/n, q the Student-t quantile at
// 1 − 1e-6/2 over the trials, the 5/n the finite-n allowance of the fluid
// tests. It is not the static process at the same load (the static
// Greedy[2] has s_1 = tanh 1), and one-choice is not Greedy[2]: both
// controls must be rejected by the same test.
func TestABKUInfiniteFixedPoint(t *testing.T) {
	const n, trials = 1 << 12, 40
	steps := int64(20 * n)
	if testing.Short() {
		steps = 12 * n
	}
	fixed := func(d int) []float64 {
		s, err := InfiniteTails(d, 1, 1e-30)
		if err != nil {
			t.Fatal(err)
		}
		return s[:9]
	}
	tails := func(p alloc.Process) [][]float64 {
		c := alloc.Dynamic{Process: p, N: n, M: n, Steps: steps, Del: alloc.Deletions{Model: alloc.DeleteABKU}, Seed: 2027}
		var out [][]float64
		trs := make([]int, trials)
		for i := range trs {
			trs[i] = i
		}
		err := alloc.RunDynamic(context.Background(), c, trs, 0, func(r alloc.DynamicResult) error {
			s := make([]float64, 9)
			for i := range s {
				for l := i; l < len(r.LoadCounts); l++ {
					s[i] += float64(r.LoadCounts[l]) / n
				}
			}
			out = append(out, s)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: trials - 1}.Quantile(1 - 1e-6/2)
	rejects := func(got [][]float64, want []float64) (bool, string) {
		for i := 1; i < len(want); i++ {
			var mean, sq float64
			for _, s := range got {
				mean += s[i] / float64(len(got))
			}
			for _, s := range got {
				sq += (s[i] - mean) * (s[i] - mean)
			}
			se := math.Sqrt(sq / float64(len(got)-1) / float64(len(got)))
			if math.Abs(mean-want[i]) > q*se+5.0/n {
				return true, fmt.Sprintf("level %d: mean %.5f, want %.5f ± %.5f", i, mean, want[i], q*se+5.0/n)
			}
		}
		return false, ""
	}
	greedy := tails(alloc.Greedy{D: 2})
	if bad, at := rejects(greedy, fixed(2)); bad {
		t.Errorf("Greedy[2] infinite process against its fixed point: rejected at %s", at)
	}
	one := tails(alloc.OneChoice{})
	if bad, _ := rejects(one, fixed(2)); !bad {
		t.Error("control: one-choice's infinite process passed for Greedy[2]'s fixed point")
	}
	if bad, at := rejects(one, fixed(1)); bad {
		t.Errorf("one-choice's infinite process against its own fixed point (Poisson(1) tails): rejected at %s", at)
	}
	static := []float64{1, math.Tanh(1)} // the static Greedy[2] at m = n: s_1 = tanh 1
	if bad, _ := rejects(greedy, static); !bad {
		t.Error("control: the infinite process passed for the static process's s_1 = tanh 1")
	}
}
