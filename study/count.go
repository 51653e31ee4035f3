package study

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// ParseCount parses a non-negative count as graphalloc accepts it:
// 1000000, 1_000_000, 1e6, 2^20, and, when n > 0, multiples of n written
// n, 16n or 0.5n. The value must be an integer (0.5n must come out whole)
// no larger than 2^63-1.
func ParseCount(s string, n int64) (int64, error) {
	orig := s
	s = strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	if s == "" {
		return 0, fmt.Errorf("empty number")
	}
	mult := big.NewRat(1, 1)
	if strings.HasSuffix(s, "n") {
		if n <= 0 {
			return 0, fmt.Errorf("%q: a multiple of n is not allowed here", orig)
		}
		s = strings.TrimSuffix(s, "n")
		mult.SetInt64(n)
		if s == "" {
			s = "1"
		}
	}
	var x *big.Rat
	if base, exp, ok := strings.Cut(s, "^"); ok {
		b, okb := new(big.Int).SetString(base, 10)
		e, oke := new(big.Int).SetString(exp, 10)
		if !okb || !oke || e.Sign() < 0 || e.BitLen() > 16 || b.Sign() < 0 {
			return 0, fmt.Errorf("%q is not a number (forms: 1000000, 1e6, 2^20, 16n)", orig)
		}
		if b.BitLen()*int(e.Int64()) > 200 {
			return 0, fmt.Errorf("%q is larger than %d", orig, int64(math.MaxInt64))
		}
		x = new(big.Rat).SetInt(new(big.Int).Exp(b, e, nil))
	} else {
		// big.Rat parses decimals and exponents exactly; bound the
		// exponent first so that 1e999999999 cannot exhaust memory.
		if i := strings.IndexAny(s, "eE"); i >= 0 && len(s[i+1:]) > 4 {
			return 0, fmt.Errorf("%q is out of range", orig)
		}
		var ok bool
		x, ok = new(big.Rat).SetString(s)
		if !ok {
			return 0, fmt.Errorf("%q is not a number (forms: 1000000, 1e6, 2^20, 16n)", orig)
		}
	}
	x.Mul(x, mult)
	if x.Sign() < 0 {
		return 0, fmt.Errorf("%q is negative", orig)
	}
	if !x.IsInt() {
		return 0, fmt.Errorf("%q is not a whole number", orig)
	}
	v := x.Num()
	if !v.IsInt64() {
		return 0, fmt.Errorf("%q is larger than %d", orig, int64(math.MaxInt64))
	}
	return v.Int64(), nil
}

// ParseSizes parses a list of sizes n (compare's -n): comma-separated counts and ranges A..B, a range
// being A, 2A, 4A, … up to B (the powers of two between when A is one).
// Every count, and both ends of a range, must lie in [1, graphgen.MaxOrder],
// the bins the per-bin engine of compare holds; outside it is an error.
// The result is sorted, without repeats.
func ParseSizes(s string) ([]int, error) {
	size := func(t string) (int64, error) {
		v, err := ParseCount(t, 0)
		if err == nil && (v < 1 || v > graphgen.MaxOrder) {
			what := strings.TrimSpace(t)
			if what != strconv.FormatInt(v, 10) {
				what += " = " + strconv.FormatInt(v, 10)
			}
			err = fmt.Errorf("%s is out of range: need 1 <= n <= %d (2^32-1)", what, int64(graphgen.MaxOrder))
		}
		return v, err
	}
	var ns []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if a, b, ok := strings.Cut(item, ".."); ok {
			lo, err := size(a)
			if err != nil {
				return nil, err
			}
			hi, err := size(b)
			if err != nil {
				return nil, err
			}
			if hi < lo {
				return nil, fmt.Errorf("range %q needs start <= end", item)
			}
			for v := lo; v <= hi; v *= 2 {
				ns = append(ns, int(v))
				if v > hi/2 {
					break
				}
			}
			continue
		}
		v, err := size(item)
		if err != nil {
			return nil, err
		}
		ns = append(ns, int(v))
	}
	if len(ns) == 0 {
		return nil, fmt.Errorf("no size given in %q", s)
	}
	slices.Sort(ns)
	return slices.Compact(ns), nil
}

// ParseLoad parses a number of balls as ParseCount does for n bins and
// returns it with the load m/n it means: 0.5n of n = 3 is not whole, but
// the load 0.5 is what was meant, so a multiple of n gives its factor.
func ParseLoad(s string, n int64) (m int64, load float64, err error) {
	if m, err = ParseCount(s, n); err != nil {
		return 0, 0, err
	}
	load = float64(m) / float64(n)
	t := strings.TrimSpace(s)
	if f, ok := strings.CutSuffix(t, "n"); ok {
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			load = v
		} else if f == "" {
			load = 1
		}
	}
	return m, load, nil
}

