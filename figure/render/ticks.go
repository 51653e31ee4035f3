package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// linearTicks labels a linear axis at the multiples of a step of 1, 2 or 5
// times a power of ten, about six labels, with a minor tick between; each
// value is rounded to the digits its label shows (0.15, not
// 0.15000000000000002). On an integer axis the step is at least 1.
type linearTicks struct{ integer bool }

func (t linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if t.integer && step < 1 {
		step = 1
	}
	digits := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	minor := step / 2
	if t.integer {
		// Minor ticks at whole numbers too: 5 → 1, 2 → 1, 10 → 5, 1 → none.
		switch m := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); {
		case step == 1:
			minor = 1
		case math.Abs(m-5) < 1e-9:
			minor = step / 5
		}
	}
	round := func(v float64, d int) float64 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', d, 64), 64)
		return r
	}
	var ts []plot.Tick
	for k := math.Ceil(lo/minor - 1e-9); k*minor <= hi+1e-9*step; k++ {
		v := round(k*minor, digits+1)
		if v == 0 {
			v = 0 // not −0
		}
		tick := plot.Tick{Value: v}
		if math.Mod(k, step/minor) == 0 {
			tick.Label = strconv.FormatFloat(round(v, digits), 'f', digits, 64)
		}
		ts = append(ts, tick)
	}
	// A whole-number axis that starts at a whole number says so (load 1),
	// if the first label is not too close.
	if t.integer && lo == math.Round(lo) && len(ts) > 0 && ts[0].Label == "" {
		for _, tk := range ts {
			if tk.Label == "" {
				continue
			}
			if tk.Value-lo >= 0.6*step {
				if ts[0].Value != lo {
					ts = append([]plot.Tick{{Value: lo}}, ts...)
				}
				ts[0].Label = strconv.FormatFloat(lo, 'f', 0, 64)
			}
			break
		}
	}
	return ts
}

// thinTicks blanks the labels of inner's ticks that would overlap on an
// axis of the given length: labels are kept in order of roundness (1, 5, 2
// times a power of ten; even powers of two; every other of evenly spaced
// labels first), each if it clears those already kept.
type thinTicks struct {
	inner    plot.Ticker
	axis     *plot.Axis
	length   vg.Length
	vertical bool
}

func (t thinTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := t.inner.Ticks(lo, hi)
	sty := t.axis.Tick.Label
	type label struct {
		i         int
		pos, size vg.Length
		rank      int
	}
	var ls []label
	for i, tk := range ts {
		if tk.Label == "" {
			continue
		}
		size := sty.Width(tk.Label)
		if t.vertical {
			size = sty.Height(tk.Label)
		}
		ls = append(ls, label{i: i, pos: vg.Length(t.axis.Norm(tk.Value)) * t.length, size: size, rank: 2*roundness(tk) + len(ls)%2})
	}
	slices.SortStableFunc(ls, func(a, b label) int { return a.rank - b.rank })
	gap := sty.Font.Size * 0.6
	var kept []label
	for _, l := range ls {
		clear := true
		for _, k := range kept {
			if d := l.pos - k.pos; max(d, -d) < (l.size+k.size)/2+gap {
				clear = false
				break
			}
		}
		if clear {
			kept = append(kept, l)
		} else {
			ts[l.i].Label = ""
		}
	}
	return ts
}

// roundness ranks a tick's value: 0 for 1 times a power of ten (or 0), 1
// for 5, 2 for 2, 3 otherwise; a power of two 0 for an even exponent, 1 for
// an odd one.
func roundness(tk plot.Tick) int {
	if k, ok := strings.CutPrefix(tk.Label, "2^"); ok {
		if e, err := strconv.Atoi(k); err == nil {
			return e & 1
		}
	}
	v := math.Abs(tk.Value)
	if v == 0 {
		return 0
	}
	m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))
	switch {
	case math.Abs(m-1) < 1e-6:
		return 0
	case math.Abs(m-5) < 1e-6:
		return 1
	case math.Abs(m-2) < 1e-6:
		return 2
	}
	return 3
}

// sparsePow2Ticks labels a log axis at powers of two, every k-th one so
// that at most eight carry a label.
type sparsePow2Ticks struct{}

