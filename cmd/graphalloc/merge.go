package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
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
	fs := pflag.NewFlagSet("merge", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stdout, mergeHelp)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	format := fs.StringP("format", "f", "json", "output format: table, csv, json, jsonl")
	output := fs.StringP("output", "o", "", "write to FILE (atomically) instead of stdout")
	partial := fs.Bool("partial", false, "accept shards that do not hold every trial")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	switch *format {
	case "table", "csv", "json", "jsonl":
	default:
		return usagef("--format: unknown format %q (allowed: table, csv, json, jsonl)", *format)
	}
	if fs.NArg() == 0 {
		return usagef("merge: no files given (usage: graphalloc merge FILE...)")
	}
	head, results, err := mergeFiles(fs.Args(), *partial)
	if err != nil {
		return usageError{err}
	}
	b, err := renderRun(*format, head, results, summarize(head, results))
	if err != nil {
		return err
	}
	return writeOutput(stdout, *output, b)
}

// mergeFiles reads shard outputs and returns the config of the whole run
// and its trials in order.
func mergeFiles(paths []string, partial bool) (runConfig, []alloc.Result, error) {
	var head runConfig
	byTrial := map[int]alloc.Result{}
	from := map[int]string{}
	for i, p := range paths {
		rf, err := readRunFile(p)
		if err != nil {
			return head, nil, err
		}
		if i == 0 {
			head = rf.Config
		} else if err := sameRun(head, rf.Config); err != nil {
			return head, nil, fmt.Errorf("%s and %s are not shards of one run: %v", paths[0], p, err)
		}
		for _, r := range rf.Trials {
			if q, dup := from[r.Trial]; dup {
				return head, nil, fmt.Errorf("trial %d is in both %s and %s", r.Trial, q, p)
			}
			byTrial[r.Trial], from[r.Trial] = r, p
		}
	}
	head.Shard = ""
	var missing []string
	for t := range head.Trials {
		if _, ok := byTrial[t]; !ok {
			missing = append(missing, fmt.Sprint(t))
		}
	}
	if len(missing) > 0 && !partial {
		if len(missing) > 10 {
			missing = append(missing[:10], "...")
		}
		return head, nil, fmt.Errorf("the files hold %d of %d trials; missing %s (use --partial to merge anyway)",
			len(byTrial), head.Trials, strings.Join(missing, ","))
	}
	results := make([]alloc.Result, 0, len(byTrial))
	for _, r := range byTrial {
		if r.Trial < 0 || r.Trial >= head.Trials {
			return head, nil, fmt.Errorf("%s holds trial %d of a run of %d trials", from[r.Trial], r.Trial, head.Trials)
		}
		results = append(results, r)
	}
	slices.SortFunc(results, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	return head, results, nil
}
