package study

import (
	"fmt"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// GridRequest is a grid as the CLI's compare is asked for it, before it is
// read and checked: the counts as given (ParseSizes, ParseCount).
type GridRequest struct {
	Processes []*alloc.Descriptor
	// Graphs are topology SPECs as given, parsed here once: blanks and
	// repeats (by their canonical form) are dropped; none for a graph
	// process means DefaultGraphs.
	Graphs []string
	Bins   string // the sizes n (ParseSizes)
	Balls  string // balls m a point: a count or a multiple of n
	// Batch, if given, is a batch size the same at every n (a count).
	Batch        string
	BatchGiven   bool
	Expansion    float64 // the edge expansion σ of the one topology, if ExpansionSet
	ExpansionSet bool
	Params       alloc.Params
	TiesSet      bool
	Trials       int
	Seed         uint64
	Workers      int
	Shard        struct{ Index, Of int }
}

// Grid reads r, checking its counts at every n so that a bad flag fails
// before any work; Grid.Check checks the rest. Its errors name the CLI's
// flags.
func (r GridRequest) Grid() (Grid, error) {
	g := Grid{Params: r.Params, TiesSet: r.TiesSet, Trials: r.Trials, Seed: r.Seed, Workers: r.Workers, Shard: r.Shard}
	usesGraph := false
	var names []string
	for _, d := range r.Processes {
		names = append(names, d.Name)
		usesGraph = usesGraph || d.Uses&alloc.ParamGraph != 0
	}
	g.Processes = names
	seen := map[string]bool{}
	for _, s := range r.Graphs {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		sp, err := graphgen.ParseSpec(s)
		if err != nil {
			if hint := GraphHint(s); hint != "" {
				return g, fmt.Errorf("--graph: %v%s", err, hint)
			}
			return g, err
		}
		if !seen[sp.String()] {
			seen[sp.String()] = true
			g.Graphs = append(g.Graphs, sp)
		}
	}
	if len(g.Graphs) > 0 && !usesGraph {
		return g, fmt.Errorf("--graph applies only to -p %s, not to -p %s", strings.Join(alloc.Readers(alloc.ParamGraph), ", -p "), strings.Join(names, ","))
	}
	if usesGraph && len(g.Graphs) == 0 {
		for _, s := range DefaultGraphs {
			sp, err := graphgen.ParseSpec(s)
			if err != nil {
				panic(fmt.Sprintf("study: DefaultGraphs: %v", err)) // a broken invariant of the package
			}
			g.Graphs = append(g.Graphs, sp)
		}
	}
	var err error
	if g.Ns, err = ParseSizes(r.Bins); err != nil {
		return g, fmt.Errorf("--bins: %v", err)
	}
	// m per n, checked at every n.
	for _, n := range g.Ns {
		if _, err := ParseBalls(r.Balls, int64(n)); err != nil {
			return g, fmt.Errorf("%w at n=%d", err, n)
		}
	}
	balls := r.Balls
	g.Balls = func(n int) int64 {
		m, _ := ParseCount(balls, int64(n))
		return m
	}
	if r.BatchGiven {
		if strings.HasSuffix(strings.TrimSpace(r.Batch), "n") {
			return g, fmt.Errorf("--batch: compare runs several n: give the batch size as a count (1024, 2^16), not %q", r.Batch)
		}
		if g.Batch, err = ParseBatch(r.Batch, 0, r.Processes); err != nil {
			return g, err
		}
	}
	if r.ExpansionSet {
		if len(g.Graphs) != 1 || !(r.Expansion > 0 && r.Expansion <= 1) {
			return g, fmt.Errorf("--expansion: the edge expansion 0 < σ <= 1 of the one topology compared, got %g for %d topologies", r.Expansion, len(g.Graphs))
		}
		g.Expansion = r.Expansion
	}
	return g, nil
}
