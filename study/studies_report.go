package study

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// Report is what a study returns: its tables, the findings computed from
// them (a fitted exponent, a difference of means, each with its interval)
// and a figure. The JSON field names are those of `graphalloc study -f
// json`.
type Report struct {
	Study    string   `json:"study"`
	Number   int      `json:"number"`
	Title    string   `json:"title"`
	Size     Size     `json:"size"` // tiny, default, full, or custom (parameters of one's own)
	Params   Params   `json:"params"`
	Seed     uint64   `json:"seed"`
	Tables   []*Table `json:"tables"`
	Findings []string `json:"findings,omitempty"`
	// Figure (drawn by figure/render) holds the same numbers as the
	// tables, and more points (a gap series, a fluid curve). It is saved
	// with the report, so that `graphalloc plot` can redraw it.
	Figure *figure.Figure `json:"figure,omitempty"`
}

// Table is one table of a report: named columns, rows of values (string,
// int, int64, float64, Interval, a nil *Interval for "no interval" or
// nil for "not applicable") and notes.
type Table struct {
	Name    string   `json:"name"` // a short identifier, e.g. "max_load"
	Title   string   `json:"title"`
	Columns []string `json:"columns"`
	// Formats are the fmt verbs of the float columns in text output
	// ("%.3f"); "" prints a float with %.4g. An Interval prints as
	// [lo, hi] with its column's verb.
	Formats []string `json:"-"`
	Rows    [][]any  `json:"rows"`
	Notes   []string `json:"notes,omitempty"`
	// methods are the methods of the rows' intervals of means (methodCI),
	// which noteCI states.
	methods map[string]bool
}

// Interval is a confidence interval [lo, hi]. A nil *Interval in a row
// is no interval (one trial): "—" in text, empty cells in CSV, null in
// JSON.
type Interval [2]float64

// summaryCI is s's interval as a table value: Interval(s.CI95) with its
// method, or a nil *Interval when s has none (analysis.IntervalNone: one
// trial).
func summaryCI(s analysis.Summary) any {
	if s.IntervalMethod == analysis.IntervalNone {
		return (*Interval)(nil)
	}
	return methodCI{Interval(s.CI95), s.IntervalMethod}
}

// sampleCI is ci, the Student t interval of the mean of n values
// (meanCI's), as a table value: a nil *Interval for fewer than two.
func sampleCI(ci Interval, n int) any {
	if n < 2 {
		return (*Interval)(nil)
	}
	return methodCI{ci, analysis.IntervalStudentT}
}

// methodCI is a table value: the 95% interval of a mean over the trials
// and how it was made (analysis.IntervalBinomialTails or
// IntervalStudentT). Table.add keeps the interval in the row and the
// method in the table, whose note then states it (noteCI).
type methodCI struct {
	iv     Interval
	method string
}

// ciNotes say how a table's intervals of means over the trials were made,
// by the methods its rows used.
var ciNotes = map[string]string{
	analysis.IntervalBinomialTails:                                   "95% CI: of the mean over the trials, exact from binomial tails (the trials' values are one apart and span at most 4: analysis.SummarizeAtLeast); — with one trial.",
	analysis.IntervalStudentT:                                        "95% CI: of the mean over the trials, Student t; — with one trial.",
	analysis.IntervalBinomialTails + "+" + analysis.IntervalStudentT: "95% CI: of the mean over the trials, exact from binomial tails where a cell's trials' values are one apart and span at most 4 (analysis.SummarizeAtLeast), else Student t; — with one trial.",
}

// noteCI adds to t the note that states how its intervals of means were
// made, unless a note already begins "95% CI".
func (t *Table) noteCI() {
	if len(t.methods) == 0 {
		return
	}
	for _, n := range t.Notes {
		if strings.HasPrefix(n, "95% CI") {
			return
		}
	}
	t.Notes = append(t.Notes, ciNotes[strings.Join(slices.Sorted(maps.Keys(t.methods)), "+")])
}

// newTable returns a table whose columns are given as name, verb pairs.
func newTable(name, title string, cols ...string) *Table {
	t := &Table{Name: name, Title: title}
	for i := 0; i+1 < len(cols); i += 2 {
		t.Columns = append(t.Columns, cols[i])
		t.Formats = append(t.Formats, cols[i+1])
	}
	return t
}

// add appends a row; a non-finite float becomes nil (JSON has no NaN).
func (t *Table) add(vals ...any) {
	if len(vals) != len(t.Columns) {
		panic(fmt.Sprintf("study: table %s: row of %d values for %d columns", t.Name, len(vals), len(t.Columns)))
	}
	row := make([]any, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				v = nil
			}
		case methodCI:
			if t.methods == nil {
				t.methods = map[string]bool{}
			}
			t.methods[x.method] = true
			v = x.iv
		}
		if x, ok := v.(Interval); ok && (math.IsNaN(x[0]) || math.IsNaN(x[1]) || math.IsInf(x[0], 0) || math.IsInf(x[1], 0)) {
			v = nil
		}
		row[i] = v
	}
	t.Rows = append(t.Rows, row)
}

