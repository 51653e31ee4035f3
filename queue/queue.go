package queue

import (
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Sampler says how a job draws the queues it chooses among.
type Sampler int

// The samplers.
const (
	// Uniform: d queues uniform and independent (with replacement), the
	// classic supermarket model [Mit96, VDK96]; d = 1 is n independent
	// M/M/1 queues.
	Uniform Sampler = iota
	// Edge: both ends of a uniform edge of the graph [Gast15].
	Edge
	// Vertex: the vertex where the job appears (uniform) and d − 1
	// neighbours of it, uniform and independent [BMW19].
	Vertex
)

// String is the sampler's name on the command line.
func (s Sampler) String() string {
	switch s {
	case Edge:
		return "edge"
	case Vertex:
		return "vertex"
	}
	return "uniform"
}

// ParseSampler reads a sampler of a graph: "edge" or "vertex".
func ParseSampler(s string) (Sampler, error) {
	switch s {
	case "edge":
		return Edge, nil
	case "vertex":
		return Vertex, nil
	}
	return 0, fmt.Errorf("queue: unknown sampler %q (allowed: edge, vertex)", s)
}

// Engine selects the simulator.
type Engine int

// The engines.
const (
	// EngineAuto: levels where they apply (uniform sampling, or the
	// complete graph), servers otherwise.
	EngineAuto Engine = iota
	// EngineServers keeps a queue length per server: 4 bytes a server
	// beside the graph.
	EngineServers
	// EngineLevels keeps only the number of queues at each length, for
	// uniform sampling or the complete graph: memory O(levels), n up to
	// MaxLevelServers.
	EngineLevels
)

// String is the engine's name on the command line.
func (e Engine) String() string {
	switch e {
	case EngineServers:
		return "servers"
	case EngineLevels:
		return "levels"
	}
	return "auto"
}

// ParseEngine reads auto, servers or levels.
func ParseEngine(s string) (Engine, error) {
	switch s {
	case "auto", "":
		return EngineAuto, nil
	case "servers":
		return EngineServers, nil
	case "levels":
		return EngineLevels, nil
	}
	return 0, fmt.Errorf("queue: unknown engine %q (allowed: auto, servers, levels)", s)
}

// Start is the state the queues start in.
type Start int

// The starts.
const (
	// StartEmpty: every queue empty.
	StartEmpty Start = iota
	// StartFixed: queue lengths drawn from the fixed point of uniform
	// d-sampling, independently for each server (the level engine sets
	// the counts to n·s_i rounded). For d = 1 this is the stationary law
	// itself (n independent M/M/1 queues), whose relaxation from empty
	// takes about 1/(1 − √λ)² time units.
	StartFixed
)

// Limits of the simulators.
const (
	// MaxServers is the largest n of the per-server engine: vertices are
	// uint32.
	MaxServers = 1<<32 - 1
	// MaxLevelServers is the largest n of the level engine.
	MaxLevelServers = 1 << 62
	// MaxChoices is the largest d.
	MaxChoices = 64
	// DefaultBatches is the number of time batches the horizon is cut
	// into when Config.Batches is 0.
	DefaultBatches = 200
)

// Config is one run of the supermarket model: n FIFO servers of rate 1,
// Poisson arrivals of rate λn, each job joining the shortest of its
// candidate queues (ties uniformly at random), over [0, Time].
type Config struct {
	N      int64
	D      int     // candidates of a job (Uniform, Vertex); Edge takes 2
	Lambda float64 // arrival rate per server, 0 < λ < 1
	Time   float64 // the horizon, in mean service times
	// Warmup is the time discarded before measuring; negative: chosen by
	// MSER from the data (analysis.MSER), as a whole number of batches.
	Warmup float64
	Sample Sampler
	// Graph is the topology of Edge and Vertex (nil for Uniform). Its
	// order is N.
	Graph  graphgen.Graph
	Engine Engine
	Start  Start
	// Batches is the number of equal time batches of [0, Time] the
	// estimates and MSER work on (0: DefaultBatches).
	Batches int
	// Every, if positive, records the state at Every, 2·Every, … ≤ Time.
	Every float64
	Seed  uint64
}

// Check reports a configuration the simulators cannot run, naming the
// parameter and what is allowed.
func (c *Config) Check() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("queue: "+format, a...)
	}
	switch {
	case !(c.Lambda > 0 && c.Lambda < 1):
		return bad("need 0 < λ < 1 (λ ≥ 1 has no steady state), got λ=%g", c.Lambda)
	case !(c.Time > 0) || math.IsInf(c.Time, 0):
		return bad("need a positive finite time, got %g", c.Time)
	case c.N < 1:
		return bad("need n >= 1, got %d", c.N)
	case c.D < 1 || c.D > MaxChoices:
		return bad("need 1 <= d <= %d, got %d", MaxChoices, c.D)
	case c.Sample == Edge && c.D != 2:
		return bad("edge sampling takes the 2 ends of an edge: d must be 2, got %d", c.D)
	case c.Sample != Uniform && c.Graph == nil:
		return bad("%s sampling needs a graph", c.Sample)
	case c.Sample != Uniform && int64(c.Graph.Order()) != c.N:
		return bad("the graph has %d vertices, n is %d", c.Graph.Order(), c.N)
	case c.Sample != Uniform && isHyper(c.Graph):
		return bad("hypergraphs are not supported: a job's candidates come from a graph")
	case c.Sample == Edge && c.Graph.Size() == 0:
		return bad("edge sampling on a graph without edges")
	case c.Sample == Vertex && c.D > 1 && c.Graph.Size() == 0:
		return bad("vertex sampling with d = %d on a graph without edges: a job's vertex has no neighbour to draw", c.D)
	case c.Warmup >= c.Time:
		return bad("the warm-up %g leaves nothing of the time %g", c.Warmup, c.Time)
	case c.Batches < 0 || c.Batches == 1 || c.Batches > 1<<20:
		return bad("need 2 <= batches <= 2^20 (or 0 for %d), got %d", DefaultBatches, c.Batches)
	case c.Every < 0 || math.IsNaN(c.Every) || (c.Every > 0 && c.Time/c.Every > 1<<24):
		return bad("--every %g: need a positive interval with at most 2^24 points in the time %g", c.Every, c.Time)
	}
	eng := c.engine()
	if c.Engine == EngineLevels && eng != EngineLevels {
		return bad("the level engine runs uniform sampling or the complete graph only (its queues are exchangeable); use the servers engine")
	}
	if eng == EngineLevels && c.N > MaxLevelServers {
		return bad("need n <= 2^62 for the level engine, got %d", c.N)
	}
	if eng == EngineServers && c.N > MaxServers {
		return bad("need n <= 2^32-1 for the servers engine (the level engine takes uniform sampling up to 2^62), got %d", c.N)
	}
	return nil
}

