package study

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/queue"
)

// QueueServers sets c.N from -g graph and -n bins (within the engine's
// limit on n) and returns the build of c's graph: for a sampler on a
// graph (build true), to be built within maxMemory beside what the trials
// that run at once hold (c.Memory, the level engine's on complete; all
// of them unless workers > 0 caps them); under uniform sampling there is
// no graph (b is K_n's, for the predictions), and the trials' memory
// alone is checked against the limits of sources. Its errors name the
// flags.
func QueueServers(c *queue.Config, graph, bins string, binsSet bool, maxMemory int64, trials, workers int, sources MemorySources) (b GraphBuild, build bool, err error) {
	if c.Sample == queue.Uniform {
		graph = "complete"
	}
	parallel := trials
	if workers > 0 {
		parallel = min(trials, workers)
	}
	spec, err := graphgen.ParseSpec(graph)
	if err != nil {
		return b, false, fmt.Errorf("--graph: %v%s", err, GraphHint(graph))
	}
	maxN, why := int64(queue.MaxServers), "the servers engine's 32-bit ids"
	if spec.Kind == "complete" && c.Engine != queue.EngineServers {
		maxN, why = queue.MaxLevelServers, "the level engine"
	}
	if b, err = NewGraphBuild(spec, bins, binsSet, maxN, why); err != nil {
		return b, false, err
	}
	c.N = b.N
	if c.Sample == queue.Uniform {
		return b, false, sources.Check("this run", c.Memory(parallel), "", maxMemory)
	}
	probe := *c // the engine, for the estimate: levels on complete
	if spec.Kind == "complete" {
		probe.Graph = graphgen.Complete(b.N)
	}
	b.MaxMemory, b.Extra, b.Lean = maxMemory, probe.Memory(parallel), c.Sample == queue.Edge
	return b, true, nil
}

// QueueDemand is what a queue run set up by QueueServers (b, build) holds
// and does, before its graph is built: its servers, the events of a trial
// ((1 + λ)·n·time on the uniformised clock) and the bytes of its graph and
// of the trials that run at once (c.Memory).
func QueueDemand(c queue.Config, b GraphBuild, build bool, trials, workers int) (n, events, bytes int64) {
	parallel := trials
	if workers > 0 {
		parallel = min(trials, workers)
	}
	n, bytes = c.N, b.Extra
	if !build {
		bytes = c.Memory(parallel)
	} else if plan, err := b.Spec.Plan(int(b.N)); err == nil {
		n = max(n, int64(plan.N))
		bytes += plan.BuildBytes
		if b.Lean {
			bytes += plan.LeanBytes - plan.BuildBytes
		}
	}
	return n, int64((1 + c.Lambda) * float64(n) * c.Time), bytes
}
