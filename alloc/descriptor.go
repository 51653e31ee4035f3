package alloc

import (
	"fmt"
	"math"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// A Descriptor is everything the toolkit knows about a kind of process
// besides its loop: the name the command line and the result files use,
// its parameters and how they are checked, the engines that run it, the
// memory it needs, and the keys (Family, MeanField) by which package
// analysis picks its fluid limit and its bounds. Every process of this
// package has exactly one, declared beside its definition; Descriptors
// lists them and Lookup finds one by name. Commands, studies and analysis
// take every such fact from here, so they cannot disagree.
type Descriptor struct {
	// Name is the command-line name ("greedy"), the "process" of every
	// result file.
	Name string
	// Synopsis is a one-line definition for help texts.
	Synopsis string
	// Uses is the set of parameters the process reads; the others are
	// rejected by Params.Check.
	Uses Param
	// D is the number of choices the process always makes (1 for
	// one-choice, 2 for graph and one-plus-beta), or 0 when it reads
	// Params.D.
	D float64
	// Ties is the tie rule of the definition, used when Params.Ties is
	// TiesDefault; its zero value stands for TiesRandom.
	Ties Ties
	// FixedTies is set when random ties are not part of the definition
	// (Rank orders tied bins in a fixed order).
	FixedTies bool
	// Family is the key of the process's theory: package analysis picks
	// its bounds by it.
	Family Family
	// BinBytes is the bytes a bin takes in the per-bin engine: the most,
	// or 1 for a process whose per-bin loops run on compact loads (see
	// Bins), which hold while every load is below 255 (m = n, and most m
	// up to about 100n; 5 a bin during a promotion, 4 after it). LoadBytes
	// refines it for a run, as the memory guard's estimate.
	BinBytes int
	// compactUpTo returns, for a process with BinBytes 1, the largest m/n
	// at which LoadBytes counts its loads as compact with these
	// parameters: 0 when its loop for them has four-byte loads only; nil
	// for compactBound.
	compactUpTo func(p Params) float64
	// packed reports whether the process's loop with these parameters
	// runs on packed loads from nibbleMinBins bins (Bins.placePacked);
	// nil if it never does.
	packed func(p Params) bool
	// choices returns the number of choices with these parameters when
	// D is 0 and it is not Params.D (hyper: the mean hyperedge size);
	// nil if it is Params.D.
	choices func(p Params) float64
	// Moves is set when the process's balls walk from bin to bin before
	// they settle, and its results count the steps (Result.Moves,
	// Result.MaxMoves).
	Moves bool
	// levels reports whether the level engine runs the process with these
	// parameters (exchangeable processes on the complete graph); nil if
	// never.
	levels func(p Params) bool
	// meanField returns the mean-field rule of the process of d with
	// these parameters, if it has one (ownField for a process that follows
	// its family's rule); nil if never.
	meanField func(d *Descriptor, p Params) (MeanField, bool)
	// build returns the process, its parameters already checked.
	build func(p Params) Rule
	// candidates says how a graph process draws its candidates with these
	// parameters, when that is not its sampling rule (see Candidates); nil
	// if it always is.
	candidates func(p Params) string
}

// Param is a set of process parameters (of Params).
type Param uint16

const (
	ParamD       Param = 1 << iota // a whole number of choices d ≥ 1 (Params.D)
	ParamRealD                     // a real number of choices d ≥ 1 (Params.D)
	ParamBeta                      // β in [0, 1] (Params.Beta)
	ParamCap                       // a probe cap (Params.Cap)
	ParamWeights                   // a weight distribution (Params.Weights)
	ParamGraph                     // a topology (Params.Graph)
	ParamSample                    // a rule that draws candidates from the graph (Params.Sample)
	ParamG                         // a load-difference threshold g ≥ 0 (Params.Tolerance)
	ParamSigma                     // a noise level σ ≥ 0 (Params.Sigma)
	ParamMemory                    // a memory of K ≥ 0 bins (Params.Memory)
	ParamK                         // balls per round k ≥ 1 (Params.K)

	// The thinning family's.
	ParamThreshold // a load threshold L ≥ 0 (Params.Threshold)
	ParamDelta     // a quantile 0 < δ < 1 (Params.Delta)
)

// Family names the theory that covers a process: the key by which package
// analysis selects bounds. A new process with its own bounds adds a
// Family; one covered by existing theory reuses its family.
type Family uint8

const (
	FamilyNone        Family = iota // no stated bound
	FamilyOneChoice                 // one uniform bin
	FamilyGreedy                    // least loaded of d uniform bins
	FamilyLeft                      // Vöcking's asymmetric d-choice
	FamilyRank                      // the rank characterisation, real d
	FamilyOnePlusBeta               // a mixture of one and two choices
	FamilyGraph                     // two-choice on the edges of a graph
	FamilyGrouped                   // aligned groups of consecutive bins
	FamilyWindow                    // unaligned windows of consecutive bins
	FamilyWeighted                  // d-choice with weighted balls
	FamilyMaxOf                     // the most loaded of d uniform bins
	FamilyHyper                     // the least loaded vertex of a uniform hyperedge
	FamilyLocalSearch               // a walk to a local minimum of the loads on a graph
	FamilyGBounded                  // two samples, an adversary decides within g
	FamilyGMyopic                   // two samples, a coin decides within g
	FamilyNoisy                     // two samples compared through Gaussian noise
	FamilyMemory                    // d uniform bins and K remembered from the last ball
	FamilyKD                        // k balls into the k least loaded of d uniform bins

	// The thinning family [LSS22] (alloc/thinning.go).
	FamilyMeanThinning // a second uniform bin when the first is at or above the average
	FamilyThreshold    // a second uniform bin when the first holds at least L balls
	FamilyTwinning     // one sample; two balls below the average, else one
	FamilyPacking      // one sample; filled past the average if below it, else one ball
	FamilyQuantile     // a second uniform bin when the first is among the ⌊δn⌋ heaviest
)

// MeanField is the mean-field (fluid-limit) rule of a process on n → ∞
// exchangeable bins: the key by which package analysis solves its ODE.
// Family is one of FamilyOneChoice, FamilyGreedy, FamilyLeft, FamilyMaxOf,
// FamilyOnePlusBeta, FamilyGBounded, FamilyGMyopic, FamilyNoisy,
// FamilyMeanThinning, FamilyThreshold and FamilyQuantile (the
// graphical process on the complete graph, and Rank[d] for a whole d,
// follow Greedy's rule); D, Beta, Tolerance and Sigma are the rule's parameters.
// FamilyOnePlusBeta with D = d ≠ 2 is the mixture of one-choice (with
// probability 1 − β) and Greedy[d]: graphical (1+β) under walk sampling.
type MeanField struct {
	Family Family
	D      int
	Beta   float64
	// Tolerance is the threshold g of FamilyGBounded and FamilyGMyopic.
	Tolerance int
	Sigma     float64 // the noise σ of FamilyNoisy
	// Threshold is the load threshold L of FamilyThreshold.
	Threshold int
	// Delta is the quantile δ of FamilyQuantile.
	Delta float64
}

// Params are the parameters of a process; each process reads those its
// Descriptor.Uses names.
type Params struct {
	D      float64        // choices
	Ties   Ties           // tie rule; TiesDefault is the definition's own
	Graph  graphgen.Graph // the topology of a graph process
	Sample Sampling       // how a graph process draws its candidates
	// Beta is β of (1+β), in [0, 1] (the command line's default is 0.5;
	// the zero value here is β = 0, one-choice).
	Beta float64
	// GraphBeta makes the graph process graphical (1+β) with β = Beta
	// (the command line sets it when --beta is given); unset, graph is
	// two-choice (β = 1) whatever Beta holds, so that the zero value, and
	// a Params shared with one-plus-beta, keep the two-choice process.
	GraphBeta bool
	// Cap is the probe cap of FirstDiff[d]; 0 means DefaultFirstDiffCap(d).
	Cap int
	// Weights is the weight distribution of weighted balls (zero value:
	// const).
	Weights WeightDist
	// Tolerance is the load-difference threshold g ≥ 0 of g-bounded and
	// g-myopic: two loads within g of each other are too close to compare
	// (the adversary or a coin decides). Not G, which would read as a
	// graph.
	Tolerance int
	// Sigma is the standard deviation σ ≥ 0 of the noise of noisy.
	Sigma float64
	// Memory is the number K ≥ 0 of bins memory remembers.
	Memory int
	// K is the number of balls per round of kd-choice, 1 ≤ K ≤ D.
	K int
	// Threshold is the load threshold L ≥ 0 of threshold.
	Threshold int
	// Delta is the quantile 0 < δ < 1 of quantile: the ⌊δn⌋ heaviest
	// bins reject a ball.
	Delta float64
}

// maxChoices bounds d: a ball's candidates are kept on the stack.
const maxChoices = 1 << 20

// descriptors lists every process of the package, in the order help shows
// them.
var descriptors = []*Descriptor{
	&oneChoiceDescriptor, &greedyDescriptor, &leftDescriptor, &firstDiffDescriptor,
	&maxOfDescriptor, &onePlusBetaDescriptor, &rankDescriptor, &graphicalDescriptor,
	&groupedDescriptor, &windowDescriptor, &weightedDescriptor,
	&hyperDescriptor,
	&localSearchDescriptor,
	&gBoundedDescriptor, &gMyopicDescriptor, &noisyDescriptor,
	&memoryDescriptor, &kdDescriptor,
	&meanThinningDescriptor, &thresholdDescriptor, &twinningDescriptor, &packingDescriptor,
	&quantileDescriptor,
}

// The kind of each process of descriptors, in the same order: a Process,
// whose balls the per-bin engine places in Bins; Rank is a TrialRunner as
// well, and Weighted, on real loads, a TrialRunner only.
var (
	_ Process     = OneChoice{}
	_ Process     = Greedy{}
	_ Process     = Left{}
	_ Process     = FirstDiff{}
	_ Process     = MaxOf{}
	_ Process     = OnePlusBeta{}
	_ Process     = Rank{}
	_ TrialRunner = Rank{}
	_ Process     = Graphical{}
	_ Process     = Grouped{}
	_ Process     = Window{}
	_ TrialRunner = Weighted{}
	_ Process     = Hyper{}
	_ Process     = LocalSearch{}
	_ Process     = GBounded{}
	_ Process     = GMyopic{}
	_ Process     = Noisy{}
	_ Process     = Memory{}
	_ Process     = KD{}
	_ Process     = MeanThinning{}
	_ Process     = Threshold{}
	_ Process     = Twinning{}
	_ Process     = Packing{}
	_ Process     = Quantile{}
)

// Descriptors returns the descriptor of every process of the package, in
// the order help texts list them.
func Descriptors() []*Descriptor { return append([]*Descriptor(nil), descriptors...) }

// namesOf returns the names of the processes whose descriptor has the
// property has, in the order of Descriptors.
func namesOf(has func(d *Descriptor) bool) []string {
	var names []string
	for _, d := range descriptors {
		if has(d) {
			names = append(names, d.Name)
		}
	}
	return names
}

// names returns the name of every process, in the order of Descriptors.
func names() []string { return namesOf(func(*Descriptor) bool { return true }) }

// Names returns the name of every process, in the order of Descriptors.
func Names() []string { return names() }

// Readers returns the names of the processes whose Uses has a bit of p,
// in the order of Descriptors.
func Readers(p Param) []string {
	return namesOf(func(d *Descriptor) bool { return d.Uses&p != 0 })
}

// MeanFieldNames returns the names of the processes that have a
// mean-field limit (HasMeanField), in the order of Descriptors.
func MeanFieldNames() []string { return namesOf((*Descriptor).HasMeanField) }

// Lookup returns the descriptor of the named process. Case does not
// matter; an unknown name is an error that suggests the nearest name and
// lists the others.
func Lookup(name string) (*Descriptor, error) {
	if d := first(descriptors, func(d *Descriptor) bool { return strings.EqualFold(d.Name, name) }); d != nil {
		return d, nil
	}
	best, dist := "", math.MaxInt
	for _, d := range descriptors {
		if k := editDistance(strings.ToLower(name), d.Name); k < dist {
			best, dist = d.Name, k
		}
	}
	hint := ""
	if dist <= max(2, len(name)/3) {
		hint = fmt.Sprintf("; did you mean %q?", best)
	}
	return nil, fmt.Errorf("alloc: unknown process %q%s (processes: %s)", name, hint, strings.Join(names(), ", "))
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// compactBound is the largest m/n at which LoadBytes counts the loads of
// a process on compact loads as one byte a bin, unless its descriptor says
// less (compactUpTo): up to n = 2^32 bins every such process keeps its
// loads below 255 there w.h.p. (one-choice's largest load at m = 64n is
// about 120 at n = 2^32; a rule that favours the heavier candidate, as
// unbalanced d = 2 or g-bounded at large g, about 180 at n = 2^20,
// measured).
const compactBound = 64

// packedBound is the largest m/n at which LoadBytes counts packed loads
// (see Bins) as staying packed: two-choice on a regular graph keeps every
// load below 16 there w.h.p. (m/n + log₂ log n + O(1)). Above it they
// count 2 bytes a bin, the packed half byte and the byte they are unpacked
// to, held together.
const packedBound = 4

// LoadBytes returns the bytes a bin's load takes at the peak of a run of
// the per-bin engine, m balls into n bins with parameters p in batches of
// batch balls (batch ≤ 1: none): the memory guard's estimate. It is
// BinBytes, except that a process on compact loads (BinBytes 1) counts 4
// when its loads start at four bytes (n below 2^17, batches, or parameters
// whose loop has four-byte loads only), and 5 when m is large enough that
// its loads are likely promoted during the run (m above 64n or the
// process's own bound): both arrays are held while the loads are copied.
// Packed loads count 1 (half a byte a bin, rounded up), and 2 when m is
// above packedBound·n, as they are then likely unpacked.
func (d *Descriptor) LoadBytes(p Params, n, m, batch int64) int {
	if d.BinBytes != 1 {
		return d.BinBytes
	}
	bound := float64(compactBound)
	if d.compactUpTo != nil {
		bound = d.compactUpTo(p)
	}
	switch {
	case n < compactMinBins || batch > 1 || bound == 0:
		return 4
	case float64(m) > bound*float64(n):
		return 5
	case d.packed != nil && n >= nibbleMinBins && d.packed(p) && m > packedBound*n:
		return 2
	}
	return 1
}

// Choices returns the number of choices the process makes with p: its
// fixed D, or what p makes it (hyper: the mean hyperedge size of
// p.Graph), or p.D.
func (d *Descriptor) Choices(p Params) float64 {
	if d.D != 0 {
		return d.D
	}
	if d.choices != nil {
		return d.choices(p)
	}
	return p.D
}

// TiesFor returns the tie rule the process uses with p: p.Ties, or the
// definition's own if p.Ties is TiesDefault.
func (d *Descriptor) TiesFor(p Params) Ties { return p.Ties.resolve(d.Ties).resolve(TiesRandom) }

// Levels reports whether the level engine (Config.Engine) can run the
// process with p.
func (d *Descriptor) Levels(p Params) bool { return d.levels != nil && d.levels(p) }

// BetaOf returns the β the process reads from p, and whether it reads
// one: Params.Beta for one-plus-beta, and for graph when Params.GraphBeta
// is set (graphical (1+β)); graph without it is two-choice and reads none.
func (d *Descriptor) BetaOf(p Params) (float64, bool) {
	if d.Uses&ParamBeta == 0 || (d.Uses&ParamGraph != 0 && !p.GraphBeta) {
		return 0, false
	}
	return p.Beta, true
}

// Batches reports whether the process runs in batches (Config.Batch > 1):
// whether its rule is Batchable, which is a property of its type, not of
// its parameters.
func (d *Descriptor) Batches() bool { return Batchable(d.build(Params{})) }

// MeanField returns the mean-field rule of the process as it runs with p,
// its sampling rule and its graph included (the key of package analysis's
// fluid limit, analysis.FluidOf), or, if it has none, why: a phrase that
// tables print after "none". A graph process has one on the complete
// graph only: elsewhere a ball's candidates are neighbours, or close
// together on a walk, and their loads are correlated, which the
// mean-field equations, written for exchangeable bins, do not hold.
func (d *Descriptor) MeanField(p Params) (MeanField, string) {
	switch {
	case d.meanField == nil:
		return MeanField{}, "graphalloc solves no mean-field equation for " + d.Name
	case d.Uses&ParamGraph != 0 && !onComplete(p):
		if _, walk := p.Sample.Walk(); walk {
			return MeanField{}, "a walk's vertices lie close together on this graph, their loads correlated; the mean-field limits are known on the complete graph only"
		}
		return MeanField{}, "a ball's candidates are neighbours on this graph, their loads correlated; the mean-field limits are known on the complete graph only"
	}
	if mf, ok := d.meanField(d, p); ok {
		return mf, ""
	}
	return MeanField{}, "graphalloc solves no mean-field equation for " + d.Label(p)
}

// ownField is the mean-field rule of a process that follows its family's
// rule: its Family, the choices it makes with p (Choices), and the
// parameters of p it reads (Uses), the others zero.
func ownField(d *Descriptor, p Params) (MeanField, bool) {
	mf := MeanField{Family: d.Family, D: int(d.Choices(p))}
	if d.Uses&ParamBeta != 0 {
		mf.Beta = p.Beta
	}
	if d.Uses&ParamG != 0 {
		mf.Tolerance = p.Tolerance
	}
	if d.Uses&ParamSigma != 0 {
		mf.Sigma = p.Sigma
	}
	if d.Uses&ParamThreshold != 0 {
		mf.Threshold = p.Threshold
	}
	if d.Uses&ParamDelta != 0 {
		mf.Delta = p.Delta
	}
	return mf, true
}

// HasMeanField reports whether the process has a mean-field rule with
// some parameters (on the complete graph for a graph process): the
// processes that fluid takes.
func (d *Descriptor) HasMeanField() bool { return d.meanField != nil }

// String names the rule whose limit m is: the label of the process of its
// family with its parameters ("Greedy[4]", "(1+β), β = 0.5"), for the
// mixture of one-choice and Greedy[d], d ≠ 2 (graphical (1+β) under walk
// sampling), "(1+β) of Greedy[d], β = B", and "none" for the zero value.
func (m MeanField) String() string {
	p := Params{D: float64(m.D), Beta: m.Beta, Tolerance: m.Tolerance, Sigma: m.Sigma, Threshold: m.Threshold, Delta: m.Delta,
		Graph: graphgen.Complete(2)}
	switch {
	case m.Family == FamilyNone:
		return "none"
	case m.Family == FamilyOnePlusBeta && m.D != 2:
		return fmt.Sprintf("(1+β) of %v, β = %g", Greedy{D: m.D}, m.Beta)
	}
	if d := m.Family.descriptor(); d != nil {
		return d.Label(p)
	}
	return "none"
}

// Candidates says, for labels, how a graph process draws its candidates
// with p: "edge sampling", "vertex sampling" or "walk:len=L sampling"
// (Params.Sample), or for the two-sample rules on the complete graph
// under edge or vertex sampling "two uniform bins" (with replacement, not
// an edge).
// Label is the process's label with parameters p, the String of the rule
// ("Greedy[2]", "(1+β), β = 0.3", "g-bounded, g = 2"), or for a graph
// process without parameters besides its graph, its name; graphical
// (1+β) reads "graph (1+β), β = B". Every output names a process so.
func (d *Descriptor) Label(p Params) string {
	if d.Uses&ParamGraph != 0 {
		if b, ok := d.BetaOf(p); ok {
			return fmt.Sprintf("%s (1+β), β = %g", d.Name, b)
		}
		if d.Uses&^(ParamGraph|ParamSample|ParamBeta) == 0 {
			return d.Name
		}
		p.Graph = graphgen.Complete(2) // the label names the parameters, not the graph
	}
	r, err := d.New(p)
	if err != nil {
		return fmt.Sprintf("%s[%g]", d.Name, d.Choices(p))
	}
	return r.String()
}

// Candidates says how the process draws its candidates with p ("edge
// sampling", "two uniform bins").
func (d *Descriptor) Candidates(p Params) string {
	if d.candidates != nil {
		if c := d.candidates(p); c != "" {
			return c
		}
	}
	return p.Sample.String() + " sampling"
}

// EdgesOnly reports whether the process draws nothing from its graph, with
// p, but uniform edges: a rule that draws its candidates from the graph,
// under edge sampling. A graph held as its edge array alone
// (graphgen.EdgeArray, from graphgen.Spec.BuildEdges) then serves it, and
// the process draws the same edges from it as from the graph's CSR.
func (d *Descriptor) EdgesOnly(p Params) bool {
	return d.Uses&ParamSample != 0 && p.Sample == SampleEdge
}

// Check reports whether p holds valid parameters for the process: every
// parameter it reads (Uses) in range; the others are ignored. The error
// names the parameter and what is allowed.
func (d *Descriptor) Check(p Params) error {
	uses := d.Uses
	switch {
	case uses&ParamD != 0 && (p.D != math.Trunc(p.D) || p.D < 1 || p.D > maxChoices):
		return fmt.Errorf("alloc: %s needs a whole number of choices 1 <= d <= %d, got d=%g", d.Name, maxChoices, p.D)
	case uses&ParamCap != 0 && (p.Cap < 0 || p.Cap > maxChoices):
		return fmt.Errorf("alloc: %s needs a probe cap 1 <= cap <= %d, got cap=%d", d.Name, maxChoices, p.Cap)
	case uses&ParamGraph != 0 && p.Graph == nil:
		return fmt.Errorf("alloc: %s needs a graph", d.Name)
	}
	if err := d.checkRanges(p); err != nil {
		return err
	}
	if d.FixedTies && p.Ties == TiesRandom {
		return fmt.Errorf("alloc: %s orders tied bins in a fixed order; random ties are not part of its definition (use ties left)", d.Name)
	}
	return nil
}

// checkRanges is the range check of the parameters of p that d reads
// (Uses) and that both Check and checkRun check alike: a real d, the
// numbers of ParamTable (ParamSpec.check), and the weights.
func (d *Descriptor) checkRanges(p Params) error {
	if d.Uses&ParamRealD != 0 && !(p.D >= 1 && p.D <= maxChoices) {
		return fmt.Errorf("alloc: %s needs a real 1 <= d <= %d, got d=%g", d.Name, maxChoices, p.D)
	}
	for _, s := range ParamTable {
		if s.Get != nil && d.Uses&s.Bit != 0 {
			if err := s.check(d.Name, p); err != nil {
				return err
			}
		}
	}
	if d.Uses&ParamWeights != 0 {
		return checkWeights(d.Name, p.Weights)
	}
	return nil
}

// checkRun is the Check of a process of d with parameters p on n bins:
// the parameters d reads (Uses), in order a whole number of choices (kept
// apart as whole, so that the error shows the int as given), the probe
// cap, and those of checkRanges; then the bins, or for a process that
// samples a graph (ParamSample) its candidates' source (pairSource.check).
// A process whose Check needs more (a graph's form, d against n) writes
// its own.
func (d *Descriptor) checkRun(n, whole int, p Params) error {
	if d.Uses&ParamD != 0 {
		if err := checkChoices(d.Name, whole); err != nil {
			return err
		}
		p.D = float64(whole)
	}
	if d.Uses&ParamCap != 0 && (p.Cap < 0 || p.Cap > maxChoices) {
		return fmt.Errorf("alloc: %s needs a probe cap 1 <= cap <= %d (or 0 for the default 2^d), got cap=%d", d.Name, maxChoices, p.Cap)
	}
	if err := d.checkRanges(p); err != nil {
		return err
	}
	if d.Uses&ParamSample != 0 {
		return pairSource{p.Graph, p.Sample}.check(d.Name, n)
	}
	return checkBins(d.Name, n)
}

// New returns the process with parameters p, or an error naming the bad
// parameter.
//
// A graph of a type of its own (a graphgen.Graph from outside graphgen) is
// listed once into a CSR (graphgen.Native), so that it runs on the loops
// graphgen's graphs run on.
func (d *Descriptor) New(p Params) (Rule, error) {
	if p.Graph != nil {
		g, err := graphgen.Native(p.Graph)
		if err != nil {
			return nil, fmt.Errorf("alloc: %s: listing the graph: %w", d.Name, err)
		}
		p.Graph = g
	}
	if err := d.Check(p); err != nil {
		return nil, err
	}
	return d.build(p), nil
}

// NewProcess returns the named process (see Lookup) with parameters p.
func NewProcess(name string, p Params) (Rule, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return d.New(p)
}

// descriptorOf returns the descriptor of the process named name, or nil.
func descriptorOf(name string) *Descriptor {
	return first(descriptors, func(d *Descriptor) bool { return d.Name == name })
}

// first returns the first element of list that ok accepts, or nil.
func first[T any](list []*T, ok func(*T) bool) *T {
	for _, x := range list {
		if ok(x) {
			return x
		}
	}
	return nil
}

// Describe returns the descriptor of r, or nil if r is not a process of
// this package.
func Describe(r Rule) *Descriptor {
	if r == nil {
		return nil
	}
	return descriptorOf(r.Name())
}

// String returns the name of the first process of the family ("greedy"
// for FamilyGreedy).
func (f Family) String() string {
	if d := f.descriptor(); d != nil {
		return d.Name
	}
	return "none"
}

// descriptor returns the descriptor of the first process of the family,
// or nil.
func (f Family) descriptor() *Descriptor {
	return first(descriptors, func(d *Descriptor) bool { return d.Family == f })
}

// intD is the whole number of choices of p.
func intD(p Params) int { return int(p.D) }

// onComplete reports whether p's graph is the complete graph.
func onComplete(p Params) bool {
	_, ok := p.Graph.(graphgen.Complete)
	return ok
}

// unwalkedComplete reports whether p's graph is the complete graph and p
// draws candidates as an edge or a vertex and a neighbour: the level
// engine's graph processes. A walk's L + 1 vertices are distinct only
// w.h.p. on K_n, and the level engine draws none, so walk sampling runs on
// the per-bin engine.
func unwalkedComplete(p Params) bool {
	_, walk := p.Sample.Walk()
	return onComplete(p) && !walk
}

func always(Params) bool { return true }
