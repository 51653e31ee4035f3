package alloc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// Dynamic allocation: balls leave as well as arrive. A Dynamic run places
// M balls by the rule (the static process), then makes Steps steps of a
// deletion model (DeleteModel), each a deletion, an insertion by the same
// rule, or both:
//
//   - DeleteABKU, the infinite process of Azar, Broder, Karlin and Upfal
//     (SIAM J. Comput. 1999, section 5): each step deletes a uniformly
//     random ball, then inserts one. The number of balls stays M; for
//     Greedy[d] and M = n the max load at any fixed step is
//     ln ln n / ln d + O(1) w.h.p.
//   - DeleteFIFO: each step deletes the oldest ball, then inserts one
//     (deletions by age; Cole et al. 1998 bound every oblivious deletion
//     sequence with at most n balls at O(log log n)).
//   - DeleteRandom: each step inserts with probability β(t) and otherwise
//     deletes a ball from a uniformly random non-empty bin, nothing if
//     every bin is empty (Berenbrink, Friedetzky, Kling, Nagel,
//     arXiv 2510.14798). β(t) is piecewise constant (Phases).
//   - DeleteSequence: an oblivious sequence of operations fixed in advance
//     (Ops): insert a ball, or delete the k-th ball inserted. The sequences
//     of Bansal and Kuszmaul (FOCS 2022) are of this kind.
//
// A uniformly random ball is a bin drawn with probability proportional to
// its load. The engine keeps the bin of every live ball in an array
// (4 bytes a ball): a uniform ball is a uniform index, and the step's
// insertion takes the freed slot, so a step of DeleteABKU is O(1) with no
// search; DeleteFIFO walks the same array as a ring, oldest first.
// DeleteRandom keeps the non-empty bins in a set with positions (8 bytes a
// bin: a list and each bin's place in it, swap-remove), DeleteSequence the
// bin of every ball the sequence inserts (4 bytes an insertion). The
// number of bins at each load level or above (4 bytes a level; a step
// moves at most two of them) gives the max load after every step in O(1):
// a deletion lowers it only when the last bin at the max loses its ball.
// Loads are four bytes a bin; the generated loops (below) keep them one
// byte a bin, in place, while every load is below limit8 (narrow). The
// loads and the ball array are mapped with huge pages from 2 MiB on
// (words). StateBytes sums it.
//
// Every per-bin process of the package inserts through its rule (see
// rule), so every sampler (uniform, graphs by edge, vertex or walk,
// hypergraphs) works under every model. For Greedy[d] (d ≤ maxDynD),
// one-choice and the two-choice graph process under edge sampling on a
// regular graph or a flat edge array, DeleteABKU and DeleteFIFO run loops
// generated for them (gen_dynamic.go, zdyn_loops.go), which draw steps
// ahead through a ring and prefetch what they will read; they make exactly the
// draws, and so the steps, of the generic driver, which calls the rule
// once a step. Refused: rules that run whole trials on a state of their
// own (weighted balls, Rank), kd-choice (its k balls of a round are placed
// together, and a deletion inside a round has no definition), and the
// rules that keep a summary of the loads that a deletion would make stale
// (quantile).
//
// Randomness: a step draws its deletion first (DeleteABKU: the ball's
// index, uniform below the balls present; DeleteRandom: a 64-bit coin x,
// an insertion iff x < ⌊β·2^64⌋ (always when β = 1), then for a deletion
// the index of a non-empty bin, uniform), then the insertion's draws, the
// rule's for one ball. The reference loop of dynamic_test.go replays it
// step for step.

//go:generate go run gen_dynamic.go

// dynSlot is a step drawn ahead by a generated loop (a slot of its ring):
// the generator and coin buffer before the step's draws, the slot of the
// ball that leaves, a half-edge or edge index, the candidates (maxDynD at
// most) and a coin's flag.
type dynSlot struct {
	s, coins uint64
	nc       int
	i, h     uint64
	c        [maxDynD]uint32
	f        uint8
}

// dynLoops are a sampler's generated loops (parameter P): abku's and
// fifo's, in that order, on one-byte and on four-byte loads.
type dynLoops[P any] struct {
	narrow [2]func(*dynState, []uint8, int64, P, *Rand) int64
	wide   [2]func(*dynState, []uint32, int64, P, *Rand) int64
}

