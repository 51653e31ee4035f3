package queue

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// refServers is the per-server engine written plainly: the generator through
// alloc.Rand's methods, the candidates in a slice, the shortest found by a
// second pass with explicit positions, and the time averages integrated
// over every level at every event. It returns the queues, the events, the
// time integral of each cnt[i] over [0, T], the longest queue of each of
// c's batches (the longest at its start, or reached during it) and the
// generator.
func refServers(c *Config, tp *topology, Q []uint32) (events int64, integral []float64, maxes []int, r *alloc.Rand) {
	r = alloc.TrialRand(c.Seed, 0)
	n := uint64(len(Q))
	gap := meanGap(c.Lambda, n)
	thr := arrivalThreshold(c.Lambda)
	now := 0.0
	integral = make([]float64, 1)
	count := func() []float64 {
		cnt := make([]float64, 1)
		for _, q := range Q {
			for len(cnt) <= int(q) {
				cnt = append(cnt, 0)
			}
			for i := 1; i <= int(q); i++ {
				cnt[i]++
			}
		}
		return cnt
	}
	length := c.Time / float64(c.batches())
	longest := func() int { return int(slices.Max(Q)) }
	maxes = []int{longest()}
	for {
		s, e := exponential(r.State())
		r.SetState(s)
		next := min(now+e*gap, c.Time)
		// Batches that end before the next event: the next starts with
		// the queues as they are.
		for len(maxes) < c.batches() && float64(len(maxes))*length <= next && next < c.Time {
			maxes = append(maxes, longest())
		}
		for i, v := range count() {
			for len(integral) <= i {
				integral = append(integral, 0)
			}
			integral[i] += v * (next - now)
		}
		now += e * gap
		if now >= c.Time {
			for len(maxes) < c.batches() {
				maxes = append(maxes, longest())
			}
			return events, integral, maxes, r
		}
		events++
		if r.Uint64() >= thr {
			v := r.Uint64n(n)
			if Q[v] > 0 {
				Q[v]--
			}
			continue
		}
		cand := refCandidates(tp, r, n)
		best := 0
		for j := range cand {
			if Q[cand[j]] < Q[cand[best]] {
				best = j
			}
		}
		Q[cand[best]]++
		maxes[len(maxes)-1] = max(maxes[len(maxes)-1], int(Q[cand[best]]))
	}
}

// refCandidates lists an arrival's candidates in tie order (the first
// shortest wins), drawn as layout describes.
func refCandidates(tp *topology, r *alloc.Rand, n uint64) []uint64 {
	switch tp.kind {
	case kEdges:
		x := r.Uint64n(uint64(len(tp.e) / 2))
		u, v := uint64(tp.e[2*x]), uint64(tp.e[2*x+1])
		if r.Uint64()>>63 != 0 {
			u, v = v, u
		}
		return []uint64{u, v}
	case kUniform:
		var c []uint64
		for range tp.d {
			c = append(c, r.Uint64n(n))
		}
		return c
	}
	home := r.Uint64n(n)
	slot := uint64(0)
	if tp.slot {
		slot = r.Uint64n(uint64(tp.d))
	}
	var nb []uint64
	for range tp.d - 1 {
		switch tp.kind {
		case kOthers:
			j := r.Uint64n(n - 1)
			if j >= home {
				j++
			}
			nb = append(nb, j)
		case kRows:
			nb = append(nb, uint64(tp.adj[home*tp.deg+r.Uint64n(tp.deg)]))
		case kCSR:
			lo, hi := tp.off[home], tp.off[home+1]
			if lo == hi {
				nb = append(nb, home)
			} else {
				nb = append(nb, uint64(tp.adj[lo+int(r.Uint64n(uint64(hi-lo)))]))
			}
		}
	}
	return slices.Insert(nb, int(slot), home)
}

// refLevels is the level engine written plainly: the queue lengths held
// sorted, longest first, a rank indexing them directly.
func refLevels(c *Config, tp *topology) (sorted []int, events int64, r *alloc.Rand) {
	r = alloc.TrialRand(c.Seed, 0)
	n := uint64(c.N)
	sorted = make([]int, n)
	gap := meanGap(c.Lambda, n)
	thr := arrivalThreshold(c.Lambda)
	now := 0.0
	for {
		s, e := exponential(r.State())
		r.SetState(s)
		if now += e * gap; now >= c.Time {
			return sorted, events, r
		}
		events++
		arrival := r.Uint64() < thr
		if pairable(c, tp) {
			// Two ranks an event, from the two halves of one word.
			a, b := refRankPair(r, n)
			cand := []uint64{a, b}[:tp.d]
			if !arrival {
				cand = cand[:1]
			}
			if u := slices.Max(cand); arrival {
				sorted[u]++
			} else if sorted[u] > 0 {
				sorted[u]--
			}
		} else if !arrival {
			if u := r.Uint64n(n); sorted[u] > 0 {
				sorted[u]--
			}
		} else {
			cand := refCandidates(tp, r, n) // ranks; the shortest queue is the largest rank
			sorted[slices.Max(cand)]++
		}
		slices.SortFunc(sorted, func(a, b int) int { return b - a })
	}
}

