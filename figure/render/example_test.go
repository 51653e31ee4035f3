package render_test

import (
	"bytes"
	"fmt"
	"image/png"

	"gonum.org/v1/plot/vg"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/figure/render"
)

// The tails of a load distribution against a fluid limit, drawn as a PNG
// of 12 cm × 8 cm at 150 dpi: 12/2.54 · 150 = 708.7 pixels wide.
func ExampleDraw() {
	f := &figure.Figure{}
	p := f.Add(&figure.Panel{Title: "fraction of bins at load ≥ i", XLabel: "load i", XInt: true,
		YLabel: "fraction of bins", YScale: figure.ScaleLog10})
	meas := p.Add(&figure.Series{Name: "measured", Style: figure.StylePoints})
	fluid := p.Add(&figure.Series{Name: "fluid limit (n → ∞)", Color: 1, Style: figure.StyleDashed})
	// The fluid limit of Greedy[2] at m = n (s_1 to s_4), and a run near it.
	for i, s := range []float64{0.761594156, 0.2295045385, 0.008895258291, 6.047255803e-06} {
		fluid.Points = append(fluid.Points, figure.Pt{X: float64(i + 1), Y: s})
		meas.Points = append(meas.Points, figure.Pt{X: float64(i + 1), Y: s * 1.01})
	}

	var b bytes.Buffer
	o := render.Options{Format: render.FormatPNG, Width: 12 * vg.Centimeter, Height: 8 * vg.Centimeter, DPI: 150}
	if err := render.Draw(&b, f, o); err != nil {
		fmt.Println(err)
		return
	}
	img, err := png.Decode(&b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Size())
	// Output:
	// (709,472)
}