// DeleteModel is how balls leave a Dynamic run.
type DeleteModel uint8

const (
	DeleteABKU     DeleteModel = iota + 1 // a uniform ball leaves, one arrives
	DeleteRandom                          // insert with probability β(t), else delete from a uniform non-empty bin
	DeleteFIFO                            // the oldest ball leaves, one arrives
	DeleteSequence                        // an oblivious sequence of inserts and deletes
)

// String returns the command-line name of the model.
func (d DeleteModel) String() string {
	switch d {
	case DeleteABKU:
		return "abku"
	case DeleteRandom:
		return "random"
	case DeleteFIFO:
		return "fifo"
	case DeleteSequence:
		return "file"
	}
	return "none"
}

// Phase is a stretch of a piecewise-constant insertion probability β(t):
// β for Steps steps (0 for every step left).
type Phase struct {
	Beta  float64 `json:"beta"`
	Steps int64   `json:"steps,omitempty"`
}

// Op is one operation of an oblivious sequence: insert a ball (Delete = 0)
// or delete the Delete-th ball the sequence inserted (counting from 1).
type Op struct{ Delete int64 }

// Deletions is a deletion model with its parameters.
type Deletions struct {
	Model  DeleteModel
	Phases []Phase // DeleteRandom: β(t), in order; the last lasts to the end
	Ops    []Op    // DeleteSequence
}

// String returns the model as the command line spells it, with β for
// DeleteRandom ("random:beta=0.5" or "random:schedule=0.9:1000/0.5").
func (d Deletions) String() string {
	if d.Model != DeleteRandom {
		return d.Model.String()
	}
	if len(d.Phases) == 1 {
		return "random:beta=" + strconv.FormatFloat(d.Phases[0].Beta, 'g', -1, 64)
	}
	parts := make([]string, len(d.Phases))
	for i, p := range d.Phases {
		parts[i] = strconv.FormatFloat(p.Beta, 'g', -1, 64)
		if p.Steps > 0 {
			parts[i] += ":" + strconv.FormatInt(p.Steps, 10)
		}
	}
	return "random:schedule=" + strings.Join(parts, "/")
}

// ParseDeletions parses a deletion model: "abku", "fifo",
// "random:beta=B" (0 ≤ B ≤ 1) or "random:schedule=B1:S1/B2:S2/.../Bk"
// (β = B1 for S1 steps, then B2 for S2 steps, …, then Bk to the end; a
// count S may be written as count parses it, e.g. 10n). A sequence file
// ("file:PATH") is read by ReadOps; here it returns DeleteSequence with no
// Ops. "masking:survivors=S" (and ",fillers=F") is the sequence MaskingOps
// builds: ParseMasking checks it here, and the caller builds it as it reads
// a file. count parses a step count (it may know n).
func ParseDeletions(s string, count func(string) (int64, error)) (Deletions, error) {
	kind, rest, _ := strings.Cut(s, ":")
	switch kind {
	case "abku":
		if rest == "" {
			return Deletions{Model: DeleteABKU}, nil
		}
	case "fifo":
		if rest == "" {
			return Deletions{Model: DeleteFIFO}, nil
		}
	case "file":
		if rest == "" {
			return Deletions{}, errors.New("alloc: deletion model file: needs a path, file:PATH")
		}
		return Deletions{Model: DeleteSequence}, nil
	case "masking":
		if _, _, err := ParseMasking(rest); err != nil {
			return Deletions{}, err
		}
		return Deletions{Model: DeleteSequence}, nil
	case "random":
		ph, err := parsePhases(rest, count)
		if err != nil {
			return Deletions{}, err
		}
		return Deletions{Model: DeleteRandom, Phases: ph}, nil
	default:
		return Deletions{}, fmt.Errorf("alloc: unknown deletion model %q (allowed: abku, fifo, random:beta=B, random:schedule=B:S/.../B, file:PATH, masking:survivors=S)", s)
	}
	return Deletions{}, fmt.Errorf("alloc: deletion model %s takes no parameters, got %q", kind, s)
}

