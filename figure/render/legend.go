package render

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/graphalloc/graphalloc/figure"
)

// textStyle is the figure's text at size fs.
func textStyle(fs vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, fs),
		XAlign:  draw.XCenter,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// wrapText breaks s into lines no wider than w at spaces (a word wider
// than w keeps its own line), never beside a relation sign: "λ = 2" stays
// whole.
func wrapText(s string, sty text.Style, w vg.Length) string {
	if s == "" || sty.Width(s) <= w {
		return s
	}
	var words []string
	glue := false
	for _, word := range strings.Fields(s) {
		rel := oneOf(word, "=", "<", ">", "≤", "≥", "≈", "→")
		if n := len(words); n > 0 && (rel || glue) {
			words[n-1] += " " + word
		} else {
			words = append(words, word)
		}
		glue = rel
	}
	var lines []string
	line := ""
	for _, word := range words {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && sty.Width(try) > w {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	return strings.Join(append(lines, line), "\n")
}

// legendEntry is a line of a legend: its text and the thumbnails drawn
// beside it (none: a line of text).
type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
}

// legendBox is a legend drawn by the figure itself rather than by
// gonum/plot, so that it can stand outside the data, wrap long entries and
// take more than one column.
type legendBox struct {
	entries []legendEntry
	style   text.Style
	thumbW  vg.Length
	cols    int       // columns, set by fit
	colW    vg.Length // the width of a column, its text wrapped to fit
}

func newLegendBox(entries []legendEntry, fs vg.Length) *legendBox {
	sty := textStyle(fs * 0.9)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	return &legendBox{entries: entries, style: sty, thumbW: 2.2 * fs, cols: 1}
}

// lineHeight is the height of one line of text, gap the space between
// entries and colGap between columns.
func (l *legendBox) lineHeight() vg.Length { return l.style.Height("Ag") }
func (l *legendBox) gap() vg.Length        { return l.style.Font.Size * 0.35 }
func (l *legendBox) colGap() vg.Length     { return l.style.Font.Size }

// indent is where the text of an entry starts.
func (l *legendBox) indent() vg.Length { return l.thumbW + l.style.Font.Size*0.5 }

// fit lays the legend out with its text wrapped at wrap, in as few columns
// (at most three) as keep it within height avail, and returns its width
// (0 if it is empty).
func (l *legendBox) fit(wrap, avail vg.Length) vg.Length {
	l.colW = 0
	for _, e := range l.entries {
		for _, line := range strings.Split(wrapText(e.text, l.style, wrap-l.indent()), "\n") {
			l.colW = max(l.colW, l.indent()+l.style.Width(line))
		}
	}
	for l.cols = 1; l.cols < min(3, len(l.entries)); l.cols++ {
		if l.height() <= avail {
			break
		}
	}
	if len(l.entries) == 0 {
		return 0
	}
	return vg.Length(l.cols)*l.colW + vg.Length(l.cols-1)*l.colGap()
}

// fitWidth lays the legend out within width, in the columns (one to
// three, the text wrapped to fill each) that make it shortest, and
// returns its height.
func (l *legendBox) fitWidth(width vg.Length) vg.Length {
	best, bestH := 1, vg.Length(math.Inf(1))
	for cols := 1; cols <= min(3, max(len(l.entries), 1)); cols++ {
		wrap := (width - vg.Length(cols-1)*l.colGap()) / vg.Length(cols)
		l.fit(wrap, 0)
		l.cols = cols
		if vg.Length(cols)*l.colW+vg.Length(cols-1)*l.colGap() > width && cols > 1 {
			break
		}
		if h := l.height(); h < bestH {
			best, bestH = cols, h
		}
	}
	l.fit((width-vg.Length(best-1)*l.colGap())/vg.Length(best), 0)
	l.cols = best
	return l.height()
}

// columns splits the entries into the legend's columns, in order.
func (l *legendBox) columns() [][]legendEntry {
	per := (len(l.entries) + l.cols - 1) / max(l.cols, 1)
	var out [][]legendEntry
	for es := l.entries; len(es) > 0; {
		k := min(per, len(es))
		out = append(out, es[:k])
		es = es[k:]
	}
	return out
}

// lines is an entry's text wrapped to its column.
func (l *legendBox) lines(e legendEntry) []string {
	return strings.Split(wrapText(e.text, l.style, l.colW-l.indent()), "\n")
}

// height is the height of the legend's tallest column.
func (l *legendBox) height() vg.Length {
	var h vg.Length
	for _, col := range l.columns() {
		var ch vg.Length
		for i, e := range col {
			ch += vg.Length(len(l.lines(e))) * l.lineHeight()
			if i > 0 {
				ch += l.gap()
			}
		}
		h = max(h, ch)
	}
	return h
}

// draw draws the legend, as fit laid it out, with its top left corner at
// at.
func (l *legendBox) draw(c vg.Canvas, at vg.Point) {
	dc := draw.Canvas{Canvas: c}
	lh := l.lineHeight()
	for k, col := range l.columns() {
		x := at.X + vg.Length(k)*(l.colW+l.colGap())
		y := at.Y
		for _, e := range col {
			lines := l.lines(e)
			icon := draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - lh}, Max: vg.Point{X: x + l.thumbW, Y: y}}}
			for _, t := range e.thumbs {
				t.Thumbnail(&icon)
			}
			tx := x + l.indent()
			if len(e.thumbs) == 0 {
				tx = x
			}
			for j, line := range lines {
				dc.FillText(l.style, vg.Point{X: tx, Y: y - vg.Length(j)*lh}, line)
			}
			y -= vg.Length(len(lines))*lh + l.gap()
		}
	}
}

// drawInside draws the legend on a white ground in the corner of the data
// area that the panel asks for (top left unless LegendRight, LegendLow).
func (l *legendBox) drawInside(data draw.Canvas, p *figure.Panel, wrap vg.Length) {
	if len(l.entries) == 0 {
		return
	}
	pad := l.style.Font.Size * 0.4
	w := l.fit(wrap, data.Size().Y-2*pad)
	h := l.height()
	x, y := data.Min.X+pad, data.Max.Y-pad
	if p.LegendRight {
		x = data.Max.X - pad - w
	}
	if p.LegendLow {
		y = data.Min.Y + pad + h
	}
	box := vg.Rectangle{Min: vg.Point{X: x - pad/2, Y: y - h - pad/2}, Max: vg.Point{X: x + w + pad/2, Y: y + pad/2}}
	data.SetColor(whiteGround)
	data.Fill(box.Path())
	l.draw(data.Canvas, vg.Point{X: x, Y: y})
}
