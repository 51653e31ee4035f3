package alloc

import (
	"fmt"
	"math"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Params are the parameters NewProcess reads; each process uses the ones
// its definition has and ignores the rest.
type Params struct {
	D      float64        // choices
	Ties   Ties           // tie rule; TiesDefault is the definition's own
	Graph  graphgen.Graph // the topology of "graph"
	Sample Sampling       // how "graph" draws its edge
	// Beta is β of "one-plus-beta", in [0, 1] (the command line's default
	// is 0.5; the zero value here is β = 0, one-choice).
	Beta float64
	// Cap is the probe cap of "firstdiff"; 0 means DefaultFirstDiffCap(d).
	Cap int
	// Weights is the weight distribution of "weighted" (zero value: const).
	Weights WeightDist
}

// processNames lists what NewProcess accepts, in the order help shows them.
var processNames = []string{"one-choice", "greedy", "left", "firstdiff", "unbalanced", "one-plus-beta", "rank", "graph", "grouped", "window", "weighted"}

// ProcessNames returns the names NewProcess accepts.
func ProcessNames() []string { return append([]string(nil), processNames...) }

// DefaultTies returns the tie rule the definition of the named process
// gives: left for "left", "grouped" and "window" (and "rank", whose ties
// follow a fixed order), random for the others.
func DefaultTies(name string) Ties {
	if name == "left" || name == "grouped" || name == "window" || name == "rank" {
		return TiesLeft
	}
	return TiesRandom
}

// NewProcess returns the process with the given command-line name and
// parameters, or an error naming the accepted names or the bad parameter.
func NewProcess(name string, p Params) (Process, error) {
	intD := func() (int, error) {
		if p.D != math.Trunc(p.D) || p.D < 1 || p.D > maxChoices {
			return 0, fmt.Errorf("alloc: %s needs a whole number of choices 1 <= d <= %d, got d=%g", name, maxChoices, p.D)
		}
		return int(p.D), nil
	}
	switch name {
	case "one-choice":
		return OneChoice{}, nil
	case "greedy":
		d, err := intD()
		return Greedy{D: d, Ties: p.Ties}, err
	case "left":
		d, err := intD()
		return Left{D: d, Ties: p.Ties}, err
	case "graph":
		return Graphical{G: p.Graph, Sample: p.Sample, Ties: p.Ties}, nil
	case "firstdiff":
		d, err := intD()
		return FirstDiff{D: d, Cap: p.Cap, Ties: p.Ties}, err
	case "unbalanced":
		d, err := intD()
		return MaxOf{D: d, Ties: p.Ties}, err
	case "one-plus-beta":
		return OnePlusBeta{Beta: p.Beta, Ties: p.Ties}, nil
	case "rank":
		if p.Ties == TiesRandom {
			return nil, fmt.Errorf("alloc: rank orders tied bins in a fixed order; random ties are not part of its definition (use ties left)")
		}
		return Rank{D: p.D}, nil
	case "grouped":
		d, err := intD()
		return Grouped{D: d, Ties: p.Ties}, err
	case "window":
		d, err := intD()
		return Window{D: d, Ties: p.Ties}, err
	case "weighted":
		d, err := intD()
		return Weighted{D: d, Weights: p.Weights, Ties: p.Ties}, err
	}
	return nil, fmt.Errorf("alloc: unknown process %q (processes: %s)", name, strings.Join(processNames, ", "))
}
