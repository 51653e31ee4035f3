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

// drawInside draws the legend on a white ground in a corner of the data
// area: the one the panel asks for (top left unless LegendRight,
// LegendLow) if no point of its series (nor an end of an error bar) falls
// under the legend there, else the first corner, in the order top left,
// top right, bottom left, bottom right, where none does, else the corner
// that covers the fewest (insideCorner). pl maps the data to the area.
func (l *legendBox) drawInside(data draw.Canvas, pl *plot.Plot, p *figure.Panel, wrap vg.Length) {
	if len(l.entries) == 0 {
		return
	}
	pad := l.style.Font.Size * 0.4
	w := l.fit(wrap, data.Size().Y-2*pad)
	h := l.height()
	box := insideCorner(data.Rectangle, pl, p, w+pad, h+pad, pad/2)
	data.SetColor(whiteGround)
	data.Fill(box.Path())
	l.draw(data.Canvas, vg.Point{X: box.Min.X + pad/2, Y: box.Max.Y - pad/2})
}

// insideCorner returns the box of width w and height h, inset by pad, in
// the corner of the data area a where a legend covers the fewest of p's
// points (drawInside's order breaking ties, the panel's own corner
// first).
func insideCorner(a vg.Rectangle, pl *plot.Plot, p *figure.Panel, w, h, pad vg.Length) vg.Rectangle {
	corner := func(right, low bool) vg.Rectangle {
		x, y := a.Min.X+pad, a.Max.Y-pad-h
		if right {
			x = a.Max.X - pad - w
		}
		if low {
			y = a.Min.Y + pad
		}
		return vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
	}
	order := [][2]bool{{p.LegendRight, p.LegendLow}, {false, false}, {true, false}, {false, true}, {true, true}}
	best, fewest := corner(p.LegendRight, p.LegendLow), -1
	for _, c := range order {
		box := corner(c[0], c[1])
		n := covered(box, a, pl, p)
		if fewest < 0 || n < fewest {
			best, fewest = box, n
		}
		if n == 0 {
			break
		}
	}
	return best
}

// covered counts the points of p's series, and the ends of their error
// bars, that fall in box, the data area being a.
func covered(box, a vg.Rectangle, pl *plot.Plot, p *figure.Panel) int {
	n := 0
	_, logX := pl.X.Scale.(plot.LogScale)
	_, logY := pl.Y.Scale.(plot.LogScale)
	in := func(x, y float64) {
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || (logX && x <= 0) || (logY && y <= 0) {
			return // not drawn
		}
		pt := vg.Point{X: a.Min.X + vg.Length(pl.X.Norm(x))*(a.Max.X-a.Min.X), Y: a.Min.Y + vg.Length(pl.Y.Norm(y))*(a.Max.Y-a.Min.Y)}
		if pt.X >= box.Min.X && pt.X <= box.Max.X && pt.Y >= box.Min.Y && pt.Y <= box.Max.Y {
			n++
		}
	}
	for _, s := range p.Series {
		for _, q := range s.Points {
			in(q.X, q.Y)
			if q.Lo != 0 || q.Hi != 0 {
				in(q.X, q.Lo)
				in(q.X, q.Hi)
			}
		}
	}
	return n
}
