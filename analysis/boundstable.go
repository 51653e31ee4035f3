package analysis

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// DescribeGraph says in words what q knows of the graph: its degree, ε,
// its dense core, or "degrees unknown".
func (q Query) DescribeGraph() string {
	var parts []string
	if q.Degree > 0 {
		parts = append(parts, fmt.Sprintf("Δ = %g", q.Degree))
	} else if q.MinDegree > 0 {
		parts = append(parts, fmt.Sprintf("not regular, δ = %g", q.MinDegree))
	}
	if q.Eps > 0 {
		parts = append(parts, fmt.Sprintf("ε = %g", q.Eps))
	}
	if q.Core > 0 {
		parts = append(parts, fmt.Sprintf("core %g vertices holding a fraction %.4g of the edges", q.Core, q.CoreFraction))
	}
	if len(parts) == 0 {
		return "degrees unknown"
	}
	return strings.Join(parts, ", ")
}

// AsymptoticNote is what tables print under their bounds when one of them
// is KindAsymptotic.
const AsymptoticNote = "asymptotic (~): as n → ∞ the quantity over the value tends to 1 (for a (1 − o(1)) statement, to at least 1); the o(1) is unknown at a given n, where the value bounds nothing (neither ≤ nor ≥)"

// HasAsymptotic reports whether a bound of kind KindAsymptotic is among
// the kinds given.
func HasAsymptotic(kinds ...string) bool {
	for _, k := range kinds {
		if k == KindAsymptotic {
			return true
		}
	}
	return false
}

// WriteBoundsTable writes bs as the table of graphalloc bounds: a header
// line (title), the bounds that apply with their values, then the others with the
// reason each does not apply.
func WriteBoundsTable(w io.Writer, title string, bs []Bound) {
	fmt.Fprintln(w, title)
	fmt.Fprintln(w, "values are the explicit terms; O(·) and ± O(1) constants are unknown")
	var na []Bound
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, b := range bs {
		if !b.Applies {
			na = append(na, b)
			continue
		}
		if !header {
			fmt.Fprintln(tw, "\nprocess\tbound\tkind\tvalue\tformula\tbase")
			header = true
		}
		base := b.Base
		if base == "" {
			base = "-"
		}
		value := fmt.Sprintf("%.4f", b.Value)
		if b.NoValue {
			value = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.Process, b.Name, b.Kind, value, b.Formula, base)
	}
	tw.Flush()
	var kinds []string
	for _, b := range bs {
		if b.Applies {
			kinds = append(kinds, b.Kind)
		}
	}
	if HasAsymptotic(kinds...) {
		fmt.Fprintln(w, AsymptoticNote)
	}
	if !header {
		fmt.Fprintln(w, "\nno bound applies here")
	}
	if len(na) > 0 {
		fmt.Fprintln(w, "\nnot applicable here:")
		for _, b := range na {
			fmt.Fprintf(w, "  %s: %s: %s\n", b.Process, b.Name, b.Reason)
		}
	}
}
