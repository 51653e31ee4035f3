package main

import (
	"context"
	"io"

	"github.com/graphalloc/graphalloc/results"
)

const mergeHelp = `Usage: graphalloc merge [flags] FILE...

Merge the outputs of a sharded run (graphalloc run --shard I/K, in json or
jsonl) into the output the unsharded run prints: same config (without the
shard), trials in order, summary recomputed over all of them. The shards must
come from the same run (process, n, m, graph, seed, trials, ...) and together
hold every trial once, unless --partial is given.

Examples:
  graphalloc run -n 2^20 -t 100 --shard 0/4 -f jsonl -o part0.jsonl   # ... 1/4, 2/4, 3/4
  graphalloc merge part*.jsonl -f json -o all.json
  graphalloc merge --partial part0.jsonl part2.jsonl

Flags:
`

func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("merge", mergeHelp, stdout, stderr)
	format := fs.StringP("format", "f", "json", "output format: table, csv, json, jsonl")
	output := fs.StringP("output", "o", "", "write to FILE (atomically) instead of stdout")
	partial := fs.Bool("partial", false, "accept shards that do not hold every trial")
	if err := parseFlags(fs, args, -1); err != nil {
		return err
	}
	if err := checkFormat(*format, results.Formats...); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("merge: no files given (usage: graphalloc merge FILE...)")
	}
	f, err := results.Merge(fs.Args(), *partial)
	if err != nil {
		return usageError{err}
	}
	return writeOutput(stdout, *output, func(w io.Writer) error { return results.Write(w, *format, f) })
}
