//go:build linux

package alloc

import (
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on linux/amd64 and
// linux/arm64 with 4 KiB base pages.
const hugePageSize = 2 << 20

// mapHuge returns size bytes of zeroed memory outside the Go heap, aligned
// to a huge page and marked MADV_HUGEPAGE so that the kernel backs it with
// 2 MiB pages where transparent huge pages are enabled (even in "madvise"
// mode), and the mapping to pass to unmapHuge. It returns nil if the
// mapping fails; the caller then allocates on the Go heap.
func mapHuge(size int) (mem, mapping []byte) {
	mapping, err := syscall.Mmap(-1, 0, size+hugePageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil
	}
	// Align the start to a huge page: mmap only promises a base page.
	off := 0
	if a := addrOf(mapping) % hugePageSize; a != 0 {
		off = int(hugePageSize - a)
	}
	mem = mapping[off : off+size : off+size]
	// Advice only: if THP is disabled the memory is still usable.
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
	return mem, mapping
}

// unmapHuge releases a mapping made by mapHuge.
func unmapHuge(mapping []byte) { _ = syscall.Munmap(mapping) }

func addrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
