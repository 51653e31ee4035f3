package results

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// gridRows runs a small grid of two-choice on graphs whose bounds differ.
func gridRows(t *testing.T) []study.Row {
	t.Helper()
	g := study.Grid{Processes: []string{"graph"}, Graphs: []graphgen.Spec{graphgen.MustParseSpec("regular:degree=4"), graphgen.MustParseSpec("regular:degree=16"), graphgen.MustParseSpec("cycle"), graphgen.MustParseSpec("complete")},
		Ns: []int{256, 512}, Params: alloc.Params{D: 2}, Trials: 2, Seed: 1}
	var rows []study.Row
	if _, err := study.Run(context.Background(), g, func(r study.Row) error { rows = append(rows, r); return nil }, nil); err != nil {
		t.Fatal(err)
	}
	return rows
}

// The figure of a grid keys its bound curves with the letters of the
// table's bound legend: each curve of a series ends in a letter that the
// table gives a bound of that series, and the figure's key to a letter
// names the bound the table's legend names.
func TestFigureLettersMatchTable(t *testing.T) {
	rows := gridRows(t)
	var b bytes.Buffer
	writeGridTable(&b, GridConfig{M: "n", Trials: 2, Seed: 1}, rows, nil)
	table := b.String()

	// The table: the letters of each topology's rows, and the legend's
	// name of each letter.
	rowLetters := map[string][]string{}
	legend := map[string]string{}
	entry := regexp.MustCompile(`(?:^|, )([a-z]|b[0-9]+) (?:≤|≥|≈|ref|O|Ω|Θ) `)
	line := regexp.MustCompile(`^  ([a-z]|b[0-9]+)  (.+?)  `)
	for _, l := range strings.Split(table, "\n") {
		if m := line.FindStringSubmatch(l); m != nil {
			legend[m[1]] = m[2]
			continue
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		bounds := l[strings.LastIndex(l, "  ")+2:]
		for _, m := range entry.FindAllStringSubmatch(bounds, -1) {
			rowLetters[f[0]] = append(rowLetters[f[0]], m[1])
		}
	}
	if len(legend) < 3 {
		t.Fatalf("the table's legend has %d letters; the test needs several:\n%s", len(legend), table)
	}

	f, err := study.GridFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	left := f.Panels[0]
	names := map[int]string{}
	keys := 0
	for _, s := range left.Series {
		switch {
		case s.Color >= 0 && s.Name != "":
			names[s.Color] = s.Name
		case s.Label != "":
			// A bound curve, in the colour of its series.
			if !slices.Contains(rowLetters[names[s.Color]], s.Label) {
				t.Errorf("%s: curve %q; the table gives it %q", names[s.Color], s.Label, rowLetters[names[s.Color]])
			}
		case s.Color < 0 && s.Name != "":
			// The key: "a: ≤ name", the name without "max load, ", a gap
			// read as m/n + gap.
			letter, rest, _ := strings.Cut(s.Name, ": ")
			_, rest, _ = strings.Cut(rest, " ")
			rest = strings.TrimPrefix(rest, "m/n + ")
			if want, ok := legend[letter]; !ok || !strings.HasSuffix(want, rest) {
				t.Errorf("key %q; the table's legend: %s %q", s.Name, letter, want)
			}
			keys++
		}
	}
	if keys == 0 {
		t.Error("the figure keys no bound")
	}
}

// ReadFigure tells the results apart by their content and draws each.
func TestReadFigure(t *testing.T) {
	var grid bytes.Buffer
	if err := WriteGrid(&grid, "json", &Grid{Config: GridConfig{Processes: []string{"graph"}, M: "n", Trials: 2}, Points: gridRows(t)}); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFigure("grid.json", grid.Bytes())
	if err != nil || len(f.Panels) != 2 {
		t.Fatalf("grid: %v", err)
	}

	rep, err := json.Marshal(&study.Report{Study: "heavy", Tables: []*study.Table{}, Figure: f})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := ReadFigure("study.json", rep); err != nil || len(g.Panels) != 2 {
		t.Errorf("study: %v", err)
	}

	// A run with a series and profiles: three panels; weighted balls: the
	// max load over the trials.
	desc, _ := alloc.Lookup(alloc.Greedy{}.Name())
	p, _ := desc.New(alloc.Params{D: 2})
	var rs []alloc.Result
	cfg := alloc.Config{Process: p, N: 300, M: 3000, Seed: 1, Every: 300, Profile: true}
	if err := alloc.Run(context.Background(), cfg, []int{0, 1, 2}, 1, func(r alloc.Result) error { rs = append(rs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	c := NewConfig(study.Setting{Process: desc, Params: alloc.Params{D: 2}, N: 300, M: 3000})
	c.Trials, c.Version, c.Every, c.Profile = 3, "test", 300, true
	var run bytes.Buffer
	if err := Write(&run, "json", &File{Config: c, Trials: rs}); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFigure("run.json", run.Bytes())
	if err != nil || len(g.Panels) != 3 {
		t.Fatalf("run: %v", err)
	}
	if s := g.Panels[1].Series[0]; len(s.Points) != 10 || s.Points[9].X != 10 {
		t.Errorf("gap series: %d points, the last at t = %g; want 10 to t = 10", len(s.Points), s.Points[len(s.Points)-1].X)
	}
	for i := range rs {
		rs[i].LoadCounts = nil
	}
	if g, err := RunFigure(c, rs); err != nil || g.Panels[0].XLabel != "max load" {
		t.Errorf("weighted: %v", err)
	}

	for _, bad := range []struct{ name, in, want string }{
		{"csv", "topology,n\ncycle,64\n", "not JSON"},
		{"empty", "", "not JSON"},
		{"other JSON", `{"a": 1}`, "plot reads"},
		{"old report", `{"study": "heavy", "tables": []}`, "holds no figure"},
		{"empty grid", `{"config": {"processes": ["graph"]}, "points": []}`, "no point"},
	} {
		if _, err := ReadFigure(bad.name, []byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.name, err, bad.want)
		}
	}
}
