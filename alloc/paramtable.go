package alloc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A ParamSpec declares one process parameter: its name on the command line
// and in every file, what it means, its range and default, and which field
// of Params holds it. ParamTable lists every one; the command-line flags,
// the range checks, the result files' fields and columns, the fluid JSON
// and the explorer's form are all made from it, so that a parameter is
// declared in one place and its copies cannot drift apart.
type ParamSpec struct {
	// Name is the flag (--g), the JSON key and the CSV column ("g");
	// Short is the flag's one letter, if any (-d for --choices).
	Name, Short string
	// Usage is the flag's help text.
	Usage string
	// Symbol is what the papers call it ("σ" for sigma), for forms.
	Symbol string
	// Bit is the Param of the descriptors that read the parameter; a flag
	// given for a process whose Uses lacks it is refused. Bit 0 means that
	// every process reads it (the tie rule).
	Bit Param
	// Kind is how the value is written: ParamInt and ParamFloat values are
	// numbers that Get and Set read and write; a ParamText value is parsed
	// by the command (a count, a weight distribution, a sampling rule).
	Kind ParamKind
	// Default is the flag's default, as the command line writes it.
	Default string
	// DefaultVaries is set when a process reads its own default unless the
	// flag is given (graph: two-choice, β = 1), so that a form shows none.
	DefaultVaries bool
	// Min and Max bound a number; OpenMin and OpenMax exclude the bound.
	Min, Max         float64
	OpenMin, OpenMax bool
	// AtMostD bounds the number by Params.D as well (k ≤ d).
	AtMostD bool
	// Need says what is allowed, in the words of the library's error
	// ("a threshold 0 <= g <= 16383"); FlagNeed says it for the flag's.
	Need, FlagNeed string
	// Recorded marks a parameter that result files record under Name, one
	// process or a few reading it (β, whose file field says also whether
	// graph reads it, is recorded apart); CSVAlways gives it a CSV column
	// in every file, empty where no process reads it.
	Recorded, CSVAlways bool
	// Get and Set read and write the number in Params.
	Get func(p Params) float64
	Set func(p *Params, v float64)
	// Parse reads a ParamText value into Params; its error says what is
	// wrong without naming the flag. An empty value of a parameter without
	// a default (cap) is none.
	Parse func(p *Params, s string) error
	// GivenOnly marks a ParamText value read only when it is given: each
	// process has its own default (ties).
	GivenOnly bool
}

// ParamKind is the kind of value of a ParamSpec.
type ParamKind uint8

const (
	ParamText  ParamKind = iota // text the command parses
	ParamInt                    // a whole number
	ParamFloat                  // a real number
)

// String names the kind as the explorer's form reads it.
func (k ParamKind) String() string {
	return [...]string{"text", "int", "float"}[k]
}

