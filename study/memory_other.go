//go:build !unix

package study

// addressSpaceLimit: no RLIMIT_AS outside Unix.
func addressSpaceLimit() (uint64, bool) { return 0, false }
