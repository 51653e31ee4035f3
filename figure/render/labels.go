package render

import (
	"cmp"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// endLabel is the label at the end of a curve: a bound's letter, or a
// citation.
type endLabel struct {
	x, y  float64 // the curve's last point, in data coordinates
	text  string
	color color.Color
}

// endLabels draws a panel's end labels beside their curves' last points,
// each moved up or down just enough that labels at one x do not overlap:
// the bound curves of a grid all end at the largest n, often within a
// letter's height of each other.
type endLabels struct {
	labels []endLabel
	style  text.Style
	offset vg.Length // from the point to the label
}

func newEndLabels(fs vg.Length) *endLabels {
	sty := textStyle(fs * 0.85)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	return &endLabels{style: sty, offset: fs * 0.35}
}

func (e *endLabels) add(x, y float64, s string, col color.Color) {
	e.labels = append(e.labels, endLabel{x, y, s, col})
}

// Plot draws the labels; it implements plot.Plotter.
func (e *endLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	type placed struct {
		at vg.Point
		l  endLabel
	}
	var ps []placed
	for _, l := range e.labels {
		at := vg.Point{X: trX(l.x), Y: trY(l.y)}
		if c.Contains(at) {
			ps = append(ps, placed{at, l})
		}
	}
	// By x, then by y: a run of labels at one x is spread apart.
	slices.SortStableFunc(ps, func(a, b placed) int {
		if d := cmp.Compare(a.at.X, b.at.X); d != 0 {
			return d
		}
		return cmp.Compare(a.at.Y, b.at.Y)
	})
	h := e.style.Height("M") * 1.05
	for i := 0; i < len(ps); {
		j := i + 1
		for j < len(ps) && ps[j].at.X-ps[i].at.X < 0.5 {
			j++
		}
		ys := make([]vg.Length, j-i)
		for k := range ys {
			ys[k] = ps[i+k].at.Y
		}
		for k, y := range spread(ys, h, c.Min.Y+h/2, c.Max.Y-h/2) {
			ps[i+k].at.Y = y
		}
		i = j
	}
	for _, q := range ps {
		sty := e.style
		sty.Color = q.l.color
		c.FillText(sty, vg.Point{X: q.at.X + e.offset, Y: q.at.Y}, q.l.text)
	}
}

// GlyphBoxes gives each label its room beside its point, so that the data
// area leaves it space; it implements plot.GlyphBoxer.
func (e *endLabels) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var bs []plot.GlyphBox
	h := e.style.Height("M")
	for _, l := range e.labels {
		bs = append(bs, plot.GlyphBox{X: p.X.Norm(l.x), Y: p.Y.Norm(l.y), Rectangle: vg.Rectangle{
			Min: vg.Point{X: e.offset, Y: -h / 2}, Max: vg.Point{X: e.offset + e.style.Width(l.text), Y: h / 2}}})
	}
	return bs
}

// spread moves the increasing positions ys apart to at least h each, each
// run of labels pushed together centred where its labels want to be (the
// least squares placement: a run's base is the mean of its wishes less
// their offsets), then kept within [lo, hi]: closer than h, where [lo,
// hi] cannot hold them all h apart.
func spread(ys []vg.Length, h, lo, hi vg.Length) []vg.Length {
	if n := len(ys); n > 1 && vg.Length(n-1)*h > hi-lo {
		h = max(hi-lo, 0) / vg.Length(n-1)
	}
	type run struct {
		from, n int
		sum     vg.Length // Σ (wish − offset in the run)
	}
	base := func(r run) vg.Length { return r.sum / vg.Length(r.n) }
	var runs []run
	for i, y := range ys {
		r := run{from: i, n: 1, sum: y}
		for len(runs) > 0 {
			p := runs[len(runs)-1]
			if base(p)+vg.Length(p.n)*h <= base(r) {
				break
			}
			// Merge: r's labels follow p's, each offset by p.n more.
			r = run{from: p.from, n: p.n + r.n, sum: p.sum + r.sum - vg.Length(r.n*p.n)*h}
			runs = runs[:len(runs)-1]
		}
		runs = append(runs, r)
	}
	out := make([]vg.Length, len(ys))
	for _, r := range runs {
		for k := range r.n {
			out[r.from+k] = base(r) + vg.Length(k)*h
		}
	}
	// Within the area: shift the whole set, keeping the spacing.
	if n := len(out); n > 0 {
		if out[n-1] > hi {
			d := out[n-1] - hi
			for k := range out {
				out[k] -= d
			}
		}
		if out[0] < lo {
			d := lo - out[0]
			for k := range out {
				out[k] += d
			}
		}
	}
	return out
}
