package explorer

import (
	"context"
	"sync"
)

// Slots holds the one simulation of each panel of each open page: a new
// run of a panel cancels its old one, so that a user who presses Run
// again does not leave the first run working.
type Slots struct {
	mu     sync.Mutex
	active map[string]*context.CancelFunc
}

// Claim makes a request the simulation of the page's slot, cancelling
// the slot's earlier run, and returns the function that frees the slot.
// A request that names no page (a script's) has no slot and cancels
// nothing.
func (s *Slots) Claim(page, slot string, cancel context.CancelFunc) (release func()) {
	if page == "" {
		return func() {}
	}
	key := page + "/" + slot
	me := &cancel
	s.mu.Lock()
	if s.active == nil {
		s.active = map[string]*context.CancelFunc{}
	}
	if old, ok := s.active[key]; ok {
		(*old)()
	}
	s.active[key] = me
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		// Only if it is still ours (a newer run may have taken the slot).
		if s.active[key] == me {
			delete(s.active, key)
		}
		s.mu.Unlock()
	}
}

// Busy reports whether the page's slot has a simulation.
func (s *Slots) Busy(page, slot string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.active[page+"/"+slot]
	return ok
}
