package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/study"
)

// TestNewParameterIsOneEntry adds a parameter to alloc.ParamTable in this
// test alone and follows it to the flags, their checks, the fluid JSON,
// the CSV of a run, the bounds query and the explorer's form. zeta stores
// its value in Params.Sigma, standing in for the field of Params a new
// process would read, and noisy reads it (its Bit).
func TestNewParameterIsOneEntry(t *testing.T) {
	zeta := &alloc.ParamSpec{Name: "zeta", Symbol: "ζ", Bit: alloc.ParamSigma, Kind: alloc.ParamFloat,
		Default: "0.75", Min: 0, Max: 8, Need: "0 <= zeta <= 8", FlagNeed: "0 <= ζ <= 8",
		Usage: "zeta ζ of -p noisy, a parameter of this test",
		Get:   func(p alloc.Params) float64 { return p.Sigma }, Set: func(p *alloc.Params, v float64) { p.Sigma = v }}
	saved := alloc.ParamTable
	alloc.ParamTable = append(slices.Clone(saved), zeta)
	t.Cleanup(func() { alloc.ParamTable = saved })

	help, _ := cliRun(t, "fluid", "--help")
	if !strings.Contains(help, "--zeta float") || !strings.Contains(help, zeta.Usage+" (default 0.75)") {
		t.Errorf("fluid --help lacks --zeta:\n%s", help)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "-p", "greedy", "--zeta", "1"}, "--zeta applies only to -p noisy, not to -p greedy"},
		{[]string{"run", "-p", "noisy", "--zeta", "9"}, "--zeta: need 0 <= ζ <= 8, got 9"},
	} {
		if _, msg := cliRun(t, c.args...); !strings.Contains(msg, c.msg) {
			t.Errorf("%v: %q, want %q", c.args, msg, c.msg)
		}
	}
	if alloc.LookupParam("zeta") != zeta {
		t.Fatal("LookupParam does not find zeta")
	}
	if _, err := alloc.NewProcess("noisy", alloc.Params{Sigma: 9, Graph: graphgen.Complete(2)}); err == nil || !strings.Contains(err.Error(), "needs 0 <= zeta <= 8, got zeta=9") {
		t.Errorf("Check of noisy with zeta = 9: %v", err)
	}

	out, msg := cliRun(t, "fluid", "-p", "noisy", "--zeta", "0.25", "--sigma", "0.25", "-f", "json")
	if msg != "" || !strings.Contains(out, `"zeta": 0.25,`) {
		t.Errorf("fluid JSON lacks zeta (%s):\n%s", msg, out)
	}
	// zeta comes after sigma in the table, so the field both write holds
	// zeta's value: the file's sigma column shows that zeta reached it.
	out, msg = cliRun(t, "run", "-p", "noisy", "--zeta", "0.5", "--sigma", "0.25", "-n", "64", "-t", "1", "-f", "csv")
	if head, row, _ := strings.Cut(out, "\n"); msg != "" || !strings.Contains(head, ",sigma,") || !strings.Contains(row, ",0.5,") || strings.Contains(row, ",0.25,") {
		t.Errorf("run CSV does not carry zeta's value (%s):\n%s", msg, out)
	}

	var pf processFlags
	fs := newFlags("bounds", nil, nil)
	pf.add(fs, "noisy", "")
	if err := fs.Parse([]string{"--zeta", "0.5"}); err != nil {
		t.Fatal(err)
	}
	d, _ := alloc.Lookup("noisy")
	p, err := pf.params(fs, []*alloc.Descriptor{d})
	if err != nil {
		t.Fatal(err)
	}
	// The bounds query embeds alloc.Params: zeta's value is there, as
	// bounds and a run's summary build it, and within zeta's range.
	for name, q := range map[string]analysis.Query{
		"bounds":  study.BoundsQuery(analysis.Query{}, d, p, 64, 64, 0),
		"summary": (study.Setting{Process: d, Params: p, N: 64, M: 64}).Query(),
	} {
		if q.Sigma != 0.5 || q.Validate() != nil {
			t.Errorf("the %s query holds σ = %g (%v), want zeta's 0.5", name, q.Sigma, q.Validate())
		}
	}
	if q := study.BoundsQuery(analysis.Query{}, d, alloc.Params{D: 2, Sigma: 9}, 64, 64, 0); q.Validate() == nil {
		t.Error("a bounds query with zeta = 9 passes Validate")
	}

	if !slices.ContainsFunc(explorer.Fields(), func(f explorer.Field) bool {
		return f.Name == "zeta" && f.Label == "ζ" && f.Kind == "float" && f.Placeholder == "0.75"
	}) || !slices.Contains(explorer.Keys(nil, nil), "zeta") {
		t.Errorf("the explorer's form lacks zeta: %+v", explorer.Fields())
	}
}
