package analysis

import (
	"fmt"
	"reflect"

	"github.com/graphalloc/graphalloc/alloc"
)

// queryParams maps each number of alloc.ParamTable to the field of Query
// tagged param:"NAME" with its name.
var queryParams = func() map[*alloc.ParamSpec]int {
	t := reflect.TypeFor[Query]()
	m := map[*alloc.ParamSpec]int{}
	for i := range t.NumField() {
		name, ok := t.Field(i).Tag.Lookup("param")
		if !ok {
			continue
		}
		s := alloc.LookupParam(name)
		if s == nil || s.Get == nil || t.Field(i).Type.Kind() != reflect.Float64 {
			panic(fmt.Sprintf("analysis: Query.%s: %q is no number of alloc.ParamTable", t.Field(i).Name, name))
		}
		m[s] = i
	}
	return m
}()

// SetParams copies the numbers of p that the query holds (the fields
// tagged with a parameter's name: beta, g, sigma, memory, k, threshold,
// delta) into q, each as p holds it. β as graph reads it (GraphBeta) is
// the caller's: it depends on the process.
func (q *Query) SetParams(p alloc.Params) {
	v := reflect.ValueOf(q).Elem()
	for _, s := range alloc.ParamTable {
		if i, ok := queryParams[s]; ok {
			v.Field(i).SetFloat(s.Get(p))
		}
	}
}

// QueryParam returns the field of Query that holds parameter s, by its
// tag, and whether there is one.
func QueryParam(q Query, s *alloc.ParamSpec) (float64, bool) {
	i, ok := queryParams[s]
	if !ok {
		return 0, false
	}
	return reflect.ValueOf(q).Field(i).Float(), true
}
