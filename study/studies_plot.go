package study

import (
	"strings"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// boundSeries is the curve of q's bound whose name starts with prefix
// against t = m/n, on quantity (analysis.QuantityMaxLoad or QuantityGap):
// the bound is evaluated at m = t·n for each t of ts and drawn only where
// it applies, its regime included, read on quantity (Bound.MaxLoadAt,
// GapAt). Dotted for a reference, dashed otherwise; labelled with its mark
// and citation. It returns nil where the bound applies at no t, has no
// value or no reading on quantity.
func boundSeries(q analysis.Query, prefix, quantity string, ts []float64, color int) *figure.Series {
	s := &figure.Series{Color: color, Style: figure.StyleDashed}
	for _, t := range ts {
		q.M = t * q.N
		for _, b := range analysis.Bounds(q) {
			if !strings.HasPrefix(b.Name, prefix) || !b.Applies || !b.InRegime(t) {
				continue
			}
			v, ok := b.MaxLoadAt(t)
			if quantity == analysis.QuantityGap {
				v, ok = b.GapAt(t)
			}
			if !ok {
				continue
			}
			s.Label = b.Mark() + " " + citation(b.Name)
			if b.Kind == analysis.KindReference {
				s.Style = figure.StyleDotted
			}
			s.Points = append(s.Points, figure.Pt{X: t, Y: v})
			break
		}
	}
	if len(s.Points) == 0 {
		return nil
	}
	return s
}
