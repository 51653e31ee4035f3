package analysis

import "testing"

// TestSigDigits: printed bounds are rounded away from the inside.
func TestSigDigits(t *testing.T) {
	for _, c := range []struct {
		x    float64
		up   bool
		want string
	}{
		{1.0 / 12, false, "0.08333"},
		{1.0 / 12, true, "0.08334"},
		{1, true, "1.000"},
		{1, false, "1.000"},
		{0.99999999, false, "0.9999"},
		{0.99999999, true, "1.000"},
		{0.00054879, false, "0.0005487"},
		{0, false, "0"},
	} {
		if got := sigDigits(c.x, 4, c.up); got != c.want {
			t.Errorf("sigDigits(%v, 4, %v) = %s, want %s", c.x, c.up, got, c.want)
		}
	}
}
