package study

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// ---------------------------------------------------------------------
// 13. information

// infoStudy reads Params: Ns (the sizes at m = n), HeavyNs and Load (the
// sizes at m = Load·n), HyperNs (the sizes of the hypergraphs), Trials.
var infoStudy = &Study{
	Name:   "information",
	Number: 13,
	Title:  "how much information buys how much balance: probes per ball against the gap, and max load against the hyperedge size",
	Question: "Each rule reads some bins per ball and buys some balance: one-choice reads one, Greedy[2] two, the thinning " +
		"rules between one and two, Twinning and Packing fewer than one, (1+β) 1 + β on average and (1, 1)-memory one fresh " +
		"bin and one remembered. At m = n and at m = 1000n, where does each rule sit on the plane of probes per ball " +
		"against the gap (max load − m/n), with the uncertainty of both, and which rules buy the most balance per probe? " +
		"On random s-uniform hypergraphs with k = n hyperedges, how does the max load at m = n fall with the rank s, " +
		"against Greedy[s], whose s bins are independent?",
	Sources: []string{"[ABKU99] Azar, Broder, Karlin, Upfal 1999", "[FG21] Feldheim, Gurel-Gurevich 2021",
		"[LSS22] Los, Sauerwald, Sylvester 2022", "[MPS02] Mitzenmacher, Prabhakar, Shah 2002",
		"[PTW15] Peres, Talwar, Wieder 2015", "[God08] Godfrey 2008"},
	Default: Params{Ns: powers(1<<16, 1<<20, 4), HeavyNs: powers(1<<10, 1<<12, 4), Load: 1000,
		HyperNs: powers(1<<16, 1<<18, 4), Trials: 16},
	// The whole grid: 10^9 balls a trial and rule at n = 2^20, m = 1000n,
	// where one trial of every rule takes about 70 s of CPU (Memory[1, 1]
	// half of it): some 35 minutes in all.
	Full: Params{Ns: powers(1<<16, 1<<20, 2), HeavyNs: powers(1<<16, 1<<20, 2), Load: 1000,
		HyperNs: powers(1<<16, 1<<20, 2), Trials: 16},
	Tiny: Params{Ns: []int{1 << 8, 1 << 10}, HeavyNs: []int{1 << 8}, Load: 50, HyperNs: []int{1 << 8, 1 << 10}, Trials: 3},
	uses: []string{"Ns", "HeavyNs", "HyperNs", "Load", "Trials"},
	run:  runInfo,
}

// infoBeta is β of the (1+β) rule: 1.5 probes a ball, about what
// Mean-Thinning spends (1 + ln cosh 1 ≈ 1.43 at m = n, about 1.5 under
// heavy load), so that the two compare at nearly equal information.
const infoBeta = 0.5

// infoThresholds are the L of Threshold(L) at m = n. L = 1 is
// Mean-Thinning's rule while the average is below 1; [FG21] show that no
// two-thinning rule keeps the max load below (1 − o(1))·√(8 ln n / ln ln n)
// (6.1 to 6.5 for n = 2^16..2^20), and graphalloc does not implement their
// best rule (docs/theory.md), so the study sweeps L and lets the data say
// which threshold buys the most.
var infoThresholds = []int{1, 2, 3, 4}

// infoRanks are the hyperedge sizes s of the hypergraph sweep.
var infoRanks = []int{2, 3, 4, 5, 6, 7, 8}

// infoRule is a rule of the study with its parameters, label and the
// series of the figure it belongs to, in that series' colour and marker:
// the same in both panels, one-choice grey as the baseline.
type infoRule struct {
	name         string
	params       alloc.Params
	label        string
	group        string
	color, shape int
}

func newInfoRule(name string, p alloc.Params, group string, color, shape int) infoRule {
	label := processLabel(name, p)
	if group == "" {
		group = label
	}
	return infoRule{name: name, params: p, label: label, group: group, color: color, shape: shape}
}

