package main

import (
	"strings"
	"testing"
)

// TestRunLocalSearch: run -p local-search works on the complete graph, a
// 2-dimensional torus and a random 16-regular graph; its trials and its
// summary carry the moves, the table prints them, and --sample, which it
// does not read, is refused.
func TestRunLocalSearch(t *testing.T) {
	for _, g := range []string{"complete", "torus:dim=2", "regular:degree=16"} {
		t.Run(g, func(t *testing.T) {
			args := []string{"run", "-p", "local-search", "-g", g, "-n", "1024", "-t", "3"}
			run := commandJSON[struct {
				Config struct {
					Process, Graph, Sample string
				} `json:"config"`
				Trials []struct {
					MaxLoad  float64 `json:"max_load"`
					Moves    int64   `json:"moves"`
					MaxMoves int64   `json:"max_moves"`
				} `json:"trials"`
				Summary struct {
					MovesPerBall *float64 `json:"moves_per_ball"`
					MaxMoves     *int64   `json:"max_moves"`
				} `json:"summary"`
			}](t, args...)
			if run.Config.Process != "local-search" || run.Config.Sample != "" || len(run.Trials) != 3 {
				t.Fatalf("config %+v, %d trials", run.Config, len(run.Trials))
			}
			for _, r := range run.Trials {
				// m = n: at least one ball moves on each of these graphs
				// (on K_n about (n−1)/2 of them, one step each).
				if r.Moves < 1 || r.MaxMoves < 1 || r.MaxMoves > int64(r.MaxLoad) {
					t.Errorf("trial %+v", r)
				}
				if g == "complete" && (r.MaxLoad != 1 || r.MaxMoves != 1) {
					t.Errorf("K_n: max load %v, most moves %d; want 1 and 1", r.MaxLoad, r.MaxMoves)
				}
			}
			if s := run.Summary; s.MovesPerBall == nil || s.MaxMoves == nil || *s.MovesPerBall <= 0 {
				t.Fatalf("summary without moves: %+v", s)
			}
			out, errs, code := invoke(args...)
			if code != 0 || !strings.Contains(out, "moves/ball") || !strings.Contains(out, "per ball on average") {
				t.Errorf("table (exit %d, %s):\n%s", code, errs, out)
			}
		})
	}
	_, errs, code := invoke("run", "-p", "local-search", "-g", "cycle", "--sample", "vertex", "-n", "100")
	if code != 2 || !strings.Contains(errs, "--sample applies only to -p graph") {
		t.Errorf("--sample: exit %d, %s", code, errs)
	}
	// The summary of another process has no moves.
	out, _, _ := invoke("run", "-p", "graph", "-g", "cycle", "-n", "100", "-t", "1", "-f", "json")
	if strings.Contains(out, "moves") {
		t.Errorf("graph run mentions moves:\n%s", out)
	}
}
