package analysis

import (
	"math"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// TestQuantileFluidClosedForm checks Quantile(δ)'s system against its
// closed form at level 1. While s_1 < δ every bin of load ≥ 1 is heavy, so
// ds_1/dt = δ(1 − s_1) + (1 − δ) = 1 − δ s_1 and s_1 = (1 − e^{−δt})/δ, up
// to t₁ = −ln(1 − δ²)/δ where s_1 = δ; after it the empty bins are all
// light, ds_1/dt = (1 + δ)(1 − s_1) and s_1 = 1 − (1 − δ)e^{−(1+δ)(t − t₁)}.
// Balls are conserved (Σ s_i = t), and δ outside (0, 1) is refused. The
// negative control: Threshold(1)'s s_1 = tanh t, which Quantile(1/2) must
// not match (so the check can tell the rules apart).
func TestQuantileFluidClosedForm(t *testing.T) {
	for _, delta := range []float64{0.5, 0.2, 0.9} {
		p := FluidProcess{Family: alloc.FamilyQuantile, D: 2, Delta: delta}
		t1 := -math.Log(1-delta*delta) / delta
		for _, tt := range []float64{0.1, t1 / 2, t1, 1.5 * t1, 3, 20} {
			s, err := Tails(p, tt)
			if err != nil {
				t.Fatal(err)
			}
			want := (1 - math.Exp(-delta*tt)) / delta
			if tt > t1 {
				want = 1 - (1-delta)*math.Exp(-(1+delta)*(tt-t1))
			}
			if d := math.Abs(s[1] - want); d > 1e-10 {
				t.Errorf("δ=%g t=%g: s_1 = %.15g, want %.15g", delta, tt, s[1], want)
			}
			var sum float64
			for _, v := range s[1:] {
				sum += v
			}
			if math.Abs(sum-tt) > 1e-9 {
				t.Errorf("δ=%g t=%g: Σ s_i = %.15g", delta, tt, sum)
			}
		}
	}
	s, err := Tails(FluidProcess{Family: alloc.FamilyQuantile, D: 2, Delta: 0.5}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s[1]-math.Tanh(1)) < 1e-3 {
		t.Errorf("Quantile(1/2) s_1(1) = %g matches Threshold(1)'s tanh 1", s[1])
	}
	for _, d := range []float64{0, 1, -0.5, math.NaN()} {
		if _, err := Tails(FluidProcess{Family: alloc.FamilyQuantile, Delta: d}, 1); err == nil {
			t.Errorf("δ=%g accepted", d)
		}
	}
}
