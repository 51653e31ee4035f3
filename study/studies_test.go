package study

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure/render"
)

// Every study runs at its tiny size, gives the same report whatever the
// number of workers, and renders as text, CSV, JSON and a figure. This is
// what keeps a study from rotting when the code under it changes.
func TestStudiesTiny(t *testing.T) {
	for _, s := range Studies() {
		t.Run(s.Name, func(t *testing.T) {
			var first []byte
			for _, w := range []int{1, 3} {
				rep, err := s.Run(context.Background(), s.Tiny, Options{Seed: 1, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Size != SizeTiny || rep.Study != s.Name || rep.Number != s.Number {
					t.Errorf("report says size %q, study %q %d", rep.Size, rep.Study, rep.Number)
				}
				var js bytes.Buffer
				if err := rep.WriteJSON(&js); err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = js.Bytes()
					checkReport(t, rep)
				} else if !bytes.Equal(first, js.Bytes()) {
					t.Fatalf("workers=%d: report differs from workers=1", w)
				}
			}
		})
	}
}

func checkReport(t *testing.T, rep *Report) {
	t.Helper()
	if len(rep.Tables) == 0 || len(rep.Findings) == 0 {
		t.Fatalf("%d tables, %d findings", len(rep.Tables), len(rep.Findings))
	}
	for _, tb := range rep.Tables {
		if len(tb.Rows) == 0 {
			t.Errorf("table %s is empty", tb.Name)
		}
		if len(tb.Formats) != len(tb.Columns) {
			t.Errorf("table %s: %d formats for %d columns", tb.Name, len(tb.Formats), len(tb.Columns))
		}
		for _, row := range tb.Rows {
			if len(row) != len(tb.Columns) {
				t.Fatalf("table %s: row of %d for %d columns", tb.Name, len(row), len(tb.Columns))
			}
		}
	}
	var text, csvOut, svg bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text.String(), "study ") || strings.Contains(text.String(), "%!") {
		t.Errorf("text output malformed:\n%s", text.String())
	}
	if err := rep.WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	// One long table: it parses with a constant number of fields, snake_case
	// headers, no comment line.
	recs, err := csv.NewReader(strings.NewReader(csvOut.String())).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][0] != "study" || recs[0][1] != "table" {
		t.Errorf("CSV: %v\n%s", err, csvOut.String())
	}
	for _, h := range recs[0] {
		if h != snakeCase(h) {
			t.Errorf("CSV header %q is not snake_case", h)
		}
	}
	if strings.Contains(csvOut.String(), "\n#") || strings.HasPrefix(csvOut.String(), "#") {
		t.Errorf("CSV with comment lines:\n%s", csvOut.String())
	}
	var back map[string]any
	js, _ := json.Marshal(rep)
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if err := render.Draw(&svg, rep.Figure, render.Options{Format: render.FormatSVG}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg.Bytes(), []byte("<svg")) {
		t.Error("plot is not an SVG")
	}
}

// A different seed gives a different report (the seed reaches the trials).
func TestStudySeed(t *testing.T) {
	s, _ := Lookup("two-choices")
	a, err := s.Run(context.Background(), s.Tiny, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Run(context.Background(), s.Tiny, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a.Tables)
	jb, _ := json.Marshal(b.Tables)
	if bytes.Equal(ja, jb) {
		t.Error("seeds 1 and 2 give the same tables")
	}
}

func TestLookup(t *testing.T) {
	for i, s := range Studies() {
		if s.Number != i+1 {
			t.Errorf("%s has number %d at position %d", s.Name, s.Number, i+1)
		}
		for _, key := range []string{s.Name, strconv.Itoa(i + 1)} {
			if got, err := Lookup(key); err != nil || got != s {
				t.Errorf("Lookup(%q) = %v, %v", key, got, err)
			}
		}
		if s.Question == "" || s.Title == "" || len(s.Sources) == 0 {
			t.Errorf("%s lacks a title, question or source", s.Name)
		}
	}
	if _, err := Lookup("nine"); err == nil || !strings.Contains(err.Error(), "two-choices") {
		t.Errorf("unknown study: %v", err)
	}
	if names := StudyNames(); len(names) != len(Studies()) || len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		t.Errorf("names %v", names)
	}
}

