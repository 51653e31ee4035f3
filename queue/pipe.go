package queue

import (
	"context"
	"unsafe"

	"github.com/graphalloc/graphalloc/alloc"
)

// The per-server engine for large n, pipelined. With the uniformised
// clock an event's randomness — its time, whether it is an arrival, its
// candidates — does not depend on the queues, so events are drawn
// pipeDepth ahead of the one applied, in order, with the same draws as
// servers makes: the cache lines they will read are prefetched when an
// event is drawn (the queue of a departure or a uniform candidate, the
// adjacency slot of a neighbour or an edge) and, pipeHalf events later,
// when the adjacency has arrived, the neighbours' queues. The events
// applied, and so every result, are exactly those of servers; only the
// generator ends pipeDepth events further on, which nothing reads.
// Arbitrary graphs that are not regular (kCSR) are not pipelined: a
// neighbour's draw depends on the home's degree, one more miss.

const (
	pipeDepth = 32
	pipeHalf  = 16
	// pipeMin is the smallest n the pipeline is used from: below, the
	// queues fit in the 1 MiB L2 cache.
	pipeMin = 1 << 17
)

// pipe is the ring of events drawn ahead.
type pipe struct {
	t        *topology
	Q        []uint32
	n        uint64
	gap, now float64
	thr      uint64
	at       [pipeDepth]float64
	arrival  [pipeDepth]bool
	slot     [pipeDepth]uint64
	cand     []uint64 // pipeDepth × d: servers, or positions in adj or e until resolved
}

// piped reports whether the per-server engine pipelines c's run.
func piped(t *topology, n int64) bool {
	return alloc.CanPrefetch && n >= pipeMin && t.kind != kCSR
}

// serversPiped is servers, pipelined.
func serversPiped(ctx context.Context, c *Config, t *topology, Q []uint32, w *window, r *alloc.Rand) (int64, error) {
	p := &pipe{t: t, Q: Q, n: uint64(len(Q)), gap: meanGap(c.Lambda, uint64(len(Q))), thr: arrivalThreshold(c.Lambda)}
	p.cand = make([]uint64, pipeDepth*t.d)
	s := r.State()
	for k := range pipeDepth {
		s = p.draw(s, k)
	}
	for k := range pipeHalf {
		p.resolve(k)
	}
	d := t.d
	var events int64
	for {
		for i := 0; i < cancelEvery; i++ {
			k := i & (pipeDepth - 1)
			now := p.at[k]
			if now >= w.stop && !w.cross(now) {
				r.SetState(s)
				return events + int64(i), nil
			}
			cd := p.cand[k*d : k*d+d]
			if !p.arrival[k] {
				if v := cd[0]; Q[v] > 0 {
					q := Q[v]
					Q[v] = q - 1
					w.down(int(q), now)
				}
			} else {
				v := p.pick(cd, p.slot[k])
				q := Q[v] + 1
				Q[v] = q
				w.up(int(q), now)
			}
			p.resolve((k + pipeHalf) & (pipeDepth - 1))
			s = p.draw(s, k)
		}
		events += cancelEvery
		if err := ctx.Err(); err != nil {
			r.SetState(s)
			return events, err
		}
	}
}

// pick is the server an arrival with resolved candidates cd joins, by
// choose's rule.
func (p *pipe) pick(cd []uint64, slot uint64) uint64 {
	Q := p.Q
	c, l := cd[0], Q[cd[0]]
	if p.t.kind == kUniform || p.t.kind == kEdges {
		for _, v := range cd[1:] {
			if q := Q[v]; q < l {
				c, l = v, q
			}
		}
		return c
	}
	homeBest := true
	for j := 1; j < len(cd); j++ {
		if q := Q[cd[j]]; q < l || (q == l && homeBest && uint64(j) <= slot) {
			c, l, homeBest = cd[j], q, false
		}
	}
	return c
}

// draw draws the next event into slot k from state s, as servers and
// choose draw it, and prefetches what it will read first.
func (p *pipe) draw(s uint64, k int) uint64 {
	var x uint64
	var e float64
	s, x = alloc.Step(s)
	if j := x >> 11; j < zigK[x&255] {
		e = float64(j) * zigW[x&255]
	} else {
		s, e = exponentialSlow(s, x)
	}
	p.now += e * p.gap
	p.at[k] = p.now
	t := p.t
	cd := p.cand[k*t.d : k*t.d+t.d]
	s, x = alloc.Step(s)
	if p.arrival[k] = x < p.thr; !p.arrival[k] {
		s, cd[0] = alloc.Below(s, p.n)
		alloc.Prefetch(unsafe.Pointer(&p.Q[cd[0]]))
		return s
	}
	switch t.kind {
	case kEdges:
		s, cd[0] = alloc.Below(s, uint64(len(t.e)/2))
		s, cd[1] = alloc.Step(s)
		alloc.Prefetch(unsafe.Pointer(&t.e[2*cd[0]]))
		return s
	case kUniform:
		for j := range cd {
			s, cd[j] = alloc.Below(s, p.n)
			alloc.Prefetch(unsafe.Pointer(&p.Q[cd[j]]))
		}
		return s
	}
	s, cd[0] = alloc.Below(s, p.n)
	home := cd[0]
	alloc.Prefetch(unsafe.Pointer(&p.Q[home]))
	p.slot[k] = 0
	if t.slot {
		s, p.slot[k] = alloc.Below(s, uint64(t.d))
	}
	for j := 1; j < len(cd); j++ {
		if t.kind == kOthers {
			s, cd[j] = alloc.Below(s, p.n-1)
			if cd[j] >= home {
				cd[j]++
			}
			alloc.Prefetch(unsafe.Pointer(&p.Q[cd[j]]))
			continue
		}
		var i uint64
		s, i = alloc.Below(s, t.deg)
		cd[j] = home*t.deg + i
		alloc.Prefetch(unsafe.Pointer(&t.adj[cd[j]]))
	}
	return s
}

// resolve turns slot k's positions into servers, now that their lines
// have arrived, and prefetches those servers' queues.
func (p *pipe) resolve(k int) {
	t := p.t
	if !p.arrival[k] || (t.kind != kRows && t.kind != kEdges) {
		return
	}
	cd := p.cand[k*t.d : k*t.d+t.d]
	if t.kind == kEdges {
		x := cd[0]
		u, v := uint64(t.e[2*x]), uint64(t.e[2*x+1])
		if cd[1]>>63 != 0 {
			u, v = v, u
		}
		cd[0], cd[1] = u, v
		alloc.Prefetch(unsafe.Pointer(&p.Q[u]))
		alloc.Prefetch(unsafe.Pointer(&p.Q[v]))
		return
	}
	for j := 1; j < len(cd); j++ {
		cd[j] = uint64(t.adj[cd[j]])
		alloc.Prefetch(unsafe.Pointer(&p.Q[cd[j]]))
	}
}