// infoRules returns the rules run at m/n = load, in the order of the
// tables (by the bins they read) and of the figure's series (drawn in this
// order: Twinning over Packing, whose points coincide at m = n, and
// Greedy[2] over Memory[1, 1]). The thresholds run only at m = n, where a
// fixed threshold is meant to run (alloc.Threshold); Mean-Thinning is
// drawn after them, over Threshold, L = 1, the same rule at m = n but for
// the first ball.
func infoRules(load int64) []infoRule {
	rs := []infoRule{
		newInfoRule(alloc.Packing{}.Name(), alloc.Params{}, "", 1, 1),
		newInfoRule(alloc.Twinning{}.Name(), alloc.Params{}, "", 2, 3),
		newInfoRule(nameOneChoice, alloc.Params{D: 1}, "", -1, 0),
	}
	if load == 1 {
		for _, l := range infoThresholds {
			rs = append(rs, newInfoRule(alloc.Threshold{}.Name(), alloc.Params{Threshold: l},
				fmt.Sprintf("Threshold, L = %d..%d", infoThresholds[0], infoThresholds[len(infoThresholds)-1]), 4, 4))
		}
	}
	return append(rs,
		newInfoRule(alloc.MeanThinning{}.Name(), alloc.Params{}, "", 3, 2),
		newInfoRule(nameOnePlusBeta, alloc.Params{Beta: infoBeta}, "", 5, 5),
		newInfoRule(alloc.Memory{}.Name(), alloc.Params{D: 1, Memory: 1}, "", 6, 6),
		newInfoRule(nameGreedy, alloc.Params{D: 2}, "", 0, 0))
}

// infoPoint is a rule's outcome at one (n, m): probes per ball and the
// gap over the trials.
type infoPoint struct {
	rule     infoRule
	probes   float64
	probesCI Interval
	gap      analysis.Summary
	perProbe float64 // balance per probe: (one-choice's gap − gap) / probes
}

// spreadString is the distribution of a sample as countsString prints
// it, or its range "min..max" when it has more than six values (one-choice's
// gap under heavy load).
func spreadString(s analysis.Summary) string {
	if len(s.Counts) > 6 {
		return fmt.Sprintf("%g..%g (%d values)", s.Min, s.Max, len(s.Counts))
	}
	return countsString(s.Counts)
}

// probesPerBallCI returns the mean over the trials of probes / m and its 95%
// interval (Student's t; [v, v] when every trial read the same number).
func probesPerBallCI(pt *point) (float64, Interval) {
	var x []float64
	for _, res := range pt.Results {
		x = append(x, float64(res.Probes)/float64(pt.Row.M))
	}
	return meanCI(x)
}

