package results

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/internal/jsonnull"
)

// SeriesPoint is the --every series averaged over the trials at one time:
// after Balls balls (Load = Balls/n), the mean gap and the mean spread
// max − min with their 95% intervals (analysis.SummarizeAtLeast, floor 0),
// over Trials trials. With one trial there is no interval: JSON has null,
// tables "—", CSV empty cells.
type SeriesPoint struct {
	Balls    int64      `json:"balls"`
	Load     float64    `json:"load"`
	Trials   int        `json:"trials"`
	Gap      float64    `json:"gap"`
	GapCI    [2]float64 `json:"gap_ci95"`
	Spread   float64    `json:"spread"`
	SpreadCI [2]float64 `json:"spread_ci95"`
}

// MarshalJSON encodes p with null intervals when it rests on fewer than
// two trials; a null interval decodes as the zero array.
func (p SeriesPoint) MarshalJSON() ([]byte, error) {
	type plain SeriesPoint
	b, err := json.Marshal(plain(p))
	if err != nil || p.HasCI() {
		return b, err
	}
	if b, err = jsonnull.Field(b, "gap_ci95", p.GapCI); err != nil {
		return nil, err
	}
	return jsonnull.Field(b, "spread_ci95", p.SpreadCI)
}

// HasCI reports whether p's intervals are intervals: two trials or more.
func (p SeriesPoint) HasCI() bool { return p.Trials >= 2 }

// ciCells is the interval ci as two cells for CSV, empty without one.
func (p SeriesPoint) ciCells(ci [2]float64) (string, string) {
	if !p.HasCI() {
		return "", ""
	}
	return FormatFloat(ci[0]), FormatFloat(ci[1])
}

// ciText is the interval ci as a table cell, "—" without one.
func (p SeriesPoint) ciText(ci [2]float64) string {
	if !p.HasCI() {
		return "—"
	}
	return fmt.Sprintf("[%.3f, %.3f]", ci[0], ci[1])
}

// meanSeries averages the trials' series point by point (every trial of a
// run records at the same times). Nil if no trial has a series.
func meanSeries(rs []alloc.Result, n int64) []SeriesPoint {
	width := 0
	for _, r := range rs {
		width = max(width, len(r.Series))
	}
	out := make([]SeriesPoint, 0, width)
	for k := range width {
		var gap, spread []float64
		var balls int64
		for _, r := range rs {
			if k < len(r.Series) {
				p := r.Series[k]
				balls = p.Balls
				gap = append(gap, p.Gap)
				spread = append(spread, p.Spread)
			}
		}
		g, s := analysis.SummarizeAtLeast(gap, 0), analysis.SummarizeAtLeast(spread, 0)
		out = append(out, SeriesPoint{Balls: balls, Load: float64(balls) / float64(n), Trials: len(gap),
			Gap: g.Mean, GapCI: g.CI95, Spread: s.Mean, SpreadCI: s.CI95})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// meanProfile averages the trials' sorted normalised load vectors position
// by position: the r-th entry is the mean over the trials of the r-th
// largest load − m/n. Each trial is run-length encoded (alloc.ProfileLevel)
// and so is the mean, with a run wherever a trial's run ends: O(the trials'
// runs), not O(n). Nil if no trial has a profile.
func meanProfile(rs []alloc.Result) []alloc.ProfileLevel {
	var profiles [][]alloc.ProfileLevel
	for _, r := range rs {
		if r.Profile != nil {
			profiles = append(profiles, r.Profile)
		}
	}
	if len(profiles) == 0 {
		return nil
	}
	at := make([]int, len(profiles))     // the run each trial is in
	left := make([]int64, len(profiles)) // positions left in that run
	for i, p := range profiles {
		left[i] = p[0].Count
	}
	var out []alloc.ProfileLevel
	for {
		step := int64(-1)
		sum := 0.0
		for i, p := range profiles {
			if at[i] >= len(p) {
				return out
			}
			sum += p[at[i]].Value
			if step < 0 || left[i] < step {
				step = left[i]
			}
		}
		mean := sum / float64(len(profiles))
		if k := len(out) - 1; k >= 0 && out[k].Value == mean {
			out[k].Count += step
		} else {
			out = append(out, alloc.ProfileLevel{Value: mean, Count: step})
		}
		for i, p := range profiles {
			if left[i] -= step; left[i] == 0 {
				if at[i]++; at[i] < len(p) {
					left[i] = p[at[i]].Count
				}
			}
		}
	}
}

// writeSeriesTable writes the averaged series and profile of s, if any.
func writeSeriesTable(w io.Writer, s Summary) {
	if len(s.Series) > 0 {
		fmt.Fprintln(w, "\nover time (mean over the trials, 95% interval):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "balls\tm/n\tgap\t95% CI\tmax − min\t95% CI\ttrials\t")
		for _, p := range s.Series {
			fmt.Fprintf(tw, "%d\t%.4g\t%.3f\t%s\t%.3f\t%s\t%d\t\n",
				p.Balls, p.Load, p.Gap, p.ciText(p.GapCI), p.Spread, p.ciText(p.SpreadCI), p.Trials)
		}
		tw.Flush()
	}
	if len(s.Profile) > 0 {
		fmt.Fprint(w, "\nmean sorted normalised load vector (load − m/n, highest first; value×bins):")
		for i, l := range s.Profile {
			if i == 12 {
				fmt.Fprintf(w, " … (%d levels)", len(s.Profile))
				break
			}
			fmt.Fprintf(w, " %.4g×%d", l.Value, l.Count)
		}
		fmt.Fprintln(w)
	}
}