func (sparsePow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	ts := pow2Ticks{}.Ticks(lo, hi)
	step := (len(ts) + 7) / 8
	for i := range ts {
		if step > 1 && i%step != 0 {
			ts[i].Label = ""
		}
	}
	return ts
}

// pow2Ticks labels a log axis at every power of two.
type pow2Ticks struct{}

func (pow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(math.Log2(lo)); k <= math.Ceil(math.Log2(hi)); k++ {
		v := math.Exp2(k)
		if v < lo*0.999 || v > hi*1.001 {
			continue
		}
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("2^%g", k)})
	}
	return ts
}

// autoLogTicks labels a log axis at 1, 1.5, 2, 3, 4, 5, 6, 8 times the
// powers of ten over at most two decades, and at the powers of ten beyond;
// on an integer axis only at whole numbers.
type autoLogTicks struct{ integer bool }

func (t autoLogTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi/lo > 100 {
		ts := plainDecadeTicks{}.Ticks(lo, hi)
		if t.integer {
			ts = wholeTicks(ts)
		}
		return ts
	}
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 1.5, 2, 3, 4, 5, 6, 8} {
			// Round to the digits shown, so that 1.5·10^-1 reads 0.15.
			v, _ := strconv.ParseFloat(strconv.FormatFloat(m*math.Pow(10, e), 'g', 6, 64), 64)
			if v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	if t.integer {
		ts = wholeTicks(ts)
	}
	return ts
}

// wholeTicks keeps the ticks at whole numbers.
func wholeTicks(ts []plot.Tick) []plot.Tick {
	var out []plot.Tick
	for _, t := range ts {
		if t.Value >= 1 && t.Value == math.Round(t.Value) {
			out = append(out, t)
		}
	}
	return out
}

// plainDecadeTicks labels a log axis at the powers of ten, as plain numbers
// from 0.001 to 100000 and as 1eK beyond.
type plainDecadeTicks struct{}

func (plainDecadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Ceil(math.Log10(lo)); e <= math.Floor(math.Log10(hi)); e++ {
		v := math.Pow(10, e)
		label := fmt.Sprintf("1e%g", e)
		if v >= 1e-3 && v <= 1e5 {
			label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// threeLabels gives a log axis at least three labels: where inner labels
// fewer (a range of less than two decades, or one octave of n), it adds
// the labels of the first of 1, 2 and 5 times the powers of ten, then 1 to
// 9 times them, then a linear axis' labels, that brings the count to
// three; on an integer axis, at whole numbers only.
type threeLabels struct {
	inner   plot.Ticker
	integer bool
}

func (t threeLabels) Ticks(lo, hi float64) []plot.Tick {
	ts := t.inner.Ticks(lo, hi)
	if len(labels(ts)) >= 3 || !(lo > 0 && hi > lo) {
		return ts
	}
	fallbacks := []plot.Ticker{
		multipleTicks{[]float64{1, 2, 5}}, multipleTicks{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}}, linearTicks{integer: t.integer},
	}
	var more []plot.Tick
	for _, f := range fallbacks {
		more = mergeTicks(ts, f.Ticks(lo, hi), t.integer)
		if len(labels(more)) >= 3 {
			break
		}
	}
	return more
}

// labels are the labels of ts.
func labels(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

// mergeTicks is ts with the labelled ticks of more at values ts does not
// label, in increasing value; whole numbers of more only if integer.
func mergeTicks(ts, more []plot.Tick, integer bool) []plot.Tick {
	out := slices.Clone(ts)
	for _, m := range more {
		if m.Label == "" || m.Value <= 0 || (integer && m.Value != math.Round(m.Value)) {
			continue
		}
		i := slices.IndexFunc(out, func(t plot.Tick) bool { return math.Abs(t.Value-m.Value) <= 1e-9*math.Abs(m.Value) })
		switch {
		case i < 0:
			out = append(out, m)
		case out[i].Label == "":
			out[i].Label = m.Label
		}
	}
	slices.SortStableFunc(out, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	return out
}

// multipleTicks labels a log axis at the given multiples of the powers of
// ten.
type multipleTicks struct{ ms []float64 }

func (t multipleTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range t.ms {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(m*math.Pow(10, e), 'g', 6, 64), 64)
			if v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ts
}