// Exchangeable reports whether the servers are exchangeable: uniform
// sampling, or a sampler on the complete graph.
func (c *Config) Exchangeable() bool {
	if c.Sample == Uniform {
		return true
	}
	_, ok := c.Graph.(graphgen.Complete)
	return ok
}

// engine is the engine that runs c: EngineAuto resolves to levels where
// they apply.
func (c *Config) engine() Engine {
	switch {
	case c.Engine == EngineServers:
		return EngineServers
	case c.Exchangeable():
		return EngineLevels
	}
	return EngineServers
}

// EngineUsed is the engine Run uses for c.
func (c *Config) EngineUsed() Engine { return c.engine() }

// batches is the number of batches.
func (c *Config) batches() int {
	if c.Batches == 0 {
		return DefaultBatches
	}
	return c.Batches
}

// Choices is the number of candidates of a job: d, or 2 for edge sampling.
func (c *Config) Choices() int {
	if c.Sample == Edge {
		return 2
	}
	return c.D
}

// Memory estimates the bytes a run of c holds beside its graph when
// `parallel` trials run at once: each trial's queue lengths (4 bytes a
// server on the per-server engine, none on the level engine), its batch
// averages (8 bytes a level a batch, counted at 64 levels) and its series
// (64 bytes a point), and the graph's laid-out copy for a graph the
// engine cannot read in place (at most 8 bytes a half-edge).
func (c *Config) Memory(parallel int) int64 {
	per := int64(c.batches())*initialLevels*8 + 64*int64(initialLevels)*3
	if c.Every > 0 {
		per += int64(c.Time/c.Every+1) * 64
	}
	if c.engine() == EngineServers {
		per += 4 * c.N
	}
	var copied int64
	switch c.Graph.(type) {
	case nil, graphgen.Complete, *graphgen.CSR, *graphgen.EdgeArray:
	default: // listed into a CSR: 4 bytes a half-edge, 8 an offset
		copied = 8*c.Graph.Size() + 8*(c.N+1)
	}
	return int64(max(parallel, 1))*per + copied
}

// isHyper reports whether g is a hypergraph.
func isHyper(g graphgen.Graph) bool {
	_, ok := g.(*graphgen.Hypergraph)
	return ok
}
