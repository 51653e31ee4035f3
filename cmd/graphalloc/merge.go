package main

import (
	"context"
	"io"
	"os"

	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
)

func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("merge", stdout, stderr)
	format := fs.StringP("format", "f", "json", "output format: table, csv, json, jsonl")
	output := fs.StringP("output", "o", "", outputHelp)
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
	if err := checkOutput("--output", *output); err != nil {
		return err
	}
	if err := distinct(append(outputs(*output), inputs("merge", fs.Args()...)...)...); err != nil {
		return err
	}
	if first, err := os.ReadFile(fs.Arg(0)); err == nil && results.IsGrid(first) {
		g, err := results.MergeGrid(fs.Args())
		if err != nil {
			return usageError{err}
		}
		return outfile.Write(ctx, stdout, *output, func(w io.Writer) error { return results.WriteGrid(w, *format, g) })
	}
	f, err := results.Merge(fs.Args(), *partial)
	if err != nil {
		return usageError{err}
	}
	return outfile.Write(ctx, stdout, *output, func(w io.Writer) error { return results.Write(w, *format, f) })
}
