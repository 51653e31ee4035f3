package study

import (
	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
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
