package alloc

import "slices"

// ProfileLevel is one entry of a normalised load profile: Count bins whose
// load minus the average load is Value.
type ProfileLevel struct {
	Value float64 `json:"value"`
	Count int64   `json:"count"`
}

// ProfileFromCounts returns the sorted normalised load vector of a trial
// with integer loads, X = (load − m/n, sorted descending), as run-length
// pairs: one level per load held by at least one bin, highest first.
// counts[i] is the number of bins holding exactly i balls (Result.LoadCounts)
// and m the number of balls. X is the state of the Markov chain through
// which the heavily loaded case is studied (docs/theory.md); it has at most
// max − min + 1 levels.
func ProfileFromCounts(counts []int64, m int64, n int) []ProfileLevel {
	avg := float64(m) / float64(n)
	var p []ProfileLevel
	for i := len(counts) - 1; i >= 0; i-- {
		if counts[i] > 0 {
			p = append(p, ProfileLevel{Value: float64(i) - avg, Count: counts[i]})
		}
	}
	return p
}

// ProfileFromLoads returns the sorted normalised load vector of real loads
// (weighted balls): load − average, highest first, equal values merged. It
// sorts a copy of loads: O(n log n).
func ProfileFromLoads(loads []float64) []ProfileLevel {
	if len(loads) == 0 {
		return nil
	}
	s := slices.Clone(loads)
	slices.SortFunc(s, func(a, b float64) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	var sum float64
	for _, l := range s {
		sum += l
	}
	avg := sum / float64(len(s))
	var p []ProfileLevel
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		p = append(p, ProfileLevel{Value: s[i] - avg, Count: int64(j - i)})
		i = j
	}
	return p
}
