package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"time"

	pdf "codeberg.org/go-pdf/fpdf"
	stdfnt "golang.org/x/image/font"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// pdfCanvas is a vg.Canvas that writes a PDF whose fonts are embedded as
// Unicode TrueType subsets (fpdf's UTF-8 fonts, with a ToUnicode map): the
// figures' σ, Δ, ≥ and ≈ are drawn with the glyphs a PNG or SVG shows, and
// a reader or pdftotext copies them as the characters they are. gonum's
// vgpdf embeds its fonts in Windows-1252, which has none of them. The
// drawing follows vgpdf: a PDF user space in points, flipped so that y
// grows upwards as in vg, and text flipped back where it is drawn.
type pdfCanvas struct {
	doc    *pdf.Fpdf
	w, h   vg.Length
	stack  []pdfContext
	fonts  map[font.Font]bool // registered with doc
	images int
}

type pdfContext struct{ width vg.Length }

// pdfDate is the creation date every PDF records, so that one figure
// gives the same bytes on every run.
var pdfDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	doc := pdf.NewCustom(&pdf.InitType{UnitStr: "pt", Size: pdf.SizeType{Wd: w.Points(), Ht: h.Points()}})
	doc.SetCreationDate(pdfDate)
	doc.SetModificationDate(pdfDate)
	doc.SetProducer("graphalloc", false)
	doc.SetMargins(0, 0, 0)
	doc.SetAutoPageBreak(false, 0)
	doc.AddPage()
	c := &pdfCanvas{doc: doc, w: w, h: h, stack: make([]pdfContext, 1), fonts: map[font.Font]bool{}}
	c.Push()
	c.Translate(vg.Point{X: 0, Y: h})
	c.Scale(1, -1)
	vg.Initialize(c)
	return c
}

func (c *pdfCanvas) Size() (w, h vg.Length) { return c.w, c.h }

func (c *pdfCanvas) context() *pdfContext { return &c.stack[len(c.stack)-1] }

func (c *pdfCanvas) SetLineWidth(w vg.Length) {
	c.context().width = w
	c.doc.SetLineWidth(w.Points())
}

func (c *pdfCanvas) SetLineDash(dashes []vg.Length, offs vg.Length) {
	ds := make([]float64, len(dashes))
	for i, d := range dashes {
		ds[i] = d.Points()
	}
	c.doc.SetDashPattern(ds, offs.Points())
}

func (c *pdfCanvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	r, g, b, a := clr.RGBA()
	c.doc.SetFillColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetDrawColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetTextColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetAlpha(float64(a)/math.MaxUint16, "Normal")
}

func (c *pdfCanvas) Rotate(r float64) { c.doc.TransformRotate(-r*180/math.Pi, 0, 0) }

func (c *pdfCanvas) Translate(pt vg.Point) { c.doc.TransformTranslate(pt.X.Points(), pt.Y.Points()) }

func (c *pdfCanvas) Scale(x, y float64) { c.doc.TransformScale(x*100, y*100, 0, 0) }

func (c *pdfCanvas) Push() {
	c.stack = append(c.stack, *c.context())
	c.doc.TransformBegin()
}

func (c *pdfCanvas) Pop() {
	c.doc.TransformEnd()
	c.stack = c.stack[:len(c.stack)-1]
}

func (c *pdfCanvas) Stroke(p vg.Path) {
	if c.context().width > 0 {
		c.path(p, "D")
	}
}

func (c *pdfCanvas) Fill(p vg.Path) { c.path(p, "F") }

// FillString draws s with its baseline's left end at pt.
func (c *pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 {
		return
	}
	name, style := c.font(f)
	c.doc.SetFont(name, style, f.Font.Size.Points())
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(1, -1) // fpdf's text is upright in its own, y-down, space
	c.doc.Text(0, 0, s)
}

// font registers face f's TrueType data with the document, once, and
// returns its family and style as fpdf names them.
func (c *pdfCanvas) font(f font.Face) (name, style string) {
	name = f.Name()
	if f.Font.Weight == stdfnt.WeightBold {
		style += "B"
	}
	if f.Font.Style == stdfnt.StyleItalic {
		style += "I"
	}
	if !c.fonts[f.Font] {
		var raw bytes.Buffer
		if _, err := f.Face.WriteSourceTo(nil, &raw); err != nil {
			c.doc.SetError(fmt.Errorf("render: the font %s: %v", name, err))
		}
		c.doc.AddUTF8FontFromBytes(name, style, raw.Bytes())
		c.fonts[f.Font] = true
	}
	return name, style
}

// DrawImage draws img, as a PNG, in rect.
func (c *pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.doc.SetError(err)
		return
	}
	c.images++
	name := fmt.Sprintf("image_%03d.png", c.images)
	opts := pdf.ImageOptions{ImageType: "png", ReadDpi: true}
	c.doc.RegisterImageOptionsReader(name, opts, &buf)
	sz := rect.Size()
	c.doc.ImageOptions(name, rect.Min.X.Points(), rect.Min.Y.Points(), sz.X.Points(), sz.Y.Points(), false, opts, 0, "")
}

// path draws p, stroked ("D") or filled ("F").
func (c *pdfCanvas) path(p vg.Path, style string) {
	var x0, y0 float64
	for _, comp := range p {
		x, y := comp.Pos.X.Points(), comp.Pos.Y.Points()
		switch comp.Type {
		case vg.MoveComp:
			x0, y0 = x, y
			c.doc.MoveTo(x, y)
		case vg.LineComp:
			c.doc.LineTo(x, y)
		case vg.ArcComp:
			c.arc(comp, style)
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1:
				c.doc.CurveTo(comp.Control[0].X.Points(), comp.Control[0].Y.Points(), x, y)
			case 2:
				c.doc.CurveBezierCubicTo(comp.Control[0].X.Points(), comp.Control[0].Y.Points(),
					comp.Control[1].X.Points(), comp.Control[1].Y.Points(), x, y)
			}
		case vg.CloseComp:
			c.doc.LineTo(x0, y0)
			c.doc.ClosePath()
		}
	}
	c.doc.DrawPath(style)
}

// arc draws an arc of a path: fpdf's Arc strokes or fills it as a piece
// of its own, so the path goes on from the arc's end.
func (c *pdfCanvas) arc(comp vg.PathComp, style string) {
	at := func(a float64) (float64, float64) {
		return (comp.Pos.X + comp.Radius*vg.Length(math.Cos(a))).Points(), (comp.Pos.Y + comp.Radius*vg.Length(math.Sin(a))).Points()
	}
	c.doc.LineTo(at(comp.Start))
	r := comp.Radius.Points()
	const deg = 180 / math.Pi
	beg := comp.Start * deg
	c.doc.Arc(comp.Pos.X.Points(), comp.Pos.Y.Points(), r, r, comp.Angle*deg, beg, beg+comp.Angle*deg, style)
	c.doc.MoveTo(at(comp.Start + comp.Angle))
}

// WriteTo writes the document; the canvas cannot be drawn on after.
func (c *pdfCanvas) WriteTo(w io.Writer) (int64, error) {
	c.Pop()
	c.doc.Close()
	var b bytes.Buffer
	if err := c.doc.Output(&b); err != nil {
		return 0, err
	}
	return b.WriteTo(w)
}
