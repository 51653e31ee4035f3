//go:build !amd64 || purego

package alloc

import "unsafe"

// The portable fallback, on every GOARCH but amd64 and with -tags purego.
// havePrefetch is false: without a prefetch instruction the loops do not
// pipeline (a touch by a plain load serialises on the miss it is meant to
// hide; docs/theory.md, note 4).
const havePrefetch = false

func prefetch(p unsafe.Pointer)        {}
func prefetch2(p, q unsafe.Pointer)    {}
func prefetch3(p, q, r unsafe.Pointer) {}
