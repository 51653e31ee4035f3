package alloc

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/graphgen"
)

// refTwoSample places one ball of a two-sample rule (GBounded, GMyopic,
// Noisy) by a plain reference: the candidates a and b drawn through the
// public Rand methods in the order of the fast loops, then a word w, read
// as a uniform u in [0, 1) from its top 53 bits; the ball goes to b iff
// u < P(b), with P(b) computed from the definition in floating point (the
// noise by gonum's normal CDF, not the loops' erfc table). The loops
// compare w's top 63 bits with 2^63·P(b) in integers: for P ∈ {0, 1/2, 1}
// the two tests agree exactly, for the noise they differ only when u falls
// within about 1e-16 of P, a chance of about 1e-16 a ball. It also checks
// each ball against the rule: a comparison outside g is right, g-bounded's
// adversary inside it picks the more loaded candidate, and σ = 0 picks the
// lesser.
func refTwoSample(t *testing.T, p Process, L []uint32, r *Rand) (c uint64, cands []uint64) {
	t.Helper()
	var g graphgen.Graph
	var sample Sampling
	left := false
	switch p := p.(type) {
	case GBounded:
		g, sample, left = p.Graph, p.Sample, p.Ties == TiesLeft
	case GMyopic:
		g, sample = p.Graph, p.Sample
	case Noisy:
		g, sample = p.Graph, p.Sample
	}
	n := uint64(len(L))
	var a, b uint64
	switch g := g.(type) {
	case nil, graphgen.Complete:
		a, b = r.Uint64n(n), r.Uint64n(n)
	case *graphgen.CSR:
		if sample == SampleVertex {
			a = r.Uint64n(n)
			nb := g.Neighbors(int(a))
			if len(nb) == 0 {
				return a, []uint64{a} // isolated: no comparison, no word
			}
			b = uint64(nb[r.Uint64n(uint64(len(nb)))])
		} else {
			e := g.EdgeList()
			x := r.Uint64n(uint64(len(e) / 2))
			a, b = uint64(e[2*x]), uint64(e[2*x+1])
		}
		if !g.HasEdge(int(a), int(b)) {
			t.Fatalf("candidates %d, %d are not an edge", a, b)
		}
	case graphgen.Circulant:
		S := g.ConnectionSet()
		a = r.Uint64n(n)
		b = (a + uint64(S[r.Uint64n(uint64(len(S)))])) % n
		if left && sample == SampleEdge {
			a, b = min(a, b), max(a, b)
		}
		if !g.HasEdge(int(a), int(b)) {
			t.Fatalf("circulant: candidates %d, %d are not an edge", a, b)
		}
	}
	u := float64(r.Uint64()>>11) * 0x1p-53
	d := float64(L[a]) - float64(L[b])
	var pb float64 // P(the ball goes to b)
	switch p := p.(type) {
	case GBounded:
		gg := float64(p.Tolerance)
		switch {
		case math.Abs(d) > gg: // the comparison is right
			pb = b2f(d > 0)
		case d != 0: // the adversary: the more loaded
			pb = b2f(d < 0)
		case !left:
			pb = 0.5
		}
	case GMyopic:
		pb = 0.5
		if math.Abs(d) > float64(p.Tolerance) {
			pb = b2f(d > 0)
		}
	case Noisy:
		switch {
		case d == 0:
			pb = 0.5
		case p.Sigma == 0:
			pb = b2f(d > 0)
		default:
			// Readings L[a] + σZ_a and L[b] + σZ_b: b's is the lesser
			// with probability Φ(d / (σ√2)).
			pb = distuv.Normal{Mu: 0, Sigma: p.Sigma * math.Sqrt2}.CDF(d)
		}
	}
	c = a
	if u < pb {
		c = b
	}
	// The rule, ball by ball.
	lesser, heavier := a, b
	if L[b] < L[a] {
		lesser, heavier = b, a
	}
	switch p := p.(type) {
	case GBounded:
		if math.Abs(d) > float64(p.Tolerance) && c != lesser {
			t.Fatalf("g-bounded: loads %d, %d differ by more than g=%d, ball not in the lesser", L[a], L[b], p.Tolerance)
		}
		if d != 0 && math.Abs(d) <= float64(p.Tolerance) && c != heavier {
			t.Fatalf("g-bounded: loads %d, %d within g=%d, ball not in the more loaded", L[a], L[b], p.Tolerance)
		}
	case GMyopic:
		if math.Abs(d) > float64(p.Tolerance) && c != lesser {
			t.Fatalf("g-myopic: loads %d, %d differ by more than g=%d, ball not in the lesser", L[a], L[b], p.Tolerance)
		}
	case Noisy:
		if p.Sigma == 0 && L[c] > L[lesser] {
			t.Fatalf("noisy, σ = 0: ball in the more loaded of %d, %d", L[a], L[b])
		}
	}
	return c, []uint64{a, b}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestTwoRuleTables: every table entry, and the clamped entries beyond the
// table, are the rule's thr(d) (the clamp is exact); the symmetric
// rules have thr(d) + thr(−d) = 2^63 (so which candidate is drawn first
// does not change their law), and noisy's table is Φ(d/(σ√2)) to 1e-15.
func TestTwoRuleTables(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ru        *twoRule
		symmetric bool
	}{
		{"bounded/g=0", GBounded{}.table(), true},
		{"bounded/g=3", GBounded{Tolerance: 3}.table(), true},
		{"bounded/g=3/left", GBounded{Tolerance: 3, Ties: TiesLeft}.table(), false},
		{"bounded/g=5000", GBounded{Tolerance: 5000}.table(), true},
		{"bounded/g=max", GBounded{Tolerance: MaxG}.table(), true},
		{"myopic/g=max", GMyopic{Tolerance: MaxG}.table(), true},
		{"noisy/sigma=max", Noisy{Sigma: MaxSigma}.table(), true},
		{"myopic/g=0", GMyopic{}.table(), true},
		{"myopic/g=7", GMyopic{Tolerance: 7}.table(), true},
		{"noisy/sigma=0", Noisy{}.table(), true},
		{"noisy/sigma=0.3", Noisy{Sigma: 0.3}.table(), true},
		{"noisy/sigma=2.5", Noisy{Sigma: 2.5}.table(), true},
		{"noisy/sigma=1000", Noisy{Sigma: 1000}.table(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for d := int64(-ruleK - 300); d <= ruleK+300; d++ {
				got := tc.ru.pick(uint64(d+1<<20), 1<<20)
				if got != tc.ru.at(d) {
					t.Fatalf("pick at d=%d: %d, at %d", d, got, tc.ru.at(d))
				}
				if tc.symmetric && tc.ru.at(d)+tc.ru.at(-d) != thrAlways {
					t.Fatalf("thr(%d) + thr(%d) = %d", d, -d, tc.ru.at(d)+tc.ru.at(-d))
				}
				if tc.ru.kind == ruleNoisy && tc.ru.sigma > 0 {
					want := distuv.Normal{Mu: 0, Sigma: tc.ru.sigma * math.Sqrt2}.CDF(float64(d))
					if got := math.Ldexp(float64(tc.ru.at(d)), -63); math.Abs(got-want) > 1e-15 {
						t.Fatalf("d=%d: P = %.17g, Φ = %.17g", d, got, want)
					}
				}
			}
		})
	}
	// The adversary within g: b heavier by 1..g takes the ball, a heavier
	// keeps it; beyond g the lesser.
	ru := GBounded{Tolerance: 2}.table()
	for d, want := range map[int64]uint64{-3: 0, -2: thrAlways, -1: thrAlways, 0: thrHalf, 1: 0, 2: 0, 3: thrAlways} {
		if ru.at(d) != want {
			t.Errorf("g-bounded g=2: thr(%d) = %d, want %d", d, ru.at(d), want)
		}
	}
}

