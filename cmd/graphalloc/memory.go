package main

import (
	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/study"
)

// The memory guard's flags; its arithmetic is study's (study/guard.go).

// addMaxMemory defines --max-memory on fs, for what the command refuses
// (runs, graphs).
func addMaxMemory(fs *pflag.FlagSet, dst *string, what string) {
	fs.StringVar(dst, "max-memory", "", "refuse "+what+" estimated to need more memory than this (512M, 4G; default: the memory available)")
}

// parseMaxMemory reads --max-memory: 0 when it is not given.
func parseMaxMemory(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := study.ParseBytes(s)
	if err != nil {
		return 0, usagef("--max-memory: %v", err)
	}
	return v, nil
}

// memorySources is where the limits are read when --max-memory is not
// given; tests point it at files of their own.
var memorySources study.MemorySources

// applyMemoryLimit is called with the --max-memory of a command that fits
// it: main sets it to debug.SetMemoryLimit, so that the garbage collector
// works harder as the heap nears the limit rather than letting garbage
// carry it over. Tests, which call run in-process, leave it a no-op.
var applyMemoryLimit = func(int64) {}

// useMemoryLimit hands the runtime's collector the limit a command holds
// to (a bad --max-memory is left to the command, which refuses it):
// --max-memory s if given, and in any case RLIMIT_AS and the cgroup's
// limit, past which an allocation fails outright; near the limit the
// collector then works harder instead of growing the heap to twice what
// is live. MemAvailable alone sets no limit: it is shared with the rest
// of the machine, and a limit below what the heap holds would keep the
// collector running. The explorer does not call it: its requests share
// one process.
func useMemoryLimit(s string) {
	v, err := parseMaxMemory(s)
	if err != nil {
		v = 0
	}
	if h := memorySources.HardLimit(); h.Source != "" && (v == 0 || h.Bytes < v) {
		v = max(h.Bytes, 1)
	}
	if v > 0 {
		applyMemoryLimit(v)
	}
}

// wrapUsage makes a non-nil err a usage error.
func wrapUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// budget sets g to the budget of a command that holds one graph (info,
// gen): --max-memory s, and extra bytes beside the graph.
func (g *graphFlag) budget(s string, extra int64) error {
	limit, err := parseMaxMemory(s)
	if err != nil {
		return err
	}
	g.MaxMemory, g.Alone, g.Extra = limit, true, extra
	useMemoryLimit(s)
	return nil
}
