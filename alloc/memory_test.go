package alloc

import (
	"context"
	"slices"
	"testing"
)

// The references of the stateful processes, Memory and KD: plain code, one
// ball at a time through the public Rand methods, in the same draw order as
// the fast loops, checking each ball's contract; the trial's memory or round
// lives in the reference's own variables across the whole trial.

// refStatePlace places m balls of Memory or KD into L, starting with an
// empty memory or a new round: the batched reference (refStateful) with
// every ball reading the loads as they are.
func refStatePlace(p Process, L []uint32, m int64, r *Rand) {
	ball := refStateful(p, len(L))
	for range m {
		L[ball(L, r)]++
	}
}

// memoryKDCases are the cases of the reference tests of memory and
// kd-choice (and of their batched forms, batch_test.go).
func memoryKDCases() []struct {
	name string
	n    int
	p    Process
} {
	return []struct {
		name string
		n    int
		p    Process
	}{
		{"memory/d=1/K=1", 1000, Memory{D: 1, K: 1}},
		{"memory/d=1/K=1/left", 1000, Memory{D: 1, K: 1, Ties: TiesLeft}},
		{"memory/d=2/K=1", 1000, Memory{D: 2, K: 1}},
		{"memory/d=3/K=1/left", 1000, Memory{D: 3, K: 1, Ties: TiesLeft}},
		{"memory/d=1/K=1/n=1", 1, Memory{D: 1, K: 1}},
		{"memory/d=2/K=3", 500, Memory{D: 2, K: 3}},
		{"memory/d=1/K=0", 500, Memory{D: 1}},
		{"memory/K>d+K/n=3", 3, Memory{D: 2, K: 5}},
		{"memory/n=1", 1, Memory{D: 2, K: 2}},
		{"kd/k=1/d=2", 1000, KD{D: 2, K: 1}},
		{"kd/k=2/d=4", 1000, KD{D: 4, K: 2}},
		{"kd/k=3/d=3", 500, KD{D: 3, K: 3}},
		{"kd/k=3/d=7/n=5", 5, KD{D: 7, K: 3}},
	}
}

// TestMemoryKDReference: Place, and a trial sampled every 3 balls, against
// the plain reference, ball for ball, with the tuned loops' read-ahead and
// prefetching on and off (enginePaths).
func TestMemoryKDReference(t *testing.T) {
	enginePaths(t, func(t *testing.T) {
		for _, tc := range memoryKDCases() {
			t.Run(tc.name, func(t *testing.T) {
				for _, m := range []int64{0, 1, 7, int64(tc.n), 5 * int64(tc.n)} {
					ref := make([]uint32, tc.n)
					refStatePlace(tc.p, ref, m, NewRand(42))
					// Place, one call.
					b := NewBins(tc.n)
					st := tc.p.Place(b, m, NewRand(42))
					if !slices.Equal(b.Loads(), ref) {
						t.Fatalf("m=%d: Place and reference differ", m)
					}
					if m > 0 && (st.Probes < 1 || st.MaxProbes < 1) {
						t.Fatalf("m=%d: implausible stats %+v", m, st)
					}
					// A trial in batches of 3 (Every): the state carries over.
					c := Config{Process: tc.p, N: tc.n, M: m, Seed: 9, Every: 3}
					var got []uint32
					c.Loads = func(_ int, L []uint32) { got = slices.Clone(L) }
					res, err := c.Trial(context.Background(), 0, NewBins(tc.n))
					if err != nil {
						t.Fatal(err)
					}
					ref = make([]uint32, tc.n)
					refStatePlace(tc.p, ref, m, TrialRand(9, 0))
					if !slices.Equal(got, ref) {
						t.Fatalf("m=%d: trial in batches of 3 and reference differ", m)
					}
					var sum int64
					for i, k := range res.LoadCounts {
						sum += int64(i) * k
					}
					if sum != m {
						t.Fatalf("m=%d: counts hold %d balls", m, sum)
					}
				}
			})
		}
	})
}

// TestMemoryKDReduce: Memory with K = 0 and left ties is Greedy[d], and KD
// with K = 1 is Greedy[d], draw for draw (Greedy's unpipelined loop draws
// the same way; n = 1000 is below the pipelining threshold).
func TestMemoryKDReduce(t *testing.T) {
	for _, d := range []int{1, 2, 3, 5} {
		g := NewBins(1000)
		Greedy{D: d}.Place(g, 3000, NewRand(5))
		for _, p := range []Process{Memory{D: d, Ties: TiesLeft}, KD{D: d, K: 1}} {
			b := NewBins(1000)
			p.Place(b, 3000, NewRand(5))
			if !slices.Equal(b.Loads(), g.Loads()) {
				t.Errorf("%v: loads differ from Greedy[%d]", p, d)
			}
		}
	}
}

func TestMemoryKDCheck(t *testing.T) {
	cases := []struct {
		name string
		p    Process
		n    int
		want string
	}{
		{"memory/d=0", Memory{K: 1}, 3, "alloc: memory needs 1 <= d <= 1048576, got d=0"},
		{"memory/K<0", Memory{D: 1, K: -1}, 3, "alloc: memory needs a memory 0 <= K <= 1024, got memory=-1"},
		{"memory/n=0", Memory{D: 1, K: 1}, 0, "alloc: memory needs at least one bin, got n=0"},
		{"kd/k=0", KD{D: 2}, 3, "alloc: kd-choice needs 1 <= k <= d balls per round, got k=0 d=2"},
		{"kd/k>d", KD{D: 2, K: 3}, 3, "alloc: kd-choice needs 1 <= k <= d balls per round, got k=3 d=2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Check(tc.n)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if tc.n == 0 {
				return
			}
			if st := tc.p.Place(NewBins(tc.n), 5, NewRand(1)); st != (Stats{}) {
				t.Fatalf("Place ran despite a failed check: %+v", st)
			}
		})
	}
	for _, tc := range []struct {
		name string
		p    Params
		want string
	}{
		{"memory", Params{D: 1, Memory: MaxMemory + 1}, "alloc: memory needs a memory 0 <= K <= 1024, got memory=1025"},
		{"kd-choice", Params{D: 2, K: 3}, "alloc: kd-choice needs 1 <= k <= d balls per round, got k=3 d=2"},
	} {
		if _, err := NewProcess(tc.name, tc.p); err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}
