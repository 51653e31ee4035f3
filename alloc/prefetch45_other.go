//go:build !amd64 || purego

package alloc

import "unsafe"

// The portable fallback of prefetch4 and prefetch5 (see prefetch_other.go).
func prefetch4(p, q, r, s unsafe.Pointer)    {}
func prefetch5(p, q, r, s, t unsafe.Pointer) {}
