//go:build purego

package alloc

import "testing"

// With -tags purego the assembly is left out: the loops run the portable
// fallback, never pipelined.
func TestPuregoHasNoPrefetch(t *testing.T) {
	if havePrefetch {
		t.Fatal("-tags purego built the assembly prefetch")
	}
}
