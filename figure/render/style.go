package render

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The colours of the series: Okabe and Ito's palette for colour-blind
// readers (M. Okabe, K. Ito, Color Universal Design, 2008), blue and
// vermillion first, the pale yellow last. Every series also has its own
// marker, so that a figure printed in grey keeps its series apart.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0xf0, 0xe4, 0x42, 0xff}, // yellow
}

// grey draws references and the keys of line styles (Series.Color −1).
var grey = color.Gray{Y: 0x70}

func seriesColor(i int) color.Color {
	if i < 0 {
		return grey
	}
	return palette[i%len(palette)]
}

// shapes are the markers of the series: seven, so that with the eight
// colours no two of the first 56 series look alike.
var shapes = []draw.GlyphDrawer{
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

func seriesShape(i int) draw.GlyphDrawer {
	if i < 0 {
		i = 0
	}
	return shapes[i%len(shapes)]
}

// Dash patterns of the styles.
var (
	dashedLine  = []vg.Length{vg.Points(5), vg.Points(3)}
	dottedLine  = []vg.Length{vg.Points(1.2), vg.Points(2)}
	dashDotLine = []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.2), vg.Points(2)}
)
