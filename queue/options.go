package queue

import (
	"fmt"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
)

// Options are a run as a command line gives it, before n and the graph:
// `graphalloc queue` binds its flags to these fields, and Config reads
// them. Its errors name the flag.
type Options struct {
	Process string  // greedy, one-choice or graph (alloc's names)
	D       int     // candidates (greedy, graph with vertex sampling)
	Sample  string  // edge or vertex, for graph
	Graph   string  // -g, the topology of graph (built by the caller)
	Bins    string  // -n, the servers as given (a count)
	Lambda  float64 // arrival rate per server
	Time    float64
	Warmup  string // auto or a time
	Engine  string // auto, servers or levels
	Start   string // empty or fixed
	Batches int
	Every   float64
	Seed    uint64
}

// Config checks o and returns its Config, without N and Graph.
func (o Options) Config() (Config, error) {
	c := Config{D: o.D, Lambda: o.Lambda, Time: o.Time, Warmup: -1, Batches: o.Batches, Every: o.Every, Seed: o.Seed}
	var err error
	switch {
	case !(o.Lambda > 0 && o.Lambda < 1):
		return c, fmt.Errorf("--lambda: need 0 < λ < 1 (λ ≥ 1 has no steady state), got %g", o.Lambda)
	case !(o.Time > 0) || o.Time > 1e15:
		return c, fmt.Errorf("--time: need a positive time up to 1e15, got %g", o.Time)
	case o.Warmup != "auto":
		if c.Warmup, err = strconv.ParseFloat(o.Warmup, 64); err != nil || !(c.Warmup >= 0) {
			return c, fmt.Errorf("--warmup: need auto or a time >= 0, got %q", o.Warmup)
		}
	}
	if c.Engine, err = ParseEngine(o.Engine); err != nil {
		return c, fmt.Errorf("--engine: unknown engine %q (allowed: auto, servers, levels)", o.Engine)
	}
	switch o.Start {
	case "fixed":
		c.Start = StartFixed
	case "empty", "":
	default:
		return c, fmt.Errorf("--start: need empty or fixed, got %q", o.Start)
	}
	switch o.Process {
	case alloc.OneChoice{}.Name():
		c.D = 1
	case alloc.Greedy{}.Name():
	case alloc.Graphical{}.Name():
		if c.Sample, err = ParseSampler(o.Sample); err != nil {
			return c, fmt.Errorf("--sample: unknown sampler %q (allowed: edge, vertex)", o.Sample)
		}
	default:
		return c, fmt.Errorf("--process: the supermarket model takes greedy, one-choice or graph (a job joins the shortest of its candidates), got %q", o.Process)
	}
	return c, nil
}
