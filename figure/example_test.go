package figure_test

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/figure"
)

// A panel of the max load against n with one measured series and its 95%
// intervals, saved as a result file saves it: a value that is not finite
// is null in JSON and reads back as NaN, which is not drawn.
func Example() {
	f := &figure.Figure{}
	p := f.Add(&figure.Panel{Title: "max load against n", XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2})
	s := p.Add(&figure.Series{Name: "Greedy[2]", Style: figure.StylePoints})
	s.Points = append(s.Points,
		figure.Pt{X: 1 << 10, Y: 3, Lo: 2.9, Hi: 3.1},
		figure.Pt{X: 1 << 12, Y: 3.2, Lo: 3, Hi: 3.4},
		figure.Pt{X: 1 << 14, Y: math.NaN()})
	b, err := json.Marshal(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))

	var back figure.Figure
	if err := json.Unmarshal(b, &back); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(back.Panels[0].Series[0].Points[1], math.IsNaN(back.Panels[0].Series[0].Points[2].Y))
	// Output:
	// {"panels":[{"title":"max load against n","x_label":"n","y_label":"max load","x_scale":"log2","series":[{"name":"Greedy[2]","color":0,"shape":0,"style":"points","points":[[1024,3,2.9,3.1],[4096,3.2,3,3.4],[16384,null]]}]}]}
	// {4096 3.2 3 3.4} true
}