// parsePhases parses random's "beta=B" or "schedule=B:S/.../B".
func parsePhases(s string, count func(string) (int64, error)) ([]Phase, error) {
	key, val, _ := strings.Cut(s, "=")
	beta := func(v string) (float64, error) {
		b, err := strconv.ParseFloat(v, 64)
		if err != nil || !(b >= 0 && b <= 1) {
			return 0, fmt.Errorf("alloc: deletion model random: beta must be a number in [0, 1], got %q", v)
		}
		return b, nil
	}
	switch key {
	case "beta":
		b, err := beta(val)
		return []Phase{{Beta: b}}, err
	case "schedule":
		var ph []Phase
		parts := strings.Split(val, "/")
		for i, p := range parts {
			bs, ss, has := strings.Cut(p, ":")
			b, err := beta(bs)
			if err != nil {
				return nil, err
			}
			if has != (i < len(parts)-1) {
				return nil, fmt.Errorf("alloc: deletion model random: schedule is B:STEPS/.../B, every phase but the last with its steps, got %q", val)
			}
			var st int64
			if has {
				if st, err = count(ss); err != nil || st < 1 {
					return nil, fmt.Errorf("alloc: deletion model random: a phase needs a positive step count, got %q", ss)
				}
			}
			ph = append(ph, Phase{Beta: b, Steps: st})
		}
		return ph, nil
	}
	return nil, fmt.Errorf("alloc: deletion model random takes beta=B or schedule=B:STEPS/.../B, got %q", s)
}

// ReadOps reads an oblivious sequence, one operation a line: "insert" (or
// "i"), or "delete K" (or "d K") to delete the K-th ball the sequence
// inserted, counting from 1. Blank lines and lines starting with # are
// skipped. A delete of a ball not yet inserted, or already deleted, is an
// error naming its line: the sequence is fixed in advance, so every
// operation is checked before a step runs.
func ReadOps(r io.Reader) ([]Op, error) {
	sc := bufio.NewScanner(r)
	var ops []Op
	var inserted int64
	var gone []bool // gone[k-1]: ball k deleted
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case len(f) == 1 && (f[0] == "insert" || f[0] == "i"):
			inserted++
			gone = append(gone, false)
			ops = append(ops, Op{})
		case len(f) == 2 && (f[0] == "delete" || f[0] == "d"):
			k, err := strconv.ParseInt(f[1], 10, 64)
			switch {
			case err != nil || k < 1:
				return nil, fmt.Errorf("line %d: delete needs a ball number K >= 1, got %q", line, f[1])
			case k > inserted:
				return nil, fmt.Errorf("line %d: delete %d: only %d balls inserted so far", line, k, inserted)
			case gone[k-1]:
				return nil, fmt.Errorf("line %d: delete %d: ball %d was deleted already", line, k, k)
			}
			gone[k-1] = true
			ops = append(ops, Op{Delete: k})
		default:
			return nil, fmt.Errorf("line %d: want \"insert\" or \"delete K\", got %q", line, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, errors.New("no operation in the sequence")
	}
	return ops, nil
}

// Dynamic describes a run with deletions: M balls placed by Process, then
// Steps steps of the model Del. Trial i draws from TrialRand(Seed, i).
type Dynamic struct {
	Process Rule
	N       int
	M       int64 // balls placed before the first step (none for DeleteSequence)
	Steps   int64
	Del     Deletions
	Seed    uint64
	// Every, if positive, records a DynPoint after every Every steps and
	// after the last.
	Every int64
}

// DynPoint is a sample of a dynamic trial after Step steps.
type DynPoint struct {
	Step        int64   `json:"step"`
	Balls       int64   `json:"balls"`       // m(t)
	MaxLoad     uint32  `json:"max_load"`    // x_max(t)
	Discrepancy float64 `json:"discrepancy"` // x_max(t) − m(t)/n
	Overload    float64 `json:"overload"`    // x_max(t) − max_{s≤t} m(s)/n
}

