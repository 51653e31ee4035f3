package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// TestCommandsAgree: for every process, with representative parameters, on
// the complete graph and (for a graph process) a random regular graph,
// run, compare, bounds and fluid report the same fluid prediction (the same
// limit, or none for the same reason) and the same applicable bounds, with
// the same labels; a process that takes a sampler also runs under
// walk:len=0 and walk:len=3 on the complete graph. Each command takes these
// facts from the process's descriptor (package alloc) and one summary
// (study.Summarize); this test is what keeps them from drifting apart.
func TestCommandsAgree(t *testing.T) {
	params := map[string][]string{
		"greedy": {"-d", "3"}, "left": {"-d", "2"}, "firstdiff": {"-d", "3"}, "unbalanced": {"-d", "2"},
		"one-plus-beta": {"--beta", "0.3"}, "rank": {"-d", "2"}, "grouped": {"-d", "4"}, "window": {"-d", "4"},
		"weighted":  {"-d", "2", "--weights", "pareto:shape=3"},
		"g-bounded": {"--g", "2"}, "g-myopic": {"--g", "3"}, "noisy": {"--sigma", "1.5"},
		"memory": {"-d", "1", "--memory", "1"}, "kd-choice": {"-d", "4", "--k", "2"},
		"threshold": {"--threshold", "2"}, "quantile": {"--delta", "0.25"},
	}
	for _, d := range alloc.Descriptors() {
		graphs := []string{""}
		switch {
		case d.Family == alloc.FamilyHyper:
			// Hyperedges of ln n or more vertices, and of 3.
			graphs = []string{"hypergraph:rank=16,edges=1024", "hypergraph:rank=3,edges=4096"}
		case d.Uses&alloc.ParamGraph != 0:
			graphs = []string{"complete", "regular:degree=8"}
		}
		var variants [][]string
		for _, g := range graphs {
			args := append([]string{"-p", d.Name, "-n", "1024"}, params[d.Name]...)
			if g != "" {
				args = append(args, "-g", g)
			}
			variants = append(variants, args)
			if d.Uses&alloc.ParamSample != 0 && g == "complete" {
				for _, s := range []string{"walk:len=0", "walk:len=3"} {
					variants = append(variants, append(slices.Clone(args), "--sample", s))
				}
			}
		}
		for _, args := range variants {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				run := commandJSON[struct {
					Summary struct {
						Fluid *struct {
							Process string    `json:"process"`
							Limit   string    `json:"limit"`
							Tails   []float64 `json:"tails"`
						} `json:"fluid"`
						NoFluid string                  `json:"no_fluid"`
						Bounds  []struct{ Name string } `json:"bounds"`
					} `json:"summary"`
				}](t, append([]string{"run", "-t", "2"}, args...)...)
				cmp := commandJSON[struct {
					Points []struct {
						Fluid *struct {
							Process string    `json:"process"`
							Limit   string    `json:"limit"`
							Tails   []float64 `json:"tails"`
						} `json:"fluid"`
						NoFluid string                  `json:"no_fluid"`
						Bounds  []struct{ Name string } `json:"bounds"`
					} `json:"points"`
				}](t, append([]string{"compare", "-t", "2"}, args...)...)
				bnd := commandJSON[struct {
					Bounds []struct {
						Name    string
						Applies bool
					} `json:"bounds"`
				}](t, append([]string{"bounds"}, args...)...)

				names := func(bs []struct{ Name string }) string {
					var s []string
					for _, b := range bs {
						s = append(s, b.Name)
					}
					return strings.Join(s, "; ")
				}
				var applies []string
				for _, b := range bnd.Bounds {
					if b.Applies {
						applies = append(applies, b.Name)
					}
				}
				if len(cmp.Points) != 1 {
					t.Fatalf("compare printed %d points", len(cmp.Points))
				}
				p := cmp.Points[0]
				if a, b, c := names(run.Summary.Bounds), names(p.Bounds), strings.Join(applies, "; "); a != b || b != c {
					t.Errorf("bounds differ:\n run:     %s\n compare: %s\n bounds:  %s", a, b, c)
				}
				if (run.Summary.Fluid == nil) != (p.Fluid == nil) || run.Summary.NoFluid != p.NoFluid {
					t.Fatalf("fluid: run %v (%s), compare %v (%s)", run.Summary.Fluid != nil, run.Summary.NoFluid, p.Fluid != nil, p.NoFluid)
				}
				_, flErr, flCode := invoke(append([]string{"fluid", "-f", "json"}, args...)...)
				if run.Summary.Fluid == nil {
					if flCode != 2 || run.Summary.NoFluid == "" || !strings.Contains(flErr, run.Summary.NoFluid) {
						t.Errorf("run has no fluid prediction (%s), fluid exits %d (%s)", run.Summary.NoFluid, flCode, flErr)
					}
					return
				}
				if run.Summary.Fluid.Limit != p.Fluid.Limit || !slices.Equal(run.Summary.Fluid.Tails, p.Fluid.Tails) {
					t.Errorf("fluid: run %s %v, compare %s %v", run.Summary.Fluid.Limit, run.Summary.Fluid.Tails, p.Fluid.Limit, p.Fluid.Tails)
				}
				fl := commandJSON[struct {
					Limit string    `json:"limit"`
					Tails []float64 `json:"tails"`
				}](t, append([]string{"fluid", "--tol", "1e-12"}, args...)...)
				if fl.Limit != run.Summary.Fluid.Limit || len(fl.Tails) < 3 || fmt.Sprintf("%.9f", fl.Tails[:3]) != fmt.Sprintf("%.9f", run.Summary.Fluid.Tails[:3]) {
					t.Errorf("fluid: command %s %v, run %s %v", fl.Limit, fl.Tails, run.Summary.Fluid.Limit, run.Summary.Fluid.Tails)
				}
			})
		}
	}
}

