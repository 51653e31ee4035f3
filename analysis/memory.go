package analysis

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
