package alloc

import (
	"fmt"
	"math"
)

// Rule is an allocation rule, what a Config runs. A Rule value holds only
// parameters (Greedy{D: 2}); the state of a trial lives elsewhere, so one
// value serves every trial and every worker at once.
//
// Every Rule is also a Process, whose balls the per-bin engine places in
// Bins, or a TrialRunner, which runs whole trials on a state of its own
// (weighted balls on real loads); Config.Check rejects any other. Either
// can be written outside this package: see the examples.
type Rule interface {
	// Name returns the rule's command-line name; for the processes of this
	// package, its Descriptor's Name.
	Name() string
	// String returns a label with the parameters, such as "Greedy[2]".
	String() string
	// Check reports whether the rule can run on n bins; the error says
	// what is wrong and what is allowed.
	Check(n int) error
}

// Process is a Rule whose balls go into per-bin integer loads, Bins.
//
// The interface sits at the level of a batch of balls: Place runs a loop
// specialised to the process, its parameters and its tie rule, with no
// interface call, allocation or division per ball. A Process written
// outside this package reads and raises the loads through Bins.Update.
type Process interface {
	Rule
	// Place throws m more balls into b, drawing every random choice from r,
	// and returns what the balls cost. It returns without placing a ball
	// if Check(b.N()) fails: call Check first.
	Place(b *Bins, m int64, r *Rand) Stats
}

// Stats is what a batch of balls cost.
type Stats struct {
	Probes    int64 // bins whose load was read
	MaxProbes int64 // most bins read for a single ball
	// Moves and MaxMoves count the steps of a process whose balls walk
	// from bin to bin (Descriptor.Moves): in all, and the most for a
	// single ball. Zero for every other process.
	Moves    int64
	MaxMoves int64
}

// Add accumulates t into s. Probes saturate at the largest int64 (local
// search on K_n reads n loads a ball).
func (s *Stats) Add(t Stats) {
	s.Probes = satAdd(s.Probes, t.Probes)
	s.MaxProbes = max(s.MaxProbes, t.MaxProbes)
	s.Moves += t.Moves
	s.MaxMoves = max(s.MaxMoves, t.MaxMoves)
}

// satAdd returns a + b for a, b ≥ 0, or the largest int64 if the sum
// overflows.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Ties is how a ball chooses among equally loaded candidates.
type Ties uint8

const (
	// TiesDefault is the rule the process's definition gives: uniformly
	// random among the tied candidates, except for Left[d], whose
	// definition sends ties to the leftmost group.
	TiesDefault Ties = iota
	// TiesRandom breaks ties uniformly at random among tied candidates.
	TiesRandom
	// TiesLeft sends ties to the candidate drawn first (the leftmost group
	// for Left[d]; the endpoint with the smaller id for an edge), the fixed
	// order some papers use.
	TiesLeft
)

// String returns "random" or "left"; TiesDefault prints as "default".
func (t Ties) String() string {
	switch t {
	case TiesRandom:
		return "random"
	case TiesLeft:
		return "left"
	}
	return "default"
}

// ParseTies parses "random" or "left".
func ParseTies(s string) (Ties, error) {
	switch s {
	case "random":
		return TiesRandom, nil
	case "left":
		return TiesLeft, nil
	}
	return TiesDefault, fmt.Errorf("alloc: unknown tie rule %q (allowed: random, left)", s)
}

// resolve returns the effective rule of a process whose definition's own
// rule is def.
func (t Ties) resolve(def Ties) Ties {
	if t == TiesDefault {
		return def
	}
	return t
}

// checkBins is the check every process shares.
func checkBins(name string, n int) error {
	if n < 1 {
		return fmt.Errorf("alloc: %s needs at least one bin, got n=%d", name, n)
	}
	return nil
}

// checkChoices is the check of a whole number of choices 1 ≤ d ≤ 2^20.
func checkChoices(name string, d int) error {
	if d < 1 || d > maxChoices {
		return fmt.Errorf("alloc: %s needs 1 <= d <= %d, got d=%d", name, maxChoices, d)
	}
	return nil
}
