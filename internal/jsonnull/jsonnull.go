// Package jsonnull sets a field of an encoded JSON object to null, for
// types whose MarshalJSON encodes a value that is no value (an interval
// from one trial) as null while keeping every field in the order of the
// type's own tags.
package jsonnull

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Field returns the compact JSON object b (as json.Marshal writes it)
// with its field name, whose value encodes as v, set to null; the other
// fields keep their order and bytes. The name must occur once in b, at any
// depth (a nested field of the same name and value, opening its object,
// would be taken first). It fails if b has no such field. O(len(b)).
func Field(b []byte, name string, v any) ([]byte, error) {
	val, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	key := `"` + name + `":`
	for _, pre := range []string{"{", ","} {
		if i := bytes.Index(b, []byte(pre+key+string(val))); i >= 0 {
			i += len(pre) + len(key)
			return slices.Concat(b[:i], []byte("null"), b[i+len(val):]), nil
		}
	}
	return nil, fmt.Errorf("jsonnull: no field %q with value %s", name, val)
}
