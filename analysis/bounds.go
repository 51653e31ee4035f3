package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
)

// Kinds of Bound: how Value reads against the quantity measured.
const (
	// KindUpper: a one-sided upper bound whose leading term is explicit;
	// Formula shows the unknown lower-order terms.
	KindUpper = "upper"
	// KindLower: a one-sided lower bound whose leading term is explicit.
	KindLower = "lower"
	// KindLeading: the quantity is Value up to an additive O(1)
	// (PrecisionAdditive): the leading term and its constant are known,
	// and the difference stays bounded.
	KindLeading = "leading"
	// KindAsymptotic: an asymptotic statement, the quantity is
	// (1 ± o(1))·Value as n → ∞ (PrecisionFactor), or at least
	// (1 − o(1))·Value when Formula says so: only the ratio to Value is
	// spoken for, and only in the limit. At a given n the o(1) is unknown,
	// so Value is no bound there, neither ≤ nor ≥, and the difference may
	// grow without bound.
	KindAsymptotic = "asymptotic"
	// KindOrder: only the order is known, with an unknown constant: O(f)
	// (an upper bound), Ω(f) (a lower bound) or Θ(f) (both), the letter in
	// Order. Value is f; the quantity may stand any constant factor away.
	KindOrder = "order"
	// KindReference: no bound for the query's graph but the worst case
	// over its class that some graph of the class attains (the Δ-regular
	// lower bound of [KP06]): a yardstick to set the measurement against.
	KindReference = "reference"
)

// Quantities a Bound is about.
const (
	QuantityMaxLoad = "max_load" // the maximum load
	QuantityGap     = "gap"      // max load − m/n
	QuantitySpread  = "spread"   // max load − min load
)

// Regimes a Bound is stated for. Bounds reports a bound as applying only
// when the query's m/n is in its regime.
const (
	RegimeMEqN  = "m_eq_n" // m = n exactly
	RegimeAnyM  = "any_m"  // every m, with the same constants
	RegimeHeavy = "heavy"  // m ≫ n, taken as m/n >= HeavyFrom
)

// Precisions of a KindLeading or KindAsymptotic bound.
const (
	// PrecisionAdditive: the quantity is Value ± O(1); the difference
	// stays bounded by a constant the source does not give.
	PrecisionAdditive = "additive"
	// PrecisionFactor: the quantity is (1 + o(1))·Value (or Value's
	// leading part times 1 + o(1)); the ratio tends to 1 as n → ∞, and the
	// difference may grow without bound.
	PrecisionFactor = "factor"
)

// Bound is one theoretical statement about the maximum load, the gap
// (max load − m/n) or the spread (max − min) of a process, evaluated at the
// n, m, d of a Query. The JSON field names are those of the CLI's
// `bounds -f json`: the first eight are the original contract, the others
// were added after it.
//
// Value is Formula evaluated with every O(f), Ω(f) and Θ(f) replaced by f,
// every additive O(1) and 1 + o(1) factor dropped: the explicit leading
// terms, not a certified number. It is finite. NoValue marks a bound with
// no number to give — the source gives no explicit formula, or the
// formula is undefined for the query (Applies is then false) —; Value is
// then 0 and encodes as JSON null.
type Bound struct {
	Name    string  `json:"name"`    // the quantity, the setting and the source, e.g. "max load, m = n [ABKU99]"
	Process string  `json:"process"` // the CLI process name
	Kind    string  `json:"kind"`    // KindUpper, KindLower, KindLeading, KindAsymptotic, KindOrder or KindReference
	Value   float64 `json:"value"`   // null in JSON when NoValue
	Formula string  `json:"formula"` // e.g. "ln ln n / ln d ± O(1)"
	Base    string  `json:"base"`    // "ln" or "log2": the base of every logarithm in Formula; "" if none
	Applies bool    `json:"applies"` // the bound's assumptions hold for the query, its regime included
	Reason  string  `json:"reason"`  // why not, or the assumptions when it applies

	Quantity  string  `json:"quantity"`             // QuantityMaxLoad, QuantityGap or QuantitySpread
	Order     string  `json:"order,omitempty"`      // KindOrder: "O", "Ω" or "Θ"
	Precision string  `json:"precision,omitempty"`  // KindLeading: PrecisionAdditive; KindAsymptotic: PrecisionFactor
	Regime    string  `json:"regime"`               // RegimeMEqN, RegimeAnyM or RegimeHeavy
	HeavyFrom float64 `json:"heavy_from,omitempty"` // RegimeHeavy: the m/n from which the statement is taken to hold
	NoValue   bool    `json:"-"`                    // no number to give: Value is 0, JSON null

	regimeNote string // added to the reason when the query is outside the regime; cleared by finish
	batched    bool   // a statement about the batched setting (Query.Batch > 1); cleared by finish
}

// boundJSON is Bound as JSON encodes it, with a nullable value.
type boundJSON struct {
	Name      string   `json:"name"`
	Process   string   `json:"process"`
	Kind      string   `json:"kind"`
	Value     *float64 `json:"value"`
	Formula   string   `json:"formula"`
	Base      string   `json:"base"`
	Applies   bool     `json:"applies"`
	Reason    string   `json:"reason"`
	Quantity  string   `json:"quantity"`
	Order     string   `json:"order,omitempty"`
	Precision string   `json:"precision,omitempty"`
	Regime    string   `json:"regime"`
	HeavyFrom float64  `json:"heavy_from,omitempty"`
}

