// Package results holds the result files of graphalloc: what a run of
// trials writes (a config, the trials, a summary), in JSON, JSON lines, CSV
// and as a table; reading them back, including a JSON-lines file cut short
// by an interruption; and merging the files of a sharded run or grid
// (compare) into the file of the whole run or grid.
//
// Every reader goes through ReadInput, which refuses what cannot be a
// result file before holding it whole (a device, a NUL byte, a line over
// MaxLine, more than InputLimit bytes), and Parse refuses a run's file
// that holds a trial twice or a trial of another run, so that neither a
// resume nor a merge counts a trial twice.
//
// A file depends on its config and trials alone: Summarize recomputes the
// summary from them (through study.Summarize, the one place where the
// statistics, the fluid prediction and the bounds of a run are computed),
// so a resumed or merged run prints byte for byte what the uninterrupted,
// unsharded run prints.
//
// ReadFigure returns the figure a saved result holds or implies (a run's
// load distribution, a grid's max load against n, a study's own figure) as
// a figure.Figure, the model alone: results imports figure but not its
// drawing (figure/render), nor gonum/plot, so that reading and writing
// result files links no plotting package. From the module it imports
// alloc, analysis, graphgen, figure, study (the rows, the settings and
// Summarize), internal/infile (inputs that a FIFO or a pipe cannot hang),
// internal/outfile (a resumed JSON-lines output continued in place) and
// internal/jsonnull (a single trial's interval written as null).
package results
