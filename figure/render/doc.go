// Package render draws a figure.Figure with gonum/plot as PNG, SVG or PDF:
//
//	err := render.Draw(w, f, render.Options{Format: render.FormatSVG})
//
// Options say the size, the fonts, the resolution, the axis scales and y
// limits (for every panel or one), the bounds drawn, one panel alone, a
// title and where the legend goes; the zero options are the paper
// defaults: Okabe and Ito's colour-blind-safe palette with a marker per
// series, axes that span the data, at least three labels on a log axis,
// whole-number ticks on whole-number axes, the legend beside the data. A
// theory curve (dashed, dotted) more than 10 times beyond the measured
// range does not set the axis: it runs to the panel's edge, and a note at
// the top names it with its values. Request is the options as a user
// gives them on the command line, checked with errors that name the flag.
//
// The panels go three to a row. The figure, not gonum/plot, lays out the
// panels' titles, the axis labels and the legends, so that a row's titles
// share a line, the data areas of a row or a column line up, and a legend
// can stand outside the data, wrap its entries and take several columns;
// at a size given, legends too wide to stand beside the panels go below
// them as one.
// A PDF embeds its font as a Unicode TrueType subset (fpdf's UTF-8 fonts,
// through a canvas of this package's own), so that σ, Δ and ≥ are copied
// and printed as themselves; an SVG names its font, with the fonts of the
// same widths after it, rather than embedding it.
//
// # Imports
//
// render imports figure, gonum.org/v1/plot (plot, font, plotter, text,
// vg, vg/draw and the canvases vg/vgimg, vg/vgsvg), codeberg.org/go-pdf/fpdf
// for the PDF and golang.org/x/image/font for a font's weight and style;
// nothing else from the module.
package render
