package alloc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// refDynamic replays trial 0 of c with a plain loop: the deletion drawn as
// the engine draws it (dynamic.go, "Randomness"), the insertion chosen by
// the process's reference rule (refChoose, reference_test.go), which only
// reads the loads (random deletions: TestDynamicRandomReference). It returns the final loads and each step's max load and
// balls present.
func refDynamic(t *testing.T, c Dynamic) (L []uint32, mx []uint32, balls []int64) {
	t.Helper()
	r := TrialRand(c.Seed, 0)
	L = make([]uint32, c.N)
	var stateful func(L []uint32, r *Rand) uint64
	if _, ok := c.Process.(Memory); ok {
		stateful = refStateful(c.Process.(Process), c.N) // memory_test.go
	}
	choose := func() uint64 {
		if stateful != nil {
			return stateful(L, r)
		}
		if walkSampled(c.Process.(Process)) {
			return refWalkChoose(t, c.Process.(Process), L, r)
		}
		return refChoose(t, c.Process.(Process), L, 0, r)
	}
	var live []uint32 // abku, fifo: the bin of each ball; sequence: of each insertion
	for range c.M {
		b := choose()
		L[b]++
		live = append(live, uint32(b))
	}
	if c.Del.Model == DeleteABKU { // the engine lists the initial balls bin by bin
		live = live[:0]
		for b, l := range L {
			for range l {
				live = append(live, uint32(b))
			}
		}
	}
	var head int
	for step := int64(0); step < c.Steps; step++ {
		switch c.Del.Model {
		case DeleteABKU, DeleteFIFO:
			i := head
			if c.Del.Model == DeleteABKU {
				i = int(r.Uint64n(uint64(len(live))))
			} else if head++; head == len(live) {
				head = 0
			}
			L[live[i]]--
			b := choose()
			L[b]++
			live[i] = uint32(b)
		case DeleteSequence:
			if op := c.Del.Ops[step]; op.Delete == 0 {
				b := choose()
				L[b]++
				live = append(live, uint32(b))
			} else {
				L[live[op.Delete-1]]--
			}
		}
		m := int64(0)
		var top uint32
		for _, l := range L {
			m += int64(l)
			top = max(top, l)
		}
		mx, balls = append(mx, top), append(balls, m)
	}
	return L, mx, balls
}

