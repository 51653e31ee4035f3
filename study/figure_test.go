package study

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/graphalloc/graphalloc/alloc"
)

func labels(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

// Tick labels read as the numbers they stand at, with no more digits than
// the step needs; an integer axis has ticks at whole numbers only.
func TestLinearTicks(t *testing.T) {
	cases := []struct {
		name    string
		lo, hi  float64
		integer bool
		want    []string
	}{
		{"unit interval", 0, 1, false, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		// 3·0.05 is 0.15000000000000002 in floating point.
		{"steps of 0.05", 0.05, 0.2, false, []string{"0.05", "0.10", "0.15", "0.20"}},
		{"no −0", -0.02, 1, false, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		// The load axis of compare's tails: whole numbers, from load 1.
		{"loads 1 to 15", 1, 15, true, []string{"1", "5", "10", "15"}},
		{"loads 1 to 45", 1, 45, true, []string{"1", "10", "20", "30", "40"}},
		{"loads 1 to 4.5: no 1.5", 1, 4.5, true, []string{"1", "2", "3", "4"}},
		{"d from 2 to 4", 2, 4, true, []string{"2", "3", "4"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := linearTicks{integer: tc.integer}.Ticks(tc.lo, tc.hi)
			if got := labels(ts); !slices.Equal(got, tc.want) {
				t.Errorf("labels %q, want %q", got, tc.want)
			}
			for _, tk := range ts {
				if tc.integer && tk.Value != math.Round(tk.Value) {
					t.Errorf("tick at %g on an integer axis", tk.Value)
				}
				if tk.Label != "" && strings.Contains(tk.Label, "000000") {
					t.Errorf("label %q", tk.Label)
				}
			}
		})
	}
}

// A log axis of whole numbers has ticks at whole numbers only: the "load i"
// axis once showed a tick at 1.5.
func TestLogTicksInteger(t *testing.T) {
	for _, r := range [][2]float64{{0.9, 43}, {1, 5}, {3, 128}} {
		for _, tk := range (autoLogTicks{integer: true}).Ticks(r[0], r[1]) {
			if tk.Value != math.Round(tk.Value) || tk.Value < 1 {
				t.Errorf("[%g, %g]: tick %+v", r[0], r[1], tk)
			}
		}
	}
	if got := labels(autoLogTicks{}.Ticks(1, 2)); !slices.Contains(got, "1.5") {
		t.Errorf("a real-valued log axis lost its 1.5: %q", got)
	}
}

func TestParseFigureSize(t *testing.T) {
	good := []struct {
		in   string
		w, h vg.Length
	}{
		{"12cmx8cm", 12 * vg.Centimeter, 8 * vg.Centimeter},
		{"12x8cm", 12 * vg.Centimeter, 8 * vg.Centimeter},
		{"3.5inx2in", 3.5 * vg.Inch, 2 * vg.Inch},
		{"120mmx80mm", 12 * vg.Centimeter, 8 * vg.Centimeter},
		{"300ptX200PT", 300, 200},
	}
	for _, tc := range good {
		w, h, err := ParseFigureSize(tc.in)
		if err != nil || math.Abs(float64(w-tc.w)) > 1e-9 || math.Abs(float64(h-tc.h)) > 1e-9 {
			t.Errorf("%q: %v × %v, %v; want %v × %v", tc.in, w, h, err, tc.w, tc.h)
		}
	}
	for _, bad := range []string{"", "12cm", "12x8", "axbcm", "-1cmx2cm", "0cmx1cm", "12cmx8furlongs", "infcmx1cm"} {
		if _, _, err := ParseFigureSize(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestFigureOptionsCheck(t *testing.T) {
	if err := (FigureOptions{}).Check(); err != nil {
		t.Errorf("the zero options: %v", err)
	}
	bad := map[string]FigureOptions{
		"format":        {Format: "gif"},
		"one side":      {Width: 10 * vg.Centimeter},
		"too small":     {Width: vg.Centimeter, Height: vg.Centimeter},
		"tiny font":     {FontSize: 2},
		"dpi of an svg": {Format: FormatSVG, DPI: 300},
		"dpi 5":         {DPI: 5},
		"log2 scale":    {XScale: "log2"},
		"legend on top": {Legend: "top"},
	}
	for name, o := range bad {
		if err := o.Check(); err == nil || !strings.HasPrefix(err.Error(), "study: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A point is [x, y] or [x, y, lo, hi] in JSON; what is not finite is null
// and reads back as NaN, which is not drawn either way.
func TestPtJSON(t *testing.T) {
	pts := []Pt{{X: 1, Y: 0.1}, {X: 2, Y: 3, Lo: 2.5, Hi: 3.25}, {X: 4, Y: math.NaN()}, {X: 5, Y: math.Inf(1)}}
	b, err := json.Marshal(pts)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[[1,0.1],[2,3,2.5,3.25],[4,null],[5,null]]`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back []Pt
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back[1] != pts[1] || back[0] != pts[0] || !math.IsNaN(back[2].Y) || !math.IsNaN(back[3].Y) {
		t.Errorf("read back %+v", back)
	}
	if err := json.Unmarshal([]byte(`[1,2,3]`), &back[0]); err == nil {
		t.Error("[1,2,3]: no error")
	}
}

// testFigure is a figure of two panels over a few points.
func testFigure() *Figure {
	f := &Figure{SharedLegend: true}
	a := f.add(&Panel{Title: "max load ≥ 2 against n", XLabel: "n", YLabel: "max load", XScale: ScaleLog2, YScale: ScaleLog})
	b := f.add(&Panel{Title: "tails", XLabel: "load i", XInt: true, YLabel: "fraction", YScale: ScaleLog10})
	for i := range 3 {
		s := a.add(&Series{Name: "Δ = " + string(rune('4'+i)), Color: i, Shape: i, Style: StylePoints})
		u := b.add(&Series{Name: s.Name, Color: i, Shape: i, Style: StylePoints})
		for k := range 4 {
			n := float64(int(1) << (10 + 2*k))
			s.Points = append(s.Points, Pt{X: n, Y: 3 + float64(i) + float64(k)/4, Lo: 2.8 + float64(i), Hi: 3.5 + float64(i) + float64(k)/4})
			u.Points = append(u.Points, Pt{X: float64(k + 1), Y: math.Pow(10, -float64(k*(i+1)))})
		}
	}
	a.add(&Series{Name: "a: ≤ bound", Color: -1, Style: StyleDashed})
	return f
}

// Draw writes a PNG of the size and resolution asked for, an SVG that is
// XML and a one-page PDF.
func TestDrawFormats(t *testing.T) {
	f := testFigure()
	var b bytes.Buffer
	o := FigureOptions{Width: 12 * vg.Centimeter, Height: 8 * vg.Centimeter, DPI: 150, FontSize: 8}
	if err := f.Draw(&b, o); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	// 12 cm at 150 dpi: 12/2.54·150 = 708.7 pixels.
	if got := img.Bounds().Size(); got.X != 709 || got.Y != 472 {
		t.Errorf("PNG of %v pixels, want 709 × 472", got)
	}
	b.Reset()
	if err := f.Draw(&b, FigureOptions{Format: FormatSVG, Legend: LegendInside, Title: "a title"}); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&b)
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("SVG: %v", err)
		}
	}
	b.Reset()
	if err := f.Draw(&b, FigureOptions{Format: FormatPDF, Legend: LegendNone, XScale: AxisLinear}); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) || bytes.Count(b.Bytes(), []byte("/Type /Page\n")) != 1 {
		t.Errorf("PDF: %.20q, %d pages", b.Bytes(), bytes.Count(b.Bytes(), []byte("/Type /Page\n")))
	}
	if err := f.Draw(io.Discard, FigureOptions{Width: 2 * vg.Centimeter, Height: 2 * vg.Centimeter}); err == nil {
		t.Error("a 2 cm figure of two panels: no error")
	}
	if err := f.Draw(io.Discard, FigureOptions{Width: 200 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 1200}); err == nil {
		t.Error("a PNG 94488 pixels wide: no error")
	}
}

// The PDF fonts know Windows-1252 only: the figure's other characters are
// spelled out, and no text is left for mojibake.
func TestPDFText(t *testing.T) {
	if got, want := pdfText("max load ≥ 2, Δ = 4, n → ∞, ⌈n^ε⌉ − 1 · 3"), "max load >= 2, Delta = 4, n -> inf, ceil(n^eps) - 1 · 3"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	for _, p := range testFigure().forPDF().Panels {
		for _, s := range append([]string{p.Title}, p.Series[0].Name) {
			if strings.ContainsAny(s, "Δ≥") {
				t.Errorf("%q", s)
			}
		}
	}
}

// On a short axis the labels give way, the round ones last, and those
// left do not overlap.
func TestThinTicks(t *testing.T) {
	pl := plot.New()
	pl.X.Scale, pl.X.Min, pl.X.Max = plot.LogScale{}, 3, 128
	pl.X.Tick.Label.Font.Size = 9
	const length = 60 // points
	ts := thinTicks{inner: autoLogTicks{integer: true}, axis: &pl.X, length: length}.Ticks(3, 128)
	got := labels(ts)
	if !slices.Contains(got, "10") || !slices.Contains(got, "100") || len(got) >= len(labels(autoLogTicks{integer: true}.Ticks(3, 128))) {
		t.Errorf("labels %q", got)
	}
	var last vg.Length = -100
	for _, tk := range ts {
		if tk.Label == "" {
			continue
		}
		pos := vg.Length(pl.X.Norm(tk.Value)) * length
		if pos-last < pl.X.Tick.Label.Width(tk.Label) {
			t.Errorf("label %q at %v overlaps the one at %v", tk.Label, pos, last)
		}
		last = pos
	}
}

func TestWrapText(t *testing.T) {
	sty := textStyle(10)
	got := wrapText("bowtie (two triangles) (λ = 2)", sty, sty.Width("bowtie (two triangles) (λ"))
	if got != "bowtie (two triangles)\n(λ = 2)" {
		t.Errorf("%q", got)
	}
	if got := wrapText("short", sty, 1); got != "short" {
		t.Errorf("a word wider than the width: %q", got)
	}
}

// The axes span the data: no empty padding beyond the largest n.
func TestPanelRange(t *testing.T) {
	pl, entries, err := testFigure().Panels[0].plot(FigureOptions{}, DefaultFontSize)
	if err != nil {
		t.Fatal(err)
	}
	if pl.X.Min != 1<<10 || pl.X.Max != 1<<16 {
		t.Errorf("x from %g to %g, want 2^10 to 2^16", pl.X.Min, pl.X.Max)
	}
	// The three series and the legend-only key of the dashed style.
	if len(entries) != 4 || entries[3].text != "a: ≤ bound" {
		t.Errorf("legend %+v", entries)
	}
}

// A grid at one n draws its series on a categorical axis, one column each,
// the bounds as level marks across it; at several n, against n.
func TestGridFigureAxes(t *testing.T) {
	rows, _ := runRows(t, Grid{Processes: []string{"graph"}, Graphs: []string{"cycle", "regular:degree=4", "complete"}, Ns: []int{64}, Params: alloc.Params{D: 2}, Trials: 2})
	f, err := GridFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	left := f.Panels[0]
	if want := []string{"cycle", "regular\ndegree=4", "complete"}; !slices.Equal(left.XCategories, want) {
		t.Errorf("categories %q, want %q", left.XCategories, want)
	}
	for _, s := range left.Series {
		for _, p := range s.Points {
			if c := float64(s.Color); s.Color >= 0 && math.Abs(p.X-c) > 0.3+1e-9 {
				t.Errorf("series %q (colour %d) has a point at x = %g", s.Name, s.Color, p.X)
			}
		}
	}
	if !strings.Contains(f.Panels[1].Title, "n = 2^6") {
		t.Errorf("tails title %q", f.Panels[1].Title)
	}

	rows, _ = runRows(t, Grid{Processes: []string{"graph"}, Graphs: []string{"cycle", "complete"}, Ns: []int{64, 128}, Params: alloc.Params{D: 2}, Trials: 2})
	// A series cut short at 64 (as when a graph cannot be built at 128):
	// the tails are each series' largest n, and the title says so.
	rows = slices.DeleteFunc(rows, func(r Row) bool { return r.Topology == "cycle" && r.N == 128 })
	if f, err = GridFigure(rows); err != nil {
		t.Fatal(err)
	}
	if left := f.Panels[0]; left.XCategories != nil || left.XScale != ScaleLog2 {
		t.Errorf("several n: categories %q, scale %q", left.XCategories, left.XScale)
	}
	if got := f.Panels[1].Title; !strings.Contains(got, "each series' largest n (2^6 to 2^7)") {
		t.Errorf("tails title %q", got)
	}
	if _, err := GridFigure(nil); err == nil {
		t.Error("no rows: no error")
	}
}

func TestDrawNoPanel(t *testing.T) {
	if err := (&Figure{}).Draw(io.Discard, FigureOptions{}); err == nil {
		t.Error("no error")
	}
	if err := testFigure().Draw(io.Discard, FigureOptions{Format: "gif"}); err == nil {
		t.Error("gif: no error")
	}
}