// FluidSize reads the -n and -m of `graphalloc fluid`: n bins, 1 to
// alloc.MaxLevelBins, and the load m/n (ParseLoad), 0 to
// analysis.MaxFluidLoad. Its errors name the flags.
func FluidSize(bins, balls string) (n int64, load float64, err error) {
	if n, err = ParseCount(bins, 0); err != nil {
		return 0, 0, fmt.Errorf("--bins: %v", err)
	}
	if n < 1 || n > alloc.MaxLevelBins {
		return 0, 0, fmt.Errorf("--bins: need 1 <= n <= %d, got %d", int64(alloc.MaxLevelBins), n)
	}
	if _, load, err = ParseLoad(balls, n); err != nil {
		return 0, 0, fmt.Errorf("--balls: %v", err)
	}
	if !(load >= 0 && load <= analysis.MaxFluidLoad) {
		return 0, 0, fmt.Errorf("--balls: the load m/n must be in [0, %g], got %g", float64(analysis.MaxFluidLoad), load)
	}
	return n, load, nil
}

// ParseBalls parses the balls m of a run on n bins (ParseCount): at least
// one. Its errors name the CLI's --balls.
func ParseBalls(s string, n int64) (int64, error) {
	m, err := ParseCount(s, n)
	if err != nil {
		return 0, fmt.Errorf("--balls: %v", err)
	}
	if m < 1 {
		return 0, fmt.Errorf("--balls: need m >= 1, got %d (%q)", m, s)
	}
	return m, nil
}

// ParseBatch parses the batch size B of a run of the processes ds on n
// bins (ParseCount): B >= 1, and B > 1 only for processes that run in
// batches. It returns 0 for one ball at a time (B = 1). Its errors name
// the CLI's --batch.
func ParseBatch(s string, n int64, ds []*alloc.Descriptor) (int64, error) {
	b, err := ParseCount(s, n)
	if err != nil || b < 1 {
		return 0, fmt.Errorf("--batch: need a batch size B >= 1 (a count or a multiple of n), got %q", s)
	}
	if b == 1 {
		return 0, nil
	}
	for _, d := range ds {
		if !d.Batches() {
			var names []string
			for _, e := range alloc.Descriptors() {
				if !e.Batches() {
					names = append(names, e.Name)
				}
			}
			return 0, fmt.Errorf("--batch applies to every process but -p %s, which run their trials on a state of their own; not to -p %s", strings.Join(names, " and -p "), d.Name)
		}
	}
	return b, nil
}

// ParseShard parses a shard I/K (0 <= I < K) of a run; "" is the whole
// run, 0/1. Its error names the CLI's --shard.
func ParseShard(s string) (i, k int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	is, ks, ok := strings.Cut(s, "/")
	i, e1 := strconv.Atoi(is)
	k, e2 := strconv.Atoi(ks)
	if !ok || e1 != nil || e2 != nil || k < 1 || i < 0 || i >= k {
		return 0, 0, fmt.Errorf("--shard: want I/K with 0 <= I < K, got %q", s)
	}
	return i, k, nil
}

// ShardTrials are the trials of shard i of k of a run of the given
// number of trials: those t with t mod k = i, in order.
func ShardTrials(trials, i, k int) []int {
	var ts []int
	for t := i; t < trials; t += k {
		ts = append(ts, t)
	}
	return ts
}

// RunCounts reads the counts of a run of the processes ds on n bins: the
// balls m (ParseBalls), the interval of the series ("" for none) and the
// batch size (ParseBatch), which the level engine (levels) does not run.
// Its errors name the CLI's flags.
func RunCounts(balls, every, batch string, n int64, ds []*alloc.Descriptor, levels bool) (m, ev, b int64, err error) {
	if m, err = ParseBalls(balls, n); err != nil {
		return 0, 0, 0, err
	}
	if every != "" {
		if ev, err = ParseCount(every, n); err != nil || ev < 1 {
			return 0, 0, 0, fmt.Errorf("--every: need a positive count, got %q", every)
		}
	}
	if b, err = ParseBatch(batch, n, ds); err != nil {
		return 0, 0, 0, err
	}
	if b > 1 && levels {
		return 0, 0, 0, fmt.Errorf("--batch: the level engine does not run batches (a ball of a batch may hit a bin another ball of the batch hit, and the level counts do not tell bins apart): use --engine bins, n <= 2^32-1")
	}
	return m, ev, b, nil
}
