package study

import "testing"

func TestSqrtDegree(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		want int
	}{
		{"square of an even number", 1 << 16, 256},
		{"odd power of two: ⌈√2^17⌉ = 363, made even", 1 << 17, 364},
		{"4·10^9: ⌈63245.55⌉ = 63246", 4e9, 63246},
		{"10^10: √ = 10^5 exactly", 1e10, 100000},
	} {
		if got := sqrtDegree(c.n); got != c.want {
			t.Errorf("%s: sqrtDegree(%d) = %d, want %d", c.name, c.n, got, c.want)
		}
	}
}

func TestScaleTrials(t *testing.T) {
	for _, c := range []struct {
		name      string
		t, n0, n  int
		wantTrial int
	}{
		{"smallest n: all trials", 32, 1 << 16, 1 << 16, 32},
		{"4× n: half the trials", 32, 1 << 16, 1 << 18, 16},
		{"full size at 2^28: 64/64 = 1", 64, 1 << 16, 1 << 28, 1},
		{"never below one", 64, 1 << 16, 1e10, 1},
	} {
		if got := scaleTrials(c.t, c.n0, c.n); got != c.wantTrial {
			t.Errorf("%s: scaleTrials(%d, %d, %d) = %d, want %d", c.name, c.t, c.n0, c.n, got, c.wantTrial)
		}
	}
}
