package explorer

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Budget is the memory the server's requests may hold together: each
// reserves its estimate before it builds or runs anything and releases
// it when it is done with the memory, so that the requests running at
// once never need more than the total, however many arrive. A guard per
// request would let eight requests under the limit each take the
// machine eight times over.
type Budget struct {
	mu          sync.Mutex
	total, used int64
	peak        int64
	freed       chan struct{} // closed, and replaced, whenever bytes are released
}

// ErrOverBudget is returned by Reserve for a request that needs more than
// the whole budget: it could never run.
var ErrOverBudget = errors.New("more than the server's whole memory budget")

// ErrBusy is returned by Reserve when the bytes did not come free in
// time.
var ErrBusy = errors.New("the server's memory budget is taken by other runs")

// NewBudget returns a budget of total bytes.
func NewBudget(total int64) *Budget {
	return &Budget{total: total, freed: make(chan struct{})}
}

// Total is the budget's size in bytes.
func (b *Budget) Total() int64 { return b.total }

// Used is the bytes reserved now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak is the most bytes ever reserved at once.
func (b *Budget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Reserve takes need bytes, waiting at most wait for other requests to
// release them, and returns the function that gives them back (once;
// later calls do nothing). It fails at once with ErrOverBudget if need
// exceeds the total, with ErrBusy after wait, and with ctx's error if ctx
// ends first. Waiting requests are not served in order: a small one may
// pass a large one, which then waits longer.
func (b *Budget) Reserve(ctx context.Context, need int64, wait time.Duration) (release func(), err error) {
	if need > b.total {
		return nil, ErrOverBudget
	}
	need = max(need, 0)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		b.mu.Lock()
		if b.used+need <= b.total {
			b.used += need
			b.peak = max(b.peak, b.used)
			b.mu.Unlock()
			var once sync.Once
			return func() { once.Do(func() { b.release(need) }) }, nil
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-timer.C:
			return nil, ErrBusy
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// release gives back n bytes and wakes the waiting requests.
func (b *Budget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}
