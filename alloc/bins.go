package alloc

import (
	"fmt"
	"math"
)

// Bins holds the per-bin loads of one trial: the state of the per-bin
// engine. Loads are uint32, 4 bytes a bin. A Bins is reused across trials
// with Reset.
type Bins struct {
	loads []uint32
	balls int64
}

// NewBins returns n empty bins.
func NewBins(n int) *Bins { return &Bins{loads: make([]uint32, n)} }

// N returns the number of bins.
func (b *Bins) N() int { return len(b.loads) }

// Balls returns the number of balls placed since the last Reset.
func (b *Bins) Balls() int64 { return b.balls }

// Loads returns the loads; the slice is shared with b.
func (b *Bins) Loads() []uint32 { return b.loads }

// wide returns the loads as uint32, the form every process's loop works
// on. Processes call it once per batch, never per ball; an engine with a
// more compact representation converts here.
func (b *Bins) wide() []uint32 { return b.loads }

// Reset empties every bin.
func (b *Bins) Reset() {
	clear(b.loads)
	b.balls = 0
}

// MaxMin returns the largest and smallest load, in one pass.
func (b *Bins) MaxMin() (mx, mn uint32) {
	if len(b.loads) == 0 {
		return 0, 0
	}
	mn = math.MaxUint32
	for _, l := range b.loads {
		mx = max(mx, l)
		mn = min(mn, l)
	}
	return mx, mn
}

// Counts returns c with c[i] the number of bins holding exactly i balls,
// for i = 0..max load. It returns an error if the loads do not add up to the
// balls placed, which only happens if a load overflowed 2^32-1.
func (b *Bins) Counts() ([]int64, error) {
	mx, _ := b.MaxMin()
	c := make([]int64, int(mx)+1)
	var sum uint64
	for _, l := range b.loads {
		c[l]++
		sum += uint64(l)
	}
	if sum != uint64(b.balls) {
		return c, fmt.Errorf("alloc: loads add up to %d, not the %d balls placed: a bin overflowed %d", sum, b.balls, uint32(math.MaxUint32))
	}
	return c, nil
}