// DynamicResult is the outcome of a dynamic trial: the state after the
// last step, and the largest of each quantity over the window of steps
// (the state after the initial balls, and after every step).
type DynamicResult struct {
	Trial          int     `json:"trial"`
	MaxLoad        uint32  `json:"max_load"` // x_max at the end
	Balls          int64   `json:"balls"`    // m at the end
	MaxBalls       int64   `json:"max_balls"`
	Discrepancy    float64 `json:"discrepancy"`     // at the end
	Overload       float64 `json:"overload"`        // at the end
	WindowMaxLoad  uint32  `json:"window_max_load"` // the largest x_max over the window
	MaxDiscrepancy float64 `json:"max_discrepancy"` // the largest discrepancy over the window
	MaxOverload    float64 `json:"max_overload"`    // the largest overload over the window
	Inserted       int64   `json:"inserted"`        // balls inserted by the steps
	Deleted        int64   `json:"deleted"`
	Idle           int64   `json:"idle,omitempty"` // DeleteRandom: deletions that found every bin empty
	// LoadCounts[i] is the number of bins holding i balls at the end.
	LoadCounts []int64    `json:"load_counts"`
	Series     []DynPoint `json:"series,omitempty"`
}

// maxDynD is the most choices of Greedy[d] the generated loops take.
const maxDynD = 4

// dynChunk is how many steps run between checks of the context; the level
// counts always have room for the max to grow by a chunk.
const dynChunk = 1 << 16

// Check reports whether c can run.
func (c Dynamic) Check() error {
	if c.Process == nil {
		return errors.New("alloc: no process given")
	}
	if c.N < 1 || uint64(c.N) > math.MaxUint32 {
		return fmt.Errorf("alloc: deletions run on 1 to 2^32 − 1 bins, got n=%d", c.N)
	}
	if c.Steps < 0 || c.M < 0 || c.Every < 0 {
		return fmt.Errorf("alloc: steps, balls and every must be non-negative, got %d, %d, %d", c.Steps, c.M, c.Every)
	}
	switch c.Del.Model {
	case DeleteABKU, DeleteFIFO:
		if c.M < 1 || uint64(c.M) > math.MaxUint32 {
			return fmt.Errorf("alloc: deletions %s need 1 to 2^32 − 1 balls present, got m=%d", c.Del.Model, c.M)
		}
	case DeleteRandom:
		if len(c.Del.Phases) == 0 {
			return errors.New("alloc: deletions random need β")
		}
		if uint64(c.M)+uint64(c.Steps) > math.MaxUint32*uint64(c.N) {
			return errors.New("alloc: deletions random: too many balls for four-byte loads")
		}
	case DeleteSequence:
		if c.M != 0 {
			return fmt.Errorf("alloc: a deletion sequence starts from empty bins (its balls are numbered from its first insert), got m=%d", c.M)
		}
		if c.Steps > int64(len(c.Del.Ops)) {
			return fmt.Errorf("alloc: the sequence has %d operations, asked for %d steps", len(c.Del.Ops), c.Steps)
		}
	default:
		return errors.New("alloc: no deletion model given")
	}
	if err := c.Process.Check(c.N); err != nil {
		return err
	}
	return dynamicRule(c.Process, c.N)
}

// dynamicRule refuses a rule the dynamic engine cannot run.
func dynamicRule(p Rule, n int) error {
	switch p.(type) {
	case KD:
		return errors.New("alloc: kd-choice places k balls a round together; a deletion inside a round has no definition, so it does not run with deletions")
	}
	b, ok := p.(batchable)
	if !ok {
		return fmt.Errorf("alloc: %v runs whole trials on a state of its own (no per-ball rule), so it does not run with deletions", p)
	}
	ru := b.rule(n)
	if _, ok := ru.(*stepRule); ok {
		return fmt.Errorf("alloc: %v places several balls a step; a deletion inside a step has no definition, so it does not run with deletions", p)
	}
	if _, ok := ru.(tracking); ok {
		return fmt.Errorf("alloc: %v keeps a summary of the loads that deletions would make stale, so it does not run with deletions", p)
	}
	return nil
}

// StateBytes is what a trial of c holds: four bytes a bin of loads, the
// model's state (four bytes a ball present for abku and fifo, eight a bin
// for random, four an insertion and eight an operation for a sequence),
// and the level counts.
func (c Dynamic) StateBytes() int64 {
	return DynamicBytes(c.Del.Model, int64(c.N), c.M, int64(len(c.Del.Ops)))
}

