// Package need64 stops the build, with a message that names the reason, on
// platforms whose int has 32 bits. graphalloc counts bins, balls and edges
// in int: graphgen.MaxOrder is 2^32−1 vertices and the level engine takes up
// to 2^62 bins (alloc.MaxLevelBins), so it needs a 64-bit int.
//
// graphgen imports this package for that effect alone, and every other
// package of the module imports graphgen. On a 32-bit platform the build
// then fails here, before any of them, with the one error
//
//	undefined: graphalloc_needs_a_64_bit_platform
//
// instead of a list of constant overflows.
package need64