// TestTwoSampleFarLoads: loads more than ruleK apart are clamped to the
// table's end, which is exact at the largest g and σ; the loops must still
// follow the reference.
func TestTwoSampleFarLoads(t *testing.T) {
	const n = 64
	for _, p := range []Process{GBounded{Tolerance: MaxG}, GMyopic{Tolerance: MaxG}, Noisy{Sigma: MaxSigma}, GBounded{Tolerance: 300}} {
		if err := p.Check(n); err != nil {
			t.Fatal(err)
		}
		L := make([]uint32, n)
		for i := range L {
			L[i] = uint32(i) * 600 // loads up to 37800 apart
		}
		ref := slices.Clone(L)
		r := NewRand(4)
		twoUniform(L, 5000, p.(interface{ table() *twoRule }).table(), r)
		refPlace(t, p, ref, 5000, NewRand(4))
		if !slices.Equal(L, ref) {
			t.Errorf("%v: loads differ from the reference", p)
		}
	}
}

// TestTwoSampleSpecialCases: g = 0 and σ = 0 are Two-Choice: with the same
// seed the three rules place every ball alike (they draw the same
// candidates and word, and their tables agree).
func TestTwoSampleSpecialCases(t *testing.T) {
	const n, m = 1000, 5000
	var loads [][]uint32
	for _, p := range []Process{GBounded{}, GMyopic{}, Noisy{}} {
		b := NewBins(n)
		p.Place(b, m, NewRand(11))
		loads = append(loads, b.Loads())
	}
	if !slices.Equal(loads[0], loads[1]) || !slices.Equal(loads[0], loads[2]) {
		t.Error("g = 0 and σ = 0 do not place the balls alike")
	}
}