// frontier returns the points no other point beats: none reads at most as
// many bins a ball with a smaller mean gap, or fewer bins with a gap at
// most as large, the means compared as the tables print them (probes to
// three decimals, gaps to two: Memory[1, 1]'s 2 − 1/m probes are
// Greedy[2]'s 2). In order of probes, as printed; ties in the order of pts.
func frontier(pts []infoPoint) []infoPoint {
	round := func(x, unit float64) float64 { return math.Round(x / unit) }
	var out []infoPoint
	for _, p := range pts {
		pp, pg := round(p.probes, 1e-3), round(p.gap.Mean, 1e-2)
		beaten := slices.ContainsFunc(pts, func(q infoPoint) bool {
			qp, qg := round(q.probes, 1e-3), round(q.gap.Mean, 1e-2)
			return qp <= pp && qg < pg || qp < pp && qg <= pg
		})
		if !beaten {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b infoPoint) int { return cmpFloat(round(a.probes, 1e-3), round(b.probes, 1e-3)) })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// apart reports whether a's gap interval lies wholly below b's; false
// when either has no interval (one trial).
func apart(a, b analysis.Summary) bool {
	if a.IntervalMethod == analysis.IntervalNone || b.IntervalMethod == analysis.IntervalNone {
		return false
	}
	return a.CI95[1] < b.CI95[0]
}

func runInfo(_ context.Context, r *runner, p Params) (*Report, error) {
	light, heavy := infoRules(1), infoRules(p.Load)
	r.plan(len(p.Ns)*len(light) + len(p.HeavyNs)*len(heavy) + 2*len(p.HyperNs)*len(infoRanks))
	fig := &figure.Figure{}
	nl, nh := largest(p.Ns), largest(p.HeavyNs)
	pa := fig.Add(&figure.Panel{Title: fmt.Sprintf("(a) m = n = %s: gap against probes per ball (mean, 95%% CI)", pow2(int64(nl))),
		XLabel: "probes per ball", YLabel: "gap (max load − 1)", XScale: figure.ScaleLog})
	pb := fig.Add(&figure.Panel{Title: fmt.Sprintf("(b) m = %dn, n = %s: gap against probes per ball (mean, 95%% CI)", p.Load, pow2(int64(nh))),
		XLabel: "probes per ball", YLabel: "gap (max load − m/n)", XScale: figure.ScaleLog, YScale: figure.ScaleLog})
	pc := fig.Add(&figure.Panel{Title: "(c) random s-uniform hypergraphs, k = n, m = n: max load against s (mean, 95% CI)",
		XLabel: "s (vertices of a hyperedge, probes per ball)", XInt: true, YLabel: "max load"})

	cols := []string{"rule", "", "n", "", "probes/ball", "%.3f", "95% CI", "%.3f", "gap", "%.2f", "95% CI ", "%.2f",
		"distribution", "", "balance/probe", "%.2f"}
	ta := newTable("light", "(a) m = n: probes per ball and gap (max load − m/n), mean over the trials with 95% CI; distribution: the gaps and how many trials gave each (their range beyond six values)", cols...)
	tb := newTable("heavy", fmt.Sprintf("(b) m = %dn: probes per ball and gap (max load − m/n), mean over the trials with 95%% CI", p.Load), cols...)
	var findings []string
	for _, sweep := range []struct {
		t     *Table
		ns    []int
		load  int64
		rules []infoRule
		panel *figure.Panel
	}{{ta, p.Ns, 1, light, pa}, {tb, p.HeavyNs, p.Load, heavy, pb}} {
		var pts []infoPoint // at the last n
		for _, n := range sweep.ns {
			pts = pts[:0]
			for _, ru := range sweep.rules {
				pt, err := r.run(pointSpec{process: ru.name, params: ru.params, n: n, m: sweep.load * int64(n), trials: p.Trials})
				if err != nil {
					return nil, err
				}
				pr, ci := probesPerBallCI(pt)
				pts = append(pts, infoPoint{rule: ru, probes: pr, probesCI: ci, gap: pt.Row.Gap})
			}
			one := pts[slices.IndexFunc(pts, func(q infoPoint) bool { return q.rule.name == nameOneChoice })].gap.Mean
			for i := range pts {
				q := &pts[i]
				q.perProbe = (one - q.gap.Mean) / q.probes
				sweep.t.add(q.rule.label, pow2(int64(n)), q.probes, sampleCI(q.probesCI, q.gap.N), q.gap.Mean, summaryCI(q.gap), spreadString(q.gap), q.perProbe)
			}
		}
		// The figure and the findings at the last n.
		series := map[string]*figure.Series{}
		for _, q := range pts {
			s := series[q.rule.group]
			if s == nil {
				s = sweep.panel.Add(&figure.Series{Name: q.rule.group, Color: q.rule.color, Shape: q.rule.shape, Style: figure.StylePoints})
				series[q.rule.group] = s
			}
			s.Points = append(s.Points, ciPt(q.probes, q.gap))
		}
		findings = append(findings, infoFindings(sweep.ns[len(sweep.ns)-1], sweep.load, pts)...)
	}
	ta.Notes = []string{
		"probes/ball: bins read per ball (alloc.Stats), total over the trials / (m · trials); its 95% CI is Student's t over the trials, [v, v] when every trial read the same.",
		"balance/probe: (one-choice's mean gap − the rule's) / the rule's probes per ball, at the same n: the gap a bin read buys, against reading one bin and no choice.",
		"Memory[1, 1] reads two bins a ball, one fresh uniform bin and the one it remembered; Packing and Twinning read one bin a step and place one ball or more.",
		fmt.Sprintf("(1+β) with β = %g: 1.5 probes a ball, close to Mean-Thinning's, so that the two compare at about equal information.", infoBeta),
		"While the average load is below 1 (m ≤ n), Threshold, L = 1 is Mean-Thinning except at the first ball (which Mean-Thinning sends to its second bin),",
		"and Packing is Twinning, step for step (both put two balls in an empty bin and one in an occupied bin).",
	}
	tb.Notes = []string{
		"A fixed threshold L is meant for m = O(n) (once every bin holds L balls the rule is one-choice at two probes a ball), and",
		"graphalloc has no threshold that moves with time other than the average: Mean-Thinning is the thinning rule under heavy load.",
	}

	// (c) hypergraphs against Greedy[s].
	tc := newTable("hypergraph", "(c) m = n on random s-uniform hypergraphs with k = n hyperedges (hypergraph:rank=s,edges=n), a ball to the least loaded vertex of a uniform hyperedge, against Greedy[s] on n bins: max load, mean over the trials with 95% CI",
		"s", "", "n", "", "degree min..max", "", "hyper max load", "%.2f", "95% CI", "%.2f", "distribution", "",
		"Greedy[s]", "%.2f", "95% CI ", "%.2f", "ln ln n / ln s", "%.2f")
	type hyperRes struct{ hyper, greedy float64 }
	res := make(map[int][]hyperRes) // by n, in the order of infoRanks
	for ni, n := range p.HyperNs {
		hs := pc.Add(&figure.Series{Name: "hypergraph, n = " + pow2(int64(n)), Color: ni, Shape: ni, Style: figure.StylePoints})
		gs := pc.Add(&figure.Series{Color: ni, Style: figure.StyleDashed})
		for _, s := range infoRanks {
			ph, err := r.run(pointSpec{process: alloc.Hyper{}.Name(), graph: fmt.Sprintf("hypergraph:rank=%d,edges=%d", s, n), n: n, load: 1, trials: p.Trials})
			if err != nil {
				return nil, err
			}
			pg, err := r.run(pointSpec{process: nameGreedy, params: alloc.Params{D: float64(s)}, n: n, m: int64(n), trials: p.Trials})
			if err != nil {
				return nil, err
			}
			h, g := ph.Row, pg.Row
			var ref any
			if b, ok := boundNamed(g, "max load, m = n"); ok && b.Applies {
				ref = b.Value
			}
			deg := "-"
			if h.Degree != nil {
				deg = fmt.Sprintf("%d..%d", h.Degree.Min, h.Degree.Max)
			}
			tc.add(s, pow2(h.N), deg, h.MaxLoad.Mean, summaryCI(h.MaxLoad), countsString(h.MaxLoad.Counts),
				g.MaxLoad.Mean, summaryCI(g.MaxLoad), ref)
			hs.Points = append(hs.Points, ciPt(float64(s), h.MaxLoad))
			gs.Points = append(gs.Points, figure.Pt{X: float64(s), Y: g.MaxLoad.Mean})
			res[n] = append(res[n], hyperRes{h.MaxLoad.Mean, g.MaxLoad.Mean})
		}
	}
	pc.Add(&figure.Series{Name: "Greedy[s], s independent uniform bins", Color: -1, Style: figure.StyleDashed})
	tc.Notes = []string{
		"k = n: as many hyperedges as balls. A vertex lies in Binomial(n, s/n) ≈ Poisson(s) hyperedges, so about e^{-s} of the bins",
		"(13.5% at s = 2, 0.03% at s = 8) are in none and stay empty: the others share the balls. Each n builds one hypergraph per s, used by all its trials.",
		"ln ln n / ln s: the leading term of Greedy[s] at m = n [ABKU99], the yardstick of the complete s-uniform hypergraph.",
	}
	n := largest(p.HyperNs)
	hr := res[n]
	first, lastS := hr[0], hr[len(hr)-1]
	findings = append(findings, fmt.Sprintf("hypergraphs at n = %s: the max load falls from %.2f at s = %d to %.2f at s = %d (Greedy[s]: %.2f to %.2f); "+
		"the excess over Greedy[s] is %+.2f at s = %d and %+.2f at s = %d",
		pow2(int64(n)), first.hyper, infoRanks[0], lastS.hyper, infoRanks[len(infoRanks)-1], first.greedy, lastS.greedy,
		first.hyper-first.greedy, infoRanks[0], lastS.hyper-lastS.greedy, infoRanks[len(infoRanks)-1]))
	return &Report{Tables: []*Table{ta, tb, tc}, Findings: findings, Figure: fig}, nil
}

// infoFindings are the findings of one sweep at n: the rules ranked by
// the balance a probe buys, the rules no other beats on both probes and
// gap, and the pairs the page compares.
func infoFindings(n int, load int64, pts []infoPoint) []string {
	at := fmt.Sprintf("m = %dn, n = %s", load, pow2(int64(n)))
	if load == 1 {
		at = fmt.Sprintf("m = n = %s", pow2(int64(n)))
	}
	var ranked []string
	byBuy := slices.Clone(pts)
	slices.SortStableFunc(byBuy, func(a, b infoPoint) int { return cmpFloat(b.perProbe, a.perProbe) })
	for _, q := range byBuy {
		if q.rule.name != nameOneChoice {
			ranked = append(ranked, fmt.Sprintf("%s (%.2f)", q.rule.label, q.perProbe))
		}
	}
	out := []string{fmt.Sprintf("%s: balance bought per probe (from the means), most first: %s", at, strings.Join(ranked, ", "))}
	var parts []string
	for _, q := range frontier(pts) {
		parts = append(parts, fmt.Sprintf("%s (%.3f probes, gap %.2f)", q.rule.label, q.probes, q.gap.Mean))
	}
	out = append(out, fmt.Sprintf("%s: no other rule reads at most as many bins for a smaller mean gap than %s", at, strings.Join(parts, ", ")))
	find := func(label string) (infoPoint, bool) {
		i := slices.IndexFunc(pts, func(q infoPoint) bool { return q.rule.label == label })
		if i < 0 {
			return infoPoint{}, false
		}
		return pts[i], true
	}
	compare := func(a, b string) {
		pa, ok1 := find(a)
		pb, ok2 := find(b)
		if !ok1 || !ok2 {
			return
		}
		verdict := "their 95% intervals overlap"
		switch {
		case pa.gap.IntervalMethod == analysis.IntervalNone || pb.gap.IntervalMethod == analysis.IntervalNone:
			verdict = "no interval from one trial"
		case apart(pa.gap, pb.gap):
			verdict = fmt.Sprintf("%s's interval lies below %s's", a, b)
		case apart(pb.gap, pa.gap):
			verdict = fmt.Sprintf("%s's interval lies below %s's", b, a)
		}
		out = append(out, fmt.Sprintf("%s: %s (%.3f probes) gap %.2f %s, %s (%.3f probes) gap %.2f %s; %s",
			at, a, pa.probes, pa.gap.Mean, cell(summaryCI(pa.gap), "%.2f"), b, pb.probes, pb.gap.Mean, cell(summaryCI(pb.gap), "%.2f"), verdict))
	}
	packing, twinning, mean := alloc.Packing{}.String(), alloc.Twinning{}.String(), alloc.MeanThinning{}.String()
	compare(processLabel(nameOnePlusBeta, alloc.Params{Beta: infoBeta}), mean)
	compare(processLabel(alloc.Memory{}.Name(), alloc.Params{D: 1, Memory: 1}), processLabel(nameGreedy, alloc.Params{D: 2}))
	if load > 1 { // at m <= n Packing is Twinning
		compare(packing, twinning)
		compare(packing, mean)
	}
	return out
}
