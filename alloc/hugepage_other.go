//go:build !linux

package alloc

const hugePageSize = 2 << 20

// mapHuge is not available: the loads live on the Go heap.
func mapHuge(size int) (mem, mapping []byte) { return nil, nil }

func unmapHuge(mapping []byte) {}