// DynamicBytes is what a trial of a run with deletions holds (StateBytes)
// for n ≥ 1 bins, m balls placed at the start and a sequence of ops
// operations: the loads (four bytes a bin), the model's state
// (DeletionBytes) and the level counts.
func DynamicBytes(model DeleteModel, n, m, ops int64) int64 {
	return 4*n + DeletionBytes(model, n, m, ops) + 4*(m/n+dynChunk+64)
}

// DefaultStepsPerBin is the steps of a run with deletions when none are
// given (but a sequence's, which runs whole): 100n.
const DefaultStepsPerBin = 100

// DeletionBytes is what the deletion model's own state holds beside the
// loads in a trial, for n bins, m balls present and a sequence of ops
// operations: a sequence's trial keeps the bin of each ball it inserts, 4
// bytes an operation at most. The operations themselves (SequenceBytes)
// are held once, whatever the trials.
func DeletionBytes(model DeleteModel, n, m, ops int64) int64 {
	switch model {
	case DeleteABKU, DeleteFIFO:
		return 4 * m
	case DeleteRandom:
		return 8 * n
	case DeleteSequence:
		return 4 * ops
	}
	return 0
}

// SequenceBytes is what a sequence of ops operations takes (Op), held
// once for every trial of a run.
func SequenceBytes(ops int64) int64 { return 8 * ops }

// dynState is the state of a dynamic trial.
type dynState struct {
	L     []uint32 // loads
	L8    []uint8  // the loads, one byte a bin in L's array, while narrow (nil when not)
	balls []uint32 // abku, fifo: the bin of each ball; sequence: of each ball inserted (gone: dynGone)
	head  uint64   // fifo: the oldest ball's slot
	tail  []uint32 // tail[l]: bins holding l balls or more
	mx    uint32   // the max load
	win   uint32   // the largest max load over the window
	ne    []uint32 // random: the non-empty bins
	pos   []uint32 // random: each non-empty bin's place in ne
	m     int64    // balls present
	mmax  int64    // the most balls present so far
	// The window's largest discrepancy and overload, times n (exact
	// integers): x_max·n − m and x_max·n − mmax.
	disc, over int64
	ins, del   int64
	idle       int64
	step       int64 // steps made
	out        [1]uint32
	low        lowered  // the rule, if it is told of deletions
	maps       [][]byte // the huge-page mappings behind L and balls (see words)
}

// words returns n zeroed uint32s for the loads or the ball array: from
// 2 MiB on, mapped with huge pages (mapHuge), so that a step's random
// reads in them do not each miss the TLB; below, or if the mapping fails,
// on the Go heap. release unmaps them.
func (st *dynState) words(n int) []uint32 {
	if useHugePages && 4*n >= hugePageSize {
		if mem, mapping := mapHuge(4 * n); mem != nil {
			st.maps = append(st.maps, mapping)
			return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(mem))), n)
		}
	}
	return make([]uint32, n)
}

// release unmaps the state's huge-page arrays: the state is not read after.
func (st *dynState) release() {
	for _, m := range st.maps {
		unmapHuge(m)
	}
	st.maps, st.L, st.L8, st.balls = nil, nil, nil, nil
}

// dynGone marks a ball of a sequence that is deleted.
const dynGone = math.MaxUint32

// Trial runs trial i of c.
func (c Dynamic) Trial(ctx context.Context, i int) (DynamicResult, error) {
	res, st, err := c.trial(ctx, i, true)
	if st != nil {
		st.release()
	}
	return res, err
}

