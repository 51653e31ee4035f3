package results

import (
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
)

// ProcessParams are the whole-number and noise parameters that one process
// or a few read: g of g-bounded and g-myopic, σ of noisy, K of memory, the
// balls per round k of kd-choice, L of threshold and δ of quantile. A field is recorded
// (not nil) exactly when a process of the file reads it, so that a file
// says which value its process ran with and no other. Config and
// GridConfig embed it (its fields stand in their JSON objects); a new
// parameter of this kind is a field here and a line in each method.
type ProcessParams struct {
	G         *int     `json:"g,omitempty"`
	Sigma     *float64 `json:"sigma,omitempty"`
	Memory    *int     `json:"memory,omitempty"`
	K         *int     `json:"k,omitempty"`
	Threshold *int     `json:"threshold,omitempty"`
	Delta     *float64 `json:"delta,omitempty"`
}

// record sets the fields of the parameters a process that uses them reads
// from p.
func (q *ProcessParams) record(uses alloc.Param, p alloc.Params) {
	set := func(bit alloc.Param, v int, f **int) {
		if uses&bit != 0 {
			*f = &v
		}
	}
	set(alloc.ParamG, p.G, &q.G)
	set(alloc.ParamMemory, p.Memory, &q.Memory)
	set(alloc.ParamK, p.K, &q.K)
	set(alloc.ParamThreshold, p.Threshold, &q.Threshold)
	if uses&alloc.ParamSigma != 0 {
		s := p.Sigma
		q.Sigma = &s
	}
	if uses&alloc.ParamDelta != 0 {
		d := p.Delta
		q.Delta = &d
	}
}

// apply copies the recorded fields into p.
func (q ProcessParams) apply(p *alloc.Params) {
	get := func(f *int, v *int) {
		if f != nil {
			*v = *f
		}
	}
	get(q.G, &p.G)
	get(q.Memory, &p.Memory)
	get(q.K, &p.K)
	get(q.Threshold, &p.Threshold)
	if q.Sigma != nil {
		p.Sigma = *q.Sigma
	}
	if q.Delta != nil {
		p.Delta = *q.Delta
	}
}

// cells are the CSV columns g and sigma (always there, empty when not
// recorded or when uses, if not all ones, does not read them), then
// memory, k, threshold and delta, each a column only where recorded: a
// file of the other processes keeps the columns it always had.
func (q ProcessParams) cells(uses alloc.Param) (head, cells []string) {
	num := func(f *int) string {
		if f == nil {
			return ""
		}
		return strconv.Itoa(*f)
	}
	g, sigma := "", ""
	if uses&alloc.ParamG != 0 {
		g = num(q.G)
	}
	if q.Sigma != nil && uses&alloc.ParamSigma != 0 {
		sigma = FormatFloat(*q.Sigma)
	}
	head, cells = []string{"g", "sigma"}, []string{g, sigma}
	for _, c := range []struct {
		name string
		f    *int
		bit  alloc.Param
	}{{"memory", q.Memory, alloc.ParamMemory}, {"k", q.K, alloc.ParamK}, {"threshold", q.Threshold, alloc.ParamThreshold}} {
		if c.f != nil {
			head = append(head, c.name)
			v := ""
			if uses&c.bit != 0 {
				v = num(c.f)
			}
			cells = append(cells, v)
		}
	}
	if q.Delta != nil {
		head = append(head, "delta")
		v := ""
		if uses&alloc.ParamDelta != 0 {
			v = FormatFloat(*q.Delta)
		}
		cells = append(cells, v)
	}
	return head, cells
}
