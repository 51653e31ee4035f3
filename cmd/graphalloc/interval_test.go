package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestOneTrialNoInterval: one trial gives no 95% interval anywhere: null
// in JSON, "—" in tables, empty cells in CSV, never a zero-width [v, v].
// Control: before, run -t 1 -f json printed "ci95": [3, 3] and the study
// tables [6.00, 6.00].
func TestOneTrialNoInterval(t *testing.T) {
	zeroWidth := regexp.MustCompile(`\[(-?[0-9.]+), (-?[0-9.]+)\]`)
	for _, tc := range []struct {
		args []string
		want []string // each must occur
	}{
		{[]string{"run", "-n", "100", "-m", "4n", "--every", "2n", "-t", "1", "-f", "json"}, []string{`"ci95": null`, `"gap_ci95": null`, `"spread_ci95": null`}},
		{[]string{"run", "-n", "100", "-m", "4n", "--every", "2n", "-t", "1"}, []string{"95% CI —", "  —  "}},
		{[]string{"run", "-n", "100", "-m", "4n", "--every", "2n", "-t", "1", "-f", "csv"}, []string{",gap,,,1,,,1,,,,,\n"}},
		{[]string{"compare", "-p", "greedy", "-n", "2^6", "-t", "1"}, []string{" — "}},
		{[]string{"compare", "-p", "greedy", "-n", "2^6", "-t", "1", "-f", "json"}, []string{`"ci95": null`}},
		{[]string{"study", "two-choices", "--tiny", "-t", "1"}, []string{" — "}},
		{[]string{"study", "two-choices", "--tiny", "-t", "1", "-f", "json"}, []string{"null"}},
		{[]string{"study", "two-choices", "--tiny", "-t", "1", "-f", "csv"}, []string{"one-choice,64,4,,,"}},
	} {
		out, errs, code := invoke(tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", tc.args, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", tc.args, w, out)
			}
		}
		for _, m := range zeroWidth.FindAllStringSubmatch(out, -1) {
			if m[1] == m[2] {
				t.Errorf("%v: a zero-width interval %s", tc.args, m[0])
			}
		}
		if strings.Contains(out, `"ci95": [`) {
			t.Errorf("%v: an interval from one trial in JSON", tc.args)
		}
	}
}

// TestOneTrialFigureNoInterval: a figure's points from one trial carry no
// interval ([x, y], not [x, y, v, v]) in the study's JSON. Control: ciPt
// copying CI95 whatever the interval method.
func TestOneTrialFigureNoInterval(t *testing.T) {
	out, errs, code := invoke("study", "two-choices", "--tiny", "-t", "1", "-f", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var r struct {
		Figure struct {
			Panels []struct {
				Series []struct {
					Name   string
					Points [][]float64
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	points := 0
	for _, p := range r.Figure.Panels {
		for _, s := range p.Series {
			for _, pt := range s.Points {
				points++
				if len(pt) != 2 {
					t.Errorf("series %q: point %v from one trial", s.Name, pt)
				}
			}
		}
	}
	if points == 0 {
		t.Error("no points")
	}
}
