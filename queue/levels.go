package queue

// The level engine runs the supermarket model on exchangeable servers
// (uniform sampling, or a sampler on K_n) from the counts alone: the window's
// cnt[i], the number of queues of length ≥ i, is the whole state. Order the
// servers longest queue first (ties in any fixed order) and call a server's
// position its rank u ∈ [0, n): the servers of rank u < cnt[i] are those
// with a queue of length ≥ i, so a uniform server is a uniform rank and its
// queue length the level l with cnt[l+1] ≤ u < cnt[l]. A job joins a
// shortest candidate: the level of the largest of its candidates' ranks
// (which of several tied servers it joins does not change the counts). A
// completion at a uniform server is a uniform rank; below cnt[1] it ends a
// job at its level. Uniform sampling with d ≤ 2 at n ≤ 2^32 runs
// levelsPair, which draws two ranks from one word; otherwise the draws are
// the per-server engine's, one a rank, in the same order. Either way the
// counts have the same law as the per-server engine's (a rank is not a
// server), which TestLevelsMatchServers checks.
// A level is found without a branch: the counts fall with the level, so
// the level of rank u is the number of levels i ≥ 1 with cnt[i] > u, summed
// over the levels up to the longest queue (a handful) from the sign bit of
// u − cnt[i]. A scan that stops at the level would mispredict its exit
// about once an event, which cost half the loop's time. Nothing is read
// from memory beyond a few hundred bytes of counts, whatever n. The
// engine's loops, levels and levelsPair, are in zloops.go (gen_loops.go).

// levelOf is the queue length of the server of rank u < n ≤ 2^62, the
// longest queue being hi.
func levelOf(cnt []int64, hi int, u uint64) int {
	l := uint64(0)
	for _, c := range cnt[1 : hi+1] {
		l += (u - uint64(c)) >> 63
	}
	return int(l)
}

// levelFirst4 is the number of levels i in [1, 4] with cnt[i] > u: the
// level of rank u when u ≥ cnt[5]. Under two choices a rank below cnt[5]
// is rare (s_5 = λ^31 in the fixed point, 4·10^−4 at λ = 0.9), so a loop
// can add levelAbove4 behind a predicted branch and read four counts an
// event instead of all up to the longest queue. It needs len(cnt) > 4.
func levelFirst4(cnt []int64, u uint64) int {
	c := cnt[1:5:5]
	return int((u-uint64(c[0]))>>63 + (u-uint64(c[1]))>>63 + (u-uint64(c[2]))>>63 + (u-uint64(c[3]))>>63)
}

// levelAbove4 is the number of levels i in [5, hi] with cnt[i] > u, out of
// line: the loop that calls it inlines the common path.
//
//go:noinline
func levelAbove4(cnt []int64, hi int, u uint64) int { return levelOf(cnt[4:], hi-4, u) }
