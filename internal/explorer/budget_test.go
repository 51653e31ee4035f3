package explorer

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	b := NewBudget(100)
	if _, err := b.Reserve(context.Background(), 101, time.Second); !errors.Is(err, ErrOverBudget) {
		t.Errorf("above the total: %v", err)
	}
	r1, err := b.Reserve(context.Background(), 60, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Reserve(context.Background(), 50, 10*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Errorf("no room: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Reserve(ctx, 50, time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("a request that ended while it waited: %v", err)
	}
	// A waiting request gets the bytes as soon as they are released.
	got := make(chan error, 1)
	go func() {
		r, err := b.Reserve(context.Background(), 50, 10*time.Second)
		if err == nil {
			defer r()
		}
		got <- err
	}()
	time.Sleep(10 * time.Millisecond)
	r1()
	r1() // a second release does nothing
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting request was not woken")
	}
	if b.Used() != 0 || b.Peak() != 60 {
		t.Errorf("used %d, peak %d; want 0 and 60", b.Used(), b.Peak())
	}
}
