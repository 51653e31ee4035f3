package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// Config is the "config" object of a run's file.
type Config struct {
	Process string          `json:"process"`
	D       float64         `json:"d"`
	N       int64           `json:"n"`
	M       int64           `json:"m"`
	Graph   graphgen.Spec   `json:"graph"`
	Sample  *alloc.Sampling `json:"sample,omitempty"`
	// MinDegree and MaxDegree describe the graph of a graph run, so
	// that the summary (and merge) can be computed from the file alone.
	MinDegree *int `json:"min_degree,omitempty"`
	MaxDegree *int `json:"max_degree,omitempty"`
	// Core and CoreFraction describe the dense core of a nonregular graph.
	Core         *int     `json:"core,omitempty"`
	CoreFraction *float64 `json:"core_fraction,omitempty"`
	// Expansion is the lower bound on the edge expansion σ the bounds
	// used (--expansion, or certified from the graph), 0 if none.
	Expansion float64 `json:"expansion,omitempty"`
	// MinRank and MaxRank are the least and the greatest hyperedge size
	// of a hypergraph run (no Sample then), and MeanDegree its mean
	// number of hyperedges at a vertex; omitted for a graph.
	MinRank    int        `json:"min_rank,omitempty"`
	MaxRank    int        `json:"max_rank,omitempty"`
	MeanDegree float64    `json:"mean_degree,omitempty"`
	Ties       alloc.Ties `json:"ties"`
	Seed       uint64     `json:"seed"`
	Trials     int        `json:"trials"`
	Shard      string     `json:"shard,omitempty"`
	Every      int64      `json:"every,omitempty"`
	Profile    bool       `json:"profile,omitempty"`
	Version    string     `json:"version"`
	// The parameters of one process each: β of (1+β), the probe cap of
	// FirstDiff[d] (the default resolved), the weights of weighted balls.
	Beta    *float64          `json:"beta,omitempty"`
	Cap     int               `json:"cap,omitempty"`
	Weights *alloc.WeightDist `json:"weights,omitempty"`
	ProcessParams
	// Engine is "levels" for a run of the level engine, omitted for the
	// per-bin engine.
	Engine string `json:"engine,omitempty"`
	// Batch is the batch size B of a batched run (alloc.Config.Batch:
	// each ball reads the loads at the start of its batch of B), omitted
	// for one ball at a time.
	Batch int64 `json:"batch,omitempty"`
	// Delete is the deletion model of a run with deletions (run --delete)
	// as given, and Steps its steps; both omitted for a run without. Its
	// trials are alloc.DynamicResult, its summary a DynamicSummary.
	Delete string `json:"delete,omitempty"`
	Steps  int64  `json:"steps,omitempty"`
}

// NewConfig is the config of a run of s: the fields that describe the
// process and the graph (the caller sets seed, trials, version and the
// rest).
func NewConfig(s study.Setting) Config {
	d := s.Process
	c := Config{
		Process: d.Name, D: d.Choices(s.Params), N: s.N, M: s.M, Graph: graphgen.MustParseSpec("complete"), // K_n, as a file reads it back
		Ties: d.TiesFor(s.Params),
	}
	if b, ok := d.BetaOf(s.Params); ok {
		c.Beta = &b // graph: only when --beta was given
	}
	if s.Batch > 1 {
		c.Batch = s.Batch
	}
	if d.Uses&alloc.ParamCap != 0 {
		c.Cap = s.Params.Cap
		if c.Cap == 0 {
			c.Cap = alloc.DefaultFirstDiffCap(int(c.D))
		}
	}
	if d.Uses&alloc.ParamWeights != 0 {
		c.Weights = &s.Params.Weights
	}
	c.record(d.Uses, s.Params)
	if t := s.Topology; t != nil {
		c.Graph = t.Spec
		if t.MinRank > 0 {
			c.MinRank, c.MaxRank, c.MeanDegree = t.MinRank, t.MaxRank, t.Degree.Mean
		} else if d.Uses&alloc.ParamSample != 0 {
			c.Sample = &s.Params.Sample
		}
		lo, hi := t.Degree.Min, t.Degree.Max
		c.MinDegree, c.MaxDegree = &lo, &hi
		if t.Core > 0 {
			core, f := t.Core, t.CoreFraction
			c.Core, c.CoreFraction = &core, &f
		}
		c.Expansion = t.Expansion
	}
	return c
}

