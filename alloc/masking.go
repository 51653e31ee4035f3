package alloc

import (
	"fmt"
	"math"
	"slices"
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
	if err := checkMasking(survivors, fillers); err != nil {
		return nil, err
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
	var given [2]bool // survivors, fillers
	for _, kv := range strings.Split(s, ",") {
		key, val, _ := strings.Cut(kv, "=")
		k := slices.Index([]string{"survivors", "fillers"}, key)
		if k < 0 || given[k] {
			return 0, 0, fmt.Errorf("alloc: deletion model masking takes survivors=S and optionally fillers=F, each once, got %q", s)
		}
		given[k] = true
		x, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("alloc: deletion model masking: %s needs a whole number, got %q", key, val)
		}
		if k == 0 {
			survivors = x
		} else {
			fillers = x
		}
	}
	if !given[1] {
		fillers = MaskingFillers(survivors)
	}
	return survivors, fillers, checkMasking(survivors, fillers)
}

// checkMasking reports whether MaskingOps can build the sequence.
func checkMasking(survivors, fillers int64) error {
	if survivors < 1 || survivors > 1<<24 || fillers < 0 || fillers > 1<<20 || survivors*(2*fillers+1) > maxMaskingOps {
		return fmt.Errorf("alloc: deletion model masking takes 1 to 2^24 survivors and 0 to 2^20 fillers, at most 2^25 operations, got survivors=%d, fillers=%d", survivors, fillers)
	}
	return nil
}

// MaskingFillers returns the fillers a round of MaskingOps uses for
// survivors balls: 4⌈√survivors⌉ + 32, several times the survivors'
// spread, so that the fillers fill the holes of the 4 bins with room to
// spare.
func MaskingFillers(survivors int64) int64 {
	return 4*int64(math.Ceil(math.Sqrt(float64(survivors)))) + 32
}
