package alloc

// OneChoice places every ball in a uniformly random bin. Its maximum load for
// m = n is (1+o(1)) ln n / ln ln n w.h.p., and for m ≫ n it is
// m/n + (1+o(1)) sqrt(2 (m/n) ln n) [Raab, Steger 1998].
type OneChoice struct{}

var _ Process = OneChoice{}

// Name returns "one-choice".
func (OneChoice) Name() string { return "one-choice" }

// Check requires n ≥ 1.
func (OneChoice) Check(n int) error { return checkBins("one-choice", n) }

// Place throws m balls, one probe each.
func (OneChoice) Place(b *Bins, m int64, r *Rand) Stats {
	L := b.wide()
	n := uint64(len(L))
	s := r.state
	for k := int64(0); k < m; k++ {
		var c uint64
		s, c = below(s, n)
		L[c]++
	}
	r.state = s
	b.balls += m
	return Stats{Probes: m, MaxProbes: min(m, 1)}
}
