package jsonnull

import "testing"

func TestField(t *testing.T) {
	for _, tc := range []struct {
		in, name string
		v        any
		want     string
	}{
		{`{"a":[1,2],"b":3}`, "a", [2]float64{1, 2}, `{"a":null,"b":3}`},
		{`{"p_a":[1,2],"a":[1,2]}`, "a", [2]float64{1, 2}, `{"p_a":[1,2],"a":null}`},
		{`{"x":{"a":[1,2]},"a":[1,2]}`, "a", [2]float64{1, 2}, `{"x":{"a":null},"a":[1,2]}`}, // the first match: the name must occur once
	} {
		got, err := Field([]byte(tc.in), tc.name, tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("Field(%s, %s) = %s, %v; want %s", tc.in, tc.name, got, err, tc.want)
		}
	}
	if _, err := Field([]byte(`{"b":3}`), "a", 1); err == nil {
		t.Error("a missing field: no error")
	}
}
