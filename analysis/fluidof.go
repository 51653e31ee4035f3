package analysis

import (
	"errors"
	"fmt"

	"github.com/graphalloc/graphalloc/alloc"
)

// FluidRun is a process as it runs, the question FluidOf answers: the
// process, its parameters with the sampling rule and the graph it runs on
// (Params.Graph; graphgen.Complete for K_n, of any order), n bins, the
// load t = m/n, and the batch size.
type FluidRun struct {
	Process *alloc.Descriptor
	Params  alloc.Params
	// N is the number of bins of the max-load prediction (MaxLoadDist);
	// below 1, FluidOf gives the tails alone.
	N float64
	// Load is t = m/n, in [0, MaxLoad].
	Load float64
	// Batch is the balls per batch (alloc.Config.Batch); 0 or 1 for one
	// ball at a time.
	Batch int64
	// Tol is the tails' cut-off (TailsTol); 0 is DefaultTailTol.
	Tol float64
	// MaxLoad is the heaviest t solved, a cost cap; 0 is MaxFluidLoad.
	MaxLoad float64
}

// Fluid is the fluid limit of a process as it runs: the mean-field rule
// solved, its tails s_i(t) (the fraction of bins with load ≥ i as
// n → ∞), and at n bins P(max ≥ i) ≈ 1 − exp(−n·s_i) with its mode.
type Fluid struct {
	Rule  alloc.MeanField
	Tails []float64
	// PMaxAtLeast and PredictedMaxLoad are MaxLoadDist and
	// PredictedMaxLoad of Tails at FluidRun.N; nil and 0 for N < 1.
	PMaxAtLeast      []float64
	PredictedMaxLoad int
}

// NoFluid is the error of FluidOf for a run that has no fluid limit;
// Reason says why, as a phrase a table prints after "none".
type NoFluid struct{ Reason string }

func (e *NoFluid) Error() string { return "analysis: no fluid limit: " + e.Reason }

// WhyNoFluid returns the reason of a *NoFluid error err, and whether err
// is one.
func WhyNoFluid(err error) (string, bool) {
	var no *NoFluid
	if errors.As(err, &no) {
		return no.Reason, true
	}
	return "", false
}

// FluidOf returns the fluid limit of the process of r as it runs — its
// sampling rule and its graph included, the rule chosen by its descriptor
// (alloc.Descriptor.MeanField: Greedy[L+1] for the graph process under
// walk:len=L on K_n, one-choice for every rule at L = 0, the mixture for
// graphical (1+β), …) — solved by TailsTol at t = r.Load. Every command,
// study and the explorer print the prediction they show beside a
// measurement from here.
//
// It returns a *NoFluid error when there is none: the process has no
// mean-field rule with these parameters or on this graph, the balls come
// in batches (the limits are those of the sequential processes), the rule's
// d is above MaxFluidD, or t is above r.MaxLoad. Other errors are bad
// input (t < 0, a tolerance out of range).
func FluidOf(r FluidRun) (Fluid, error) {
	mf, why := r.Process.MeanField(r.Params)
	maxLoad := r.MaxLoad
	if maxLoad <= 0 {
		maxLoad = MaxFluidLoad
	}
	switch {
	case why != "":
		return Fluid{}, &NoFluid{why}
	case r.Batch > 1:
		return Fluid{}, &NoFluid{fmt.Sprintf("the balls come in batches of %d, and the fluid limits are those of the sequential processes", r.Batch)}
	case mf.D > MaxFluidD:
		return Fluid{}, &NoFluid{fmt.Sprintf("the solver takes d <= %d, and the limit is %v's", MaxFluidD, mf)}
	case r.Load > maxLoad:
		return Fluid{}, &NoFluid{fmt.Sprintf("m/n = %g is above %g, the heaviest load solved beside a measurement for its cost; graphalloc fluid solves up to %g", r.Load, maxLoad, float64(MaxFluidLoad))}
	}
	tol := r.Tol
	if tol == 0 {
		tol = DefaultTailTol
	}
	tails, err := TailsTol(mf, r.Load, tol)
	if err != nil {
		return Fluid{}, err
	}
	f := Fluid{Rule: mf, Tails: tails}
	if r.N >= 1 {
		f.PMaxAtLeast = MaxLoadDist(tails, r.N)
		f.PredictedMaxLoad = PredictedMaxLoad(tails, r.N)
	}
	return f, nil
}
