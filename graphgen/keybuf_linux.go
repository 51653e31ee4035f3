//go:build linux

package graphgen

import (
	"syscall"
	"unsafe"
)

// grow makes room for c keys in b, keeping its contents: a mapping that
// mremap grows in place or moves without copying, or, if the system
// refuses a mapping, a Go slice.
func (b *keyBuf) grow(c int) {
	size := 8 * c
	if b.mapping == nil && len(b.k) == 0 {
		p, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON, ^uintptr(0), 0)
		if errno == 0 {
			b.setMapping(unsafe.Slice((*byte)(mapped(p)), size))
			return
		}
	} else if b.mapping != nil {
		const mremapMayMove = 1
		old := unsafe.Pointer(unsafe.SliceData(b.mapping))
		p, _, errno := syscall.Syscall6(syscall.SYS_MREMAP, uintptr(old), uintptr(len(b.mapping)), uintptr(size), mremapMayMove, 0, 0)
		if errno == 0 {
			b.setMapping(unsafe.Slice((*byte)(mapped(p)), size))
			return
		}
	}
	k := make([]uint64, len(b.k), c)
	copy(k, b.k)
	unmapKeys(b.mapping)
	b.k, b.mapping = k, nil
}

// setMapping makes the mapping m hold b's keys (len(b.k) of them already
// there) and advises huge pages for it, which the sort's random accesses
// favour.
func (b *keyBuf) setMapping(m []byte) {
	_ = syscall.Madvise(m, syscall.MADV_HUGEPAGE)
	n := len(b.k)
	b.mapping = m
	b.k = unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(m))), len(m)/8)[:n]
}

// unmapKeys releases a mapping made by grow; nil is a no-op. (grow maps
// with the system calls themselves: syscall.Mmap's bookkeeping would not
// follow a mapping that mremap moved.)
func unmapKeys(m []byte) {
	if m != nil {
		_, _, _ = syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(unsafe.SliceData(m))), uintptr(len(m)), 0)
	}
}

// mapped converts the address a system call returned for a mapping, which
// the garbage collector does not manage, to a pointer.
func mapped(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// release returns to the system the pages of b wholly beyond its first
// kept keys (the duplicates a reader dropped), which stay mapped.
func (b *keyBuf) release(kept int) {
	if b.mapping == nil {
		return
	}
	const page = 4096
	from := (8*kept + page - 1) / page * page
	if from < len(b.mapping) {
		_ = syscall.Madvise(b.mapping[from:], syscall.MADV_DONTNEED)
	}
}