// ParamTable lists the process parameters in the order help texts show
// their flags.
var ParamTable = []*ParamSpec{
	{Name: "choices", Short: "d", Symbol: "d", Bit: ParamD | ParamRealD, Kind: ParamText, Default: "2",
		Usage: "number of choices d (a real number >= 1 for rank)", Parse: parseChoices},
	{Name: "beta", Symbol: "β", Bit: ParamBeta, Kind: ParamFloat, Default: "0.5", DefaultVaries: true, Min: 0, Max: 1,
		Need: "0 <= beta <= 1", FlagNeed: "0 <= beta <= 1",
		Usage: "β of -p one-plus-beta, in [0, 1]: the probability of a Greedy[2] step; with -p graph (given: graph is two-choice, β = 1, without it), the probability that a ball compares the ends of its edge (graphical (1+β), 0 < β <= 1)",
		Get:   func(p Params) float64 { return p.Beta }, Set: func(p *Params, v float64) { p.Beta = v }},
	{Name: "cap", Symbol: "cap", Bit: ParamCap, Kind: ParamText,
		Usage: "probe cap of -p firstdiff (default 2^d)", Parse: parseCap},
	{Name: "weights", Symbol: "weights", Bit: ParamWeights, Kind: ParamText, Default: "exp",
		Usage: "ball weights of -p weighted: const, exp, pareto:shape=A, uniform:a=A,b=B",
		Parse: func(p *Params, s string) (err error) { p.Weights, err = ParseWeights(s); return err }},
	{Name: "ties", Symbol: "ties", Kind: ParamText, Default: "random",
		Usage: "tie rule: random or left (left, grouped, window and rank use left unless this is given)", GivenOnly: true,
		Parse: func(p *Params, s string) (err error) { p.Ties, err = ParseTies(s); return err }},
	{Name: "sample", Symbol: "sample", Bit: ParamSample, Kind: ParamText, Default: "edge",
		Usage: "graph sampling: edge (uniform edge), vertex (uniform vertex, then uniform neighbour) or walk:len=L (a non-backtracking walk of L steps from a uniform vertex: the graph process takes its least loaded visited vertex [Pourmiri 2019], the two-sample rules its start and end; CSR graphs and complete)",
		Parse: func(p *Params, s string) (err error) { p.Sample, err = ParseSampling(s); return err }},
	{Name: "g", Symbol: "g", Bit: ParamG, Kind: ParamInt, Default: "1", Min: 0, Max: MaxG,
		Need: fmt.Sprintf("a threshold 0 <= g <= %d", MaxG), FlagNeed: fmt.Sprintf("a threshold 0 <= g <= %d", MaxG),
		Recorded: true, CSVAlways: true,
		Usage: "threshold g >= 0 of -p g-bounded and g-myopic: two loads within g are compared by the adversary (g-bounded) or a coin (g-myopic); not -g, the graph",
		Get:   func(p Params) float64 { return float64(p.Tolerance) }, Set: func(p *Params, v float64) { p.Tolerance = int(v) }},
	{Name: "sigma", Symbol: "σ", Bit: ParamSigma, Kind: ParamFloat, Default: "1", Min: 0, Max: MaxSigma,
		Need: fmt.Sprintf("a noise level 0 <= sigma <= %g", float64(MaxSigma)), FlagNeed: fmt.Sprintf("a noise level 0 <= σ <= %g", float64(MaxSigma)),
		Recorded: true, CSVAlways: true,
		Usage: "noise σ >= 0 of -p noisy: each candidate's load is read as load + N(0, σ²)",
		Get:   func(p Params) float64 { return p.Sigma }, Set: func(p *Params, v float64) { p.Sigma = v }},
	{Name: "memory", Symbol: "K", Bit: ParamMemory, Kind: ParamInt, Default: "1", Min: 0, Max: MaxMemory,
		Need: fmt.Sprintf("a memory 0 <= K <= %d", MaxMemory), FlagNeed: fmt.Sprintf("0 <= K <= %d", MaxMemory),
		Recorded: true,
		Usage:    "memory K >= 0 of -p memory: the K least loaded candidates of the last ball are candidates again",
		Get:      func(p Params) float64 { return float64(p.Memory) }, Set: func(p *Params, v float64) { p.Memory = int(v) }},
	{Name: "k", Symbol: "k", Bit: ParamK, Kind: ParamInt, Default: "1", Min: 1, Max: math.Inf(1), AtMostD: true,
		Need: "1 <= k <= d balls per round", FlagNeed: "k >= 1",
		Recorded: true,
		Usage:    "balls per round k of -p kd-choice, 1 <= k <= d: each round puts k balls in the k least loaded of d uniform bins",
		Get:      func(p Params) float64 { return float64(p.K) }, Set: func(p *Params, v float64) { p.K = int(v) }},
	{Name: "threshold", Symbol: "L", Bit: ParamThreshold, Kind: ParamInt, Default: "1", Min: 0, Max: MaxThreshold,
		Need: fmt.Sprintf("a threshold 0 <= L <= %d", MaxThreshold), FlagNeed: fmt.Sprintf("a load threshold 0 <= L <= %d", MaxThreshold),
		Recorded: true,
		Usage:    "load threshold L >= 0 of -p threshold: a first bin with fewer than L balls takes the ball, else a second uniform bin",
		Get:      func(p Params) float64 { return float64(p.Threshold) }, Set: func(p *Params, v float64) { p.Threshold = int(v) }},
	{Name: "delta", Symbol: "δ", Bit: ParamDelta, Kind: ParamFloat, Default: "0.5", Min: 0, Max: 1, OpenMin: true, OpenMax: true,
		Need: "a quantile 0 < delta < 1", FlagNeed: "a quantile 0 < δ < 1",
		Recorded: true,
		Usage:    "quantile 0 < δ < 1 of -p quantile: a first bin among the ⌊δn⌋ heaviest gives the ball to a second uniform bin",
		Get:      func(p Params) float64 { return p.Delta }, Set: func(p *Params, v float64) { p.Delta = v }},
}