// A cancelled context stops a study.
func TestStudyCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := Lookup("heavy-graphs")
	if _, err := s.Run(ctx, s.Tiny, Options{Seed: 1}); err == nil {
		t.Error("no error from a cancelled run")
	}
}

func TestFitLine(t *testing.T) {
	// x̄ = 2, ȳ = 2, Sxx = 10, Sxy = 12: slope 1.2, intercept −0.4;
	// residuals 0.4, 0.2, −1, −0.2, 0.6, RSS 1.6, SST 16: R² = 0.9;
	// SE = sqrt(1.6 / 3 / 10); t(0.975, 3 df) = 3.182446305284263 (tables).
	f, err := FitLine([]float64{0, 1, 2, 3, 4}, []float64{0, 1, 1, 3, 5})
	if err != nil {
		t.Fatal(err)
	}
	se := math.Sqrt(1.6 / 3 / 10)
	const t3 = 3.182446305284263
	want := LineFit{Slope: 1.2, Intercept: -0.4, SE: se, CI95: Interval{1.2 - t3*se, 1.2 + t3*se}, DF: 3, R2: 0.9}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(f.Slope, want.Slope) || !near(f.Intercept, want.Intercept) || !near(f.SE, want.SE) ||
		!near(f.CI95[0], want.CI95[0]) || !near(f.CI95[1], want.CI95[1]) || f.DF != 3 || !near(f.R2, want.R2) {
		t.Errorf("FitLine = %+v, want %+v", f, want)
	}
	// Points on a line: zero standard error.
	f, _ = FitLine([]float64{1, 2, 3, 4}, []float64{3, 5, 7, 9})
	if !near(f.Slope, 2) || f.SE > 1e-12 || !near(f.CI95[0], 2) {
		t.Errorf("exact line: %+v", f)
	}
	for _, bad := range [][2][]float64{{{1, 2}, {1, 2}}, {{1, 1, 1}, {1, 2, 3}}, {{1, 2, 3}, {1, 2}}} {
		if _, err := FitLine(bad[0], bad[1]); err == nil {
			t.Errorf("FitLine(%v, %v): no error", bad[0], bad[1])
		}
	}
}

func TestMeanCI(t *testing.T) {
	// Mean 2, sd 1 over 3 values: half-width t(0.975, 2)/√3, t = 4.302652729911275.
	m, ci := meanCI([]float64{1, 2, 3})
	h := 4.302652729911275 / math.Sqrt(3)
	if m != 2 || math.Abs(ci[0]-(2-h)) > 1e-9 || math.Abs(ci[1]-(2+h)) > 1e-9 {
		t.Errorf("meanCI = %v %v", m, ci)
	}
	if m, ci := meanCI([]float64{5}); m != 5 || ci != (Interval{5, 5}) {
		t.Errorf("one value: %v %v", m, ci)
	}
}

