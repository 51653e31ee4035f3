package alloc

import (
	"fmt"
	"testing"
)

// BenchmarkBatchRules reports balls/s of the generated rules of MaxOf[d],
// FirstDiff[d], Left[d], (1+β), Grouped[d], Window[d] and Mean-Thinning in
// the batched driver at n = m = 2^20, B = 16 and 1024.
func BenchmarkBatchRules(b *testing.B) {
	const lg = 20
	n := 1 << lg
	for _, c := range []struct {
		name string
		p    Process
	}{
		{"unbalanced/d=2", MaxOf{D: 2}},
		{"unbalanced/d=3", MaxOf{D: 3}},
		{"firstdiff/d=2", FirstDiff{D: 2}},
		{"left/d=2", Left{D: 2}},
		{"left/d=3", Left{D: 3}},
		{"one-plus-beta/beta=0.5", OnePlusBeta{Beta: 0.5}},
		{"grouped/d=4", Grouped{D: 4}},
		{"window/d=4", Window{D: 4}},
		{"mean-thinning", MeanThinning{}},
	} {
		for _, B := range []int64{16, 1024} {
			b.Run(fmt.Sprintf("%s/n=2^%d/B=%d", c.name, lg, B), func(b *testing.B) {
				bins := NewBins(n)
				r := NewRand(1)
				bt := newBatcher(B, n, int64(n))
				benchBalls(b, int64(n), func() {
					bins.Reset()
					bt.reset()
					bt.place(bins, c.p.(batchable).rule(n), int64(n), r)
					bt.flush(bins, bins.wide(), nil)
				})
			})
		}
	}
}
