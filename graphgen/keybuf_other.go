//go:build !linux

package graphgen

// grow makes room for c keys in b, keeping its contents: a Go slice.
func (b *keyBuf) grow(c int) {
	k := make([]uint64, len(b.k), c)
	copy(k, b.k)
	b.k = k
}

func unmapKeys([]byte) {}

func (b *keyBuf) release(int) {}