// cell formats a value for text output with verb f.
func cell(v any, f string) string {
	if f == "" {
		f = "%.4g"
	}
	switch x := v.(type) {
	case nil:
		return "-"
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return fmt.Sprintf(f, x)
	case Interval:
		return "[" + fmt.Sprintf(f, x[0]) + ", " + fmt.Sprintf(f, x[1]) + "]"
	case *Interval:
		if x == nil {
			return "—"
		}
		return cell(*x, f)
	case methodCI:
		return cell(x.iv, f)
	}
	return fmt.Sprint(v)
}

// csvCell formats a value for CSV: floats in full precision.
func csvCell(v any) []string {
	switch x := v.(type) {
	case nil:
		return []string{""}
	case float64:
		return []string{strconv.FormatFloat(x, 'g', -1, 64)}
	case Interval:
		return []string{strconv.FormatFloat(x[0], 'g', -1, 64), strconv.FormatFloat(x[1], 'g', -1, 64)}
	case *Interval:
		if x == nil {
			return []string{"", ""}
		}
		return csvCell(*x)
	}
	return []string{cell(v, "")}
}

// header is the first two lines of the text output.
func (r *Report) header() string {
	return fmt.Sprintf("study %d, %s: %s\nsize %s: %s; seed %d\n", r.Number, r.Study, r.Title, r.Size, r.Params, r.Seed)
}

// WriteText writes the report as aligned text tables.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(r.header())
	for _, t := range r.Tables {
		b.WriteString("\n" + t.Title + "\n\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(t.Columns, "\t"))
		for _, row := range t.Rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = cell(v, t.Formats[i])
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		if len(t.Notes) > 0 {
			b.WriteString("\n")
			for _, n := range t.Notes {
				b.WriteString("  " + n + "\n")
			}
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\nfindings:\n")
		for _, f := range r.Findings {
			b.WriteString("  - " + f + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the report as one long table, an observation a row:
// the columns study and table (the table's name), then the columns of
// every table in order of first appearance, in snake_case (snakeCase), a
// row of each table's rows with the cells of the other tables' columns
// empty. An Interval column becomes two, NAME_lo and NAME_hi; a "95% CI"
// column is named after the column before it (max_load_ci95_lo). The titles,
// notes and findings are the text and JSON outputs'.
func (r *Report) WriteCSV(w io.Writer) error {
	var head []string
	at := map[string]int{}
	names := make([][]string, len(r.Tables)) // each table's columns, as CSV names them
	for i, t := range r.Tables {
		seen := map[string]int{}
		for j, c := range t.Columns {
			name := snakeCase(c)
			// "95% CI" after "max load" is max_load_ci95.
			if strings.HasPrefix(name, "95_pct_ci") && j > 0 {
				name = names[i][j-1] + "_ci95" + strings.TrimPrefix(name, "95_pct_ci")
			}
			if seen[name]++; seen[name] > 1 {
				name += "_" + strconv.Itoa(seen[name])
			}
			parts := []string{name}
			if isInterval(t, j) {
				parts = []string{name + "_lo", name + "_hi"}
			}
			for _, p := range parts {
				if _, ok := at[p]; !ok {
					at[p] = len(head) + 2
					head = append(head, p)
				}
			}
			names[i] = append(names[i], name)
		}
	}
	var b strings.Builder
	cw := csv.NewWriter(&b)
	cw.Write(append([]string{"study", "table"}, head...))
	for i, t := range r.Tables {
		for _, row := range t.Rows {
			rec := make([]string, len(head)+2)
			rec[0], rec[1] = r.Study, t.Name
			for j, v := range row {
				if isInterval(t, j) {
					cells := []string{"", ""}
					if v != nil {
						cells = csvCell(v)
					}
					rec[at[names[i][j]+"_lo"]], rec[at[names[i][j]+"_hi"]] = cells[0], cells[1]
					continue
				}
				rec[at[names[i][j]]] = csvCell(v)[0]
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// snakeSpelling spells out the symbols of the tables' column names.
var snakeSpelling = strings.NewReplacer(
	" − ", " minus ", "−", " minus ", "≥", " ge ", "≤", " le ", "≈", " approx ", "±", " pm ", "%", " pct ", "/", " per ",
	"·", " ", "×", " x ", "Δ", "delta", "δ", "delta", "ε", "eps", "σ", "sigma", "λ", "lambda", "β", "beta", "α", "alpha",
	"μ", "mu", "π", "pi", "φ", "phi", "ζ", "zeta", "²", "2", "√", "sqrt ", "∞", "inf", "₂", "2", "^", " ",
)

// snakeCase is a column name as a CSV header: lower case, the symbols
// spelled out, every other run of characters but letters and digits one
// underscore ("max load − term" → "max_load_minus_term").
func snakeCase(s string) string {
	s = strings.ToLower(snakeSpelling.Replace(s))
	var b strings.Builder
	under := false
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
		} else {
			under = true
		}
	}
	if b.Len() == 0 {
		return "value"
	}
	return b.String()
}

// isInterval reports whether column j of t holds intervals.
func isInterval(t *Table, j int) bool {
	for _, row := range t.Rows {
		switch row[j].(type) {
		case Interval, *Interval:
			return true
		}
	}
	return false
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Write writes r in format: csv (WriteCSV), json (WriteJSON) or table
// (WriteText).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "csv":
		return r.WriteCSV(w)
	case "json":
		return r.WriteJSON(w)
	}
	return r.WriteText(w)
}
