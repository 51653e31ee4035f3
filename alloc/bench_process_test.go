package alloc

import (
	"fmt"
	"testing"
)

// BenchmarkProcess reports balls/s for the processes listed below at m = n,
// n = 2^12 (the loads in L1/L2) and 2^20 (L3). Rank runs on the structure
// kept through a trial (what Run does), weighted on float64 loads. Each
// iteration resets the state, O(n), beside the O(m) balls.
func BenchmarkProcess(b *testing.B) {
	exp, _ := ParseWeights("exp")
	cases := []struct {
		name string
		p    Rule
	}{
		{"firstdiff/d=2", FirstDiff{D: 2}},
		{"firstdiff/d=3", FirstDiff{D: 3}},
		{"unbalanced/d=2", MaxOf{D: 2}},
		{"unbalanced/d=3", MaxOf{D: 3}},
		{"one-plus-beta/beta=0.5", OnePlusBeta{Beta: 0.5}},
		{"rank/d=2", Rank{D: 2}},
		{"rank/d=2.5", Rank{D: 2.5}},
		{"grouped/d=4", Grouped{D: 4}},
		{"window/d=4", Window{D: 4}},
		{"weighted/const/d=2", Weighted{D: 2}},
		{"weighted/exp/d=2", Weighted{D: 2, Weights: exp}},
	}
	for _, c := range cases {
		for _, lg := range []int{12, 20} {
			n := 1 << lg
			b.Run(fmt.Sprintf("%s/n=2^%d", c.name, lg), func(b *testing.B) {
				r := NewRand(1)
				var balls int64
				switch p := c.p.(type) {
				case Rank:
					bins := NewBins(n)
					for b.Loop() {
						bins.Reset()
						st := &rankState{order: identity(n), hi: []int{0}}
						st.place(bins.wide(), int64(n), p.D, p.D == float64(int(p.D)), r)
						balls += int64(n)
					}
				case Weighted:
					L := make([]float64, n)
					for b.Loop() {
						clear(L)
						p.PlaceWeighted(L, int64(n), r)
						balls += int64(n)
					}
				case Process:
					bins := NewBins(n)
					for b.Loop() {
						bins.Reset()
						p.Place(bins, int64(n), r)
						balls += int64(n)
					}
				}
				b.ReportMetric(float64(balls)/b.Elapsed().Seconds(), "balls/s")
			})
		}
	}
}
