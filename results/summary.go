package results

import (
	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/study"
)

// File is a run's output: config, trials in trial order, summary.
type File struct {
	Config  Config         `json:"config"`
	Trials  []alloc.Result `json:"trials"`
	Summary Summary        `json:"summary"`
}

// Stat summarises one quantity over the trials (analysis.Summary: the
// mean with an interval that respects the support, the agreement of the
// trials, the distribution).
type Stat = analysis.Summary

// Bound is a bound that applies to the run, as the file records it.
type Bound struct {
	Name    string   `json:"name"`
	Value   *float64 `json:"value"` // null: the bound has no value
	Kind    string   `json:"kind"`
	Formula string   `json:"formula"`
	Base    string   `json:"base"`
}

// Fluid is the mean-field prediction beside the measurement: the tails s_i
// (fraction of bins with load ≥ i as n → ∞) and the max load they predict
// at this n.
type Fluid struct {
	Process string `json:"process"`
	// Limit names the rule solved (alloc.MeanField's String), as run: the
	// graph process under walk:len=3 on K_n solves Greedy[4].
	Limit     string    `json:"limit"`
	Tails     []float64 `json:"tails"`
	PredMax   int       `json:"predicted_max_load"`
	PMaxAtLst []float64 `json:"p_max_at_least"`
}

// Summary is the "summary" object of a run's file.
type Summary struct {
	MaxLoad Stat    `json:"max_load"`
	Gap     Stat    `json:"gap"`
	Probes  float64 `json:"probes_per_ball"`
	// MovesPerBall is the mean number of steps a ball took from bin to bin,
	// over the trials, and MaxMoves the most any one ball took, for a
	// process whose balls walk (alloc.Descriptor.Moves: local search);
	// nil for the others.
	MovesPerBall *float64 `json:"moves_per_ball,omitempty"`
	MaxMoves     *int64   `json:"max_moves,omitempty"`
	Bounds       []Bound  `json:"bounds"`
	Fluid        *Fluid   `json:"fluid,omitempty"`
	// NoFluid says why there is no fluid prediction, when Fluid is nil.
	NoFluid string `json:"no_fluid,omitempty"`
	// Series is the --every series averaged over the trials, Profile the
	// mean sorted normalised load vector (--profile); nil without them.
	Series  []SeriesPoint        `json:"series,omitempty"`
	Profile []alloc.ProfileLevel `json:"profile,omitempty"`
	// ByDegree is the load against the degree of a graph run that
	// gathered it (PerVertex: a table or a JSON file on a graph whose
	// degrees differ, or --per-vertex), over every trial of the file; nil
	// otherwise. Summarize leaves it nil: the trials do not hold the
	// loads it comes from, so the writer sets it, and a merge adds the
	// shards' (MergeByDegree).
	ByDegree []DegreeStat `json:"by_degree,omitempty"`
	// NotApplicable lists the bounds whose assumptions fail here, for
	// the table; the file keeps to the bounds that apply.
	NotApplicable []analysis.Bound `json:"-"`
}

// Summarize computes the summary of the trials rs of the run c from the
// config and the trials alone (study.Summarize).
func Summarize(c Config, rs []alloc.Result) (Summary, error) {
	set, err := c.Setting()
	if err != nil {
		return Summary{}, err
	}
	sum := study.Summarize(set, rs)
	s := Summary{MaxLoad: sum.MaxLoad, Gap: sum.Gap, Probes: sum.Probes, Bounds: []Bound{}, NotApplicable: sum.NotApplicable}
	if f := sum.Fluid; f != nil {
		s.Fluid = &Fluid{Process: f.Process, Limit: f.Limit, Tails: f.Tails, PredMax: f.PredictedMaxLoad, PMaxAtLst: f.PMaxAtLeast}
	}
	s.NoFluid = sum.NoFluid
	s.Series, s.Profile = meanSeries(rs, c.N), meanProfile(rs)
	if set.Process.Moves && c.M > 0 && len(rs) > 0 {
		var moves float64
		var most int64
		for _, r := range rs {
			moves += float64(r.Moves)
			most = max(most, r.MaxMoves)
		}
		perBall := moves / float64(c.M) / float64(len(rs))
		s.MovesPerBall, s.MaxMoves = &perBall, &most
	}
	for _, b := range sum.Bounds {
		bj := Bound{Name: b.Name, Kind: b.Kind, Formula: b.Formula, Base: b.Base}
		if !b.NoValue {
			bj.Value = &b.Value
		}
		s.Bounds = append(s.Bounds, bj)
	}
	return s, nil
}
