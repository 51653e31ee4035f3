package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/study"
)

// ReadFigure returns the figure of a saved result b, named name in errors,
// without simulating anything: the JSON (or JSON lines) output of
//
//   - compare, or of merge on its shards: the grid's figure
//     (study.GridFigure), as compare --plot draws it;
//   - study -f json: the study's figure, saved in the report;
//   - run, or of merge on its shards, complete or cut short: RunFigure,
//     and the load against the degree (DegreePanel) where the summary
//     keeps it (by_degree); DynamicFigure for a run with deletions;
//   - queue, or of merge on its shards, complete or cut short:
//     QueueFigure.
func ReadFigure(name string, b []byte) (*figure.Figure, error) {
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("%s is not JSON: plot reads the -f json (or jsonl) output of run, compare, study, queue and merge", name)
	}
	if IsQueue(b) {
		return readQueueFigure(name, b)
	}
	if IsGrid(b) {
		g, err := ParseGrid(name, b)
		if err != nil {
			return nil, err
		}
		if len(g.Points) == 0 {
			return nil, fmt.Errorf("%s: the grid holds no point to draw", name)
		}
		return study.GridFigure(g.Points)
	}
	var rep struct {
		Study  string          `json:"study"`
		Tables json.RawMessage `json:"tables"`
		Figure *figure.Figure  `json:"figure"`
	}
	if err := json.Unmarshal(b, &rep); err == nil && rep.Study != "" && rep.Tables != nil {
		if rep.Figure == nil || len(rep.Figure.Panels) == 0 {
			return nil, fmt.Errorf("%s: the report of study %s holds no figure (written before reports saved theirs: rerun graphalloc study %s -f json)",
				name, rep.Study, rep.Study)
		}
		return rep.Figure, nil
	}
	p, err := Parse(name, b)
	if err != nil {
		return nil, fmt.Errorf("%v (plot reads the JSON output of run, compare, study and merge)", err)
	}
	if len(p.Trials) == 0 && len(p.Dynamic) == 0 {
		return nil, fmt.Errorf("%s: the run holds no finished trial to draw", name)
	}
	if p.Config.Delete != "" {
		if _, err := NewDynamicFile(p.Config, p.Dynamic); err != nil { // the checks of merge
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return DynamicFigure(p.Config, p.Dynamic), nil
	}
	f, err := RunFigure(p.Config, p.Trials)
	if err == nil && len(p.ByDegree) > 1 {
		f.Panels = append(f.Panels, DegreePanel(DegreeClasses(p.ByDegree)))
	}
	return f, err
}

// RunFigure is the figure of a run's trials rs, over the trials:
//
//   - the fraction of bins with load ≥ i (mean over the trials, log scale)
//     against the fluid limit where the process has one; for weighted balls,
//     whose loads are not whole numbers, the distribution of the max load
//     over the trials instead;
//   - if the run recorded a series (--every), the gap and max − min against
//     t = m/n, the mean with its 95% interval over the trials;
//   - if it recorded profiles (--profile), the sorted normalised load
//     (load − m/n, highest first) against the rank of the bin, the mean over
//     the trials at each rank.
func RunFigure(c Config, rs []alloc.Result) (*figure.Figure, error) {
	if len(rs) == 0 || c.N < 1 {
		return nil, fmt.Errorf("results: a run figure needs trials and n >= 1")
	}
	f := &figure.Figure{}
	label := c.Label()
	what := fmt.Sprintf("%s, n = %s, m = %s, %s", label, pow2(c.N), balls(c.M, c.N), analysis.Count(len(rs), "trial"))
	if p := loadsPanel(c, rs, what); p != nil {
		f.Panels = append(f.Panels, p)
	} else {
		f.Panels = append(f.Panels, maxLoadPanel(rs, what))
	}
	if p := seriesPanel(c, rs); p != nil {
		f.Panels = append(f.Panels, p)
	}
	if p := profilePanel(c, rs); p != nil {
		f.Panels = append(f.Panels, p)
	}
	return f, nil
}

// pow2 writes n as 2^k when it is a power of two.
func pow2(n int64) string {
	if n >= 2 && n&(n-1) == 0 {
		return "2^" + strconv.Itoa(int(math.Log2(float64(n))))
	}
	return strconv.FormatInt(n, 10)
}

// balls writes m as a multiple of n when it is one.
func balls(m, n int64) string {
	if n > 0 && m%n == 0 {
		if m == n {
			return "n"
		}
		return strconv.FormatInt(m/n, 10) + "n"
	}
	return strconv.FormatInt(m, 10)
}