// trial runs trial i of c, through the generated loop if there is one for
// the rule and fast is set, and returns its final state as well, which the
// caller releases (on an error trial releases it).
func (c Dynamic) trial(ctx context.Context, i int, fast bool) (DynamicResult, *dynState, error) {
	if err := c.Check(); err != nil {
		return DynamicResult{}, nil, err
	}
	r := TrialRand(c.Seed, i)
	ru := c.Process.(batchable).rule(c.N)
	st := c.start(ru, r)
	res := DynamicResult{Trial: i}
	var loop func(st *dynState, k int64, r *Rand)
	if fast {
		loop = c.fastLoop(ru)
	}
	if loop != nil && c.N >= compactMin && st.mx < limit8 { // fewer bins fit in L2 at four bytes (see compactMin)
		st.narrow()
	}
	for st.step < c.Steps {
		next := c.Steps
		if c.Every > 0 {
			next = min(c.Steps, (st.step/c.Every+1)*c.Every)
		}
		for st.step < next {
			if err := ctx.Err(); err != nil {
				st.release()
				return DynamicResult{}, nil, err
			}
			k := min(next-st.step, dynChunk)
			st.grow(k)
			if loop != nil {
				loop(st, k, r)
				st.step += k
				// The balls present stay m: every quantity peaks with the max.
				x := int64(st.win)*int64(c.N) - st.m
				st.disc, st.over = max(st.disc, x), max(st.over, x)
			} else {
				c.steps(st, ru, k, r)
			}
		}
		if c.Every > 0 {
			res.Series = append(res.Series, st.point(c.N))
		}
	}
	if st.L8 != nil {
		st.widen()
	}
	c.finish(st, &res)
	return res, st, nil
}

// start sets up the state and places the initial balls by the rule. Under
// DeleteABKU, whose deleted ball is uniform whatever the order of the ball
// array, the static process places them in one run of the rule, and the
// array lists the balls bin by bin, bin 0's first; under DeleteFIFO each
// ball is placed and recorded in turn, so that the array holds them oldest
// first.
func (c Dynamic) start(ru rule, r *Rand) *dynState {
	st := &dynState{tail: make([]uint32, 64)}
	st.L = st.words(c.N)
	st.tail[0] = uint32(c.N)
	st.low, _ = ru.(lowered)
	switch c.Del.Model {
	case DeleteABKU:
		if a, ok := ru.(averaged); ok {
			a.setBalls(0)
		}
		ru.run(st.L, c.M, nil, r)
		st.balls = st.words(int(c.M))[:0]
		clear(st.tail)
		for b, l := range st.L { // the bins at each load, summed from the top below
			if int(l) >= len(st.tail) {
				st.tail = append(st.tail, make([]uint32, int(l)+1-len(st.tail))...)
			}
			st.tail[l]++
			st.mx = max(st.mx, l)
			for range l {
				st.balls = append(st.balls, uint32(b))
			}
		}
		for l := len(st.tail) - 2; l >= 0; l-- {
			st.tail[l] += st.tail[l+1]
		}
		st.m = c.M
	case DeleteFIFO:
		st.balls = st.words(int(c.M))
	case DeleteRandom:
		st.ne, st.pos = make([]uint32, 0, c.N), make([]uint32, c.N)
	case DeleteSequence:
		var k int
		for _, op := range c.Del.Ops[:c.Steps] {
			if op.Delete == 0 {
				k++
			}
		}
		st.balls = make([]uint32, 0, k)
	}
	if c.Del.Model != DeleteABKU {
		for j := int64(0); j < c.M; j++ {
			if j&(dynChunk-1) == 0 {
				st.grow(dynChunk)
			}
			bin := st.insert(ru, r)
			if c.Del.Model == DeleteFIFO {
				st.balls[j] = bin
			}
		}
	}
	st.ins = c.M
	st.mmax = st.m
	st.win = st.mx
	st.disc = int64(st.mx)*int64(c.N) - st.m
	st.over = st.disc
	return st
}

// grow makes room in the level counts for the max to rise by k.
func (st *dynState) grow(k int64) {
	if need := int64(st.mx) + k + 2; need > int64(len(st.tail)) {
		c := make([]uint32, max(need, 2*int64(len(st.tail))))
		copy(c, st.tail)
		st.tail = c
	}
}

// raise adds a ball to bin b.
func (st *dynState) raise(b uint32) {
	l := st.L[b]
	st.L[b] = l + 1
	st.tail[l+1]++
	st.mx = max(st.mx, l+1)
	if st.ne != nil && l == 0 {
		st.pos[b] = uint32(len(st.ne))
		st.ne = append(st.ne, b)
	}
	st.m++
	st.ins++
}

