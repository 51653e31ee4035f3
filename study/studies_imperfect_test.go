package study

import (
	"context"
	"slices"
	"testing"
)

// batchSizes keeps 1, 2, 5 per decade up to 10^5 and only the sizes that
// divide m, so that every bound for batches (stated at the end of a batch)
// can apply.
func TestBatchSizes(t *testing.T) {
	cases := []struct {
		name string
		m    int64
		want []int64
	}{
		{"m=10^4", 10_000, []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000}},
		{"m=10^6 stops at 10^5", 1_000_000, []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000}},
		{"m=30 keeps divisors", 30, []int64{1, 2, 5, 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := batchSizes(c.m); !slices.Equal(got, c.want) {
				t.Errorf("batchSizes(%d) = %v, want %v", c.m, got, c.want)
			}
		})
	}
}

// The shapes the noise, batches and local-search studies report hold at the tiny size
// already: noise's gaps grow with g and σ, and g-bounded is never below
// g-myopic (the adversary picks the heavier bin every time the coin might);
// batches' one-choice rows do not depend on b (one-choice reads no load)
// and the b = n bounds apply at b = n only; local-search fits the three
// tori.
func TestImperfectStudiesShape(t *testing.T) {
	run := func(s *Study) *Report {
		t.Helper()
		rep, err := s.Run(context.Background(), s.Tiny, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	t.Run("noise", func(t *testing.T) {
		rep := run(noiseStudy)
		g := rep.Tables[0].Rows
		first, last := g[0], g[len(g)-1]
		if !(last[2].(float64) > first[2].(float64) && last[4].(float64) > first[4].(float64)) {
			t.Errorf("gap does not grow with g: %v … %v", first, last)
		}
		if first[2] != first[4] {
			t.Errorf("g = 0: g-bounded %v and g-myopic %v differ; both are two-choice on the same seed", first[2], first[4])
		}
		for _, r := range g {
			if r[2].(float64) < r[4].(float64) {
				t.Errorf("g = %v: g-bounded %v below g-myopic %v", r[1], r[2], r[4])
			}
		}
		s := rep.Tables[1].Rows
		if !(s[len(s)-1][2].(float64) > s[0][2].(float64)) {
			t.Errorf("noisy's gap does not grow with σ: %v … %v", s[0], s[len(s)-1])
		}
	})
	t.Run("batches", func(t *testing.T) {
		rep := run(batchesStudy)
		rows := rep.Tables[0].Rows
		n := int64(batchesStudy.Tiny.N)
		for _, r := range rows {
			if r[2] != rows[0][2] {
				t.Errorf("b = %v: one-choice gap %v, at b = 1 %v", r[0], r[2], rows[0][2])
			}
			if atN := r[0].(int64) == n; atN != (r[6] != nil) || atN != (r[7] != nil) {
				t.Errorf("b = %v: the b = n bounds are %v, %v", r[0], r[6], r[7])
			}
		}
	})
	t.Run("local-search", func(t *testing.T) {
		rep := run(localSearchStudy)
		if got := len(rep.Tables[1].Rows); got != 3 {
			t.Errorf("%d fits, want the cycle and the 2-d and 3-d tori", got)
		}
	})
}