// dynCases are the processes the replay runs: every sampler kind (uniform,
// groups, graphs by edge, vertex and walk, circulants, K_n, hypergraphs),
// and the rules with a loop of their own.
func dynCases(t *testing.T) []struct {
	name string
	n    int
	p    Process
} {
	var out []struct {
		name string
		n    int
		p    Process
	}
	for _, tc := range contractCases(t) {
		switch tc.p.(type) {
		case KD, Quantile, Twinning, Packing:
			continue // a state beside the loads, or several balls a step: refused, see TestDynamicRefuses
		}
		if tc.n < 2 || strings.HasPrefix(tc.name, "local-search") && tc.n > 200 {
			continue
		}
		out = append(out, tc)
	}
	src := rand.NewPCG(5, 6)
	gnp, err := graphgen.Gnp(300, 0.03, src) // not regular: the flat edge array
	if err != nil {
		t.Fatal(err)
	}
	walk, err := ParseSampling("walk:len=3")
	if err != nil {
		t.Fatal(err)
	}
	reg, _, err := graphgen.RandomRegular(200, 4, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range memoryKDCases() {
		if _, ok := tc.p.(Memory); ok && tc.n > 1 {
			out = append(out, tc)
		}
	}
	return append(out, []struct {
		name string
		n    int
		p    Process
	}{
		{"graph/gnp/edge", 300, Graphical{Graph: gnp}},
		{"graph/gnp/edge/left", 300, Graphical{Graph: gnp, Ties: TiesLeft}},
		{"greedy/d=3", 500, Greedy{D: 3}},
		{"greedy/d=4", 500, Greedy{D: 4}},
		{"graph/regular/walk", 200, Graphical{Graph: reg, Sample: walk}},
	}...)
}

// TestDynamicReference replays abku, fifo and a sequence step for step
// against each engine path: the generated loops (where the rule has one),
// on four-byte and on one-byte loads, and the generic driver must all give
// the reference's loads, and its max load and balls after every step
// (Every 1: a loop call a step) or the final loads (Every 0: the loops'
// steady state, their ring full, runs all 700 steps in one call).
func TestDynamicReference(t *testing.T) {
	seq := randomSequence(400, 3)
	for _, tc := range dynCases(t) {
		for _, del := range []Deletions{{Model: DeleteABKU}, {Model: DeleteFIFO}, {Model: DeleteSequence, Ops: seq}} {
			for _, every := range []int64{1, 0} {
				c := Dynamic{Process: tc.p, N: tc.n, M: int64(tc.n), Steps: 700, Del: del, Seed: 7, Every: every}
				if del.Model == DeleteSequence {
					c.M, c.Steps = 0, int64(len(seq))
				}
				checkDynamic(t, tc.name, c)
			}
		}
	}
}

// TestDynamicWiden runs the generated loops from one-byte loads through
// runs whose loads reach 254 (at 252 balls a bin): a loop stops after
// the step that raises a load to limit8, the loads widen, and the steps
// go on on four bytes a bin, as the reference makes them.
func TestDynamicWiden(t *testing.T) {
	reg, _, err := graphgen.RandomRegular(8, 3, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	gnp, err := graphgen.Gnp(8, 0.9, rand.NewPCG(3, 4)) // not regular: the flat edge array
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Process{Greedy{D: 2}, Graphical{Graph: reg}, Graphical{Graph: reg, Ties: TiesLeft}, Graphical{Graph: gnp}} {
		for _, del := range []Deletions{{Model: DeleteABKU}, {Model: DeleteFIFO}} {
			// Every 1: a loop call a step; 0 and 37: a loop stops inside a call.
			for _, every := range []int64{1, 0, 37} {
				c := Dynamic{Process: p, N: 8, M: 8 * 252, Steps: 700, Del: del, Seed: 7, Every: every}
				res := checkDynamic(t, fmt.Sprint(p), c)
				if start := c.start(p.(batchable).rule(c.N), TrialRand(c.Seed, 0)).mx; start >= limit8 || res.WindowMaxLoad < limit8 {
					t.Fatalf("%v/%s: max load %d at the start, %d in the window: a load does not reach limit8", p, del.Model, start, res.WindowMaxLoad)
				}
			}
		}
	}
}

// checkDynamic checks trial 0 of c against the reference on every engine
// path (see TestDynamicReference; the generated loops with and without
// prefetches) and returns the result of the generated loops on one-byte
// loads.
func checkDynamic(t *testing.T, name string, c Dynamic) DynamicResult {
	t.Helper()
	if err := c.Check(); err != nil {
		t.Fatalf("%s/%s: %v", name, c.Del.Model, err)
	}
	defer func(compact int, pipe uintptr) { compactMin, pipelineMin = compact, pipe }(compactMin, pipelineMin)
	L, mx, balls := refDynamic(t, c)
	var res DynamicResult
	for _, path := range []struct {
		fast        bool
		compactMin  int
		pipelineMin uintptr
	}{{false, 0, 0}, {true, compactMinBins, pipelineMin}, {true, compactMinBins, 0}, {true, 0, 0}} {
		compactMin, pipelineMin = path.compactMin, path.pipelineMin
		var st *dynState
		var err error
		res, st, err = c.trial(context.Background(), 0, path.fast)
		if err != nil {
			t.Fatal(err)
		}
		at := fmt.Sprintf("%s/%s/every=%d fast=%v compactMin=%d pipelineMin=%d", name, c.Del.Model, c.Every, path.fast, path.compactMin, path.pipelineMin)
		if !slices.Equal(st.L, L) {
			t.Fatalf("%s: loads differ from the reference", at)
		}
		for _, p := range res.Series {
			if j := p.Step - 1; p.MaxLoad != mx[j] || p.Balls != balls[j] {
				t.Fatalf("%s: step %d: max %d balls %d, reference %d %d", at, p.Step, p.MaxLoad, p.Balls, mx[j], balls[j])
			}
		}
		// The window holds the start (the static placement, or empty
		// bins for a sequence) and every step.
		if w := max(slices.Max(mx), c.start(c.Process.(batchable).rule(c.N), TrialRand(c.Seed, 0)).mx); res.WindowMaxLoad != w {
			t.Fatalf("%s: window max %d, reference %d", at, res.WindowMaxLoad, w)
		}
	}
	return res
}

// randomSequence is an oblivious sequence of k operations from seed: an
// insert, or a delete of a uniform live ball, each with probability 1/2.
func randomSequence(k int, seed uint64) []Op {
	r := rand.New(rand.NewPCG(seed, seed))
	var ops []Op
	var live []int64
	var ins int64
	for range k {
		if len(live) == 0 || r.IntN(2) == 0 {
			ins++
			live = append(live, ins)
			ops = append(ops, Op{})
			continue
		}
		j := r.IntN(len(live))
		ops = append(ops, Op{Delete: live[j]})
		live[j] = live[len(live)-1]
		live = live[:len(live)-1]
	}
	return ops
}

// TestDynamicRandomReference replays random deletions (β(t) with a
// schedule) against a plain loop that keeps the non-empty bins as the
// engine documents: a list with swap-remove, a bin appended when it
// receives its first ball.
func TestDynamicRandomReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Process
	}{{"greedy", Greedy{D: 2}}, {"one-choice", OneChoice{}}, {"left", Left{D: 2}}} {
		ph := []Phase{{Beta: 0.7, Steps: 3000}, {Beta: 0.45, Steps: 2000}, {Beta: 0.5}}
		c := Dynamic{Process: tc.p, N: 300, M: 50, Steps: 8000, Del: Deletions{Model: DeleteRandom, Phases: ph}, Seed: 3, Every: 1}
		r := TrialRand(c.Seed, 0)
		L := make([]uint32, c.N)
		var ne []uint32
		pos := make([]int, c.N)
		add := func(b uint64) {
			if L[b] == 0 {
				pos[b] = len(ne)
				ne = append(ne, uint32(b))
			}
			L[b]++
		}
		for range c.M {
			add(refChoose(t, tc.p, L, 0, r))
		}
		res, st, err := c.trial(context.Background(), 0, true)
		if err != nil {
			t.Fatal(err)
		}
		// β at each step, written out from the phases (the last runs to the
		// end), and the insert decision as a uniform x in [0, 1) below β: the
		// engine's own betaAt and randomInsert are not used.
		var beta []float64
		for k, p := range ph {
			for i := int64(0); (k == len(ph)-1 || i < p.Steps) && int64(len(beta)) < c.Steps; i++ {
				beta = append(beta, p.Beta)
			}
		}
		var idle int64
		for step := range c.Steps {
			if x := float64(r.Uint64()) / (1 << 64); x < beta[step] {
				add(refChoose(t, tc.p, L, 0, r))
			} else if len(ne) == 0 {
				idle++
			} else {
				b := ne[r.Uint64n(uint64(len(ne)))]
				if L[b]--; L[b] == 0 {
					last := ne[len(ne)-1]
					ne[pos[b]], pos[last] = last, pos[b]
					ne = ne[:len(ne)-1]
				}
			}
			var m int64
			var mx uint32
			for _, l := range L {
				m, mx = m+int64(l), max(mx, l)
			}
			if p := res.Series[step]; p.Balls != m || p.MaxLoad != mx {
				t.Fatalf("%s: step %d: engine max %d balls %d, reference %d %d", tc.name, step, p.MaxLoad, p.Balls, mx, m)
			}
		}
		if !slices.Equal(st.L, L) || res.Idle != idle {
			t.Fatalf("%s: final loads or idle deletions (%d, reference %d) differ", tc.name, res.Idle, idle)
		}
	}
}