// commandJSON runs a command with -f json and decodes its output into T.
func commandJSON[T any](t *testing.T, args ...string) T {
	t.Helper()
	var v T
	out, errs, code := invoke(append(args, "-f", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return v
}

// TestAuditFluidLimits: fluid and run print, under walk sampling on K_n,
// the limit of the process as run: Greedy[4] for graph under walk:len=3
// (s_2 = 0.1408, measured 0.1413 at n = 2^16; a sampler-blind Greedy[2]
// gives 0.2295), one-choice for g-bounded under walk:len=0 (max load 15 at
// n = 2^16, m = 4n, measured 15.1; g-Bounded's limit on two uniform bins
// gives 9), the mixture for graphical (1+β) (s_6 = 0.06749 at 2^14, 4n,
// measured 0.0675; (1+β) of Greedy[2] gives 0.1223); and none, with the
// reason, on a sparse graph.
func TestAuditFluidLimits(t *testing.T) {
	type fluidOut struct {
		Limit string    `json:"limit"`
		Tails []float64 `json:"tails"`
		Pred  int       `json:"predicted_max_load"`
	}
	for _, tc := range []struct {
		args  []string
		limit string
		level int
		s     float64 // tails[level], to 4 digits
		pred  int
	}{
		{[]string{"-p", "graph", "--sample", "walk:len=3", "-n", "2^16"}, "Greedy[4]", 2, 0.1408, 3},
		{[]string{"-p", "g-bounded", "--g", "1", "--sample", "walk:len=0", "-n", "2^16", "-m", "4n"}, "one-choice", 6, 0.2149, 15},
		{[]string{"-p", "graph", "--beta", "0.5", "--sample", "walk:len=3", "-n", "2^14", "-m", "4n"}, "(1+β) of Greedy[4], β = 0.5", 6, 0.06749, 10},
	} {
		fl := commandJSON[fluidOut](t, append([]string{"fluid"}, tc.args...)...)
		if fl.Limit != tc.limit || fmt.Sprintf("%.4g", fl.Tails[tc.level]) != fmt.Sprint(tc.s) || fl.Pred != tc.pred {
			t.Errorf("fluid %v: %s s_%d = %.4g, max %d; want %s %v, max %d", tc.args, fl.Limit, tc.level, fl.Tails[tc.level], fl.Pred, tc.limit, tc.s, tc.pred)
		}
		// run at a small n prints the same limit.
		small := append(slices.Clone(tc.args), "-n", "2^10", "-t", "1")
		run := commandJSON[struct {
			Summary struct {
				Fluid *fluidOut `json:"fluid"`
			} `json:"summary"`
		}](t, append([]string{"run"}, small...)...)
		if run.Summary.Fluid == nil || run.Summary.Fluid.Limit != tc.limit {
			t.Errorf("run %v: fluid %+v, want %s", small, run.Summary.Fluid, tc.limit)
		}
	}
	out, _, code := invoke("run", "-p", "graph", "--sample", "walk:len=3", "-g", "regular:degree=4", "-n", "2^10", "-t", "1")
	if code != 0 || !strings.Contains(out, "fluid limit: none (a walk's vertices lie close together") {
		t.Errorf("walks on a sparse graph: exit %d, want the reason in:\n%s", code, out)
	}
}