// loadsPanel is the mean fraction of bins with load ≥ i against the fluid
// limit; nil if no trial has whole loads.
func loadsPanel(c Config, rs []alloc.Result, what string) *figure.Panel {
	var tails []float64
	used := 0
	for _, r := range rs {
		if len(r.LoadCounts) == 0 {
			continue
		}
		var total int64
		for _, k := range r.LoadCounts {
			total += k
		}
		if total == 0 {
			continue
		}
		used++
		for len(tails) < len(r.LoadCounts) {
			tails = append(tails, 0)
		}
		var above int64
		for i := len(r.LoadCounts) - 1; i >= 0; i-- {
			above += r.LoadCounts[i]
			tails[i] += float64(above) / float64(total)
		}
	}
	if used == 0 {
		return nil
	}
	p := &figure.Panel{Title: "fraction of bins at load ≥ i: " + what, XLabel: "load i", XInt: true,
		YLabel: "fraction of bins", YScale: figure.ScaleLog10}
	meas := &figure.Series{Name: "measured (mean over the trials)", Style: figure.StylePoints}
	// From the highest load every bin reached in every trial (under heavy
	// load the tails are 1 up to near m/n).
	from := 1
	for from+1 < len(tails) && tails[from+1] == float64(used) {
		from++
	}
	ymin := 1.0
	for i := from; i < len(tails); i++ {
		if v := tails[i] / float64(used); v > 0 {
			meas.Points = append(meas.Points, figure.Pt{X: float64(i), Y: v})
			ymin = min(ymin, v)
		}
	}
	p.Series = append(p.Series, meas)
	set, err := c.Setting()
	if err != nil {
		return p
	}
	if fl, _ := set.Fluid(); fl != nil {
		floor := ymin / 10
		s := &figure.Series{Name: fmt.Sprintf("fluid limit, %s (n → ∞)", fl.Limit), Color: 1, Style: figure.StyleDashed}
		for i := from; i < len(fl.Tails); i++ {
			if fl.Tails[i] >= floor {
				s.Points = append(s.Points, figure.Pt{X: float64(i), Y: fl.Tails[i]})
			}
		}
		p.Series = append(p.Series, s)
		p.YMin, p.YMax = floor, 1
	}
	return p
}

// maxLoadPanel is the distribution of the max load over the trials: the
// fraction of trials whose max load is at most x.
func maxLoadPanel(rs []alloc.Result, what string) *figure.Panel {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = r.MaxLoad
	}
	slices.Sort(xs)
	s := &figure.Series{Name: "max load of a trial", Style: figure.StylePoints}
	for i, x := range xs {
		if i+1 < len(xs) && xs[i+1] == x {
			continue
		}
		s.Points = append(s.Points, figure.Pt{X: x, Y: float64(i+1) / float64(len(xs))})
	}
	return &figure.Panel{Title: "max load over the trials: fraction of trials at or below x, " + what,
		XLabel: "max load", YLabel: "fraction of trials", Series: []*figure.Series{s}}
}

// seriesPanel is the gap and max − min against t = m/n with their 95%
// intervals over the trials (meanSeries, as the summary has them); nil
// without a series.
func seriesPanel(c Config, rs []alloc.Result) *figure.Panel {
	ms := meanSeries(rs, c.N)
	if ms == nil {
		return nil
	}
	gap := &figure.Series{Name: "gap = max load − m/n", Style: figure.StyleLine}
	spread := &figure.Series{Name: "max − min load", Color: 1, Shape: 1, Style: figure.StyleLine}
	for _, p := range ms {
		gap.Points = append(gap.Points, seriesPt(p.Load, p.Gap, p.GapCI, p.Trials))
		spread.Points = append(spread.Points, seriesPt(p.Load, p.Spread, p.SpreadCI, p.Trials))
	}
	p := &figure.Panel{Title: fmt.Sprintf("gap and max − min against t = m/n (mean over %s, 95%% CI)", analysis.Count(len(rs), "trial")),
		XLabel: "t = m/n", YLabel: "load difference", Series: []*figure.Series{gap, spread}}
	if first, last := gap.Points[0].X, gap.Points[len(gap.Points)-1].X; first > 0 && last/first > 100 {
		p.XScale = figure.ScaleLog10
	}
	return p
}

// seriesPt is a mean at x with its interval, if it rests on two trials or
// more.
func seriesPt(x, mean float64, ci [2]float64, trials int) figure.Pt {
	if trials < 2 {
		return figure.Pt{X: x, Y: mean}
	}
	return figure.Pt{X: x, Y: mean, Lo: ci[0], Hi: ci[1]}
}

// profilePanel is the mean sorted normalised load against the rank of the
// bin (rank/n), meanProfile's; nil without profiles.
func profilePanel(c Config, rs []alloc.Result) *figure.Panel {
	mp := meanProfile(rs)
	if mp == nil {
		return nil
	}
	profiles := 0
	for _, r := range rs {
		if r.Profile != nil {
			profiles++
		}
	}
	s := &figure.Series{Name: "load − m/n, highest first", Style: figure.StyleLine}
	var from int64
	for _, l := range mp {
		to := from + l.Count
		s.Points = append(s.Points, figure.Pt{X: float64(from) / float64(c.N), Y: l.Value}, figure.Pt{X: float64(to) / float64(c.N), Y: l.Value})
		from = to
	}
	return &figure.Panel{Title: fmt.Sprintf("sorted normalised load (mean over %s at each rank)", analysis.Count(profiles, "trial")),
		XLabel: "rank / n", YLabel: "load − m/n", Series: []*figure.Series{s}}
}

// DynamicFigure is the figure of the trials rs of the run with deletions
// whose config is c (study.DynamicFigure).
func DynamicFigure(c Config, rs []alloc.DynamicResult) *figure.Figure {
	what := fmt.Sprintf("%s, n = %s, deletions %s, %d steps", c.Label(), pow2(c.N), c.Delete, c.Steps)
	return study.DynamicFigure(what, c.N, rs)
}
