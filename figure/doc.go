// Package figure is the data of a graphalloc figure: a Figure of panels,
// each Panel a set of Series of points with their axes' labels and scales,
// and each point a Pt with an optional error bar. It is what a result file
// saves and reads back (a study's report holds its Figure; results builds
// the figure of a run or a grid), so that `graphalloc plot` redraws a
// figure without simulating:
//
//	f := &figure.Figure{}
//	p := f.Add(&figure.Panel{Title: "max load against n", XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2})
//	s := p.Add(&figure.Series{Name: "Greedy[2]", Style: figure.StylePoints})
//	s.Points = append(s.Points, figure.Pt{X: 1 << 10, Y: 3, Lo: 2.9, Hi: 3.1})
//
// A point is [x, y] or [x, y, lo, hi] in JSON, null standing for a value
// that is not finite; everything else marshals as its fields' tags say.
//
// # Why a package of its own
//
// The model imports only the standard library (encoding/json, fmt, math,
// strconv). Drawing it takes gonum/plot and its fonts, which live in the
// subpackage figure/render, so that a program that only reads and writes
// result files (package results) does not link the plotting packages.
package figure
