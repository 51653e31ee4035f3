package figure

import (
	"encoding/json"
	"math"
	"testing"
)

// A point is [x, y] or [x, y, lo, hi] in JSON; what is not finite is null
// and reads back as NaN, which is not drawn either way.
func TestPtJSON(t *testing.T) {
	pts := []Pt{{X: 1, Y: 0.1}, {X: 2, Y: 3, Lo: 2.5, Hi: 3.25}, {X: 4, Y: math.NaN()}, {X: 5, Y: math.Inf(1)}}
	b, err := json.Marshal(pts)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[[1,0.1],[2,3,2.5,3.25],[4,null],[5,null]]`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back []Pt
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back[1] != pts[1] || back[0] != pts[0] || !math.IsNaN(back[2].Y) || !math.IsNaN(back[3].Y) {
		t.Errorf("read back %+v", back)
	}
	if err := json.Unmarshal([]byte(`[1,2,3]`), &back[0]); err == nil {
		t.Error("[1,2,3]: no error")
	}
}