func TestSizesString(t *testing.T) {
	cases := []struct {
		in   []int
		want string
	}{
		{[]int{256, 512, 1024, 2048}, "2^8..2^11"},
		{[]int{256, 4096, 65536}, "2^8, 2^12, 2^16"},
		{[]int{256, 512}, "2^8, 2^9"},
		{[]int{100, 200, 400}, "100, 200, 400"},
		{[]int{32, 64, 128, 1000}, "2^5..2^7, 1000"},
	}
	for _, tc := range cases {
		if got := sizesString(tc.in); got != tc.want {
			t.Errorf("sizesString(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLogSpaced(t *testing.T) {
	idx := logSpaced(10000, 60)
	if idx[0] != 0 || idx[len(idx)-1] != 9999 || !slices.IsSorted(idx) || len(idx) > 61 {
		t.Errorf("logSpaced(10000, 60) = %v", idx)
	}
	if got := logSpaced(1, 5); !slices.Equal(got, []int{0}) {
		t.Errorf("logSpaced(1, 5) = %v", got)
	}
}

// The reachability examples' edge connectivities, by hand: a path 1, a
// cycle 2, the bowtie 2 (a cut vertex, no bridge), K4 3, K5 4, Petersen 3.
func TestReachExamplesMinCut(t *testing.T) {
	want := []int{1, 2, 2, 3, 4, 3}
	for i, g := range reachExamples() {
		if got := g.minCut(); got != want[i] {
			t.Errorf("%s: min cut %d, want %d", g.name, got, want[i])
		}
	}
}

func TestDegreeSweep(t *testing.T) {
	if got := degreeSweep(1 << 14); !slices.Equal(got, []int{3, 4, 8, 16, 32, 64, 128}) {
		t.Errorf("degreeSweep(2^14) = %v", got)
	}
	if got := degreeSweep(1 << 9); !slices.Equal(got, []int{3, 4, 8, 16, 23}) {
		t.Errorf("degreeSweep(2^9) = %v", got)
	}
}

// Empty parameters are an error naming what is missing, never a panic.
func TestStudyParamsChecked(t *testing.T) {
	for _, s := range Studies() {
		if _, err := s.Run(context.Background(), Params{}, Options{Seed: 1}); err == nil || !strings.Contains(err.Error(), s.Name) {
			t.Errorf("%s with no parameters: %v", s.Name, err)
		}
	}
	s, _ := Lookup("two-choices")
	if _, err := s.Run(context.Background(), Params{Ns: []int{0}, Trials: 1}, Options{}); err == nil {
		t.Error("n = 0 accepted")
	}
	// Custom parameters are reported as such.
	p := s.Tiny
	p.Trials = 2
	rep, err := s.Run(context.Background(), p, Options{Seed: 1})
	if err != nil || rep.Size != "custom" {
		t.Errorf("custom size: %v, %v", rep.Size, err)
	}
}

// A study's commentary claims of the theory only what its statement says:
// a (1 + o(1)) factor bounds the ratio, not the difference, so a growing
// difference is not called "the O(1) of the theory"; a ± O(1) statement
// bounds the difference by a constant it does not give.
func TestTermFinding(t *testing.T) {
	bound := func(process string) analysis.Bound {
		return analysis.Bounds(analysis.Query{N: 1 << 20, Process: process})[0]
	}
	ns := []int{1 << 8, 1 << 12, 1 << 16, 1 << 20}
	cases := []struct {
		name          string
		b             analysis.Bound
		diffs, ratios []float64
		want, unwant  []string
	}{
		// The default page's one-choice: +1.21 → +3.78, ratio 1.37 → 1.72.
		{"one-choice: a growing difference, a (1 + o(1)) term", bound("one-choice"),
			[]float64{1.21, 2.37, 3.14, 3.78}, []float64{1.37, 1.60, 1.68, 1.72},
			[]string{"from +1.21 (n = 2^8) to +3.78 (n = 2^20)", "does not bound", "max load / term tends to 1", "from 1.37 to 1.72 (not approaching 1 at these n)"},
			[]string{"O(1)", "stays within"}},
		{"Greedy[2]: a ± O(1) term", bound("greedy"),
			[]float64{0.43, -0.06, -0.27, 0.21}, []float64{1.17, 0.98, 0.92, 1.06},
			[]string{"range [-0.27, +0.43]", "± O(1) bounds it by a constant it does not give", "4 sizes cannot show it bounded"},
			[]string{"rises", "the O(1) of the theory"}},
		{"Left[d]: a difference that rises at every size is said to", bound("left"),
			[]float64{0.5, 0.9, 1.1, 1.56}, []float64{1.3, 1.4, 1.5, 1.6},
			[]string{"rises at every size measured"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := termFinding("p", tc.b, ns, tc.diffs, tc.ratios)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range tc.unwant {
				if strings.Contains(got, w) {
					t.Errorf("%q says %q", got, w)
				}
			}
		})
	}
	// The study itself, at its tiny size.
	s, _ := Lookup("two-choices")
	rep, err := s.Run(context.Background(), s.Tiny, Options{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if strings.Contains(f, "the O(1) of the theory") || strings.HasPrefix(f, "one-choice") && !strings.Contains(f, "does not bound") {
			t.Errorf("finding %q", f)
		}
	}
}
