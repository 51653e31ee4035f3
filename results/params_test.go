package results

import (
	"reflect"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// TestProcessParamsAreTheTable: every field of ProcessParams is a Recorded
// parameter of alloc.ParamTable (the converse holds when the package
// loads), and record, apply and cells carry each one: recorded from a
// process that reads it, applied back, and its cell in the CSV.
func TestProcessParamsAreTheTable(t *testing.T) {
	if n := reflect.TypeFor[ProcessParams]().NumField(); n != len(recorded) {
		t.Errorf("ProcessParams has %d fields, alloc.ParamTable %d recorded parameters", n, len(recorded))
	}
	for _, r := range recorded {
		v := r.spec.Min + 1
		if !r.spec.InRange(v) {
			v = (r.spec.Min + r.spec.Max) / 2
		}
		var p alloc.Params
		r.spec.Set(&p, v)
		var q ProcessParams
		q.record(r.spec.Bit, p)
		var back alloc.Params
		q.apply(&back)
		if got := r.spec.Get(back); got != v {
			t.Errorf("%s: recorded %g, applied back %g", r.spec.Name, v, got)
		}
		head, cells := q.cells(r.spec.Bit)
		if want := r.spec.Format(v); !contains(head, cells, r.spec.Name, want) {
			t.Errorf("%s: cells %v %v, want %s = %s", r.spec.Name, head, cells, r.spec.Name, want)
		}
	}
}

// contains reports whether the column name of head holds want in cells.
func contains(head, cells []string, name, want string) bool {
	for i, h := range head {
		if h == name {
			return cells[i] == want
		}
	}
	return false
}
