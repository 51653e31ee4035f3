package render

import (
	"bytes"
	"fmt"
	"io"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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
		return svgCanvas{vgsvg.NewWith(vgsvg.UseWH(width, height))}, nil
	case FormatPDF:
		return newPDFCanvas(width, height), nil
	}
	dpi := o.dpi()
	if px := max(width, height).Dots(float64(dpi)); px > maxPixels {
		return nil, fmt.Errorf("render: a %s × %s figure at %d dpi is %.0f pixels wide; at most %d (lower --dpi or the size)",
			formatLength(width), formatLength(height), dpi, px, maxPixels)
	}
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))}, nil
}

// svgCanvas writes an SVG that names its font rather than holding it (half
// a megabyte of TrueType otherwise): the figures' font, Liberation Serif,
// then Times New Roman and Times, which have the same advance widths, so
// that a viewer without Liberation sets every line as wide as it was
// measured; serif last.
type svgCanvas struct{ *vgsvg.Canvas }

func (c svgCanvas) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	if _, err := c.Canvas.WriteTo(&buf); err != nil {
		return 0, err
	}
	b := bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Serif;"),
		[]byte("font-family:'Liberation Serif','Times New Roman',Times,serif;"))
	n, err := w.Write(b)
	return int64(n), err
}
