package render

import (
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/results"
)

// textBox is where a string was drawn, in the figure's coordinates.
type textBox struct {
	s   string
	box vg.Rectangle
}

// recorder is a canvas that draws nothing and records the box of every
// string, from the font's metrics (its advance width; the ink from the
// descenders to the capitals) under the canvas' transformation at the
// time.
type recorder struct {
	w, h  vg.Length
	m     [6]float64 // x' = m0 x + m1 y + m2, y' = m3 x + m4 y + m5
	stack [][6]float64
	texts []textBox
}

func newRecorder(w, h vg.Length) *recorder {
	return &recorder{w: w, h: h, m: [6]float64{1, 0, 0, 0, 1, 0}}
}

func (r *recorder) mul(n [6]float64) {
	m := r.m
	r.m = [6]float64{
		m[0]*n[0] + m[1]*n[3], m[0]*n[1] + m[1]*n[4], m[0]*n[2] + m[1]*n[5] + m[2],
		m[3]*n[0] + m[4]*n[3], m[3]*n[1] + m[4]*n[4], m[3]*n[2] + m[4]*n[5] + m[5],
	}
}

func (r *recorder) apply(x, y vg.Length) (float64, float64) {
	m := r.m
	return m[0]*float64(x) + m[1]*float64(y) + m[2], m[3]*float64(x) + m[4]*float64(y) + m[5]
}

func (r *recorder) Size() (vg.Length, vg.Length)        { return r.w, r.h }
func (r *recorder) SetLineWidth(vg.Length)              {}
func (r *recorder) SetLineDash([]vg.Length, vg.Length)  {}
func (r *recorder) SetColor(color.Color)                {}
func (r *recorder) Stroke(vg.Path)                      {}
func (r *recorder) Fill(vg.Path)                        {}
func (r *recorder) DrawImage(vg.Rectangle, image.Image) {}
func (r *recorder) Push()                               { r.stack = append(r.stack, r.m) }
func (r *recorder) Pop()                                { r.m, r.stack = r.stack[len(r.stack)-1], r.stack[:len(r.stack)-1] }
func (r *recorder) Translate(pt vg.Point) {
	r.mul([6]float64{1, 0, float64(pt.X), 0, 1, float64(pt.Y)})
}
func (r *recorder) Scale(x, y float64) { r.mul([6]float64{x, 0, 0, 0, y, 0}) }
func (r *recorder) Rotate(a float64) {
	c, s := math.Cos(a), math.Sin(a)
	r.mul([6]float64{c, -s, 0, s, c, 0})
}

func (r *recorder) FillString(f font.Face, pt vg.Point, s string) {
	// The ink of a line: from the descenders to the capitals and
	// digits (Liberation's ascent and descent also hold the room of
	// accents and the line gap, which the lines of a block share).
	x0, x1 := pt.X, pt.X+f.Width(s)
	y0, y1 := pt.Y-0.22*f.Font.Size, pt.Y+0.72*f.Font.Size
	b := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))}, Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	for _, c := range [][2]vg.Length{{x0, y0}, {x0, y1}, {x1, y0}, {x1, y1}} {
		x, y := r.apply(c[0], c[1])
		b.Min.X, b.Min.Y = min(b.Min.X, vg.Length(x)), min(b.Min.Y, vg.Length(y))
		b.Max.X, b.Max.Y = max(b.Max.X, vg.Length(x)), max(b.Max.Y, vg.Length(y))
	}
	r.texts = append(r.texts, textBox{s, b})
}

// overlap reports whether a and b overlap by more than tol each way.
func overlap(a, b vg.Rectangle, tol vg.Length) bool {
	return a.Min.X < b.Max.X-tol && b.Min.X < a.Max.X-tol && a.Min.Y < b.Max.Y-tol && b.Min.Y < a.Max.Y-tol
}

// columnFigures are every study's figure (from the study goldens, at
// --tiny) and compare's (from its golden grid), by name.
func columnFigures(t *testing.T) map[string]*figure.Figure {
	root := filepath.Join("..", "..", "testdata", "golden")
	figs := map[string]*figure.Figure{}
	paths, _ := filepath.Glob(filepath.Join(root, "table", "study_*.json"))
	paths = append(paths, filepath.Join(root, "compare_tiny.json"), filepath.Join(root, "table", "compare_-g_regular_degree_4_-g_cycle_-g_complete_-n_2p8_2p10_-t_3.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := results.ReadFigure(p, b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		figs[filepath.Base(p)] = f
	}
	if len(figs) < 10 {
		t.Fatalf("%d figures", len(figs))
	}
	return figs
}

// At a column's width (8.5 cm × 6 cm, 8 pt) every panel of every study and
// compare figure, drawn alone (--panel P) as a paper's column holds it, keeps its
// text in bounds: every string inside the figure, the strings around the
// data (titles, axis labels, ticks, legends) clear of each other, the
// legend no wider than the data, and room left for the data. A legend too
// wide to stand beside the data goes below it.
func TestColumnWidth(t *testing.T) {
	o := Options{Width: 8.5 * vg.Centimeter, Height: 6 * vg.Centimeter, FontSize: 8}
	for name, f := range columnFigures(t) {
		for i := range f.Panels {
			o.Panel = i + 1 // --panel P
			l, plots, err := prepare(f, o)
			if err != nil {
				t.Errorf("%s panel %d: %v", name, i+1, err)
				continue
			}
			rec := newRecorder(l.width, l.height)
			if err := l.draw(draw.New(rec), plots); err != nil {
				t.Errorf("%s panel %d: %v", name, i+1, err)
				continue
			}
			checkColumn(t, name, i+1, l, rec)
		}
	}
}

func checkColumn(t *testing.T, name string, panel int, l *layout, rec *recorder) {
	t.Helper()
	const tol = 0.5
	data := l.dataAreas[0]
	var around []textBox
	for _, tb := range rec.texts {
		b := tb.box
		if b.Min.X < -tol || b.Min.Y < -tol || b.Max.X > l.width+tol || b.Max.Y > l.height+tol {
			t.Errorf("%s panel %d: %q overflows the figure (%v, figure %v × %v)", name, panel, tb.s, b, l.width, l.height)
		}
		if !overlap(b, data, 0) {
			around = append(around, tb)
		}
	}
	for i, a := range around {
		for _, b := range around[i+1:] {
			// The letters at the ends of bound curves stand a line
			// apart where the panel is tall enough for them all, and
			// closer where it is not (compare's, under its legend).
			if overlap(a.box, b.box, tol) && !(isLetter(a.s) && isLetter(b.s)) {
				t.Errorf("%s panel %d: %q overlaps %q", name, panel, a.s, b.s)
			}
		}
	}
	dw, dh := data.Size().X, data.Size().Y
	if legend := max(l.legW[0], l.sharedW); legend > dw {
		t.Errorf("%s panel %d: the legend (%.0f pt) is wider than the data (%.0f pt)", name, panel, legend, dw)
	}
	// A legend of many long entries (compare's bound keys) goes below
	// the data and leaves it the height of a few lines of text.
	if dw < 0.4*l.width || dh < 3*l.fs {
		t.Errorf("%s panel %d: the data keep %.0f × %.0f pt of a %.0f × %.0f pt figure", name, panel, dw, dh, l.width, l.height)
	}
}
