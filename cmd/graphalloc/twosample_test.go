package main

import (
	"strings"
	"testing"
)

// TestTwoSampleRulesRun: the two-sample rules run on the complete graph,
// a 2-d torus and a random 16-regular graph; the file records g or σ, the
// balls are all there, and only the complete graph has a fluid limit.
func TestTwoSampleRulesRun(t *testing.T) {
	for _, proc := range [][]string{
		{"g-bounded", "--g", "2"},
		{"g-myopic", "--g", "3"},
		{"noisy", "--sigma", "1.5"},
	} {
		for _, g := range []string{"complete", "torus:dim=2", "regular:degree=16"} {
			args := append([]string{"run", "-p"}, proc...)
			args = append(args, "-g", g, "-n", "256", "-m", "4n", "-t", "2")
			t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
				out := commandJSON[struct {
					Config struct {
						Process string   `json:"process"`
						G       *int     `json:"g"`
						Sigma   *float64 `json:"sigma"`
						Graph   string   `json:"graph"`
					} `json:"config"`
					Trials []struct {
						LoadCounts []int64 `json:"load_counts"`
						Probes     int64   `json:"probes"`
					} `json:"trials"`
					Summary struct {
						Fluid *struct {
							Process string `json:"process"`
						} `json:"fluid"`
					} `json:"summary"`
				}](t, args...)
				c := out.Config
				if c.Process != proc[0] || (proc[1] == "--g") != (c.G != nil) || (proc[1] == "--sigma") != (c.Sigma != nil) {
					t.Fatalf("config %+v", c)
				}
				if c.G != nil && *c.G != map[string]int{"g-bounded": 2, "g-myopic": 3}[proc[0]] || c.Sigma != nil && *c.Sigma != 1.5 {
					t.Errorf("parameter not recorded: g %v σ %v", c.G, c.Sigma)
				}
				if len(out.Trials) != 2 {
					t.Fatalf("%d trials", len(out.Trials))
				}
				for _, tr := range out.Trials {
					var bins, balls int64
					for l, k := range tr.LoadCounts {
						bins += k
						balls += int64(l) * k
					}
					if bins != 256 || balls != 4*256 || tr.Probes != 2*4*256 {
						t.Errorf("%d balls in %d bins, %d probes", balls, bins, tr.Probes)
					}
				}
				if (out.Summary.Fluid != nil) != (g == "complete") || (out.Summary.Fluid != nil && out.Summary.Fluid.Process != proc[0]) {
					t.Errorf("fluid %+v on %s", out.Summary.Fluid, g)
				}
			})
		}
	}
	// The level engine runs them on the complete graph.
	out, errs, code := invoke("run", "-p", "noisy", "--sigma", "0.5", "--engine", "levels", "-n", "1e6", "-t", "1")
	if code != 0 || !strings.Contains(out, "σ-Noisy-Load, σ = 0.5 on complete (two uniform bins)") {
		t.Errorf("level engine: exit %d: %s%s", code, out, errs)
	}
}

func TestTwoSampleBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-p", "g-bounded", "--g", "-1"}, "--g: need a threshold 0 <= g"},
		{[]string{"run", "-p", "noisy", "--sigma", "-0.5"}, "--sigma: need a noise level 0 <= σ"},
		{[]string{"run", "-p", "greedy", "--g", "2"}, "--g applies only to -p g-bounded, -p g-myopic"},
		{[]string{"run", "-p", "g-myopic", "--sigma", "2"}, "--sigma applies only to -p noisy"},
		{[]string{"run", "-p", "noisy", "-g", "cycle", "--engine", "levels"}, "--engine levels"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			checkBadInput(t, out, errs, code, tc.want)
		})
	}
}
