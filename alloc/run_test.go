package alloc

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestRunWorkersIndependent(t *testing.T) {
	c := Config{Process: Greedy{D: 2}, N: 1000, M: 5000, Seed: 11, Every: 1000}
	trials := []int{0, 1, 2, 3, 4, 5, 6}
	var want []Result
	for _, w := range []int{1, 2, 4, 7} {
		var got []Result
		err := Run(context.Background(), c, trials, w, func(r Result) error {
			got = append(got, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range got {
			if r.Trial != trials[i] {
				t.Fatalf("workers=%d: result %d is trial %d", w, i, r.Trial)
			}
		}
		if want == nil {
			want = got
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("workers=%d: results differ from workers=1", w)
		}
	}
	// A shard of the trials gives the same results as in the full run.
	var got []Result
	if err := Run(context.Background(), c, []int{2, 5}, 2, func(r Result) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []Result{want[2], want[5]}) {
		t.Fatal("sharded trials differ")
	}
	// The series ends at m and counts the gap against the running average.
	s := want[0].Series
	if len(s) != 5 || s[4].Balls != 5000 || s[4].Gap != want[0].Gap {
		t.Fatalf("series %+v", s)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := Config{Process: OneChoice{}, N: 10, M: 10, Seed: 1}
	err := Run(ctx, c, []int{0, 1, 2}, 1, func(Result) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestRunEmitError(t *testing.T) {
	boom := errors.New("boom")
	c := Config{Process: OneChoice{}, N: 10, M: 10, Seed: 1}
	n := 0
	err := Run(context.Background(), c, []int{0, 1, 2, 3}, 2, func(Result) error { n++; return boom })
	if !errors.Is(err, boom) || n != 1 {
		t.Fatalf("err = %v after %d emits", err, n)
	}
}

func TestConfigCheck(t *testing.T) {
	for name, c := range map[string]Config{
		"no process": {N: 1},
		"n=0":        {Process: OneChoice{}},
		"m<0":        {Process: OneChoice{}, N: 1, M: -1},
		"every<0":    {Process: OneChoice{}, N: 1, Every: -1},
		"bad d":      {Process: Greedy{}, N: 1},
	} {
		if c.Check() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestGapFractionalLoad: the gap is max load − m/n with m/n a real number,
// on both engines, in batches, for a process that runs its own trials and
// with a series beside it: at n = 1000, m = 1500 every gap ends in .5.
// Control: computing it as float64(c.M/int64(c.N)) (integer division, in
// binsTrial or levelsTrial) gives max load − 1, a gap of 2.0 instead of
// 1.5 for a max load of 3.
func TestGapFractionalLoad(t *testing.T) {
	for _, c := range []Config{
		{Process: Greedy{D: 2}, N: 1000, M: 1500, Seed: 3},
		{Process: Greedy{D: 2}, N: 1000, M: 1500, Seed: 3, Every: 700},
		{Process: Greedy{D: 2}, N: 1000, M: 1500, Seed: 3, Engine: EngineLevels},
		{Process: Greedy{D: 2}, N: 1000, M: 1500, Seed: 3, Batch: 100},
		{Process: OneChoice{}, N: 1000, M: 1500, Seed: 3},
		{Process: OneChoice{}, N: 3, M: 4, Seed: 3, Engine: EngineLevels},
	} {
		err := Run(context.Background(), c, []int{0, 1, 2}, 1, func(r Result) error {
			load := float64(c.M) / float64(c.N)
			if r.Gap != r.MaxLoad-load || r.Gap == math.Trunc(r.Gap) {
				t.Errorf("%+v trial %d: gap %g with max load %g, want max load − %g", c, r.Trial, r.Gap, r.MaxLoad, load)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
