package study

import (
	"math"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
)

// RunMemory describes a run of trials for its memory estimate (Bytes):
// what is held at once, not what is allocated over time.
type RunMemory struct {
	Process *alloc.Descriptor
	Params  alloc.Params
	N, M    int64
	Batch   int64 // balls a batch (alloc.Config.Batch); ≤ 1: one at a time
	Every   int64 // a series point every Every balls (alloc.Config.Every); 0: none
	Profile bool  // each trial keeps its load profile (alloc.Config.Profile)
	Levels  bool  // the level engine: a count per load, no load per bin
	// Running is the number of trials that run at once (the workers),
	// each on loads of its own.
	Running int64
	// Held is the number of trials whose results are held at once: every
	// trial of a run, whose file is written at its end; a grid point's.
	Held int64
	// Graph is what the graph takes, with its reader's buffers
	// (graphgen.Plan.BuildBytes or LeanBytes); 0 for none.
	Graph int64
	// PerVertex is what gathering per-vertex sums costs a vertex
	// (results.PerVertexBytes), 0 if none are gathered. Each running
	// trial then also hands its loads over as four bytes a bin.
	PerVertex int64
	// JSON reports an output encoded whole in memory before it is written
	// (a json file); a streamed one (jsonl, csv, table) holds a trial's
	// text at a time.
	JSON bool
	// Delete is the deletion model of a run with deletions (alloc.Dynamic),
	// 0 for none; Steps are its steps and Ops the operations of its
	// sequence. Each running trial then holds four-byte loads and the
	// model's state (alloc.DynamicBytes), and a series point every Every
	// steps.
	Delete     alloc.DeleteModel
	Steps, Ops int64
}

// The bytes a trial's result holds beside its arrays, and what each entry
// of them takes. trialBytes is measured: a million trials of run -n 2 -m 1
// -f table held 423 MB at the peak with GOGC=5 (the Result, its two-entry
// histogram, the trial list and the summary's per-trial statistics).
// jsonTrialBytes and jsonEntryBytes are the text of the json encoder,
// which holds the compact text and the indented text at once: about 190
// and 11 bytes a trial and a histogram entry indented ("        0,\n"),
// twice over with the buffers' growth by doubling; measured, 0.76 GB for
// the million trials, and 252 MB for run -n 2 -m 1e7 -f json, whose
// histogram has 5·10^6 entries.
const (
	trialBytes     = 448
	countBytes     = 8  // an entry of alloc.Result.LoadCounts
	profileBytes   = 16 // an alloc.ProfileLevel
	pointBytes     = 48 // an alloc.Point (24 bytes), in a slice grown by doubling
	dynPointBytes  = 80 // an alloc.DynPoint (40 bytes), in a slice grown by doubling
	jsonTrialBytes = 400
	jsonEntryBytes = 32
)

// HistogramLen bounds the entries of a trial's load histogram
// (alloc.Result.LoadCounts: one for each load from 0 to the largest), from
// m balls into n bins: m + 1 for a single bin; otherwise one-choice's
// largest load, m/n + O(√((m/n)·ln n) + ln n) w.h.p. [Raab and Steger
// 1998], with four times the constants, which bounds every process that
// spreads its balls at least as well as one choice.
func HistogramLen(n, m int64) int64 {
	if n <= 1 || m <= 1 {
		return max(m, 0) + 1
	}
	mu := float64(m) / float64(n)
	ln := math.Log(float64(n))
	h := mu + 4*math.Sqrt((mu+1)*ln) + 4*ln + 16
	if h >= float64(m) {
		return m + 1
	}
	return int64(h) + 1
}

// Part is one term of a memory estimate.
type Part struct {
	What  string // what takes it, in words
	Bytes int64
}

