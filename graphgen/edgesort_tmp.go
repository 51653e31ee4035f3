package graphgen

import "slices"

// sortKeys sorts k ascending, in place (pdqsort; an in-place radix sort
// replaces it).
func sortKeys(k []uint64) { slices.Sort(k) }

// dedupSorted removes adjacent duplicates of sorted k in place and returns
// the length of the deduplicated prefix.
func dedupSorted(k []uint64) int { return len(slices.Compact(k)) }
