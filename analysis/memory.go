package analysis

import "github.com/graphalloc/graphalloc/graphgen"

// DescribeBytes bounds what DescribeWith allocates beside the graph it is
// given, for n vertices and e edges (none for the complete graph and the
// circulants, whose spectra are closed forms): a CSR copy of a graph that
// is not one already (toCSR), then, in the walk, the graph relabelled in
// breadth-first order (8e + 16n bytes) and the degrees (16n), the
// components (16n), about ten vectors of n float64 for Lanczos, its
// certificate and the sweep cut (80n), and below DenseMax vertices the
// dense factorisation and the Lanczos basis (16n²). info checks it against
// the memory guard before it describes a graph.
func DescribeBytes(n, e int64, toCSR bool) int64 {
	need := 8*e + 128*n + 16*min(n, 2048)*min(n, 2048)
	if toCSR {
		need += 8*e + 8*n
	}
	return need
}

// PlannedDescribeBytes is DescribeBytes of the graph of spec on n
// vertices as its plan tells it before it is built, and whether the graph
// is to be checked again once built (its edges known): 0 and false for a
// spectrum in closed form (ClosedForm), which needs nothing beside the
// graph, and for a hypergraph or a spec it cannot plan; 0 and true for a
// file, whose edges are known once read.
func PlannedDescribeBytes(spec graphgen.Spec, n int) (need int64, again bool) {
	plan, err := spec.Plan(n)
	if err != nil || plan.Hyper || ClosedForm(spec) {
		return 0, false
	}
	if plan.Edges >= 0 {
		need = DescribeBytes(int64(plan.N), plan.Edges, plan.Implicit)
	}
	return need, need == 0
}

// ClosedForm reports a spec whose spectrum Describe gives in closed form,
// with no memory beside the graph: the complete graph and the circulants.
func ClosedForm(spec graphgen.Spec) bool { return spec.Kind == "complete" || spec.Kind == "circulant" }
