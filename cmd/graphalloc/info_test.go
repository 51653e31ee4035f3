package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// infoOut is the part of info's JSON the tests read.
type infoOut struct {
	Graph string `json:"graph"`
	Made  struct {
		Kind          string   `json:"kind"`
		Notes         []string `json:"notes"`
		Core          int      `json:"core"`
		CoreFraction  float64  `json:"core_fraction"`
		ConnectionSet []int    `json:"connection_set"`
		Duplicates    int64    `json:"duplicates_dropped"`
		SelfLoops     int64    `json:"self_loops_dropped"`
		Dim, Side     int
		P             float64 `json:"p"`
	} `json:"made"`
	N          int     `json:"n"`
	Edges      int64   `json:"edges"`
	MinDegree  int     `json:"min_degree"`
	MaxDegree  int     `json:"max_degree"`
	MeanDegree float64 `json:"mean_degree"`
	Regular    bool    `json:"regular"`
	Components int     `json:"components"`
	Spectral   struct {
		Method         string  `json:"method"`
		Gap            float64 `json:"gap"`
		Converged      bool    `json:"converged"`
		ExpansionLower float64 `json:"expansion_lower"`
		ExpansionUpper float64 `json:"expansion_upper"`
		Sweep          *struct {
			Conductance float64 `json:"conductance"`
		} `json:"sweep"`
	} `json:"spectral"`
	ExpansionForBounds float64 `json:"expansion_for_bounds"`
}

func infoJSONOf(t *testing.T, args ...string) (infoOut, string) {
	t.Helper()
	out, errs, code := invoke(append([]string{"info", "-f", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("info %v: exit %d: %s", args, code, errs)
	}
	var o infoOut
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("info %v: %v", args, err)
	}
	return o, out
}

func TestInfoGolden(t *testing.T) {
	goldenCases(t, []goldenCase{
		{"info_regular.table", []string{"info", "-g", "regular:degree=8", "-n", "512"}},
		{"info_nonregular.json", []string{"info", "-g", "nonregular:mindeg=3,core=12", "-n", "200", "-f", "json"}},
		{"info_messy.table", []string{"info", root + "/testdata/graphs/messy.txt"}},
		{"info_circulant.table", []string{"info", "-g", "circulant:degree=6", "-n", "1e5"}},
	})
}

// TestInfoKinds: what info reports for each kind, against closed forms.
func TestInfoKinds(t *testing.T) {
	dir := t.TempDir()
	split := filepath.Join(dir, "split.txt")
	os.WriteFile(split, []byte("a b\nb c\nc a\nx y\ny x\nz z\n"), 0o644)
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, o infoOut)
	}{
		{"complete", []string{"-g", "complete", "-n", "101"}, func(t *testing.T, o infoOut) {
			// K_n: μ₂ = −1/(n−1), σ = ⌈n/2⌉/(n−1).
			if o.Spectral.Method != "exact" || math.Abs(o.Spectral.Gap-1.01) > 1e-12 || math.Abs(o.ExpansionForBounds-51.0/100) > 1e-12 {
				t.Errorf("%+v", o)
			}
		}},
		{"hypercube", []string{"-g", "hypercube:dim=8", "-n", "256"}, func(t *testing.T, o infoOut) {
			// Q_8: gap 2/8; the default tolerance leaves it a little high.
			if !o.Regular || o.MaxDegree != 8 || !o.Spectral.Converged || o.Spectral.Gap < 0.25 || o.Spectral.Gap > 0.25*1.001 {
				t.Errorf("%+v", o)
			}
		}},
		{"torus", []string{"-g", "torus:dim=3,side=5", "-n", "125"}, func(t *testing.T, o infoOut) {
			if o.N != 125 || o.Edges != 375 || o.MaxDegree != 6 || o.Made.Dim != 3 || o.Made.Side != 5 {
				t.Errorf("%+v", o)
			}
		}},
		{"torus rounds n up", []string{"-g", "torus:dim=2", "-n", "1000"}, func(t *testing.T, o infoOut) {
			if o.N != 1024 || len(o.Made.Notes) != 1 || !strings.Contains(o.Made.Notes[0], "1024 vertices") {
				t.Errorf("%+v", o)
			}
		}},
		{"gnp", []string{"-g", "gnp:degree=8", "-n", "1001"}, func(t *testing.T, o infoOut) {
			if o.Made.P != 0.008 || o.Regular {
				t.Errorf("%+v", o)
			}
		}},
		{"circulant", []string{"-g", "circulant:degree=5", "-n", "1000"}, func(t *testing.T, o infoOut) {
			if o.Spectral.Method != "exact" || len(o.Made.ConnectionSet) != 5 || o.Made.ConnectionSet[2] != 500 || o.Spectral.Sweep == nil {
				t.Errorf("%+v", o)
			}
		}},
		{"nonregular", []string{"-g", "nonregular:mindeg=4,core=30", "-n", "500"}, func(t *testing.T, o infoOut) {
			// f = C(30,2) / |E|, |E| = 435 + 470·4/2 + joins.
			f := 435.0 / float64(o.Edges)
			if o.MinDegree != 4 || o.Regular || o.Components != 1 || o.Made.Core != 30 || math.Abs(o.Made.CoreFraction-f) > 1e-12 || o.ExpansionForBounds != 0 {
				t.Errorf("%+v", o)
			}
		}},
		{"disconnected file", []string{split}, func(t *testing.T, o infoOut) {
			if o.N != 6 || o.Edges != 4 || o.Components != 3 || o.Spectral.Method != "disconnected" || o.Made.Duplicates != 1 || o.Made.SelfLoops != 1 {
				t.Errorf("%+v", o)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, _ := infoJSONOf(t, tc.args...)
			sp := o.Spectral
			if sp.ExpansionLower > sp.ExpansionUpper || (sp.Sweep != nil && sp.Sweep.Conductance < sp.ExpansionLower) {
				t.Errorf("expansion bounds out of order: %+v", sp)
			}
			tc.check(t, o)
		})
	}
}

