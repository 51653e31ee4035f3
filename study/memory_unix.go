//go:build unix

package study

import "syscall"

// addressSpaceLimit returns the soft RLIMIT_AS, and false if there is none
// (RLIM_INFINITY is all ones, above unlimited).
func addressSpaceLimit() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= unlimited {
		return 0, false
	}
	return r.Cur, true
}
