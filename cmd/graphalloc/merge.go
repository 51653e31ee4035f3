package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
)

func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("merge", stdout, stderr)
	format := fs.StringP("format", "f", "json", "output format: table, csv, json, jsonl")
	output := fs.StringP("output", "o", "", outputHelp)
	partial := fs.Bool("partial", false, "merge shards that do not hold every trial or grid point")
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
	if err := distinct(append(outfile.Outputs(*output), outfile.Inputs("merge", fs.Args()...)...)...); err != nil {
		return err
	}
	m, err := results.MergeFiles(ctx, fs.Args(), *partial)
	if err != nil {
		return inputError("", err)
	}
	if m.Short != "" {
		fmt.Fprintf(stderr, "graphalloc: merge --partial: the files hold %s; the output is of those alone\n", m.Short)
	}
	return outfile.Write(ctx, stdout, *output, func(w io.Writer) error { return m.Write(w, *format) })
}

// inputError is the error of reading an input (a result file), led by
// prefix: bad input, exit 2; but an interrupt (SIGINT, SIGTERM) while
// reading is a runtime failure, exit 1, as everywhere else.
func inputError(prefix string, err error) error {
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s%w", prefix, err)
	}
	return usageError{fmt.Errorf("%s%w", prefix, err)}
}
