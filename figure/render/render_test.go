package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/graphalloc/graphalloc/figure"
)

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

// A log axis of whole numbers has ticks at whole numbers only (no 1.5 on
// the "load i" axis); a real-valued one keeps its 1.5.
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

func TestParseSize(t *testing.T) {
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
		w, h, err := ParseSize(tc.in)
		if err != nil || math.Abs(float64(w-tc.w)) > 1e-9 || math.Abs(float64(h-tc.h)) > 1e-9 {
			t.Errorf("%q: %v × %v, %v; want %v × %v", tc.in, w, h, err, tc.w, tc.h)
		}
	}
	for _, bad := range []string{"", "12cm", "12x8", "axbcm", "-1cmx2cm", "0cmx1cm", "12cmx8furlongs", "infcmx1cm"} {
		if _, _, err := ParseSize(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestOptionsCheck(t *testing.T) {
	if err := (Options{}).Check(); err != nil {
		t.Errorf("the zero options: %v", err)
	}
	bad := map[string]Options{
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
		if err := o.Check(); err == nil || !strings.HasPrefix(err.Error(), "render: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// testFigure is a figure of two panels over a few points.
func testFigure() *figure.Figure {
	f := &figure.Figure{SharedLegend: true}
	a := f.Add(&figure.Panel{Title: "max load ≥ 2 against n", XLabel: "n", YLabel: "max load", XScale: figure.ScaleLog2, YScale: figure.ScaleLog})
	b := f.Add(&figure.Panel{Title: "tails", XLabel: "load i", XInt: true, YLabel: "fraction", YScale: figure.ScaleLog10})
	for i := range 3 {
		s := a.Add(&figure.Series{Name: "Δ = " + string(rune('4'+i)), Color: i, Shape: i, Style: figure.StylePoints})
		u := b.Add(&figure.Series{Name: s.Name, Color: i, Shape: i, Style: figure.StylePoints})
		for k := range 4 {
			n := float64(int(1) << (10 + 2*k))
			s.Points = append(s.Points, figure.Pt{X: n, Y: 3 + float64(i) + float64(k)/4, Lo: 2.8 + float64(i), Hi: 3.5 + float64(i) + float64(k)/4})
			u.Points = append(u.Points, figure.Pt{X: float64(k + 1), Y: math.Pow(10, -float64(k*(i+1)))})
		}
	}
	a.Add(&figure.Series{Name: "a: ≤ bound", Color: -1, Style: figure.StyleDashed})
	return f
}

// Draw writes a PNG of the size and resolution asked for, an SVG that is
// XML and a one-page PDF.
func TestDrawFormats(t *testing.T) {
	f := testFigure()
	var b bytes.Buffer
	o := Options{Width: 12 * vg.Centimeter, Height: 8 * vg.Centimeter, DPI: 150, FontSize: 8}
	if err := Draw(&b, f, o); err != nil {
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
	if err := Draw(&b, f, Options{Format: FormatSVG, Legend: LegendInside, Title: "a title"}); err != nil {
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
	if err := Draw(&b, f, Options{Format: FormatPDF, Legend: LegendNone, XScale: AxisLinear}); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) || bytes.Count(b.Bytes(), []byte("/Type /Page\n")) != 1 {
		t.Errorf("PDF: %.20q, %d pages", b.Bytes(), bytes.Count(b.Bytes(), []byte("/Type /Page\n")))
	}
	if err := Draw(io.Discard, f, Options{Width: 2 * vg.Centimeter, Height: 2 * vg.Centimeter}); err == nil {
		t.Error("a 2 cm figure of two panels: no error")
	}
	if err := Draw(io.Discard, f, Options{Width: 200 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 1200}); err == nil {
		t.Error("a PNG 94488 pixels wide: no error")
	}
}

// A PDF embeds its fonts, as Unicode subsets: the symbols of the figures
// survive as themselves (pdffonts and pdftotext, of poppler-utils, read
// the file as a reader's tools would).
func TestPDFFonts(t *testing.T) {
	for _, tool := range []string{"pdffonts", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install -y poppler-utils): the PDF's fonts go unchecked", tool)
		}
	}
	f := testFigure()
	f.Panels[0].Title = "max load ≥ 2, Δ = 4, σ = 0.5, ≈ 3, n → ∞, ⌈n^ε⌉ − 1"
	path := filepath.Join(t.TempDir(), "f.pdf")
	var b bytes.Buffer
	if err := Draw(&b, f, Options{Format: FormatPDF}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fonts, err := exec.Command("pdffonts", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdffonts: %v\n%s", err, fonts)
	}
	lines := strings.Split(strings.TrimSpace(string(fonts)), "\n")
	if len(lines) < 3 {
		t.Fatalf("pdffonts lists no font:\n%s", fonts)
	}
	for _, l := range lines[2:] {
		// name type encoding emb sub uni object ID
		fs := strings.Fields(l)
		if len(fs) < 7 || fs[len(fs)-5] != "yes" || fs[len(fs)-3] != "yes" {
			t.Errorf("a font not embedded, or without its Unicode map:\n%s", fonts)
		}
	}
	txt, err := exec.Command("pdftotext", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, txt)
	}
	for _, want := range []string{"≥", "σ", "Δ", "≈", "→", "∞", "⌈", "−"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("pdftotext lost %q:\n%s", want, txt)
		}
	}
	var again bytes.Buffer
	if err := Draw(&again, f, Options{Format: FormatPDF}); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Errorf("a figure drawn twice gives two PDFs (%v)", err)
	}
}

// An SVG names its font with metric-compatible fallbacks instead of
// embedding it.
func TestSVGSmall(t *testing.T) {
	var b bytes.Buffer
	if err := Draw(&b, testFigure(), Options{Format: FormatSVG}); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 100<<10 || bytes.Contains(b.Bytes(), []byte("@font-face")) {
		t.Errorf("SVG of %d bytes (embeds a font: %v)", b.Len(), bytes.Contains(b.Bytes(), []byte("@font-face")))
	}
	if !bytes.Contains(b.Bytes(), []byte("font-family:'Liberation Serif','Times New Roman',Times,serif;")) {
		t.Error("the SVG does not name its font with its fallbacks")
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
	pl, entries, err := panelPlot(testFigure().Panels[0], Options{}, DefaultFontSize)
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

func TestDrawNoPanel(t *testing.T) {
	if err := Draw(io.Discard, &figure.Figure{}, Options{}); err == nil {
		t.Error("no error")
	}
	if err := Draw(io.Discard, testFigure(), Options{Format: "gif"}); err == nil {
		t.Error("gif: no error")
	}
}

// Every log axis carries three labels at least, over any range.
func TestLogAxesThreeLabels(t *testing.T) {
	tickers := map[string]plot.Ticker{}
	for _, sc := range []string{figure.ScaleLog, figure.ScaleLog2, figure.ScaleLog10} {
		for _, integer := range []bool{false, true} {
			var a plot.Axis
			setScale(&a, sc, integer)
			tickers[fmt.Sprintf("%s integer=%v", sc, integer)] = a.Tick.Marker
		}
	}
	ranges := [][2]float64{{2.9, 5.2}, {3.4, 4.6}, {1, 2}, {0.9, 43}, {2048, 4096}, {2048, 131072}, {1e-12, 1}, {0.2, 0.3}, {15, 25}, {1.5, 1e6}}
	for name, tk := range tickers {
		integer := strings.HasSuffix(name, "true")
		for _, r := range ranges {
			got := labels(tk.Ticks(r[0], r[1]))
			if integer && math.Floor(r[1])-math.Ceil(r[0]) < 2 {
				continue // fewer than three whole numbers in range
			}
			if len(got) < 3 {
				t.Errorf("%s on [%g, %g]: labels %q", name, r[0], r[1], got)
			}
		}
	}
}

// A bound far above the measurements (the cycle's gap bound beside loads
// of 3 to 5) does not set the axis: the axis spans the data and the near
// bounds, and a note at the edge names the far one with its values.
func TestFarBoundClipped(t *testing.T) {
	p := &figure.Panel{YScale: figure.ScaleLog, XScale: figure.ScaleLog2}
	meas := p.Add(&figure.Series{Name: "cycle", Style: figure.StylePoints})
	near := p.Add(&figure.Series{Style: figure.StyleDashed, Label: "a"})
	far := p.Add(&figure.Series{Style: figure.StyleDashed, Label: "d"})
	for k, n := range []float64{1 << 11, 1 << 13, 1 << 15} {
		meas.Points = append(meas.Points, figure.Pt{X: n, Y: 3 + float64(k)})
		near.Points = append(near.Points, figure.Pt{X: n, Y: 20})
		far.Points = append(far.Points, figure.Pt{X: n, Y: 1e4 * float64(k+1)})
	}
	p.Add(&figure.Series{Name: "a: ≤ near", Color: -1, Style: figure.StyleDashed})
	p.Add(&figure.Series{Name: "d: O far", Color: -1, Style: figure.StyleDashed})
	pl, entries, err := panelPlot(p, Options{}, DefaultFontSize)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Y.Max < 20 || pl.Y.Max > 40 {
		t.Errorf("y axis up to %g: want the near bound's 20 and not the far one's 3e4", pl.Y.Max)
	}
	if note := offScaleOf(p.Series, pl.Y.Min, pl.Y.Max, true, true).text(); note != "off scale: d ↑ 1e4 to 3e4" {
		t.Errorf("note %q", note)
	}
	if len(entries) != 3 {
		t.Errorf("legend %v", entries)
	}
	// --bounds a: d and its key go; --bounds none: both.
	_, entries, _ = panelPlot(p, Options{Bounds: []string{"a"}}, DefaultFontSize)
	if len(entries) != 2 || entries[1].text != "a: ≤ near" {
		t.Errorf("--bounds a: legend %v", entries)
	}
	pl, entries, _ = panelPlot(p, Options{NoBounds: true, YMin: 1, YMax: 10}, DefaultFontSize)
	if len(entries) != 1 || pl.Y.Min != 1 || pl.Y.Max != 10 {
		t.Errorf("--bounds none --ylim 1:10: legend %v, y from %g to %g", entries, pl.Y.Min, pl.Y.Max)
	}
	f := &figure.Figure{Panels: []*figure.Panel{p}}
	for _, o := range []Options{{Bounds: []string{"x"}}, {YMin: 0, YMax: 5}, {Panels: map[int]PanelOptions{2: {YScale: AxisLinear}}}} {
		if err := Draw(io.Discard, f, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if err := Draw(io.Discard, f, Options{Panels: map[int]PanelOptions{1: {YScale: AxisLinear, YMin: 0, YMax: 5}}}); err != nil {
		t.Errorf("a linear panel from 0: %v", err)
	}
}

func TestParseBounds(t *testing.T) {
	for in, want := range map[string]string{"ad": "a d", "a,b27": "a b27", "b26": "b26", "z": "z"} {
		got, none, err := ParseBounds(in)
		if err != nil || none || strings.Join(got, " ") != want {
			t.Errorf("%q: %q, %v, %v", in, got, none, err)
		}
	}
	if _, none, err := ParseBounds("none"); !none || err != nil {
		t.Errorf("none: %v %v", none, err)
	}
	for _, bad := range []string{"", "A", "a1", "b3", "a,,b", "ä"} {
		if _, _, err := ParseBounds(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// --linear, --log and --ylim hold for every panel, or with P= for panel P
// alone; a panel's own option wins over the figure's.
func TestRequestPanels(t *testing.T) {
	o, err := Request{Log: []string{"x", "2=y"}, Linear: []string{"1=y"}, YLim: []string{"0:10", "2=1e-6:1"}, Bounds: "ab"}.Options("--plot", "f.png")
	if err != nil {
		t.Fatal(err)
	}
	if o.XScale != AxisLog || o.YScale != "" || o.YMin != 0 || o.YMax != 10 || len(o.Bounds) != 2 {
		t.Errorf("figure's options %+v", o)
	}
	p1, p2, p3 := o.forPanel(0), o.forPanel(1), o.forPanel(2)
	if p1.YScale != AxisLinear || p1.YMax != 10 || p2.YScale != AxisLog || p2.YMin != 1e-6 || p2.YMax != 1 || p3.YScale != "" || p3.XScale != AxisLog {
		t.Errorf("panels: %+v, %+v, %+v", p1, p2, p3)
	}
	for _, bad := range []Request{{YLim: []string{"5:1"}}, {YLim: []string{"a:b"}}, {YLim: []string{"x=1:2"}}, {Log: []string{"1=y", "y"}, Linear: []string{"1=y"}},
		{Bounds: "none,a"}, {Log: []string{"0=y"}}} {
		if _, err := bad.Options("--plot", "f.png"); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// Labels at one x are spread a height apart, each run centred where its
// labels want to be, and kept within the area.
func TestSpreadLabels(t *testing.T) {
	got := spread([]vg.Length{10, 10, 10, 50}, 4, 0, 100)
	if want := []vg.Length{6, 10, 14, 50}; !slices.Equal(got, want) {
		t.Errorf("spread %v, want %v", got, want)
	}
	got = spread([]vg.Length{99, 100}, 4, 0, 100)
	if want := []vg.Length{96, 100}; !slices.Equal(got, want) {
		t.Errorf("at the top: %v, want %v", got, want)
	}
}