// TestGenInfoRoundTrip: info on a file gen wrote reports what info on the
// spec reports.
func TestGenInfoRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, spec := range []string{"regular:degree=6", "gnp:degree=4", "nonregular:mindeg=3,core=10"} {
		t.Run(spec, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(spec, ":", "_")+".txt.gz")
			if _, errs, code := invoke("gen", "-g", spec, "-n", "300", "-s", "5", "-o", path); code != 0 {
				t.Fatalf("gen: %s", errs)
			}
			a, _ := infoJSONOf(t, "-g", spec, "-n", "300", "-s", "5")
			b, _ := infoJSONOf(t, path)
			// Everything but the provenance agrees, the spectrum too: the
			// same CSR gives the same power iteration.
			a.Graph, a.Made, b.Graph = "", b.Made, ""
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Errorf("spec and file differ:\n%s\n%s", ja, jb)
			}
		})
	}
}

func TestInfoErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no graph", []string{"info"}, "--graph is required"},
		{"two arguments", []string{"info", "a.txt", "b.txt"}, "unexpected argument"},
		{"bad format", []string{"info", "-g", "cycle", "-f", "csv"}, "--format"},
		{"bad tol", []string{"info", "-g", "cycle", "--tol", "2"}, "--tol"},
		{"bad max-iter", []string{"info", "-g", "cycle", "--max-iter", "0"}, "--max-iter"},
		{"bad spec", []string{"info", "-g", "gnp:q=1"}, "keys: n, p, degree"},
		{"bad n", []string{"info", "-g", "cycle", "-n", "0"}, "--bins"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := invoke(tc.args...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line mentioning %q", code, out, errs, tc.want)
			}
		})
	}
}
