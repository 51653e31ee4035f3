package results

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
)

// ProcessParams are the parameters of alloc.ParamTable marked Recorded: g
// of g-bounded and g-myopic, σ of noisy, K of memory, the balls per round
// k of kd-choice, L of threshold and δ of quantile. A field is recorded
// (not nil) exactly when a process of the file reads it, so that a file
// says which value its process ran with and no other. Config and
// GridConfig embed it (its fields stand in their JSON objects). Each field
// is the parameter of the table whose Name is its JSON key; record, apply
// and cells go through the table, so a new recorded parameter is a field
// here and nothing else.
type ProcessParams struct {
	Tolerance *int     `json:"g,omitempty"`
	Sigma     *float64 `json:"sigma,omitempty"`
	Memory    *int     `json:"memory,omitempty"`
	K         *int     `json:"k,omitempty"`
	Threshold *int     `json:"threshold,omitempty"`
	Delta     *float64 `json:"delta,omitempty"`
}

// recordedParam is a parameter of the table recorded in ProcessParams,
// with the index of its field.
type recordedParam struct {
	spec  *alloc.ParamSpec
	field int
}

// recorded are the Recorded parameters of alloc.ParamTable, in its order.
var recorded = recordedParams()

// recordedParams pairs each Recorded parameter of alloc.ParamTable with
// the field of ProcessParams of its JSON key; a parameter without one, or
// a field of a kind other than the parameter's, is a broken invariant.
func recordedParams() []recordedParam {
	t := reflect.TypeFor[ProcessParams]()
	var rs []recordedParam
	for _, s := range alloc.ParamTable {
		if !s.Recorded {
			continue
		}
		i := fieldOf(t, s.Name)
		want := reflect.TypeFor[*float64]()
		if s.Kind == alloc.ParamInt {
			want = reflect.TypeFor[*int]()
		}
		if i < 0 || t.Field(i).Type != want {
			panic(fmt.Sprintf("results: ProcessParams needs a field %v with JSON key %q", want, s.Name))
		}
		rs = append(rs, recordedParam{s, i})
	}
	return rs
}

// fieldOf is the index of the field of t with JSON key key, or -1.
func fieldOf(t reflect.Type, key string) int {
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == key {
			return i
		}
	}
	return -1
}

// get is the recorded value of r, and whether there is one.
func (q *ProcessParams) get(r recordedParam) (float64, bool) {
	f := reflect.ValueOf(q).Elem().Field(r.field)
	if f.IsNil() {
		return 0, false
	}
	if v := f.Elem(); v.CanInt() {
		return float64(v.Int()), true
	}
	return f.Elem().Float(), true
}

// record sets the fields of the parameters a process that uses them reads
// from p.
func (q *ProcessParams) record(uses alloc.Param, p alloc.Params) {
	for _, r := range recorded {
		if uses&r.spec.Bit == 0 {
			continue
		}
		f := reflect.ValueOf(q).Elem().Field(r.field)
		v := reflect.New(f.Type().Elem())
		if r.spec.Kind == alloc.ParamInt {
			v.Elem().SetInt(int64(r.spec.Get(p)))
		} else {
			v.Elem().SetFloat(r.spec.Get(p))
		}
		f.Set(v)
	}
}

// apply copies the recorded fields into p.
func (q ProcessParams) apply(p *alloc.Params) {
	for _, r := range recorded {
		if v, ok := q.get(r); ok {
			r.spec.Set(p, v)
		}
	}
}

// cells are the CSV columns of the parameters marked CSVAlways (g and
// sigma: always there, empty when not recorded or when uses, if not all
// ones, does not read them), then the others (memory, k, threshold and
// delta), each a column only where recorded: a file of the other
// processes keeps the columns it always had.
func (q ProcessParams) cells(uses alloc.Param) (head, cells []string) {
	for _, r := range recorded {
		v, ok := q.get(r)
		if !ok && !r.spec.CSVAlways {
			continue
		}
		cell := ""
		if ok && uses&r.spec.Bit != 0 {
			cell = strconv.Itoa(int(v))
			if r.spec.Kind != alloc.ParamInt {
				cell = FormatFloat(v)
			}
		}
		head, cells = append(head, r.spec.Name), append(cells, cell)
	}
	return head, cells
}