// Parts returns what the run holds at its peak, term by term: the graph,
// the loads of the running trials (alloc.Descriptor.LoadBytes a bin, and
// a batch in progress), the per-vertex sums, and the results held until
// the output is written, with their histograms, series and profiles and
// the text a json encoding holds.
func (r RunMemory) Parts() []Part {
	n, running := r.N, max(r.Running, 1)
	var loads int64
	if !r.Levels && r.Process != nil {
		loads = int64(r.Process.LoadBytes(r.Params, n, r.M, r.Batch)) * n
		if r.Batch > 1 {
			loads += 4 * min(r.Batch, n)
		}
		loads *= running
	}
	var perVertex, deletion int64
	if r.PerVertex > 0 {
		perVertex = r.PerVertex*n + 4*n*running
	}
	if r.Delete != 0 && n > 0 {
		loads = sat(4*n, running)
		deletion = sat(alloc.DynamicBytes(r.Delete, n, r.M, r.Ops)-4*n, running) + alloc.SequenceBytes(r.Ops)
	}
	return []Part{
		{"the graph", r.Graph},
		{"the loads", loads},
		{"the deletion state", deletion},
		{"the per-vertex sums", perVertex},
		{"the results held", r.HeldBytes()},
	}
}

// HeldBytes is what the results of the Held trials hold until the output
// is written.
func (r RunMemory) HeldBytes() int64 { return sat(r.TrialBytes(), max(r.Held, 1)) }

// TrialBytes is what one finished trial's result holds: the Result, its
// histogram, series and profile, and its JSON text when the output is
// encoded whole.
func (r RunMemory) TrialBytes() int64 {
	hist := HistogramLen(r.N, r.mostBalls())
	trial := satAdd(trialBytes, sat(countBytes, hist))
	if r.Profile {
		trial = satAdd(trial, sat(profileBytes, hist))
	}
	switch {
	case r.Every > 0 && r.Delete != 0:
		trial = satAdd(trial, sat(dynPointBytes, satAdd(r.Steps/r.Every, 1)))
	case r.Every > 0:
		trial = satAdd(trial, sat(pointBytes, satAdd(r.M/r.Every, 1)))
	}
	if r.JSON {
		trial = satAdd(trial, satAdd(jsonTrialBytes, sat(jsonEntryBytes, hist)))
	}
	return trial
}

// mostBalls bounds the balls present at once: M, but under random
// deletions M and every step an insertion, and in a sequence its
// operations.
func (r RunMemory) mostBalls() int64 {
	switch r.Delete {
	case alloc.DeleteRandom:
		return satAdd(r.M, r.Steps)
	case alloc.DeleteSequence:
		return r.Ops
	}
	return r.M
}

// Bytes returns the estimate: the sum of Parts, at most math.MaxInt64.
func (r RunMemory) Bytes() int64 {
	var total int64
	for _, p := range r.Parts() {
		total = satAdd(total, p.Bytes)
	}
	return total
}

// Largest returns the largest of Parts.
func (r RunMemory) Largest() Part {
	var big Part
	for _, p := range r.Parts() {
		if p.Bytes > big.Bytes {
			big = p
		}
	}
	return big
}

// sat returns a·b, or math.MaxInt64 if it overflows (a, b ≥ 0).
func sat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// satAdd returns a + b, or math.MaxInt64 if it overflows (a, b ≥ 0).
func satAdd(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// Budget checks g against maxMemory (0: the limit of sources), what
// Memory estimates, and sets g's graph files to be read within that limit,
// whatever their size or header claimed (Memory plans them from their
// size).
func (g *Grid) Budget(maxMemory int64, sources MemorySources) error {
	if err := sources.Check("this run", g.Memory(), "", maxMemory); err != nil {
		return err
	}
	if l, _, ok := sources.LimitOf(maxMemory); ok {
		g.Read.MaxBytes = max(l, 1)
	}
	return nil
}

// Memory estimates the most memory one point of g holds at once
// (RunMemory.Bytes): its graph, as planned (Run builds one graph at a
// time), the loads of the trials that run together, and the point's
// results, which Run holds until the point is done.
func (g *Grid) Memory() int64 {
	var most int64
	for _, pt := range g.Points() {
		d, err := alloc.Lookup(pt.Process)
		if err != nil {
			continue
		}
		req := RunRequest{Process: d, Params: g.Params, Engine: "bins", N: int64(pt.N),
			Balls: strconv.FormatInt(g.balls(pt.N), 10), Batch: strconv.FormatInt(g.Batch, 10),
			Workers: g.Workers, Trials: g.Trials, Held: int64(g.Trials)}
		req.Spec = pt.Graph
		p, _ := Plan(req)
		if p.GraphErr != nil {
			continue // Run reports it at its point
		}
		r := p.Memory
		if pt.Graph.Kind != "" {
			r.Graph = p.Graph.BuildBytes // Run builds the whole graph
		}
		most = max(most, r.Bytes())
	}
	return most
}