// refRankPair draws two uniform ranks in [0, n), n ≤ 2^32, from the low
// and the high 32 bits of one word, each by Lemire's multiply-shift on 32
// bits: the rank of a half h is ⌊h·n/2^32⌋, and the word is drawn again
// when the low 32 bits of either product fall below 2^32 mod n.
func refRankPair(r *alloc.Rand, n uint64) (a, b uint64) {
	limit := (uint64(1) << 32) % n
	for {
		x := r.Uint64()
		lo, hi := x%(1<<32)*n, x/(1<<32)*n
		if lo%(1<<32) >= limit && hi%(1<<32) >= limit {
			return lo / (1 << 32), hi / (1 << 32)
		}
	}
}

// refCases are the layouts the reference loops are checked on.
func refCases(t *testing.T) []Config {
	build := func(spec string, n int) graphgen.Graph {
		s, err := graphgen.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := s.Build(n, alloc.NewRand(7))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	const n = 300
	reg := build("regular:degree=4", n)
	star := build("nonregular:mindeg=2,core=20", n)
	cyc := build("cycle", n)
	var cs []Config
	for _, d := range []int{1, 2, 3} {
		cs = append(cs, Config{D: d, Sample: Uniform})
	}
	cs = append(cs,
		Config{D: 2, Sample: Edge, Graph: graphgen.Complete(n)},
		Config{D: 3, Sample: Vertex, Graph: graphgen.Complete(n)},
		Config{D: 2, Sample: Edge, Graph: reg},
		Config{D: 3, Sample: Vertex, Graph: reg},
		Config{D: 2, Sample: Edge, Graph: star},
		Config{D: 2, Sample: Vertex, Graph: star},
		Config{D: 3, Sample: Vertex, Graph: cyc},
	)
	for i := range cs {
		cs[i].N, cs[i].Lambda, cs[i].Time, cs[i].Warmup, cs[i].Seed, cs[i].Batches = n, 0.85, 30, 0, uint64(11+i), 7
	}
	return cs
}

// TestServersMatchReference runs the per-server engine, plain and
// pipelined, and the plain loop from one seed on every layout: the same
// events, the same queues and the same time averages, and for the plain
// engine the same generator state after (the pipeline draws ahead).
func TestServersMatchReference(t *testing.T) {
	for _, c := range refCases(t) {
		c.Engine = EngineServers
		tp, err := layout(&c)
		if err != nil {
			t.Fatal(err)
		}
		refQ := make([]uint32, c.N)
		refEvents, integral, refMaxes, refR := refServers(&c, &tp, refQ)
		for _, pipelined := range []bool{false, true} {
			if pipelined && tp.kind == kCSR {
				continue
			}
			name := fmt.Sprintf("%s/d=%d/%T/piped=%v", c.Sample, c.D, c.Graph, pipelined)
			Q := make([]uint32, c.N)
			w := newWindow(c.N, c.Time, c.batches(), 0)
			r := alloc.TrialRand(c.Seed, 0)
			run := servers
			if pipelined {
				run = serversPiped
			}
			events, err := run(context.Background(), &c, &tp, Q, w, r)
			if err != nil {
				t.Fatal(err)
			}
			if events != refEvents || !slices.Equal(Q, refQ) || (!pipelined && r.State() != refR.State()) {
				t.Errorf("%s: engine %d events, reference %d; queues equal %v", name, events, refEvents, slices.Equal(Q, refQ))
				continue
			}
			if !slices.Equal(w.maxes, refMaxes) {
				t.Errorf("%s: longest queue by batch %v, reference %v", name, w.maxes, refMaxes)
			}
			// The batches' averages, weighted by their lengths, are
			// the integral over [0, T].
			for i := 1; i < len(integral); i++ {
				var got float64
				for _, row := range w.rows {
					if i-1 < len(row) {
						got += row[i-1] * float64(c.N) * w.length
					}
				}
				if want := integral[i]; math.Abs(got-want) > 1e-9*want+1e-9 {
					t.Errorf("%s: ∫cnt[%d] = %g, reference %g", name, i, got, want)
				}
			}
		}
	}
}

// TestLevelsMatchReference runs the level engine and the plain sorted-array
// loop from one seed on every exchangeable layout: the same counts.
func TestLevelsMatchReference(t *testing.T) {
	for _, c := range refCases(t) {
		if !c.Exchangeable() {
			continue
		}
		name := fmt.Sprintf("%s/d=%d", c.Sample, c.D)
		tp, _ := layout(&c)
		w := newWindow(c.N, c.Time, c.batches(), 0)
		r := alloc.TrialRand(c.Seed, 0)
		events, err := levels(context.Background(), &c, &tp, w, r)
		if err != nil {
			t.Fatal(err)
		}
		sorted, refEvents, refR := refLevels(&c, &tp)
		if events != refEvents || r.State() != refR.State() {
			t.Fatalf("%s: engine %d events, reference %d", name, events, refEvents)
		}
		for i := 1; i < len(w.cnt); i++ {
			var want int64
			for _, q := range sorted {
				if q >= i {
					want++
				}
			}
			if w.cnt[i] != want {
				t.Errorf("%s: cnt[%d] = %d, reference %d", name, i, w.cnt[i], want)
			}
		}
	}
}
