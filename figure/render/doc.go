// Package render draws a figure.Figure with gonum/plot as PNG, SVG or PDF:
//
//	err := render.Draw(w, f, render.Options{Format: render.FormatSVG})
//
// Options say the size, the fonts, the resolution, the axis scales, a title
// and where the legend goes; the zero options are the paper defaults:
// Okabe and Ito's colour-blind-safe palette with a marker per series, axes
// that span the data, whole-number ticks on whole-number axes, the legend
// beside the data. Request is the options as a user gives them on the
// command line, checked with errors that name the flag.
//
// The panels go three to a row. The figure, not gonum/plot, lays out the
// panels' titles, the axis labels and the legends, so that a row's titles
// share a line, the data areas of a row or a column line up, and a legend
// can stand outside the data, wrap its entries and take several columns.
// A PDF's text is written in Windows-1252, the code page of the fonts
// vgpdf embeds: the characters it lacks are spelled out (Δ as Delta, ≤ as
// <=).
//
// # Imports
//
// render imports figure, gonum.org/v1/plot (plot, font, plotter, text,
// vg, vg/draw and the canvases vg/vgimg, vg/vgpdf, vg/vgsvg) and
// golang.org/x/text's charmap for the PDF's code page; nothing else from
// the module.
package render