// lower removes a ball from bin b, which holds one.
func (st *dynState) lower(b uint32) {
	l := st.L[b]
	st.L[b] = l - 1
	st.tail[l]--
	if l == st.mx && st.tail[l] == 0 {
		st.mx--
	}
	if st.ne != nil && l == 1 {
		last := st.ne[len(st.ne)-1]
		p := st.pos[b]
		st.ne[p], st.pos[last] = last, p
		st.ne = st.ne[:len(st.ne)-1]
	}
	st.m--
	st.del++
	if st.low != nil {
		st.low.lower(b, l-1)
	}
}

// observe folds the state after a step into the window's extremes.
func (st *dynState) observe(n int64) {
	st.win = max(st.win, st.mx)
	st.mmax = max(st.mmax, st.m)
	x := int64(st.mx) * n
	st.disc = max(st.disc, x-st.m)
	st.over = max(st.over, x-st.mmax)
}

// insert adds a ball by the rule, one call of its run, and returns its bin.
// A rule that reads the average load is told the balls present first.
func (st *dynState) insert(ru rule, r *Rand) uint32 {
	if a, ok := ru.(averaged); ok {
		a.setBalls(st.m)
	}
	ru.run(st.L, 1, st.out[:], r)
	st.raise(st.out[0])
	return st.out[0]
}

// steps makes k steps through the rule, one call a step: the driver of
// every rule and model.
func (c Dynamic) steps(st *dynState, ru rule, k int64, r *Rand) {
	n := int64(c.N)
	insert := func() uint32 { return st.insert(ru, r) }
	for end := st.step + k; st.step < end; st.step++ {
		switch c.Del.Model {
		case DeleteABKU, DeleteFIFO:
			var i uint64
			if c.Del.Model == DeleteABKU {
				i = r.Uint64n(uint64(len(st.balls)))
			} else {
				i = st.head
				if st.head++; st.head == uint64(len(st.balls)) {
					st.head = 0
				}
			}
			st.lower(st.balls[i])
			st.balls[i] = insert()
		case DeleteRandom:
			if randomInsert(r, betaAt(c.Del.Phases, st.step)) {
				insert()
			} else if len(st.ne) == 0 {
				st.idle++
			} else {
				st.lower(st.ne[r.Uint64n(uint64(len(st.ne)))])
			}
		case DeleteSequence:
			if op := c.Del.Ops[st.step]; op.Delete == 0 {
				st.balls = append(st.balls, insert())
			} else {
				st.lower(st.balls[op.Delete-1])
				st.balls[op.Delete-1] = dynGone
			}
		}
		st.observe(n)
	}
}

// randomInsert draws DeleteRandom's coin: an insertion with probability β.
func randomInsert(r *Rand, beta float64) bool {
	x := r.Uint64()
	if beta >= 1 {
		return true
	}
	return x < uint64(math.Ldexp(beta, 64))
}

// betaAt returns β at step t (from 0) of the phases.
func betaAt(ph []Phase, t int64) float64 {
	for _, p := range ph {
		if p.Steps == 0 || t < p.Steps {
			return p.Beta
		}
		t -= p.Steps
	}
	return ph[len(ph)-1].Beta
}

// point is the series sample of the state.
func (st *dynState) point(n int) DynPoint {
	x, fn := float64(st.mx), float64(n)
	return DynPoint{Step: st.step, Balls: st.m, MaxLoad: st.mx,
		Discrepancy: x - float64(st.m)/fn, Overload: x - float64(st.mmax)/fn}
}

// finish writes the trial's result from its final state.
func (c Dynamic) finish(st *dynState, res *DynamicResult) {
	p := st.point(c.N)
	res.MaxLoad, res.Balls, res.MaxBalls = st.mx, st.m, st.mmax
	res.Discrepancy, res.Overload = p.Discrepancy, p.Overload
	fn := float64(c.N)
	res.WindowMaxLoad = st.win
	res.MaxDiscrepancy, res.MaxOverload = float64(st.disc)/fn, float64(st.over)/fn
	res.Inserted, res.Deleted, res.Idle = st.ins-c.M, st.del, st.idle
	res.LoadCounts = make([]int64, st.mx+1)
	for l := range res.LoadCounts {
		res.LoadCounts[l] = int64(st.tail[l] - st.tail[l+1])
	}
}

