package alloc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaskingOps returns an oblivious sequence of operations (see ReadOps) on
// which Greedy[2] on 4 bins ends about as unbalanced as one-choice: with m
// = survivors balls present at the end, its fullest bin holds m/4 +
// Θ(√m) balls, where the same m balls inserted alone give m/4 + O(1).
// Bansal and Kuszmaul (FOCS 2022) prove that some oblivious sequence on
// 4 bins drives Greedy to m/4 + Ω(√m); their sequence is not reproduced
// here. This one is constructed for the toolkit, and measured (study
// "deletions", section (c)).
//
// The sequence repeats survivors rounds. A round inserts fillers balls,
// then one ball that stays (a survivor), then deletes that round's
// fillers. Greedy[2] sends the fillers into the holes the survivors left,
// so that the survivor arrives at bins balanced up to Greedy's O(1) gap,
// whatever the survivors' imbalance, and lands in a bin almost
// independent of it; once the fillers leave, the imbalance of the
// survivors has taken a step of a random walk, which no later ball
// corrects. The fillers must outnumber the holes, about the survivors'
// spread √m: MaskingFillers gives the default. At most survivors +
// fillers balls are present at a time.
func MaskingOps(survivors, fillers int64) ([]Op, error) {
	if survivors < 1 || fillers < 0 || survivors > 1<<24 || fillers > 1<<20 {
		return nil, fmt.Errorf("alloc: a masking sequence takes 1 to 2^24 survivors and 0 to 2^20 fillers a round, got %d and %d", survivors, fillers)
	}
	if n := survivors * (2*fillers + 1); n > maxMaskingOps {
		return nil, fmt.Errorf("alloc: a masking sequence of %d survivors with %d fillers a round makes %d operations, more than 2^25", survivors, fillers, n)
	}
	ops := make([]Op, 0, survivors*(2*fillers+1))
	var inserted int64
	for range survivors {
		first := inserted + 1 // the round's first filler
		for range fillers + 1 {
			ops = append(ops, Op{}) // the fillers, then the survivor
		}
		inserted += fillers + 1
		for k := first; k < first+fillers; k++ {
			ops = append(ops, Op{Delete: k})
		}
	}
	return ops, nil
}

// maxMaskingOps bounds a masking sequence: 256 MiB of operations, built
// before a memory guard can count them (at most 2^14 survivors with the
// default fillers are well inside it).
const maxMaskingOps = 1 << 25

// ParseMasking parses the parameters of the deletion model
// "masking:survivors=S" or "masking:survivors=S,fillers=F" (F defaults to
// MaskingFillers(S)), each a whole number written out. MaskingOps builds
// the sequence; ParseMasking checks that it can.
func ParseMasking(s string) (survivors, fillers int64, err error) {
	fillers = -1
	for _, kv := range strings.Split(s, ",") {
		key, val, _ := strings.Cut(kv, "=")
		var dst *int64
		switch key {
		case "survivors":
			dst = &survivors
		case "fillers":
			dst = &fillers
		default:
			return 0, 0, fmt.Errorf("alloc: deletion model masking takes survivors=S and optionally fillers=F, got %q", s)
		}
		if *dst, err = strconv.ParseInt(val, 10, 64); err != nil {
			return 0, 0, fmt.Errorf("alloc: deletion model masking: %s needs a whole number, got %q", key, val)
		}
	}
	if fillers < 0 {
		fillers = MaskingFillers(survivors)
	}
	if survivors < 1 || survivors > 1<<24 || fillers > 1<<20 || survivors*(2*fillers+1) > maxMaskingOps {
		return 0, 0, fmt.Errorf("alloc: deletion model masking takes 1 to 2^24 survivors and 0 to 2^20 fillers, at most 2^25 operations, got survivors=%d, fillers=%d", survivors, fillers)
	}
	return survivors, fillers, nil
}

// MaskingFillers returns the fillers a round of MaskingOps uses for
// survivors balls: 4⌈√survivors⌉ + 32, several times the survivors'
// spread, so that the fillers fill the holes of the 4 bins with room to
// spare.
func MaskingFillers(survivors int64) int64 {
	return 4*int64(math.Ceil(math.Sqrt(float64(survivors)))) + 32
}
