package graphgen

import "fmt"

// keyBuf holds the edges a lean reader (ReadEdges) has read, each as one
// uint64 with u in its low and v in its high 32 bits, in one contiguous
// array that grows as lines are read. On Linux the array is a private
// anonymous mapping that grows by doubling with mremap, which moves pages
// rather than copying them: the reader's memory is the edges it has read
// (8 bytes each), plus less than a 2 MiB page, at every moment. Elsewhere it is
// a Go slice, whose growth copies: up to 3 times the edges' size while it
// grows.
type keyBuf struct {
	k       []uint64
	mapping []byte // the mapping behind k (Linux); nil for a Go slice
	limit   int64  // ReadOptions.MaxBytes
}

// keyBufStart is the first capacity of a keyBuf, in keys: 64 KiB.
const keyBufStart = 1 << 13

// add appends the edge (u, v), or returns an error message if the buffer
// would outgrow the limit.
func (b *keyBuf) add(u, v uint32) string {
	if len(b.k) == cap(b.k) {
		c := max(2*cap(b.k), keyBufStart)
		if b.limit > 0 && 8*int64(c) > b.limit {
			c = int(b.limit / 8)
			if c <= len(b.k) {
				return fmt.Sprintf("the %d edges read so far take more than the limit of %s", len(b.k), FormatBytes(b.limit))
			}
		}
		b.grow(c)
	}
	b.k = append(b.k, uint64(u)|uint64(v)<<32)
	return ""
}

// bytes is the memory the buffer holds.
func (b *keyBuf) bytes() int64 { return 8 * int64(cap(b.k)) }

// free releases the buffer's memory now (a mapping) or to the garbage
// collector (a slice).
func (b *keyBuf) free() {
	unmapKeys(b.mapping)
	b.k, b.mapping = nil, nil
}