// Setting returns the study.Setting c describes, from the file alone (the
// graph is not rebuilt: its degrees and core are in c).
func (c Config) Setting() (study.Setting, error) {
	d, err := alloc.Lookup(c.Process)
	if err != nil {
		return study.Setting{}, err
	}
	p := alloc.Params{D: c.D, Cap: c.Cap, Ties: c.Ties}
	if c.Beta != nil {
		p.Beta, p.GraphBeta = *c.Beta, true
	}
	c.apply(&p)
	if c.Weights != nil {
		p.Weights = *c.Weights
	}
	if c.Sample != nil {
		p.Sample = *c.Sample
	}
	s := study.Setting{Process: d, Params: p, N: c.N, M: c.M, Batch: c.Batch}
	if d.Uses&alloc.ParamGraph != 0 && c.MinDegree != nil && c.MaxDegree != nil {
		s.Topology = &study.Topology{Spec: c.Graph, Degree: study.Degrees{Min: *c.MinDegree, Max: *c.MaxDegree, Mean: c.MeanDegree},
			MinRank: c.MinRank, MaxRank: c.MaxRank}
		if c.Core != nil && c.CoreFraction != nil {
			s.Topology.Core, s.Topology.CoreFraction = *c.Core, *c.CoreFraction
		}
		s.Topology.Expansion = c.Expansion
	}
	return s, nil
}

// Label is how tables name the run's process: its label (alloc.Rule's
// String) with the parameters that are not in the label.
func (c Config) Label() string {
	s, err := c.Setting()
	if err != nil {
		return c.Process
	}
	d := s.Process
	batch := ""
	if c.Batch > 1 {
		batch = fmt.Sprintf(", batches of %d", c.Batch)
	}
	if d.Uses&alloc.ParamGraph != 0 {
		// The candidates depend on whether the graph is complete.
		p := s.Params
		p.Graph = nil
		if c.Graph.Kind == "complete" {
			p.Graph = graphgen.Complete(2)
		}
		how := ""
		if d.Uses&alloc.ParamSample != 0 {
			how = " (" + d.Candidates(p) + ")"
		}
		return fmt.Sprintf("%s on %s%s", d.Label(s.Params), c.Graph, how) + batch
	}
	r, err := d.New(s.Params)
	if err != nil {
		return c.Process
	}
	label := r.String()
	if d.Uses&alloc.ParamCap != 0 {
		label += fmt.Sprintf(" (probe cap %d)", c.Cap)
	}
	if d.Uses&alloc.ParamWeights != 0 {
		label += ", weights " + optText(c.Weights)
	}
	return label + batch
}

// SameRun reports, as an error naming the first difference, whether a and b
// describe the same run up to the shard.
func SameRun(a, b Config) error {
	a.Shard, b.Shard = "", ""
	return sameConfig(a, b)
}

// sameConfig reports the first field in which the JSON of two configs
// differ, nil when it is the same.
func sameConfig(a, b any) error {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if bytes.Equal(ja, jb) {
		return nil
	}
	var ma, mb map[string]any
	json.Unmarshal(ja, &ma)
	json.Unmarshal(jb, &mb)
	// In the keys' order, so that the difference named is the same every
	// time.
	for _, k := range slices.Sorted(maps.Keys(ma)) {
		if va := ma[k]; fmt.Sprint(va) != fmt.Sprint(mb[k]) {
			return fmt.Errorf("%s differs (%v against %v)", k, va, mb[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(mb)) {
		if _, ok := ma[k]; !ok {
			return fmt.Errorf("%s differs (unset against %v)", k, mb[k])
		}
	}
	return errors.New("configs differ")
}