// TestDynamicWorkers: the same seed gives the same results whatever the
// worker count.
func TestDynamicWorkers(t *testing.T) {
	c := Dynamic{Process: Greedy{D: 2}, N: 1000, M: 1000, Steps: 20000, Del: Deletions{Model: DeleteABKU}, Seed: 11, Every: 5000}
	var runs [2][]DynamicResult
	for w, workers := range []int{1, 3} {
		err := RunDynamic(context.Background(), c, []int{0, 1, 2, 3, 4}, workers, func(r DynamicResult) error {
			runs[w] = append(runs[w], r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for j := range runs[0] {
		a, b := runs[0][j], runs[1][j]
		if a.Trial != b.Trial || !slices.Equal(a.LoadCounts, b.LoadCounts) || !slices.Equal(a.Series, b.Series) {
			t.Fatalf("trial %d differs between 1 and 3 workers", a.Trial)
		}
	}
}

// TestDynamicRefuses: rules without a per-ball form, and bad sequences.
func TestDynamicRefuses(t *testing.T) {
	for _, p := range []Rule{KD{D: 3, K: 2}, Quantile{Delta: 0.5}, Twinning{}, Packing{}, Weighted{D: 2}} {
		c := Dynamic{Process: p, N: 100, M: 100, Steps: 10, Del: Deletions{Model: DeleteABKU}}
		if err := c.Check(); err == nil {
			t.Errorf("%v: deletions accepted", p)
		}
	}
	for _, in := range []string{"insert\ndelete 2\n", "delete 1\n", "insert\ndelete 1\ndelete 1\n", "insert\nremove 1\n", "", "insert\ndelete x\n"} {
		if _, err := ReadOps(strings.NewReader(in)); err == nil {
			t.Errorf("ReadOps(%q) accepted", in)
		}
	}
	ops, err := ReadOps(strings.NewReader("# a comment\ninsert\ni\n\nd 1\ndelete 2\n"))
	if err != nil || len(ops) != 4 || ops[2].Delete != 1 || ops[3].Delete != 2 {
		t.Fatalf("ReadOps: %v, %v", ops, err)
	}
	count := func(s string) (int64, error) { return 10, nil }
	for _, s := range []string{"abkux", "random:beta=1.5", "random:beta=-0.1", "random:beta=x", "random", "abku:x=1", "random:schedule=0.5:10/0.6:5", "file:"} {
		if _, err := ParseDeletions(s, count); err == nil {
			t.Errorf("ParseDeletions(%q) accepted", s)
		}
	}
	d, err := ParseDeletions("random:schedule=0.9:10/0.5", count)
	if err != nil || len(d.Phases) != 2 || d.String() != "random:schedule=0.9:10/0.5" {
		t.Fatalf("schedule: %v %v", d, err)
	}
}
