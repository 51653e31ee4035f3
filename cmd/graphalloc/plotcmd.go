package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/figure/render"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
)

// cmdPlot redraws a saved result: it reads the file, builds its figure
// (results.ReadFigure) and draws it, simulating nothing.
func cmdPlot(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var (
		output string
		ff     figureFlags
	)
	fs := newFlags("plot", stdout, stderr)
	fs.StringVarP(&output, "output", "o", "", "write the figure to FILE.png, FILE.svg or FILE.pdf (as -o of run: a file atomically, a device or FIFO in place); - for stdout, with --format")
	ff.add(fs, true)
	if err := parseFlags(fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("plot: name one result file, the JSON output of run, compare, study or merge")
	}
	if output == "" {
		return usagef("--output: name the figure's file, FIG.png, FIG.svg or FIG.pdf")
	}
	if err := checkOutput("--output", output); err != nil {
		return err
	}
	if err := distinct(append(outfile.Outputs(output), outfile.Inputs("plot", fs.Arg(0))...)...); err != nil {
		return err
	}
	opts, err := ff.options(fs, "--output", output)
	if err != nil {
		return err
	}
	in := fs.Arg(0)
	b, err := results.ReadInput(ctx, in, results.InputLimit())
	if err != nil {
		return inputError("plot: ", err)
	}
	fig, err := results.ReadFigure(in, b)
	if err != nil {
		return usageError{err}
	}
	return drawFigure(ctx, stdout, output, fig, opts)
}

// drawFigure draws fig to path (atomically; - for stdout). Draw refuses a
// figure too small for its panels, too many pixels, or a bound or panel
// the figure lacks, before it writes a byte: the user's options, exit 2. A
// failed write is not.
func drawFigure(ctx context.Context, stdout io.Writer, path string, fig *figure.Figure, opts render.Options) error {
	var refused *render.Refusal
	werr := outfile.Write(ctx, stdout, path, func(w io.Writer) error {
		err := render.Draw(w, fig, opts)
		errors.As(err, &refused)
		return err
	})
	if refused != nil {
		return usageError{refused}
	}
	return werr
}

// figureFlags are the options of a figure (render.Options) as flags:
// plot's, and ready for any command that draws one.
type figureFlags struct {
	withFormat                  bool // --format is the figure's (plot), not the output's
	size, format, legend, title string
	fontSize                    float64
	dpi, panel                  int
	linear, log, ylim           []string
	bounds                      string
}

// add defines --size, --font-size, --dpi, --linear, --log, --title and
// --legend, and --format if withFormat (a command whose --format is its
// output's takes the figure's format from the file's extension).
func (f *figureFlags) add(fs *pflag.FlagSet, withFormat bool) {
	f.withFormat = withFormat
	fs.StringVar(&f.size, "size", "", "the figure's size WIDTHxHEIGHT in cm, mm, in or pt: 12cmx8cm, 7x5in (default: 13 cm × 10.5 cm a panel, plus the legend)")
	fs.Float64Var(&f.fontSize, "font-size", float64(render.DefaultFontSize), "size of the labels and titles in points (ticks and legends 0.9×)")
	fs.IntVar(&f.dpi, "dpi", render.DefaultDPI, "resolution of a PNG, dots per inch")
	if withFormat {
		fs.StringVar(&f.format, "format", "", "png, svg or pdf (default: from the file's extension)")
	}
	fs.StringSliceVar(&f.linear, "linear", nil, "draw axis x, y (or x,y) on a linear scale in every panel; P=x, P=y in panel P alone (1 for the first)")
	fs.StringSliceVar(&f.log, "log", nil, "draw axis x, y (or x,y) on a log scale in every panel; P=x, P=y in panel P alone")
	fs.StringSliceVar(&f.ylim, "ylim", nil, "the y axis from LO to HI (LO:HI) in every panel; P=LO:HI in panel P alone")
	fs.IntVar(&f.panel, "panel", 0, "draw panel P alone (1 for the first), as a paper's column holds it (default: every panel)")
	fs.StringVar(&f.bounds, "bounds", "", "the bounds to draw: their letters in the table's legend (ad, or a,b27), or none (default: every bound; one far beyond the data is named at the panel's edge)")
	fs.StringVar(&f.title, "title", "", "a title above the panels")
	fs.StringVar(&f.legend, "legend", render.LegendOutside, "where the legend goes: outside (beside the data), inside (in the corner of the data that covers fewest points) or none")
}

// options checks the flags, each error naming its flag, and returns the
// figure's options for a figure written to path (named by pathFlag)
// (render.Request).
func (f *figureFlags) options(fs *pflag.FlagSet, pathFlag, path string) (render.Options, error) {
	req := render.Request{Size: f.size, Legend: f.legend, Title: f.title, Linear: f.linear, Log: f.log, YLim: f.ylim, Bounds: f.bounds}
	if f.withFormat && fs.Changed("format") {
		req.Format = f.format
	}
	if fs.Changed("font-size") {
		req.FontSize = &f.fontSize
	}
	if fs.Changed("dpi") {
		req.DPI = &f.dpi
	}
	if fs.Changed("panel") {
		req.Panel = &f.panel
	}
	o, err := req.Options(pathFlag, path)
	if err != nil {
		return o, usageError{err}
	}
	return o, nil
}

// plotFlags are --plot FILE and the figure's options, for the commands
// that draw a figure beside their output (run, compare, study).
type plotFlags struct {
	plot string
	ff   figureFlags
	opts render.Options
}

// addPlot defines --plot and the figure options (format from the file's
// extension).
func (p *plotFlags) addPlot(fs *pflag.FlagSet, what string) {
	fs.StringVar(&p.plot, "plot", "", "also draw "+what+" to FILE.png, FILE.svg or FILE.pdf (options as graphalloc plot's)")
	p.ff.add(fs, false)
}

// checkPlot checks --plot and the figure options before any work.
func (p *plotFlags) checkPlot(fs *pflag.FlagSet) error {
	if p.plot == "" {
		return nil
	}
	if err := checkOutput("--plot", p.plot); err != nil {
		return err
	}
	var err error
	p.opts, err = p.ff.options(fs, "--plot", p.plot)
	return err
}

// plotFile is the --plot file as an output, for outfile.Distinct.
func (p *plotFlags) plotFile() outfile.File { return outfile.File{Flag: "--plot", Path: p.plot} }

// drawPlot draws fig to the --plot file (atomically); nothing without
// --plot.
func (p *plotFlags) drawPlot(ctx context.Context, fig *figure.Figure) error {
	if p.plot == "" {
		return nil
	}
	return drawFigure(ctx, nil, p.plot, fig, p.opts)
}

// plotShard draws the figure fig makes to the --plot file, if any; that of
// an empty shard (none: more shards than trials or grid points) is not,
// stderr says so, and the shard succeeds, as every task of a job array.
func (p *plotFlags) plotShard(ctx context.Context, stderr io.Writer, shard string, none bool, fig func() (*figure.Figure, error)) error {
	if p.plot == "" {
		return nil
	}
	if none {
		fmt.Fprintf(stderr, "graphalloc: shard %s holds nothing to draw: %s not written\n", shard, p.plot)
		return nil
	}
	f, err := fig()
	if err != nil {
		return err
	}
	return p.drawPlot(ctx, f)
}