// fastLoop returns the generated loop of the rule and model, or nil for the
// generic driver.
func (c Dynamic) fastLoop(ru rule) func(st *dynState, k int64, r *Rand) {
	if c.Del.Model != DeleteABKU && c.Del.Model != DeleteFIFO {
		return nil
	}
	fifo := c.Del.Model == DeleteFIFO
	switch g := ru.(type) {
	case oneChoiceRule:
		return dynBind(fifo, 1, dynUniformLoops)
	case greedyRule:
		if g.d <= maxDynD {
			return dynBind(fifo, g.d, dynUniformLoops)
		}
	case regularEdgeRule:
		if !g.lazy {
			return dynBind(fifo, g, dynRegularLoops)
		}
	case edgeRule:
		if !g.lazy {
			return dynBind(fifo, g, dynEdgeLoops)
		}
	}
	return nil
}

// dynBind returns the model's loop of a sampler, abku's or fifo's, with
// the sampler's parameter p bound: it makes the steps on one-byte loads
// while the state has them (see narrow), and widens the loads, for the
// steps left and every later call, once a load reaches limit8. The call
// through the closure comes once a chunk of steps, not a step.
func dynBind[P any](fifo bool, p P, loops dynLoops[P]) func(*dynState, int64, *Rand) {
	m := 0
	if fifo {
		m = 1
	}
	narrow, wide := loops.narrow[m], loops.wide[m]
	return func(st *dynState, k int64, r *Rand) {
		if st.L8 != nil {
			k -= narrow(st, st.L8, k, p, r)
			if st.mx >= limit8 { // the loop stops after a step that raises a load to limit8
				st.widen()
			}
		}
		if k > 0 {
			wide(st, st.L, k, p, r)
		}
	}
}

// narrow makes the loads one byte a bin, in place: L8 views the first n
// bytes of L's array, so the loads a step reads take a quarter of the
// cache. Byte i lies in word i/4 ≤ i, read before it is written.
func (st *dynState) narrow() {
	st.L8 = unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(st.L))), len(st.L))
	for i, l := range st.L {
		st.L8[i] = uint8(l)
	}
}

// widen makes the loads four bytes a bin again, in place, from the last
// bin down: word i holds bytes 4i to 4i+3 ≥ i, read before it is written.
func (st *dynState) widen() {
	for i := len(st.L) - 1; i >= 0; i-- {
		st.L[i] = uint32(st.L8[i])
	}
	st.L8 = nil
}

// RunDynamic runs the given trials of c on workers goroutines (all CPUs if
// workers ≤ 0) and calls emit with each result in the order of trials,
// from the calling goroutine, as Run does. Results do not depend on
// workers.
func RunDynamic(ctx context.Context, c Dynamic, trials []int, workers int, emit func(DynamicResult) error) error {
	if err := c.Check(); err != nil {
		return err
	}
	return RunTrials(ctx, trials, workers, func() func(context.Context, int) (DynamicResult, error) { return c.Trial }, emit)
}

// lowered is a rule whose record of the loads assumes that loads only
// grow: the dynamic engine tells it of every deletion.
type lowered interface {
	// lower says that bin b now holds l balls, one fewer than before.
	lower(b, l uint32)
}

// lower keeps local search's least load a lower bound of the loads (the
// walks stop at a bin holding it, which must then be a global minimum): a
// deletion can only bring the least load down to the bin it left. On K_n
// the index of the least loaded bins is rebuilt at the next ball, O(n).
func (g *lsRule) lower(_, l uint32) {
	g.mu = min(g.mu, uint64(l))
	g.built = false
}

// MostBalls is the most balls present in a run of c: m for abku and fifo,
// the sequence's peak, or for random deletions (unknown in advance) m plus
// the steps.
func (c Dynamic) MostBalls() int64 {
	switch c.Del.Model {
	case DeleteSequence:
		var m, top int64
		for _, op := range c.Del.Ops[:c.Steps] {
			if op.Delete == 0 {
				m++
			} else {
				m--
			}
			top = max(top, m)
		}
		return top
	case DeleteRandom:
		return c.M + c.Steps
	}
	return c.M
}
