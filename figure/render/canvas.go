package render

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/graphalloc/graphalloc/figure"
)

// vgCanvas is a canvas that writes itself out in its format.
type vgCanvas interface {
	vg.CanvasSizer
	io.WriterTo
}

// newCanvas is the canvas of o's format at the size given.
func newCanvas(o Options, width, height vg.Length) (vgCanvas, error) {
	switch o.format() {
	case FormatSVG:
		// The fonts go in the file: a viewer without them would
		// substitute wider ones, and the legends would overflow.
		return vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(true)), nil
	case FormatPDF:
		return pdfCanvas{vgpdf.New(width, height)}, nil
	}
	dpi := o.dpi()
	if px := max(width, height).Dots(float64(dpi)); px > maxPixels {
		return nil, fmt.Errorf("render: a %s × %s figure at %d dpi is %.0f pixels wide; at most %d (lower --dpi or the size)",
			formatLength(width), formatLength(height), dpi, px, maxPixels)
	}
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))}, nil
}

// pdfCanvas writes text in the code page of the fonts vgpdf embeds,
// Windows-1252: vgpdf passes a string's bytes on as they are, so UTF-8
// would print as mojibake. Draw has already spelled out the
// characters the code page lacks (pdfText).
type pdfCanvas struct{ *vgpdf.Canvas }

func (c pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	b, err := encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder()).String(s)
	if err != nil {
		b = strings.Map(func(r rune) rune { return min(r, '?') }, s)
	}
	c.Canvas.FillString(f, pt, b)
}

// pdfSpelling spells out the characters of the figures that Windows-1252
// lacks.
var pdfSpelling = strings.NewReplacer(
	"Δ", "Delta", "Θ", "Theta", "Π", "Pi", "Σ", "Sigma", "Ω", "Omega",
	"α", "alpha", "β", "beta", "δ", "delta", "ε", "eps", "λ", "lambda", "μ", "µ",
	"π", "pi", "σ", "sigma", "φ", "phi", "χ", "chi",
	"′", "'", "″", "''", "⁴", "^4", "⁻", "^-", "₂", "2", "→", "->", "∈", " in ",
	"−", "-", "∖", "\\", "√", "sqrt ", "∝", "~", "∞", "inf", "≈", "~", "≠", "!=",
	"≤", "<=", "≥", ">=", "≫", ">>", "⌈", "ceil(", "⌉", ")", "⌊", "floor(", "⌋", ")",
)

// pdfText is s with the characters Windows-1252 lacks spelled out.
func pdfText(s string) string { return pdfSpelling.Replace(s) }

// forPDF is a copy of f whose text Windows-1252 can write.
func forPDF(f *figure.Figure) *figure.Figure {
	out := &figure.Figure{SharedLegend: f.SharedLegend}
	for _, p := range f.Panels {
		q := *p
		q.Title, q.XLabel, q.YLabel = pdfText(p.Title), pdfText(p.XLabel), pdfText(p.YLabel)
		q.XCategories = nil
		for _, c := range p.XCategories {
			q.XCategories = append(q.XCategories, pdfText(c))
		}
		q.Series = nil
		for _, s := range p.Series {
			t := *s
			t.Name, t.Label = pdfText(s.Name), pdfText(s.Label)
			q.Series = append(q.Series, &t)
		}
		out.Panels = append(out.Panels, &q)
	}
	return out
}
