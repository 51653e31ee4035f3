package study

import (
	"fmt"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// BoundsQuery is the bounds query of process d (nil: every process but
// rank, with the parameters as given) with parameters p, n bins, m balls
// in batches of b (0 or 1: one at a time), on the topology whose fields
// SpecQuery or GraphQuery filled in topo (the zero Query for none). A
// hypergraph's mean rank, which SpecQuery sets as topo.D, is d's choices.
func BoundsQuery(topo analysis.Query, d *alloc.Descriptor, p alloc.Params, n, m, b int64) analysis.Query {
	q := topo
	q.N, q.M = float64(n), float64(m)
	if b > 1 {
		q.Batch = float64(b)
	}
	p.Graph = nil
	if d == nil {
		q.Params = p
		return q
	}
	q.Process, q.Params = d.Name, QueryParams(d, p)
	if topo.MinRank > 0 {
		q.D = topo.D
	}
	return q
}

// BoundsSize is the n of the bounds for -n bins and -g graph ("" for
// none): the bounds are formulas, so n may be as large as the level engine
// runs, or as the graph may be. A graph is measured into q (SpecQuery)
// and its own order is n, which a given -n (binsSet) must match. Its
// errors name the flags.
func BoundsSize(q *analysis.Query, bins, graph string, binsSet bool, seed uint64) (n int64, sp graphgen.Spec, err error) {
	if n, err = ParseCount(bins, 0); err != nil {
		return 0, sp, fmt.Errorf("--bins: %v", err)
	}
	limit := int64(alloc.MaxLevelBins)
	if graph != "" {
		if sp, err = graphgen.ParseSpec(graph); err != nil {
			return 0, sp, fmt.Errorf("--graph: %v%s", err, GraphHint(graph))
		}
		limit = int64(sp.OrderLimit())
	}
	if n < 1 || n > limit {
		return 0, sp, fmt.Errorf("--bins: need 1 <= n <= %d, got %d", limit, n)
	}
	if graph == "" {
		return n, sp, nil
	}
	nn, err := SpecQuery(q, sp, int(n), seed)
	switch {
	case err != nil:
		return 0, sp, fmt.Errorf("--graph: %w", err)
	case nn != int(n) && binsSet:
		return 0, sp, fmt.Errorf("--bins: n=%d but graph %s has %d vertices", n, sp, nn)
	}
	return int64(nn), sp, nil
}
