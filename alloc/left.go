package alloc

import "fmt"

// Left is Vöcking's Left[d]: the bins are split into D contiguous groups,
// group j being [⌊jn/D⌋, ⌊(j+1)n/D⌋); each ball draws one uniform bin in
// every group and goes to a least loaded one, ties going to the leftmost
// group. The maximum load for m = n is ln ln n / (d ln φ_d) + O(1) w.h.p.,
// φ_d the largest real root of x^d = 1 + x + … + x^{d−1} [Vöcking 2003];
// the asymmetric tie rule is essential to that bound.
//
// With Ties set to TiesRandom the ties are broken uniformly at random
// instead, which is the symmetric d-choice process with one choice per
// group (for comparison with the paper's claim that the tie rule matters).
type Left struct {
	D    int
	Ties Ties
}

var _ Process = Left{}

// Name returns "left".
func (Left) Name() string { return "left" }

// Check requires 1 ≤ D ≤ n, so that no group is empty.
func (p Left) Check(n int) error {
	if err := checkBins("left", n); err != nil {
		return err
	}
	if p.D < 1 || p.D > n || p.D > maxChoices {
		return fmt.Errorf("alloc: left needs 1 <= d <= min(n, %d) so that every group has a bin, got d=%d n=%d", maxChoices, p.D, n)
	}
	return nil
}

// groups returns the first bin and the size of each of the d groups.
func leftGroups(n, d int) (start, size []uint64) {
	start = make([]uint64, d)
	size = make([]uint64, d)
	for j := range d {
		lo := uint64(j) * uint64(n) / uint64(d)
		hi := uint64(j+1) * uint64(n) / uint64(d)
		start[j], size[j] = lo, hi-lo
	}
	return start, size
}

// Place throws m balls, D probes each.
func (p Left) Place(b *Bins, m int64, r *Rand) Stats {
	start, size := leftGroups(len(b.wide()), p.D)
	if p.Ties.resolve(TiesLeft) == TiesLeft {
		leftFirst(b.wide(), m, start, size, r)
	} else {
		leftRandom(b.wide(), m, start, size, r)
	}
	b.balls += m
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

func leftFirst(L []uint32, m int64, start, size []uint64, r *Rand) {
	s := r.state
	for k := int64(0); k < m; k++ {
		var c uint64
		s, c = below(s, size[0])
		mn := L[c]
		for j := 1; j < len(start); j++ {
			var x uint64
			s, x = below(s, size[j])
			x += start[j]
			// Strictly less: a tie keeps the group to the left.
			if lx := L[x]; lx < mn {
				c, mn = x, lx
			}
		}
		L[c] = mn + 1
	}
	r.state = s
}

// leftRandom breaks ties uniformly by reservoir sampling: the t-th candidate
// tied with the minimum so far replaces it with probability 1/t.
func leftRandom(L []uint32, m int64, start, size []uint64, r *Rand) {
	s := r.state
	for k := int64(0); k < m; k++ {
		var c uint64
		s, c = below(s, size[0])
		mn := L[c]
		tied := uint64(1)
		for j := 1; j < len(start); j++ {
			var x uint64
			s, x = below(s, size[j])
			x += start[j]
			lx := L[x]
			switch {
			case lx < mn:
				c, mn, tied = x, lx, 1
			case lx == mn:
				tied++
				var u uint64
				if s, u = below(s, tied); u == 0 {
					c = x
				}
			}
		}
		L[c] = mn + 1
	}
	r.state = s
}
