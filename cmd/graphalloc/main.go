// Command graphalloc simulates balanced allocation (balls into bins) on
// graphs and compares the maximum load of placement rules with the theory.
//
// Usage:
//
//	graphalloc run      simulate one process, T independent trials
//	graphalloc queue    the supermarket model: queues with arrivals and service, on graphs
//	graphalloc compare  run a grid of topologies × processes × sizes against the bounds
//	graphalloc study    reproduce a paper's result: one of fifteen studies, tables and a plot
//	graphalloc gen      write a generated graph
//	graphalloc info     describe a graph: degrees, components, spectral gap, expansion
//	graphalloc bounds   print the theoretical bounds for n, m, d and a topology
//	graphalloc fluid    print the fluid-limit prediction of the load distribution
//	graphalloc merge    merge the outputs of a sharded run, compare or queue into one
//	graphalloc plot     redraw the figure of a saved result as PNG, SVG or PDF
//	graphalloc serve    the web explorer: watch a process run, two side by side
//	graphalloc version  print the version
//
// Run `graphalloc CMD --help` for the flags of a command, with examples.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
)

// commandList lists the commands, for the messages of bad usage.
const commandList = "run, queue, compare, study, gen, info, bounds, fluid, merge, plot, serve, version"

// Version is the version graphalloc reports.
const Version = "0.1.0"

func main() {
	applyMemoryLimit = func(limit int64) { debug.SetMemoryLimit(limit) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	os.Exit(report(os.Stderr, err))
}

// usageError marks bad usage or bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// report prints err (one line) and returns the exit status.
func report(stderr io.Writer, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pflag.ErrHelp):
		return 0
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	// An interrupt (SIGINT, SIGTERM) is a runtime failure, whatever step
	// it cut short, and says so.
	interrupted := errors.Is(err, context.Canceled)
	if interrupted && msg == context.Canceled.Error() {
		msg = "interrupted (SIGINT or SIGTERM)"
	}
	fmt.Fprintln(stderr, "graphalloc:", msg)
	var u usageError
	if errors.As(err, &u) && !interrupted {
		return 2
	}
	return 1
}

// commands are the commands that read their own flags, by name.
var commands = map[string]func(ctx context.Context, stdout, stderr io.Writer, args []string) error{
	"run": cmdRun, "queue": cmdQueue, "compare": cmdCompare, "study": cmdStudy, "gen": cmdGen, "info": cmdInfo,
	"bounds": cmdBounds, "fluid": cmdFluid, "merge": cmdMerge, "plot": cmdPlot, "serve": cmdServe,
}

// run is the whole program: main only wires it to the process.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		// As go does, the usage and the status of bad usage; in one line,
		// as every refusal.
		return usagef("no command: usage: graphalloc COMMAND [flags], COMMAND one of %s ('graphalloc help' says more)", commandList)
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(ctx, stdout, stderr, args[1:])
	}
	switch args[0] {
	case "version", "--version":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "--help") {
			fmt.Fprint(stdout, helpText("version"))
			return nil
		}
		if len(args) > 1 {
			return usagef("version: unexpected argument %q (version takes none)", args[1])
		}
		fmt.Fprintf(stdout, "graphalloc %s\n", Version)
		return nil
	case "help", "-h", "--help":
		// help CMD is CMD --help, as in go help.
		if len(args) > 1 && args[0] == "help" && args[1] != "help" {
			if len(args) > 2 {
				return usagef("help: unexpected argument %q (help takes one command)", args[2])
			}
			return run(ctx, stdout, stderr, []string{args[1], "--help"})
		}
		fmt.Fprint(stdout, helpText("graphalloc"))
		return nil
	}
	return usagef("unknown command %q (commands: %s)", args[0], commandList)
}