// parseChoices reads d, a finite real number (a process checks its range).
func parseChoices(p *Params, s string) error {
	d, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(d) || math.IsInf(d, 0) {
		return fmt.Errorf("%q is not a number", s)
	}
	p.D = d
	return nil
}

// maxCap bounds the probe cap of FirstDiff[d].
const maxCap = 1 << 20

// parseCap reads the probe cap, a whole number written 1024, 1_024, 1e3
// or 2^10, in [1, maxCap]; the caller leaves the default for "".
func parseCap(p *Params, s string) error {
	t := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	v := math.NaN()
	if b, e, ok := strings.Cut(t, "^"); ok {
		bv, err1 := strconv.ParseUint(b, 10, 8)
		ev, err2 := strconv.ParseUint(e, 10, 8)
		if err1 == nil && err2 == nil {
			v = math.Pow(float64(bv), float64(ev))
		}
	} else if f, err := strconv.ParseFloat(t, 64); err == nil && !strings.ContainsAny(t, "xXpP") {
		v = f
	}
	if !(v >= 1 && v <= maxCap && v == math.Trunc(v)) {
		return fmt.Errorf("need a probe cap 1 <= cap <= 2^20, got %q", s)
	}
	p.Cap = int(v)
	return nil
}

// LookupParam returns the parameter named name, or nil.
func LookupParam(name string) *ParamSpec {
	return first(ParamTable, func(s *ParamSpec) bool { return s.Name == name })
}

// ParamOf returns the numeric parameter whose Bit is bit; a bit without
// one is a broken invariant of ParamTable, and ParamOf panics.
func ParamOf(bit Param) *ParamSpec {
	if s := first(ParamTable, func(s *ParamSpec) bool { return s.Bit == bit && s.Get != nil }); s != nil {
		return s
	}
	panic(fmt.Sprintf("alloc: no parameter with bit %#x in ParamTable", bit))
}

// InRange reports whether v lies in the range of s (the bound by d aside).
func (s *ParamSpec) InRange(v float64) bool {
	lo := v > s.Min || (!s.OpenMin && v == s.Min)
	hi := v < s.Max || (!s.OpenMax && v == s.Max)
	return lo && hi && (s.Kind != ParamInt || v == float64(int64(v)))
}

// Format writes v as the flag and the CSV cells write it.
func (s *ParamSpec) Format(v float64) string {
	if s.Kind == ParamInt {
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// check reports whether p holds s's number in range for the process name:
// the library's one range check of each parameter.
func (s *ParamSpec) check(name string, p Params) error {
	v := s.Get(p)
	if !s.InRange(v) || (s.AtMostD && v > p.D) {
		got := s.Name + "=" + s.Format(v)
		if s.AtMostD {
			got += " d=" + strconv.FormatFloat(p.D, 'g', -1, 64)
		}
		return fmt.Errorf("alloc: %s needs %s, got %s", name, s.Need, got)
	}
	return nil
}

// CheckFlag reports whether v is in the range of s, as the command line
// checks a flag before it knows the process: the error names the flag.
func (s *ParamSpec) CheckFlag(v float64) error {
	if !s.InRange(v) {
		return fmt.Errorf("--%s: need %s, got %s", s.Name, s.FlagNeed, s.Format(v))
	}
	return nil
}

// MarshalText writes the tie rule as the command line does: random or
// left (TiesDefault: default).
func (t Ties) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads random or left (ParseTies).
func (t *Ties) UnmarshalText(b []byte) (err error) {
	*t, err = ParseTies(string(b))
	return err
}

// MarshalText writes the sampling rule as the command line does: edge,
// vertex or walk:len=L.
func (s Sampling) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a sampling rule (ParseSampling).
func (s *Sampling) UnmarshalText(b []byte) (err error) {
	*s, err = ParseSampling(string(b))
	return err
}

// MarshalText writes the weight distribution as the command line does:
// const, exp, pareto:shape=A or uniform:a=A,b=B.
func (w WeightDist) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// UnmarshalText reads a weight distribution (ParseWeights).
func (w *WeightDist) UnmarshalText(b []byte) (err error) {
	*w, err = ParseWeights(string(b))
	return err
}
