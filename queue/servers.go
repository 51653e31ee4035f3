package queue

import (
	"math"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The clock. Both engines run the uniformised chain: events come at the
// constant rate Λ = (1 + λ)n; an event is an arrival with probability
// λ/(1 + λ), and otherwise a service completion at a uniform server, which
// does nothing when that server is idle. The busy servers then complete
// at total rate (n/Λ)·Λ·busy/n = busy, each at rate 1, so the queue
// lengths follow exactly the continuous-time chain of the supermarket model
// (arrivals at rate λn, departures at rate busy, the next event an arrival
// with probability λn/(λn + busy)); the idle completions only add events
// that change nothing, a fraction (n − busy)/((1 + λ)n) of them. The
// engines need no list of busy servers: no second array to keep in step,
// and a departure reads one queue length, where a busy list costs a read
// of the list, the length and, when a queue empties or fills, the
// position of the server that moves in the list.
//
// The times between events are exponential with mean 1/Λ (expo.go).
//
// The engines' event loops share this clock and differ in what an event
// does: gen_loops.go writes them into zloops.go from one template.
//go:generate go run gen_loops.go

// kind is how an arrival draws its candidates, the graph's layout chosen
// once before the loop.
type kind int

const (
	kUniform kind = iota // d uniform servers
	kOthers              // K_n: a uniform server and d − 1 uniform others
	kRows                // D-regular rows: home v, neighbours adj[v·D + j]
	kCSR                 // home v, neighbours adj[off[v] + j]
	kEdges               // the two ends of a uniform edge of a list
)

// topology is a graph laid out for the loop.
type topology struct {
	kind kind
	d    int
	slot bool     // draw the home's position among the candidates (random ties)
	adj  []uint32 // kRows, kCSR
	off  []int    // kCSR
	e    []uint32 // kEdges
	deg  uint64   // kRows
}

// layout lays the graph of c out for the loop. A regular graph with
// vertex sampling and d = 2, or with edge sampling, draws a half-edge:
// a uniform vertex and a uniform neighbour, a uniform edge in a uniform
// orientation, so the first candidate may win ties; with d > 2, or on a
// graph that is not regular, the home vertex takes a uniform position
// among the candidates and the first least loaded one wins, which breaks
// ties uniformly (the neighbours are independent and alike).
func layout(c *Config) (topology, error) {
	t := topology{d: c.Choices()}
	if c.Sample == Uniform {
		t.kind = kUniform
		return t, nil
	}
	if _, ok := c.Graph.(graphgen.Complete); ok {
		t.kind, t.slot = kOthers, t.d > 2
		return t, nil
	}
	g, err := graphgen.Native(c.Graph)
	if err != nil {
		return t, err
	}
	csr, ok := g.(*graphgen.CSR)
	if c.Sample == Edge && (!ok || csr.RegularDegree() <= 0) {
		type lister interface{ EdgeList() []uint32 }
		if l, ok := g.(lister); ok {
			t.kind, t.e = kEdges, l.EdgeList()
			return t, nil
		}
	}
	if !ok {
		if csr, err = graphgen.FromIterator(g); err != nil {
			return t, err
		}
	}
	if D := csr.RegularDegree(); D > 0 {
		t.kind, t.adj, t.deg = kRows, csr.Adjacency(), uint64(D)
		t.slot = t.d > 2
		return t, nil
	}
	if c.Sample == Edge {
		t.kind, t.e = kEdges, csr.EdgeList()
		return t, nil
	}
	t.kind, t.adj, t.off, t.slot = kCSR, csr.Adjacency(), csr.Offsets(), true
	return t, nil
}

// meanGap is the mean time between events, 1/((1 + λ)n): times advance by
// a standard exponential times it (a multiplication: a division on the
// chain of times, one event to the next, cost a sixth of the loop).
func meanGap(lambda float64, n uint64) float64 { return 1 / ((1 + lambda) * float64(n)) }

// arrivalThreshold is the 64-bit threshold below which a draw is an
// arrival: ⌊2^64·λ/(1 + λ)⌋.
func arrivalThreshold(lambda float64) uint64 {
	return uint64(math.Ldexp(lambda/(1+lambda), 64))
}

// cancelEvery is how many events pass between looks at the context.
const cancelEvery = 1 << 20

// choose draws an arrival's candidates from state s and returns the new
// state and the server the job joins: the first shortest candidate, the
// candidates in the order described at layout.
func (t *topology) choose(s uint64, Q []uint32) (uint64, uint64) {
	n := uint64(len(Q))
	var home uint64
	switch t.kind {
	case kEdges:
		var x, coin uint64
		s, x = alloc.Below(s, uint64(len(t.e)/2))
		u, v := uint64(t.e[2*x]), uint64(t.e[2*x+1])
		s, coin = alloc.Step(s)
		if coin>>63 != 0 {
			u, v = v, u
		}
		c, l := u, Q[u]
		if Q[v] < l {
			c = v
		}
		return s, c
	case kUniform:
		s, home = alloc.Below(s, n)
		c, l := home, Q[home]
		for j := 1; j < t.d; j++ {
			var v uint64
			s, v = alloc.Below(s, n)
			if q := Q[v]; q < l {
				c, l = v, q
			}
		}
		return s, c
	}
	s, home = alloc.Below(s, n)
	slot := uint64(0)
	if t.slot {
		s, slot = alloc.Below(s, uint64(t.d))
	}
	c, l := home, Q[home]
	homeBest := true
	for j := uint64(1); j < uint64(t.d); j++ {
		var v uint64
		s, v = t.neighbour(s, home, n)
		// Neighbour j sits before the home (which is at position slot)
		// when j <= slot: then it wins its tie with the home.
		if q := Q[v]; q < l || (q == l && homeBest && j <= slot) {
			c, l, homeBest = v, q, false
		}
	}
	return s, c
}

// neighbour draws a uniform neighbour of home (home itself when it has
// none).
func (t *topology) neighbour(s, home, n uint64) (uint64, uint64) {
	var j uint64
	switch t.kind {
	case kOthers:
		s, j = alloc.Below(s, n-1)
		if j >= home {
			j++
		}
		return s, j
	case kRows:
		s, j = alloc.Below(s, t.deg)
		return s, uint64(t.adj[home*t.deg+j])
	}
	lo, hi := t.off[home], t.off[home+1]
	if lo == hi {
		return s, home
	}
	s, j = alloc.Below(s, uint64(hi-lo))
	return s, uint64(t.adj[uint64(lo)+j])
}