// MarshalJSON encodes b with "value": null when b.NoValue.
func (b Bound) MarshalJSON() ([]byte, error) {
	j := boundJSON{Name: b.Name, Process: b.Process, Kind: b.Kind, Formula: b.Formula, Base: b.Base,
		Applies: b.Applies, Reason: b.Reason, Quantity: b.Quantity, Order: b.Order, Precision: b.Precision,
		Regime: b.Regime, HeavyFrom: b.HeavyFrom}
	if !b.NoValue {
		j.Value = &b.Value
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes what MarshalJSON encodes; a null value sets
// NoValue.
func (b *Bound) UnmarshalJSON(data []byte) error {
	var j boundJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*b = Bound{Name: j.Name, Process: j.Process, Kind: j.Kind, Formula: j.Formula, Base: j.Base,
		Applies: j.Applies, Reason: j.Reason, Quantity: j.Quantity, Order: j.Order, Precision: j.Precision,
		Regime: j.Regime, HeavyFrom: j.HeavyFrom, NoValue: j.Value == nil}
	if j.Value != nil {
		b.Value = *j.Value
	}
	return nil
}

// MaxLoadAt returns b as a max load at m/n = t, for plotting it beside
// measured max loads: a max-load bound's Value, a gap bound's Value + t.
// It returns false for a spread bound (max − min is no function of the max
// load) and for a bound with no value. It does not check the regime
// (InRegime does).
func (b Bound) MaxLoadAt(t float64) (float64, bool) {
	if b.NoValue {
		return 0, false
	}
	switch b.Quantity {
	case QuantityMaxLoad:
		return b.Value, true
	case QuantityGap:
		return b.Value + t, true
	}
	return 0, false
}

// GapAt returns b as a gap at m/n = t: a gap bound's Value, a max-load
// bound's Value − t; false for a spread bound and a bound with no value.
func (b Bound) GapAt(t float64) (float64, bool) {
	if v, ok := b.MaxLoadAt(t); ok {
		return v - t, true
	}
	return 0, false
}

// InRegime reports whether m/n = t lies in the regime b is stated for.
func (b Bound) InRegime(t float64) bool {
	switch b.Regime {
	case RegimeMEqN:
		return t == 1
	case RegimeHeavy:
		return t >= b.HeavyFrom
	}
	return true
}

// Mark is the symbol tables and plots print before b's value: ≤ (upper),
// ≥ (lower), ≈ (leading term), ~ (asymptotic, n → ∞: never ≤ or ≥), O, Ω
// or Θ (order only), "ref" (a reference, no bound for the graph at hand).
func (b Bound) Mark() string {
	switch b.Kind {
	case KindUpper:
		return "≤"
	case KindLower:
		return "≥"
	case KindOrder:
		if b.Order != "" {
			return b.Order
		}
	case KindReference:
		return "ref"
	case KindAsymptotic:
		return "~"
	}
	return "≈"
}

// Short is b as a table cell: its Mark and its Value printed with verb
// ("≤ 8.00", "Θ 32.00"), or its Mark and "no value".
func (b Bound) Short(verb string) string {
	if b.NoValue {
		return b.Mark() + " no value"
	}
	return b.Mark() + " " + fmt.Sprintf(verb, b.Value)
}

// Query is the setting Bounds evaluates: a process, n, m, d and, for the
// graphical process, what is known about the graph. Zero values that are
// not valid inputs stand for the CLI defaults (noted below); Validate
// reports values that are out of range.
type Query struct {
	N, M    float64 // bins n ≥ 1 and balls m ≥ 1 (no default: m = 0 fails Validate)
	Process string  // a CLI process name; "" for all (rank excepted)
	// Params are the process's parameters as alloc reads them: D (0
	// means 2; real for rank), Beta with GraphBeta (graph is graphical
	// (1+β) only with GraphBeta and β > 0, two-choice otherwise), Sample,
	// Ties (the rule the process uses; local search's O(1) bound needs
	// random ties), Weights, and the two-sample rules' Tolerance (g),
	// Sigma, Memory, K (0 means 1), Threshold (which no bound reads) and
	// Delta (0 means 1/2). Graph and Cap are not read.
	alloc.Params
	// Batch is the batch size b of the batched setting (alloc.Config.Batch:
	// every ball reads the loads at the start of its batch of b); 0 and 1
	// mean one ball at a time. With b > 1 the sequential statements do not
	// apply (one-choice's excepted: it reads no load) and the batched ones
	// are listed.
	Batch float64

	// Graphical process ("graph").
	Topology  string  // graph kind: complete, cycle, torus, hypercube, regular, circulant, nonregular, gnp, file; a full SPEC is cut at ':'; "" means complete
	Degree    float64 // Δ if the graph is regular, 0 if not or unknown (complete, cycle and hypercube are inferred)
	MinDegree float64 // minimum degree δ, 0 if unknown
	Eps       float64 // ε when Δ = n^ε, 0 if unknown (then ln Δ / ln n)
	// Expansion is the degree-normalised edge expansion of a Δ-regular
	// graph, σ = min over |S| ≤ n/2 of |E(S, V∖S)| / (Δ·|S|), in (0, 1]
	// (about 1/2 for K_n); 0 if unknown. [PTW15]'s gap O(log n / σ) needs
	// this scale-free σ: with an unnormalised one it would claim a gap
	// O(log n / n) on K_n, below the Θ(log log n) of two choices.
	Expansion        float64
	EdgeConnectivity float64 // k, 0 if unknown (k = Δ is inferred for vertex-transitive families and random regular graphs)
	Core             float64 // nonregular: vertices c in the dense core, 0 if unknown
	CoreFraction     float64 // nonregular: fraction f of the edges with both ends in the core, 0 if unknown

	// Hypergraph process ("hyper"): D is the mean hyperedge size.
	MinRank float64 // the least hyperedge size, 0 if unknown
	// Balance is the greatest vertex degree over the mean degree,
	// max_v deg(v)·n / Σ|e| >= 1: how much more likely than average the
	// likeliest vertex is to lie in a uniform hyperedge; 0 if unknown.
	Balance float64
}

// Validate reports the first field of q that is out of range, naming it and
// what is allowed.
func (q Query) Validate() error {
	fin := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	for _, c := range []struct {
		ok   bool
		need string
		got  float64
	}{
		{fin(q.N) && q.N >= 1, "n >= 1", q.N},
		{fin(q.M) && q.M >= 1, "m >= 1", q.M},
		{fin(q.D) && (q.D == 0 || q.D >= 1), "d >= 1 (or 0 for the default 2)", q.D},
		{fin(q.Batch) && (q.Batch == 0 || q.Batch >= 1) && q.Batch == math.Trunc(q.Batch), "a whole batch size b >= 1 (or 0 for one ball at a time)", q.Batch},
		{fin(q.Degree) && q.Degree >= 0, "Degree >= 0", q.Degree},
		{fin(q.MinDegree) && q.MinDegree >= 0, "MinDegree >= 0", q.MinDegree},
		{q.Eps >= 0 && q.Eps <= 1, "0 <= eps <= 1", q.Eps},
		{q.Expansion >= 0 && q.Expansion <= 1, "the degree-normalised edge expansion in [0, 1]", q.Expansion},
		{fin(q.EdgeConnectivity) && q.EdgeConnectivity >= 0, "EdgeConnectivity >= 0", q.EdgeConnectivity},
		{fin(q.Core) && q.Core >= 0, "Core >= 0", q.Core},
		{q.CoreFraction >= 0 && q.CoreFraction <= 1, "0 <= CoreFraction <= 1", q.CoreFraction},
		{fin(q.MinRank) && q.MinRank >= 0, "MinRank >= 0", q.MinRank},
		{fin(q.Balance) && (q.Balance == 0 || q.Balance >= 1), "Balance >= 1 (or 0 if unknown)", q.Balance},
	} {
		if !c.ok {
			return fmt.Errorf("analysis: query needs %s, got %g", c.need, c.got)
		}
	}
	// Each number of alloc.ParamTable in its range, 0 standing for the
	// default of k and δ.
	for _, sp := range alloc.ParamTable {
		if v := 0.0; sp.Get != nil {
			if v = sp.Get(q.Params); v != 0 && !sp.InRange(v) {
				return fmt.Errorf("analysis: query needs %s, got %s=%s", sp.Need, sp.Name, sp.Format(v))
			}
		}
	}
	if q.Process != "" {
		if _, err := alloc.Lookup(q.Process); err != nil {
			return err
		}
	}
	return nil
}

// Bounds returns every bound of docs/theory.md for q.Process (for every process
// but rank when it is empty), in a fixed order. A bound whose assumptions
// fail for q, or whose regime (m = n, any m, heavily loaded) does not
// contain q's m/n, is returned all the same, with Applies false and the
// reason; a query that fails Validate gives bounds that do not apply. The
// worst case over Δ-regular graphs [KP06] applies, as a KindReference, on
// every regular graph at m = n: it is no bound for the graph at hand. The
// result is empty, not nil, for firstdiff, unbalanced and unknown
// processes.
//
// References, as cited in the names:
//
//	[ABKU99] Azar, Broder, Karlin, Upfal, Balanced allocations, SIAM J. Comput. 1999
//	[BCEFN12] Berenbrink, Czumaj, Englert, Friedetzky, Nagel, Multiple-choice balanced allocation in (almost) parallel, RANDOM 2012
//	[BCSV06] Berenbrink, Czumaj, Steger, Vöcking, Balanced allocations: the heavily loaded case, SIAM J. Comput. 2006
//	[BSSS13] Bogdan, Sauerwald, Stauffer, Sun, Balls into bins via local search, SODA 2013
//	[BF22]   Bansal, Feldheim, The power of two choices in graphical allocation, STOC 2022
//	[God08]  Godfrey, Balls and bins with structure: balanced allocations on hypergraphs, SODA 2008
//	[KP06]   Kenthapadi, Panigrahy, Balanced allocation on graphs, SODA 2006
//	[LS22a]  Los, Sauerwald, Balanced allocations with the choice of noise, PODC 2022 (J. ACM 2023)
//	[MPS02]  Mitzenmacher, Prabhakar, Shah, Load balancing with memory, FOCS 2002
//	[Park17] Park, A generalization of multiple choice balls-into-bins: tight bounds, arXiv:1201.3310
//	[LS22b]  Los, Sauerwald, Balanced allocations in batches: simplified and generalized, SPAA 2022
//	[LS23]   Los, Sauerwald, Balanced allocations in batches: the tower of two choices, SPAA 2023
//	[LS22]   Los, Sauerwald, Balanced allocations with the choice of noise, PODC 2022; J. ACM 2023
//	[Pou19]  Pourmiri, Balanced allocation on graphs: a random walk approach, RSA 2019 (named, not evaluated: see notForWalks)
//	[PTW15]  Peres, Talwar, Wieder, Graphical balanced allocations and the (1+β)-choice process, RSA 2015
//	[RS98]   Raab, Steger, "Balls into bins" — a simple and tight analysis, RANDOM 1998
//	[TW07]   Talwar, Wieder, Balanced allocations: the weighted case, STOC 2007
//	[TW14]   Talwar, Wieder, Balanced allocations: a simple proof for the heavily loaded case, ICALP 2014
//	[V03]    Vöcking, How asymmetry helps load balancing, JACM 2003
func Bounds(q Query) []Bound {
	if d, err := alloc.Lookup(q.Process); err == nil {
		q.Process = d.Name
	}
	e := newBoundEnv(q)
	out := []Bound{}
	for _, d := range alloc.Descriptors() {
		if q.Process == d.Name || (q.Process == "" && d.Family != alloc.FamilyRank) {
			for _, b := range e.boundsFor(d) {
				b.Process = d.Name
				if d.Uses&alloc.ParamSample != 0 && isWalk(e.q.Sample) && !strings.Contains(b.Name, "any allocation strategy") {
					b = e.notForWalks(b)
				}
				if e.q.Batch > 1 && !b.batched && d.Family != alloc.FamilyOneChoice {
					b = e.sequentialOnly(b)
				}
				out = append(out, e.finish(b))
			}
			if e.q.Batch > 1 && d.Batches() {
				for _, b := range e.batched(d) {
					b.Process = d.Name
					out = append(out, e.finish(b))
				}
			}
		}
	}
	return out
}

// boundEnv holds the query with its defaults filled in and the logarithms
// every formula uses.
type boundEnv struct {
	q                 Query
	n, m, d, t        float64 // t = m/n
	ln, lnln, lg, lg2 float64 // ln n, ln ln n, log₂ n, log₂ log₂ n
	bad               string  // why no bound applies, if the query is invalid
}

func newBoundEnv(q Query) *boundEnv {
	e := &boundEnv{q: q, n: q.N, m: q.M, d: q.D}
	if e.d == 0 {
		e.d = 2
	}
	e.t = e.m / e.n
	e.ln = math.Log(e.n)
	e.lnln = math.Log(e.ln)
	e.lg = math.Log2(e.n)
	e.lg2 = math.Log2(e.lg)
	if err := q.Validate(); err != nil {
		e.bad = err.Error()
	} else if e.n < 3 {
		// ln ln n and log log n must be positive for any formula to mean
		// something.
		e.bad = fmt.Sprintf("n = %g: the asymptotic formulas need n >= 3", e.n)
	}
	return e
}

// finish makes Value finite, checks the regime and applies the
// query-wide checks. A bound whose own assumptions hold but whose regime
// does not contain the query's m/n does not apply; one that fails both
// says both.
func (e *boundEnv) finish(b Bound) Bound {
	if math.IsNaN(b.Value) || math.IsInf(b.Value, 0) {
		if b.Applies || b.Reason == "" {
			b.Reason = "formula undefined for this query"
		}
		b.Value, b.Applies, b.NoValue = 0, false, true
	}
	if b.NoValue {
		b.Value = 0
	}
	if math.IsNaN(b.HeavyFrom) || math.IsInf(b.HeavyFrom, 0) {
		b.HeavyFrom = 0
	}
	if why := e.regimeWhy(b); why != "" {
		if b.regimeNote != "" {
			why += " (" + b.regimeNote + ")"
		}
		b = b.notApplying(why)
	}
	if e.bad != "" {
		b.Applies, b.Reason = false, e.bad
	}
	b.regimeNote, b.batched = "", false
	return b
}

// notApplying returns b marked as not applying for the reason why, added
// to the reasons it already has.
func (b Bound) notApplying(why string) Bound {
	if b.Applies {
		b.Applies, b.Reason = false, why
	} else {
		b.Reason += "; also " + why
	}
	return b
}

// notForWalks marks a statement about candidates drawn as an edge or a
// vertex and a neighbour as not applying under walk sampling.
func (e *boundEnv) notForWalks(b Bound) Bound {
	why := fmt.Sprintf("stated for candidates drawn as an edge or a vertex and a neighbour; here they come from a non-backtracking walk (%s: its least loaded visited vertex, or for a two-sample rule its two ends); graphalloc states no bound for walk sampling ([Pou19] needs girth ω(ℓ), see docs/theory.md)", e.q.Sample)
	return b.notApplying(why)
}

// sequentialOnly marks a statement about balls placed one at a time as
// not applying to a batched query (one-choice's excepted by the caller: it
// reads no load, and batches change nothing).
func (e *boundEnv) sequentialOnly(b Bound) Bound {
	why := fmt.Sprintf("stated for balls placed one at a time; here they come in batches of b = %g, each ball reading the loads at the start of its batch", e.q.Batch)
	return b.notApplying(why)
}

// regimeWhy says why the query's m/n is outside b's regime, or "".
func (e *boundEnv) regimeWhy(b Bound) string {
	if b.InRegime(e.t) {
		return ""
	}
	switch b.Regime {
	case RegimeMEqN:
		return fmt.Sprintf("stated for m = n; here m/n = %.4g", e.t)
	case RegimeHeavy:
		return fmt.Sprintf("a heavily loaded statement (m ≫ n), taken to hold from m/n >= %.4g; here m/n = %.4g", b.HeavyFrom, e.t)
	}
	return ""
}

// intD reports whether d is an integer ≥ 2 and, if not, why.
func (e *boundEnv) intD(proc string) (bool, string) {
	switch {
	case e.d == 1:
		return false, fmt.Sprintf("%s with d = 1 is one-choice", proc)
	case e.d != math.Trunc(e.d):
		return false, fmt.Sprintf("%s needs an integer d, got %g", proc, e.d)
	case e.d < 2:
		return false, fmt.Sprintf("%s needs d >= 2, got %g", proc, e.d)
	}
	return true, ""
}

// boundsFor returns the bounds of the family of process d.
func (e *boundEnv) boundsFor(d *alloc.Descriptor) []Bound {
	if f := familyBounds[d.Family]; f != nil {
		return f(e, d.Name)
	}
	return nil
}

// familyBounds maps each family with stated bounds to the method that
// states them for the process named proc.
var familyBounds = map[alloc.Family]func(e *boundEnv, proc string) []Bound{
	alloc.FamilyOneChoice:    unnamed((*boundEnv).oneChoice),
	alloc.FamilyGreedy:       (*boundEnv).greedy,
	alloc.FamilyLeft:         (*boundEnv).left,
	alloc.FamilyRank:         (*boundEnv).rank,
	alloc.FamilyOnePlusBeta:  unnamed((*boundEnv).onePlusBeta),
	alloc.FamilyGraph:        unnamed((*boundEnv).graph),
	alloc.FamilyGrouped:      (*boundEnv).grouped,
	alloc.FamilyWindow:       (*boundEnv).window,
	alloc.FamilyWeighted:     unnamed((*boundEnv).weighted),
	alloc.FamilyHyper:        unnamed((*boundEnv).hyper),
	alloc.FamilyLocalSearch:  unnamed((*boundEnv).localSearch),
	alloc.FamilyGBounded:     func(e *boundEnv, proc string) []Bound { return e.gRule(proc, false) },
	alloc.FamilyGMyopic:      func(e *boundEnv, proc string) []Bound { return e.gRule(proc, true) },
	alloc.FamilyNoisy:        unnamed((*boundEnv).noisy),
	alloc.FamilyMemory:       unnamed((*boundEnv).memory),
	alloc.FamilyKD:           (*boundEnv).kd,
	alloc.FamilyMeanThinning: (*boundEnv).lssGap,
	alloc.FamilyTwinning:     (*boundEnv).lssGap,
	alloc.FamilyPacking:      (*boundEnv).lssGap,
	alloc.FamilyThreshold:    unnamed((*boundEnv).thinning),
	alloc.FamilyQuantile:     unnamed((*boundEnv).quantile),
}

// unnamed is a family's bounds that do not depend on the process's name,
// as an entry of familyBounds.
func unnamed(f func(*boundEnv) []Bound) func(*boundEnv, string) []Bound {
	return func(e *boundEnv, _ string) []Bound { return f(e) }
}

// memory: (1, 1)-memory, one fresh bin and one remembered, has maximum
// load ln ln n / (2 ln φ) + O(1) at m = n [MPS02]; with no memory it is
// Greedy[d]. No bound is stated for other d and K.
func (e *boundEnv) memory() []Bound {
	if e.q.Memory == 0 {
		bs := e.greedy("memory with K = 0")
		for i := range bs {
			bs[i].Name = strings.Replace(bs[i].Name, "[", "(K = 0: Greedy[d]) [", 1)
		}
		return bs
	}
	ok, why := e.d == 1 && e.q.Memory == 1, "w.h.p.; one fresh uniform bin and the one remembered, the least loaded of the last ball's two after placing"
	if !ok {
		why = fmt.Sprintf("stated for d = 1, K = 1; here d = %g, K = %d (graphalloc states no bound for other d and K, see docs/theory.md)", e.d, e.q.Memory)
	}
	phi := (1 + math.Sqrt(5)) / 2
	return []Bound{
		{Name: "max load, m = n, d = K = 1 [MPS02]", Kind: KindLeading, Precision: PrecisionAdditive,
			Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
			Value: e.lnln / (2 * math.Log(phi)), Formula: "ln ln n / (2 ln φ) + O(1), φ = (1+√5)/2", Base: "ln",
			Applies: ok, Reason: why},
	}
}

// kd: (k, d)-choice with k = 1 is Greedy[d] [ABKU99; BCSV06]; [Park17]'s
// bounds for k > 1 are not stated here.
func (e *boundEnv) kd(proc string) []Bound {
	bs := e.greedy(proc)
	k := max(e.q.K, 1) // 0 means 1
	for i := range bs {
		bs[i].Name = strings.Replace(bs[i].Name, "[", "(k = 1: Greedy[d]) [", 1)
		if k != 1 && bs[i].Applies {
			bs[i].Applies = false
			bs[i].Reason = fmt.Sprintf("stated for k = 1, where (k, d)-choice is Greedy[d]; here k = %d (graphalloc states no bound of [Park17] for k > 1, see docs/theory.md)", k)
		}
	}
	return bs
}

// MaxHyperBalance is the Balance up to which Bounds takes a hypergraph
// as balanced in [God08]'s sense. The paper asks that every bin lie in
// the chosen set with about the same probability, up to a constant
// factor that enters the O(1); 4 is the threshold taken here.
const MaxHyperBalance = 4

// hyper: the maximum load is O(1) at m = n when every hyperedge has
// Ω(log n) vertices and the hypergraph is balanced [God08]; on the
// complete s-uniform hypergraph it is Greedy[s] without replacement
// [ABKU99].
func (e *boundEnv) hyper() []Bound {
	q := e.q
	b := Bound{Name: "max load, hyperedges of Ω(log n) vertices, balanced, m = n [God08]", Kind: KindOrder, Order: "O",
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: 1, Formula: "O(1)", Base: "",
		regimeNote: "[God08] state it for m = O(n); the constant grows with m/n"}
	switch {
	case q.MinRank == 0 || q.Balance == 0:
		b.Reason = "needs the least hyperedge size and the degrees of the hypergraph (-g hyper:FILE or hypergraph:rank=s,edges=k)"
	case q.MinRank < e.ln:
		b.Reason = fmt.Sprintf("needs every hyperedge of Ω(log n) vertices, taken as at least ln n = %.4g; the smallest has %g", e.ln, q.MinRank)
	case q.Balance > MaxHyperBalance:
		b.Reason = fmt.Sprintf("needs a balanced hypergraph, every vertex about equally likely to be in a uniform hyperedge, taken as max degree <= %d × the mean; here %.4g ×", MaxHyperBalance, q.Balance)
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p.; hyperedges of at least %g >= ln n vertices, max degree %.4g × the mean (balanced, taken as <= %d)", q.MinRank, q.Balance, MaxHyperBalance)
	}
	// A yardstick on s-uniform hypergraphs: the same number of choices,
	// independent and uniform.
	s := e.d
	c := Bound{Name: "max load, every s-subset a hyperedge (greedy, d = s), m = n [ABKU99]", Kind: KindReference,
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: e.lnln / math.Log(s), Formula: "ln ln n / ln s ± O(1)", Base: "ln"}
	if s >= 2 && s == q.MinRank {
		c.Applies = true
		c.Reason = fmt.Sprintf("a reference, not a bound for this hypergraph: on the complete %g-uniform hypergraph a uniform hyperedge is %g distinct uniform bins, greedy with d = %g", s, s, s)
	} else {
		c.Reason, c.Value = "a reference for s-uniform hypergraphs, s >= 2 (the complete one is greedy with d = s); this one is not", math.NaN()
	}
	return []Bound{b, c}
}

// oneChoice: ln n / ln ln n (1 + o(1)) for m = n; m/n + sqrt(2 (m/n) ln n)
// (1 + o(1)) for m ≫ n ln n [RS98]. Both are asymptotic (KindAsymptotic):
// the factor tends to 1 as n → ∞ and bounds nothing at a given n.
func (e *boundEnv) oneChoice() []Bound {
	heavyWhy := "w.h.p. for m ≫ n ln n [RS98], taken as m >= n ln n"
	heavyNote := "[RS98] state it for m ≫ n ln n; the threshold is ln n"
	sq := math.Sqrt(2 * e.t * e.ln)
	return []Bound{
		{Name: "max load, m = n [RS98]", Kind: KindAsymptotic, Precision: PrecisionFactor,
			Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
			Value: e.ln / e.lnln, Formula: "(1 + o(1)) ln n / ln ln n", Base: "ln",
			Applies: true, Reason: "w.h.p. as n → ∞; the 1 + o(1) factor converges slowly"},
		{Name: "max load, heavily loaded [RS98]", Kind: KindAsymptotic, Precision: PrecisionFactor,
			Quantity: QuantityMaxLoad, Regime: RegimeHeavy, HeavyFrom: e.ln,
			Value: e.t + sq, Formula: "m/n + (1 + o(1)) sqrt(2 (m/n) ln n)", Base: "ln",
			Applies: true, Reason: heavyWhy, regimeNote: heavyNote},
		{Name: "gap, heavily loaded [RS98]", Kind: KindAsymptotic, Precision: PrecisionFactor,
			Quantity: QuantityGap, Regime: RegimeHeavy, HeavyFrom: e.ln,
			Value: sq, Formula: "(1 + o(1)) sqrt(2 (m/n) ln n)", Base: "ln",
			Applies: true, Reason: heavyWhy, regimeNote: heavyNote},
	}
}

// greedy: ln ln n / ln d ± O(1) for m = n [ABKU99]; m/n + ln ln n / ln d
// ± O(1) for every m [BCSV06].
func (e *boundEnv) greedy(proc string) []Bound {
	ok, why := e.intD(proc)
	v := e.lnln / math.Log(e.d)
	return e.twoChoiceTrio("[ABKU99]", v, "ln ln n / ln d", ok, why, "d bins uniform with replacement", " (expected gap (1 + o(1)) log log n for d = 2 [TW14])")
}

// twoChoiceTrio is the three statements of a d-choice rule [BCSV06]: the
// max load at m = n (from paper mn), the max load above m/n and the gap
// for every m, each value v ± O(1) with v given by formula; ok and why
// say whether they apply, how (the rule's words) and what holds only for
// every m (anyNote).
func (e *boundEnv) twoChoiceTrio(mn string, v float64, formula string, ok bool, why, how, anyNote string) []Bound {
	anyM, atN := "w.h.p., every m; "+how+anyNote, "w.h.p.; "+how
	if !ok {
		anyM, atN = why, why
	}
	return []Bound{
		{Name: "max load, m = n " + mn, Kind: KindLeading, Precision: PrecisionAdditive,
			Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
			Value: v, Formula: formula + " ± O(1)", Base: "ln",
			Applies: ok, Reason: atN},
		{Name: "max load, any m [BCSV06]", Kind: KindLeading, Precision: PrecisionAdditive,
			Quantity: QuantityMaxLoad, Regime: RegimeAnyM,
			Value: e.t + v, Formula: "m/n + " + formula + " ± O(1)", Base: "ln",
			Applies: ok, Reason: anyM},
		{Name: "gap, any m [BCSV06]", Kind: KindLeading, Precision: PrecisionAdditive,
			Quantity: QuantityGap, Regime: RegimeAnyM,
			Value: v, Formula: formula + " ± O(1)", Base: "ln",
			Applies: ok, Reason: anyM},
	}
}

// left: ln ln n / (d ln φ_d) ± O(1) for m = n [V03], above m/n for every
// m [BCSV06].
func (e *boundEnv) left(proc string) []Bound {
	ok, why := e.intD(proc)
	v := math.NaN() // φ_d needs an integer d
	var phi string
	if ok {
		f := Phi(int(e.d))
		v = e.lnln / (e.d * math.Log(f))
		phi = fmt.Sprintf("; φ_%g = %.4f", e.d, f)
	}
	return e.twoChoiceTrio("[V03]", v, "ln ln n / (d ln φ_d)", ok, why, "ties go to the leftmost group"+phi, "")
}

// rank: for integer d, Rank[d] is Greedy[d] with fixed-order ties [TW14].
// For real d the values are the formulas at that d, for reference only.
func (e *boundEnv) rank(proc string) []Bound {
	bs := e.greedy(proc)
	ok, _ := e.intD(proc)
	for i := range bs {
		switch {
		case ok && bs[i].Applies:
			bs[i].Reason = "integer d: Rank[d] is Greedy[d] with a fixed tie order [TW14]; " + bs[i].Reason
		case !ok && e.d > 1:
			bs[i].Reason = fmt.Sprintf("proved for integer d only, got d = %g (the fluid limit ds_i/dt = s_{i−1}^d − s_i^d suggests the same leading term; unproven)", e.d)
		}
	}
	return bs
}

// MaxThetaBeta is the largest β for which Bounds states (1+β)'s gap as
// Θ(log n / β) [PTW15]. The upper bound O(log n / β) holds for every
// 0 < β ≤ 1; the matching lower bound needs β bounded away from 1,
// β ≤ 1 − ε for a constant ε: it comes from the one-choice steps, taken
// with probability 1 − β, and its constant shrinks with 1 − β (at β = 1
// the process is Greedy[2], gap ln ln n / ln 2 + O(1); heuristically the
// gap is of order (1 − β)·ln n / (2β) plus two-choice's). graphalloc takes
// ε = 1/2, β ≤ 1/2: the one-choice steps at least as frequent as the
// two-choice ones, so the lower constant is within a factor 2 of its value
// as β → 0. Measured at n = 2^16, m = 1000n, 4 trials: mean gaps 19.0,
// 9.75, 4.25 and 3.0 at β = 0.3, 0.5, 0.9, 0.99, against log₂ n / β = 53.3,
// 32, 17.8, 16.2 (docs/theory.md, bound 13).
const MaxThetaBeta = 0.5

// onePlusBeta: (1+β)'s gap [PTW15]. For 0 < β ≤ MaxThetaBeta,
// Θ(log n / β) in the heavily loaded case: the upper bound holds for every
// m, the lower bound once the one-choice steps have run long enough to
// build a gap of that order, about m/n ≈ ln n / β² (one-choice's gap
// sqrt(2 (m/n) ln n) reaches log n / β there), taken as the threshold. For
// MaxThetaBeta < β < 1 only the upper bound O(log n / β), for every m.
func (e *boundEnv) onePlusBeta() []Bound {
	b := e.q.Beta
	if b > MaxThetaBeta && b < 1 {
		return []Bound{upperBeta(e.lg, b, "gap, any m [PTW15]",
			fmt.Sprintf("w.h.p., every m; only the upper bound: the lower bound Ω(log n / β) needs β bounded away from 1, taken as β <= %g (its constant shrinks with 1 − β, the share of one-choice steps); here β = %g", MaxThetaBeta, b))}
	}
	ok := b > 0 && b < 1
	heavy := e.ln
	why := ""
	switch {
	case b == 0:
		why = "β = 0 is one-choice, whose gap grows with m"
	case b == 1:
		why = "β = 1 is greedy with d = 2: gap ln ln n / ln 2 ± O(1) [BCSV06]"
	case !ok:
		why = fmt.Sprintf("needs 0 < β < 1, got %g", b)
	default:
		heavy = e.ln / (b * b)
		why = fmt.Sprintf("w.h.p.; the upper bound O(log n / β) holds for every m, the matching lower bound once m/n is of order ln n / β² = %.4g, taken as the threshold", heavy)
	}
	return []Bound{
		{Name: "gap, heavily loaded [PTW15]", Kind: KindOrder, Order: "Θ",
			Quantity: QuantityGap, Regime: RegimeHeavy, HeavyFrom: heavy,
			Value: e.lg / b, Formula: "Θ(log n / β)", Base: "log2",
			Applies: ok, Reason: why,
			regimeNote: "ln n / β²; below it only the upper bound O(log n / β) is proved, and at m = n the gap is below one-choice's"},
	}
}

// upperBeta is the upper half of [PTW15]'s Θ(log n / β), gap
// O(log n / β) for every m, applying, named name, for a β above
// MaxThetaBeta; lg is log₂ n.
func upperBeta(lg, beta float64, name, why string) Bound {
	return Bound{Name: name, Kind: KindOrder, Order: "O",
		Quantity: QuantityGap, Regime: RegimeAnyM,
		Value: lg / beta, Formula: fmt.Sprintf("O(log n / β); Θ only for β <= %g", MaxThetaBeta), Base: "log2",
		Applies: true, Reason: why}
}

// grouped: O(log log n / d) for m = n with 2n/d aligned groups of d/2
// bins [KP06].
func (e *boundEnv) grouped(proc string) []Bound {
	return e.halfGroups(proc, "O", e.lg2/e.d, "O(log log n / d)",
		"w.h.p.; 2n/d aligned groups of d/2 consecutive bins, two groups probed")
}

// window: Ω(log log n / log d) for m = n with two unaligned windows of d/2
// bins [KP06].
func (e *boundEnv) window(proc string) []Bound {
	return e.halfGroups(proc, "Ω", e.lg2/math.Log2(e.d), "Ω(log log n / log d)",
		"lower bound w.h.p.: unaligned windows of d/2 bins lose the O(log log n / d) of aligned groups")
}

// halfGroups is [KP06]'s max load at m = n, of the given order, value and
// formula, for a process probing two groups of d/2 bins: it applies, for
// reason, when d is even (evenD).
func (e *boundEnv) halfGroups(proc, order string, value float64, formula, reason string) []Bound {
	applies, why := e.evenD(proc)
	if applies {
		why = reason
	}
	return []Bound{
		{Name: "max load, m = n [KP06]", Kind: KindOrder, Order: order,
			Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
			Value: value, Formula: formula, Base: "log2",
			Applies: applies, Reason: why},
	}
}

func (e *boundEnv) evenD(proc string) (bool, string) {
	if e.d < 2 || e.d != math.Trunc(e.d) || math.Mod(e.d, 2) != 0 {
		return false, fmt.Sprintf("%s needs an even d >= 2 (windows of d/2 bins), got %g", proc, e.d)
	}
	return true, ""
}

// weighted: the gap of two-choice with weighted balls does not grow with m
// when the weights have a finite second moment [TW07]. The source gives
// no formula for it: the bound has no value.
func (e *boundEnv) weighted() []Bound {
	ok, why := true, ""
	finite2, name, err := e.weightMoments()
	switch {
	case err != nil:
		ok, why = false, err.Error()
	case e.d != 2:
		ok, why = false, fmt.Sprintf("stated for two choices, got d = %g", e.d)
	case !finite2:
		ok, why = false, fmt.Sprintf("needs a finite second moment; %s has none", name)
	default:
		why = fmt.Sprintf("w.h.p.; %s weights have a finite second moment (the paper also needs a mild technical condition)", name)
	}
	return []Bound{
		{Name: "gap independent of m [TW07]", Kind: KindUpper,
			Quantity: QuantityGap, Regime: RegimeAnyM, NoValue: true,
			Formula: "f(n), not growing with m (no explicit formula)", Base: "",
			Applies: ok, Reason: why},
	}
}

// weightMoments parses the query's weights and reports whether the
// distribution has a finite second moment, with its name for messages.
func (e *boundEnv) weightMoments() (finite2 bool, name string, err error) {
	w := e.q.Weights
	if w.Kind == alloc.WeightPareto {
		// A Pareto law with shape A has finite k-th moments for k < A.
		return w.Shape > 2, fmt.Sprintf("pareto with shape %g", w.Shape), nil
	}
	name, _, _ = strings.Cut(w.String(), ":")
	return true, name, nil
}

// twoUniform reports whether the query's candidates are two independent
// uniform bins, the setting of [LS22] (the complete graph, or no graph),
// and if not why.
func (e *boundEnv) twoUniform() (bool, string) {
	topo, _, _ := strings.Cut(e.q.Topology, ":")
	if topo == "" || topo == "complete" {
		return true, ""
	}
	return false, fmt.Sprintf("stated for two independent uniform bins (the complete graph); topology is %s", topo)
}

// twoChoiceGap is Two-Choice's gap, ln ln n / ln 2 ± O(1) for every m
// [BCSV06], as a bound of a two-sample rule at the parameter value where it
// is Two-Choice (g = 0, σ = 0); why is "" there, else why not.
func (e *boundEnv) twoChoiceGap(param, why string) Bound {
	b := Bound{Name: fmt.Sprintf("gap, %s = 0, any m [BCSV06]", param), Kind: KindLeading, Precision: PrecisionAdditive,
		Quantity: QuantityGap, Regime: RegimeAnyM,
		Value: e.lnln / math.Ln2, Formula: "ln ln n / ln 2 ± O(1)", Base: "ln"}
	if ok, w := e.twoUniform(); !ok {
		why = w
	}
	b.Applies = why == ""
	b.Reason = why
	if b.Applies {
		b.Reason = fmt.Sprintf("w.h.p., every m: %s = 0 is Two-Choice (Greedy[2], two uniform bins, random ties)", param)
	}
	return b
}

// gRule: g-bounded and g-myopic [LS22]. Both are adversaries of the
// g-Bounded setting (every comparison of loads within g decided by an
// adaptive adversary), for which [LS22] prove the gap O(g + log n) for every
// m ≥ n, and O(g/log g · log log n) for g ≤ log n with matching lower
// bounds; g = 0 is Two-Choice.
func (e *boundEnv) gRule(proc string, myopic bool) []Bound {
	g := float64(e.q.Tolerance)
	who := "g-bounded is the worst adversary, always the more loaded"
	if myopic {
		who = "g-myopic's coin is one such adversary"
	}
	uniform, notUniform := e.twoUniform()
	zeroWhy := ""
	if g != 0 {
		zeroWhy = fmt.Sprintf("applies at g = 0 only, where %s is Two-Choice; here g = %g", proc, g)
	}
	const anyMNote = "[LS22] state it for every m ≥ n"
	upper := Bound{Name: "gap, any m ≥ n [LS22]", Kind: KindOrder, Order: "O",
		Quantity: QuantityGap, Regime: RegimeHeavy, HeavyFrom: 1,
		Value: g + e.ln, Formula: "O(g + log n)", Base: "ln",
		Applies: uniform, Reason: notUniform, regimeNote: anyMNote}
	if uniform {
		upper.Reason = fmt.Sprintf("w.h.p., every m ≥ n, for every adaptive adversary deciding the comparisons within g (%s); g = %g", who, g)
	}
	// g/log g, with log g read as max(1, ln g): the formula's order for
	// g ≥ 3 and a finite value at g = 1, 2.
	tight := Bound{Name: "gap, g ≤ log n, any m ≥ n [LS22]", Kind: KindOrder, Order: "Θ",
		Quantity: QuantityGap, Regime: RegimeHeavy, HeavyFrom: 1,
		Value: g / max(1, math.Log(g)) * e.lnln, Formula: "Θ(g / log g · log log n)", Base: "ln",
		regimeNote: anyMNote}
	switch {
	case !uniform:
		tight.Reason = notUniform
	case g == 0:
		tight.Reason = "needs g ≥ 1 (g = 0 is Two-Choice: see its bound)"
	case g > e.ln:
		tight.Reason = fmt.Sprintf("stated for g ≤ log n; here g = %g > ln n = %.4g, where O(g + log n) = O(g) is the bound", g, e.ln)
	default:
		tight.Applies = true
		tight.Reason = fmt.Sprintf("w.h.p.: the upper bound for every m ≥ n and every adversary within g, and a matching lower bound, [LS22] (g-Bounded and g-Myopic alike); log g read as max(1, ln g); g = %g", g)
	}
	return []Bound{e.twoChoiceGap("g", zeroWhy), upper, tight}
}

// noisy: σ-Noisy-Load [LS22]. Its gap bounds in [LS22] are not restated
// here (see docs/theory.md); σ = 0 is Two-Choice.
func (e *boundEnv) noisy() []Bound {
	why := ""
	if e.q.Sigma != 0 {
		why = fmt.Sprintf("applies at σ = 0 only, where noisy is Two-Choice; here σ = %g (graphalloc states no bound of [LS22] for σ > 0, see docs/theory.md)", e.q.Sigma)
	}
	return []Bound{e.twoChoiceGap("σ", why)}
}

// vertexTransitive families: connected ones have edge connectivity k = Δ.
var vertexTransitive = []string{"complete", "cycle", "torus", "hypercube", "circulant"}

// WorstRegularLabel is how tables and plots label the reference of
// KindReference that Bounds gives for a Δ-regular graph [KP06].
const WorstRegularLabel = "worst case over Δ-regular graphs (some graph attains it)"

// degree returns the query's topology family ("complete" when it names
// none), its degree Δ (the query's, else the family's own where the family
// fixes it: n − 1 on K_n, 2 on the cycle, log2 n on the hypercube; 0 when
// unknown) and whether the graph is regular of that degree.
func (e *boundEnv) degree() (topo string, delta float64, regular bool) {
	topo, _, _ = strings.Cut(e.q.Topology, ":")
	if topo == "" {
		topo = "complete"
	}
	delta = e.q.Degree
	if delta == 0 {
		switch topo {
		case "complete":
			delta = e.n - 1
		case "cycle":
			delta = 2
		case "hypercube":
			if e.lg == math.Trunc(e.lg) {
				delta = e.lg
			}
		}
	}
	return topo, delta, delta > 0 && topo != "nonregular"
}

// graph: the graphical two-choice process [KP06; PTW15; BF22].
func (e *boundEnv) graph() []Bound {
	c := e.graphContext()
	var bs []Bound
	bs = append(bs, e.graphRegularMaxLoad(c)...)
	bs = append(bs, e.graphDenseCore(c), e.graphExpansion(c), e.graphSpread(c))
	complete := e.onComplete()
	bs = append(bs, e.graphComplete(c, complete)...)
	if beta := e.graphBeta(); beta < 1 {
		bs = e.graphicalBeta(bs, beta, c.regular, c.notRegular, complete)
	}
	return bs
}

// graphCtx is what the bounds of the graphical process ask of the query:
// the topology, its degree, whether it is regular, whether balls sample
// vertices, and the reason a bound for regular graphs gives when it is not.
type graphCtx struct {
	topo       string
	delta      float64
	regular    bool
	vertex     bool
	notRegular string
}

func (e *boundEnv) graphContext() graphCtx {
	q := e.q
	topo, delta, regular := e.degree()
	notRegular := fmt.Sprintf("needs a regular graph; %s is not regular, or its degrees are not known: the bound fails on non-regular graphs even with a high minimum degree [KP06]", topo)
	if q.MinDegree > 0 && !regular {
		notRegular += fmt.Sprintf(", here δ = %g", q.MinDegree)
	}
	return graphCtx{topo: topo, delta: delta, regular: regular, vertex: q.Sample == alloc.SampleVertex, notRegular: notRegular}
}

// graphRegularMaxLoad gives the max load at m = n on (almost) regular
// graphs [KP06]: degree n^ε, Δ-regular, and the worst Δ-regular graph.
func (e *boundEnv) graphRegularMaxLoad(c graphCtx) []Bound {
	q := e.q
	nan := math.NaN()
	var bs []Bound

	// Almost regular, degree n^ε [KP06].
	eps := q.Eps
	if eps == 0 && c.regular && c.delta > 1 {
		eps = math.Log(c.delta) / e.ln
	}
	b := Bound{Name: "max load, degree n^ε, m = n [KP06]", Kind: KindUpper,
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: e.lg2 + 1/eps, Formula: "log log n + O(1/ε) + O(1)", Base: "log2"}
	switch {
	case !c.regular:
		b.Reason = c.notRegular
	case eps == 0:
		b.Reason = "needs the degree n^ε: a regular graph of known degree (regular:degree=D or regular:eps=E)"
	case eps*e.lg2 < 1-1e-9:
		b.Reason = fmt.Sprintf("needs ε not too small (degree n^Ω(1/log log n) [KP06]); here ε = %.4g < 1/log log n = %.4g", eps, 1/e.lg2)
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p.; ε = %.4g", eps)
	}
	bs = append(bs, b)

	// Δ-regular, upper [KP06].
	l4 := math.Pow(e.lg, 4)
	b = Bound{Name: "max load, Δ-regular, m = n [KP06]", Kind: KindUpper,
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: e.lg2 + e.lg/math.Log2(c.delta/l4), Formula: "log log n + O(log n / log(Δ / log⁴ n)) + O(1)", Base: "log2"}
	switch {
	case !c.regular:
		b.Reason, b.Value = c.notRegular, nan
	case c.delta <= l4:
		b.Reason = fmt.Sprintf("meaningful only for Δ > log⁴ n = %.4g; here Δ = %g", l4, c.delta)
		b.Value = nan
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p. on every Δ-regular graph; Δ = %g", c.delta)
	}
	bs = append(bs, b)

	// Δ-regular, lower [KP06]: the matching lower bound of an upper bound
	// for all Δ-regular graphs is shown by some Δ-regular graph. It bounds
	// no given graph: a reference on every regular one.
	b = Bound{Name: "max load, " + WorstRegularLabel + ", m = n [KP06]", Kind: KindReference,
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: e.lg2 + e.lg/math.Log2(c.delta*e.lg), Formula: "log log n + log n / log(Δ log n)", Base: "log2"}
	switch {
	case !c.regular:
		b.Reason, b.Value = c.notRegular, nan
	case c.delta*e.lg <= 1:
		b.Reason, b.Value = fmt.Sprintf("needs Δ log n > 1; here Δ = %g", c.delta), nan
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("a reference, not a bound for this graph: %s (Δ = %g); a given Δ-regular graph (K_n, a random regular graph) can do better", WorstRegularLabel, c.delta)
	}
	bs = append(bs, b)
	return bs
}

// graphDenseCore: a non-regular graph with a dense core [KP06]. The
// counting argument holds for every m.
func (e *boundEnv) graphDenseCore(c graphCtx) Bound {
	q := e.q
	nan := math.NaN()
	b := Bound{Name: "max load, dense core of a non-regular graph [KP06]", Kind: KindLower,
		Quantity: QuantityMaxLoad, Regime: RegimeAnyM,
		Value: e.m * q.CoreFraction / q.Core, Formula: "m f / c (c core vertices holding a fraction f of the edges)", Base: ""}
	switch {
	case c.regular:
		b.Reason, b.Value = "for non-regular graphs with a dense core; this graph is regular", nan
	case q.Core == 0 || q.CoreFraction == 0:
		b.Reason, b.Value = "needs the dense core: its size c and the fraction f of the edges inside it (a nonregular:core=c graph)", nan
	case c.vertex:
		b.Reason = "stated for edge sampling: under vertex sampling a core edge is drawn with probability about c/n, not f"
	default:
		b.Applies = true
		b.Reason = "every ball that draws one of the core's edges stays in the core, about m f balls on c vertices"
	}
	return b
}

// graphExpansion: the gap on a regular graph of edge expansion σ, every m
// [PTW15].
func (e *boundEnv) graphExpansion(c graphCtx) Bound {
	q := e.q
	nan := math.NaN()
	sigma := q.Expansion
	b := Bound{Name: "gap, edge expansion σ, any m [PTW15]", Kind: KindOrder, Order: "O",
		Quantity: QuantityGap, Regime: RegimeAnyM,
		Value: e.lg / sigma, Formula: "O(log n / σ)", Base: "log2"}
	switch {
	case !c.regular:
		b.Reason, b.Value = c.notRegular, nan
	case sigma == 0:
		b.Reason = "needs the edge expansion σ: give it with --expansion σ (graphalloc info measures it)"
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p., every m; σ = %.4g = min over |S| ≤ n/2 of |E(S, V∖S)| / (Δ|S|)", sigma)
		if c.topo == "cycle" || c.topo == "torus" {
			b.Reason += "; on cycles and tori greedy is conjectured to have a polynomial gap [BF22]"
		}
	}
	return b
}

// graphSpread: the lower bound on max − min of every allocation strategy
// [BF22].
func (e *boundEnv) graphSpread(c graphCtx) Bound {
	q := e.q
	nan := math.NaN()
	k := q.EdgeConnectivity
	if k == 0 && c.regular && (slices.Contains(vertexTransitive, c.topo) || (c.topo == "regular" && c.delta >= 3)) {
		k = c.delta
	}
	b := Bound{Name: "max − min, any allocation strategy [BF22]", Kind: KindOrder, Order: "Ω",
		Quantity: QuantitySpread, Regime: RegimeHeavy, HeavyFrom: e.ln,
		Value: e.lg, Formula: "Ω(Δ/k + log n) (max − min load, not max − m/n)", Base: "log2",
		regimeNote: "ln n; at m = n max − min is at most the max load"}
	if k > 0 {
		b.Value += c.delta / k
	}
	switch {
	case !c.regular:
		b.Reason, b.Value = "stated for Δ-regular k-edge-connected graphs; "+c.notRegular, nan
	default:
		b.Applies = true
		b.Reason = "lower bound on max − min for any strategy, greedy included, on a k-edge-connected Δ-regular graph, heavily loaded (taken as m >= n ln n)"
		if k > 0 {
			b.Reason += fmt.Sprintf("; Δ/k = %.4g", c.delta/k)
		} else {
			b.Reason += "; k unknown: the Δ/k term is left out"
		}
	}
	return b
}

// graphComplete: on the complete graph an edge is two distinct uniform
// bins, Greedy[2] without replacement [ABKU99; BCSV06].
func (e *boundEnv) graphComplete(c graphCtx, complete bool) []Bound {
	v := e.lnln / math.Ln2
	maxLoad := Bound{Name: "max load, complete graph, m = n [ABKU99]", Kind: KindLeading, Precision: PrecisionAdditive,
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: v, Formula: "ln ln n / ln 2 ± O(1)", Base: "ln"}
	gap := Bound{Name: "gap, complete graph, any m [BCSV06]", Kind: KindLeading, Precision: PrecisionAdditive,
		Quantity: QuantityGap, Regime: RegimeAnyM,
		Value: v, Formula: "ln ln n / ln 2 ± O(1)", Base: "ln"}
	if complete {
		maxLoad.Applies = true
		maxLoad.Reason = "w.h.p.; an edge of K_n is two distinct uniform bins: greedy with d = 2"
		gap.Applies = true
		gap.Reason = "w.h.p., every m; an edge of K_n is two distinct uniform bins: greedy with d = 2"
	} else {
		maxLoad.Reason = fmt.Sprintf("for the complete graph; topology is %s", c.topo)
		gap.Reason = maxLoad.Reason
	}
	return []Bound{maxLoad, gap}
}

// graphBeta is the β of graphical (1+β) of the query: Query.GraphBeta, 0
// standing for 1 (two-choice).
func (e *boundEnv) graphBeta() float64 {
	if !e.q.GraphBeta || e.q.Beta == 0 {
		return 1
	}
	return e.q.Beta
}

// onComplete reports whether the query's topology is the complete graph.
func (e *boundEnv) onComplete() bool {
	topo, _, _ := strings.Cut(e.q.Topology, ":")
	return topo == "" || topo == "complete"
}

// graphicalBeta: graphical (1+β) with 0 < β < 1 [PTW15]. The statements
// about two-choice on the graph do not apply to it, except the two that
// hold for any way of placing a ball at an end of its edge (the dense core's
// counting argument, [BF22]'s lower bound for every strategy); its own
// are added. Listed only for β < 1, so that a two-choice query lists what it
// always listed. Both are graphalloc's own composition from [PTW15]'s
// theorem and its (1+β) result, named "derived here": O(log n / (βσ)) on a
// graph of edge expansion σ, and on K_n, where graphical (1+β) is (1+β) up
// to O(1/n), the bound of one-plus-beta (Θ for β <= MaxThetaBeta, else O).
func (e *boundEnv) graphicalBeta(bs []Bound, beta float64, regular bool, notRegular string, complete bool) []Bound {
	for i := range bs {
		if strings.Contains(bs[i].Name, "dense core") || strings.Contains(bs[i].Name, "any allocation strategy") {
			continue
		}
		why := fmt.Sprintf("stated for two-choice on the graph (β = 1); here graphical (1+β) with β = %g", beta)
		bs[i] = bs[i].notApplying(why)
	}
	sigma := e.q.Expansion
	b := Bound{Name: "gap, graphical (1+β), edge expansion σ, any m [PTW15; derived here]", Kind: KindOrder, Order: "O",
		Quantity: QuantityGap, Regime: RegimeAnyM,
		Value: e.lg / (beta * sigma), Formula: "O(log n / (β σ))", Base: "log2"}
	switch {
	case !regular:
		b.Reason, b.Value = notRegular, math.NaN()
	case sigma == 0:
		b.Reason = "needs the edge expansion σ: give it with --expansion σ (graphalloc info measures it)"
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p., every m; derived here, not stated in [PTW15]: their theorem for a process whose bias towards light bins is ε gives O(log n / ε), ε is of order σ for the graph's edges, times β for a (1+β) mixture; σ = %.4g, β = %g", sigma, beta)
	}
	bs = append(bs, b)
	onK := "on K_n graphical (1+β) is the (1+β) process up to O(1/n) (an edge is two distinct uniform bins, and a uniform end of it a uniform bin)"
	if beta > MaxThetaBeta {
		b = upperBeta(e.lg, beta, "gap, graphical (1+β), complete graph, any m [PTW15; derived here]",
			fmt.Sprintf("w.h.p., every m; %s; only the upper bound: the lower bound needs β bounded away from 1, taken as β <= %g; here β = %g", onK, MaxThetaBeta, beta))
		if !complete {
			b.Applies, b.Reason = false, "for the complete graph"
		}
		return append(bs, b)
	}
	heavy := e.ln / (beta * beta)
	b = Bound{Name: "gap, graphical (1+β), complete graph, heavily loaded [PTW15; derived here]", Kind: KindOrder, Order: "Θ",
		Quantity: QuantityGap, Regime: RegimeHeavy, HeavyFrom: heavy,
		Value: e.lg / beta, Formula: "Θ(log n / β)", Base: "log2",
		regimeNote: "ln n / β², as for one-plus-beta"}
	if complete {
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p.; %s; taken to hold from m/n = ln n / β² = %.4g, as for one-plus-beta", onK, heavy)
	} else {
		b.Reason = "for the complete graph"
	}
	return append(bs, b)
}

// batched returns the statements about process d in the batched setting
// (Query.Batch = b > 1) [BCEFN12; LS22a; LS22b; LS23]: for two choices
// (greedy with d = 2, graph on the complete graph) and for (1+β) (and
// graphical (1+β) on the complete graph). Each is about the gap at the end
// of a batch, so it applies only when m is a whole number of batches.
func (e *boundEnv) batched(d *alloc.Descriptor) []Bound {
	switch d.Family {
	case alloc.FamilyGreedy:
		ok, why := e.d == 2, fmt.Sprintf("stated for two choices, got d = %g", e.d)
		return e.batchedTwoChoice(ok, why, "d = 2 uniform bins")
	case alloc.FamilyOnePlusBeta:
		return e.batchedOnePlusBeta(e.q.Beta, "")
	case alloc.FamilyGraph:
		if beta := e.graphBeta(); beta < 1 {
			return e.batchedOnePlusBeta(beta, "graphical (1+β) on K_n is (1+β) up to O(1/n); ")
		}
		return e.batchedTwoChoice(e.onComplete(), "stated for two uniform bins: the complete graph only", "an edge of K_n is two distinct uniform bins")
	}
	return nil
}

// batchCheck says whether the query's b and m fit a batched statement for
// batch sizes in [lo, hi], and why not.
func (e *boundEnv) batchCheck(lo, hi float64, rng string) (bool, string) {
	b := e.q.Batch
	switch {
	case b < lo || b > hi:
		return false, fmt.Sprintf("stated for b %s; here b = %g, n = %g", rng, b, e.n)
	case e.m < b:
		return false, fmt.Sprintf("no batch is complete (m = %g < b = %g): every ball read the empty loads, one-choice's law", e.m, b)
	case math.Mod(e.m, b) != 0:
		return false, fmt.Sprintf("about the end of a batch; here m = %g is not a whole number of batches of b = %g", e.m, b)
	}
	return true, ""
}

// batchRow is a statement about the gap at the end of a batch, for batch
// sizes b in [lo, hi] (rng in words), and why it holds.
type batchRow struct {
	bound  Bound
	lo, hi float64
	rng    string
	why    string
}

// batchedRows returns the bounds of rows. A row's bound does not apply for
// the reason veto gives it, if any; else for batchCheck's if b or m does
// not fit; else it applies, for pre, its why and post.
func (e *boundEnv) batchedRows(rows []batchRow, veto func(Bound) string, pre, post string) []Bound {
	var bs []Bound
	for _, r := range rows {
		bd := r.bound
		bd.Quantity, bd.Regime, bd.batched = QuantityGap, RegimeAnyM, true
		fits, why := e.batchCheck(r.lo, r.hi, r.rng)
		switch no := veto(bd); {
		case no != "":
			bd.Reason = no
		case !fits:
			bd.Reason = why
		default:
			bd.Applies = true
			bd.Reason = pre + r.why + post
		}
		bs = append(bs, bd)
	}
	return bs
}

// batchedTwoChoice: Greedy[2] in batches of b.
func (e *boundEnv) batchedTwoChoice(ok bool, notOK, what string) []Bound {
	b := e.q.Batch
	nlog := e.n * e.ln
	rows := []batchRow{
		{Bound{Name: "gap, batches of b = n [BCEFN12]", Kind: KindOrder, Order: "O",
			Value: e.lg, Formula: "O(log n)", Base: "log2"},
			e.n, e.n, "= n", "w.h.p. at the end of every batch; the first bound for batches, improved by [LS22a]"},
		{Bound{Name: "gap, batches of b = n [LS22a]", Kind: KindOrder, Order: "Θ",
			Value: e.ln / e.lnln, Formula: "Θ(log n / log log n)", Base: "ln"},
			e.n, e.n, "= n", "w.h.p. at the end of every batch, tight; one-choice's max load for n balls ([LS23]: up to b = n log n the gap follows one-choice's for b balls)"},
		{Bound{Name: "gap, batches of b in [n, n³] [LS22b]", Kind: KindOrder, Order: "O",
			Value: b/e.n + e.ln, Formula: "O(b/n + log n)", Base: "ln"},
			e.n, e.n * e.n * e.n, "in [n, n³]", "w.h.p. at the end of every batch (for any b >= n, O(b/n · log n))"},
		{Bound{Name: "gap, batches of b >= n log n [LS23]", Kind: KindOrder, Order: "Θ",
			Value: b / e.n, Formula: "Θ(b/n)", Base: ""},
			nlog, math.Inf(1), "≥ n ln n", "w.h.p. at the end of every batch, tight: two choices overshoot, each batch sending about 2b/n balls to the lightest bins"},
	}
	veto := func(Bound) string {
		if !ok {
			return notOK
		}
		return ""
	}
	return e.batchedRows(rows, veto, "", "; "+what)
}

// batchedOnePlusBeta: (1+β) in batches of b [LS22b], for a constant β.
// The Θ(log n) for b in [n, n log n] is stated only for β <= MaxThetaBeta:
// its lower half, like [PTW15]'s, comes from the one-choice steps (at
// β = 1 and b = n the gap is Θ(log n / log log n) [LS22a]). With pre
// non-empty (graphical (1+β) on K_n, graphalloc's own reduction) the names
// say "derived here".
func (e *boundEnv) batchedOnePlusBeta(beta float64, pre string) []Bound {
	b := e.q.Batch
	rows := []batchRow{
		{Bound{Name: "gap, batches of b in [n, n log n], (1+β) [LS22b]", Kind: KindOrder, Order: "Θ",
			Value: e.ln, Formula: "Θ(log n), β a constant", Base: "ln"},
			e.n, e.n * e.ln, "in [n, n ln n]", "w.h.p. at the end of every batch, for a constant β (the constant factor depends on β)"},
		{Bound{Name: "gap, batches of b in [n, n³], (1+β) [LS22b]", Kind: KindOrder, Order: "O",
			Value: b/e.n + e.ln, Formula: "O(b/n + log n), β a constant", Base: "ln"},
			e.n, e.n * e.n * e.n, "in [n, n³]", "w.h.p. at the end of every batch, for a constant β"},
	}
	if pre != "" {
		for i := range rows {
			rows[i].bound.Name = strings.TrimSuffix(rows[i].bound.Name, "]") + "; derived here]"
		}
	}
	veto := func(bd Bound) string {
		switch {
		case !(beta > 0 && beta <= 1):
			return fmt.Sprintf("needs 0 < β <= 1, got %g", beta)
		case bd.Order == "Θ" && beta > MaxThetaBeta:
			return fmt.Sprintf("the lower half needs β bounded away from 1, taken as β <= %g (at β = 1 and b = n the gap is Θ(log n / log log n) [LS22a]); here β = %g: see the O(b/n + log n) statement", MaxThetaBeta, beta)
		}
		return ""
	}
	return e.batchedRows(rows, veto, pre, fmt.Sprintf("; β = %g", beta))
}

// localSearch: local search allocation [BSSS13], for m = n, w.h.p.:
// Θ(log log n) on expanders of constant maximum degree,
// Θ((log n / log log n)^{1/(k+1)}) on k-dimensional grids, O(1) on almost
// regular graphs of minimum degree Ω(log n) with random ties; and, from
// the definition, exactly ⌈m/n⌉ on K_n for every m (each ball goes to a
// least loaded bin). "Constant degree" and "degree Ω(log n)" describe
// families of graphs; at one n graphalloc reads a degree below ln n as the
// first and one at least ln n as the second, so that exactly one of the
// two applies to a random regular graph of degree ≥ 3.
func (e *boundEnv) localSearch() []Bound {
	q := e.q
	topo, delta, regular := e.degree()
	nan := math.NaN()
	var bs []Bound

	// Expanders of constant degree.
	b := Bound{Name: "max load, expander of constant degree, m = n [BSSS13]", Kind: KindOrder, Order: "Θ",
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: e.lg2, Formula: "Θ(log log n)", Base: "log2"}
	switch {
	case topo != "regular":
		b.Reason = fmt.Sprintf("for expanders of constant maximum degree (graphalloc takes a random regular graph, regular:degree=D with D ≥ 3); topology is %s", topo)
	case delta < 3:
		b.Reason = fmt.Sprintf("a random Δ-regular graph is an expander w.h.p. for Δ ≥ 3; here Δ = %g", delta)
	case delta >= e.ln:
		b.Reason = fmt.Sprintf("for constant degree, read as Δ < ln n = %.4g; here Δ = %g, where the O(1) bound of degree Ω(log n) applies", e.ln, delta)
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p.; a random %g-regular graph is an expander w.h.p., its degree read as constant (Δ < ln n = %.4g)", delta, e.ln)
	}
	bs = append(bs, b)

	// k-dimensional grids: the torus (a cycle for k = 1).
	k := 0.0
	switch topo {
	case "cycle":
		k = 1
	case "torus":
		if regular {
			k = delta / 2 // 2k-regular for side ≥ 3
		}
	}
	b = Bound{Name: "max load, k-dimensional torus, m = n [BSSS13]", Kind: KindOrder, Order: "Θ",
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
		Value: math.Pow(e.lg/e.lg2, 1/(k+1)), Formula: "Θ((log n / log log n)^{1/(k+1)})", Base: "log2"}
	switch {
	case k == 0:
		b.Reason, b.Value = fmt.Sprintf("for k-dimensional grids and tori (torus:dim=K, cycle); topology is %s", topo), nan
	case k != math.Trunc(k) || math.Pow(e.n, 1/k) < 3-1e-9:
		b.Reason, b.Value = fmt.Sprintf("needs a torus of side ≥ 3 (degree 2k); here Δ = %g, n = %g", delta, e.n), nan
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p.; k = %g; stated for k-dimensional grids of constant k, graphalloc's torus is the grid with its boundary wrapped around", k)
	}
	bs = append(bs, b)

	// Almost regular, minimum degree Ω(log n), random ties.
	b = Bound{Name: "max load, almost regular, minimum degree Ω(log n), m = n [BSSS13]", Kind: KindOrder, Order: "O",
		Quantity: QuantityMaxLoad, Regime: RegimeMEqN, NoValue: true,
		Formula: "O(1), a constant independent of n", Base: ""}
	switch {
	case !regular:
		b.Reason = fmt.Sprintf("for almost regular graphs (max degree / min degree bounded); graphalloc knows it of regular graphs only, and %s is not regular or its degrees are unknown", topo)
	case delta < e.ln:
		b.Reason = fmt.Sprintf("needs minimum degree Ω(log n), read as δ ≥ ln n = %.4g; here δ = %g", e.ln, delta)
	case q.Ties == alloc.TiesLeft:
		b.Reason = "needs random ties: with a fixed tie rule the paper shows graphs of this kind with a larger maximum load"
	default:
		b.Applies = true
		b.Reason = fmt.Sprintf("w.h.p. with random ties; Δ = %g ≥ ln n = %.4g", delta, e.ln)
	}
	bs = append(bs, b)

	// The complete graph, from the definition.
	b = Bound{Name: "max load, complete graph, any m (exact) [derived here]", Kind: KindUpper,
		Quantity: QuantityMaxLoad, Regime: RegimeAnyM,
		Value: math.Ceil(e.m / e.n), Formula: "⌈m/n⌉", Base: ""}
	if topo == "complete" {
		b.Applies = true
		b.Reason = "always: on K_n every ball goes to a least loaded bin, so the max load is ⌈m/n⌉, the least any allocation reaches"
	} else {
		b.Reason = fmt.Sprintf("for the complete graph; topology is %s", topo)
	}
	bs = append(bs, b)
	return bs
}

// Phi returns φ_d, the largest real root of x^d = 1 + x + … + x^{d−1}: the
// growth rate of the d-step Fibonacci numbers, in [1, 2). φ_1 = 1,
// φ_2 = 1.6180 (the golden ratio), φ_3 = 1.8393, φ_4 = 1.9276; φ_d → 2.
// It enters Vöcking's bound ln ln n / (d ln φ_d) for left. Phi returns NaN
// for d < 1.
//
// Dividing by x^d, the root solves g(x) = 1 − Σ_{j=1}^{d} x^{−j} = 0 with g
// increasing on (1, 2], g(1) = 1 − d < 0 and g(2) = 2^{−d} > 0; bisection
// finds it to the last bit without overflow. O(d · 64).
func Phi(d int) float64 {
	if d < 1 {
		return math.NaN()
	}
	if d == 1 {
		return 1
	}
	lo, hi := 1.0, 2.0
	for {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			return mid
		}
		g, p := 1.0, 1.0
		for range d {
			p /= mid
			g -= p
		}
		if g < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// lssGap: Mean-Thinning, Twinning and Packing keep the gap O(log n) w.h.p.
// for every m ≥ n [LSS22] (D. Los, T. Sauerwald, J. Sylvester, Balanced
// allocations: caching and packing, twinning and thinning, SODA 2022).
func (e *boundEnv) lssGap(proc string) []Bound {
	return []Bound{
		{Name: "gap, any m [LSS22]", Kind: KindOrder, Order: "O",
			Quantity: QuantityGap, Regime: RegimeAnyM,
			Value: e.lg, Formula: "O(log n)", Base: "log2",
			Applies: true, Reason: fmt.Sprintf("w.h.p., for every m >= n; %s reads one uniform bin per ball or step against the average load", proc)},
	}
}

// thinning: no two-thinning rule — a ball's uniform bin, or if the rule
// rejects it a second uniform bin — does better at m = Θ(n) than a
// maximum load of (1 − o(1))·√(8 ln n / ln ln n) w.h.p., and a rule of
// that kind attains it to 1 + o(1) [FG21] (O. N. Feldheim, O.
// Gurel-Gurevich, The power of thinning in balanced allocation, Electron.
// Commun. Probab. 2021); Threshold(L) is such a rule for every L. The
// statement is asymptotic (KindAsymptotic): the o(1) is unknown at a given
// n, where the maximum load may lie below the value (5 at n = 2^20 against
// 6.49 for Threshold(3)), so it is no "≥" at any one n.
func (e *boundEnv) thinning() []Bound {
	return []Bound{
		{Name: "max load, m = n, any thinning rule [FG21]", Kind: KindAsymptotic, Precision: PrecisionFactor,
			Quantity: QuantityMaxLoad, Regime: RegimeMEqN,
			Value: math.Sqrt(8 * e.ln / e.lnln), Formula: "(1 − o(1))·√(8 ln n / ln ln n)", Base: "ln",
			Applies: e.n >= 16, Reason: thinningWhy(e.n)},
	}
}

// quantile: Quantile(δ) gives the ball to the bin of rank r (heaviest
// first) with probability δ'/n for r ≤ k = ⌊δn⌋ and (1 + δ')/n beyond,
// δ' = k/n, whatever the loads. For 1/3 ≤ δ' ≤ 2/3 that vector meets the
// condition of [PTW15]'s theorem (p_i ≤ (1 − 4ε)/n up to rank n/3,
// p_i ≥ (1 + 4ε)/n from rank 2n/3, with ε = min(δ', 1 − δ')/4), whose
// exponential potential gives gap O(log n / ε) for every m. Quantile(δ) is
// a two-thinning rule, so [FG21]'s asymptotic lower bound at m = n applies
// too. The application of [PTW15]'s theorem to Quantile(δ) is graphalloc's
// own: its name says "derived here".
func (e *boundEnv) quantile() []Bound {
	delta := e.q.Delta
	if delta == 0 {
		delta = 0.5
	}
	dk := math.Floor(delta*e.n) / e.n
	ok, why := dk >= 1.0/3 && dk <= 2.0/3, "w.h.p., for every m; its allocation vector, δ'/n on the ⌊δn⌋ heaviest ranks and (1 + δ')/n beyond (δ' = ⌊δn⌋/n), meets [PTW15]'s condition with ε = min(δ', 1 − δ')/4"
	if !ok {
		why = fmt.Sprintf("[PTW15]'s condition (a cut at ranks n/3 and 2n/3) holds for 1/3 <= ⌊δn⌋/n <= 2/3; here ⌊δn⌋/n = %.4g (graphalloc states no bound for other δ, see docs/theory.md)", dk)
	}
	fg := e.thinning()
	if fg[0].Applies {
		fg[0].Reason = "asymptotic, w.h.p. as n → ∞: no two-thinning rule, Quantile(δ) among them for every δ, keeps the max load below (1 − o(1)) times the value, and the best rule attains it; the o(1) is unknown at a given n, where the max load may be below the value"
	}
	return append([]Bound{
		{Name: "gap, any m, 1/3 <= δ <= 2/3 [PTW15; derived here]", Kind: KindOrder, Order: "O",
			Quantity: QuantityGap, Regime: RegimeAnyM,
			Value: e.lg, Formula: "O(log n)", Base: "log2",
			Applies: ok, Reason: why},
	}, fg...)
}

// thinningWhy is the reason of the thinning bound at n bins.
func thinningWhy(n float64) string {
	if n < 16 {
		return fmt.Sprintf("needs ln ln n > 1, n >= 16; got n = %g", n)
	}
	return "asymptotic, w.h.p. as n → ∞: no two-thinning rule, Threshold(L) among them, keeps the max load below (1 − o(1)) times the value, and the best rule attains it; the o(1) is unknown at a given n, where the max load may be below the value"
}

// isWalk reports a walk sampling rule.
func isWalk(s alloc.Sampling) bool { _, ok := s.Walk(); return ok }
