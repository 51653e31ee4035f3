package study

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// The memory guard: before anything large is allocated, a command
// estimates what it will hold (RunMemory for trials, graphgen.Plan for a
// graph) and refuses what cannot fit, with a message instead of the Go
// runtime's fatal "out of memory". Its messages name the command line's
// --max-memory, the one way to give a limit.

// LimitOf returns the limit a command holds to, its name in messages, and
// whether there is one: maxMemory (--max-memory) if positive, held under
// RLIMIT_AS and the cgroup's limit, which no flag can raise; else the
// memory available (the smallest of MemAvailable, RLIMIT_AS and the
// cgroup's limit, with what sets it unless it is MemAvailable), which may
// be 0 when the process maps more than its RLIMIT_AS leaves room for.
func (s MemorySources) LimitOf(maxMemory int64) (int64, string, bool) {
	if maxMemory > 0 {
		if h := s.HardLimit(); h.Source != "" && h.Bytes < maxMemory {
			return h.Bytes, "the memory the process may map (" + graphgen.FormatBytes(h.Bytes) + ", " + h.Source + "; --max-memory " + graphgen.FormatBytes(maxMemory) + " cannot raise it)", true
		}
		return maxMemory, "--max-memory (" + graphgen.FormatBytes(maxMemory) + ")", true
	}
	l := s.MemoryLimit()
	what := "the memory available (" + graphgen.FormatBytes(l.Bytes)
	if l.Source != "" && l.Source != "MemAvailable" {
		what += ", " + l.Source
	}
	return l.Bytes, what + ")", l.Source != ""
}

// Check refuses what needs more than the limit (LimitOf maxMemory):
// subject ("this run", or a graph's "this graph"), need, and its largest
// part, if named.
func (s MemorySources) Check(subject string, need int64, largest string, maxMemory int64) error {
	limit, what, ok := s.LimitOf(maxMemory)
	if ok && need > limit {
		if largest != "" {
			largest = "; most of it is " + largest
		}
		advice := "use fewer workers or trials, a smaller n or m, or raise --max-memory"
		if subject != "this run" {
			advice = "use a smaller graph, or raise --max-memory"
		}
		return fmt.Errorf("%s needs about %s, more than %s%s; %s", subject, graphgen.FormatBytes(need), what, largest, advice)
	}
	return nil
}

// CheckRun refuses a run whose estimate (r.Bytes) exceeds the limit,
// naming what takes the most.
func (s MemorySources) CheckRun(r RunMemory, maxMemory int64) error {
	big := r.Largest()
	return s.Check("this run", r.Bytes(), big.What+" ("+graphgen.FormatBytes(big.Bytes)+")", maxMemory)
}
