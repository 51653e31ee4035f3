package queue

import (
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
)

// Flag is a flag of `graphalloc queue`: its names, its help and the value
// it sets, which a flag set binds as it is (String, Set and Type are those
// of pflag.Value; String is the default until the flag is set).
type Flag struct {
	Name, Short, Usage string
	Value              interface {
		String() string
		Set(string) error
		Type() string
	}
}

// Flags sets o to the defaults of the command line and returns its flags,
// bound to o's fields, in the order the help shows them: -g and -n set
// o.Graph and o.Bins, which Config leaves to the caller.
func (o *Options) Flags() []Flag {
	*o = Options{Process: alloc.Greedy{}.Name(), D: 2, Graph: "complete", Sample: "edge", Bins: "65536",
		Lambda: 0.9, Time: 100, Warmup: "auto", Engine: "auto", Start: "empty", Batches: DefaultBatches}
	return []Flag{
		{"process", "p", "greedy (d uniform queues), one-choice (d = 1) or graph (candidates from -g by --sample)", (*text)(&o.Process)},
		{"choices", "d", "candidates of a job (greedy, graph --sample vertex)", (*whole)(&o.D)},
		{"graph", "g", "topology for -p graph: KIND[:key=value,...] or file:PATH", (*text)(&o.Graph)},
		{"sample", "", "-p graph: edge (both ends of a uniform edge) or vertex (the job's vertex and d-1 uniform neighbours)", (*text)(&o.Sample)},
		{"bins", "n", "servers n: 1e6, 2^20; for a graph file, its vertex count", (*text)(&o.Bins)},
		{"lambda", "", "arrival rate per server λ, 0 < λ < 1 (service rate 1)", (*real)(&o.Lambda)},
		{"time", "", "simulated time, in mean service times", (*real)(&o.Time)},
		{"warmup", "", "time discarded before measuring: auto (MSER) or a time", (*text)(&o.Warmup)},
		{"engine", "", "servers (a queue length each) or levels (counts per length: uniform sampling or complete, n up to 2^62); auto: levels where they apply", (*text)(&o.Engine)},
		{"start", "", "empty, or fixed (lengths drawn from the fixed point of d uniform choices)", (*text)(&o.Start)},
		{"batches", "", "time batches for MSER and the batch-means intervals", (*whole)(&o.Batches)},
		{"every", "", "record the state every DT time units (a series)", (*real)(&o.Every)},
	}
}

// The values of Flag, as pflag's own string, int and float64 flags read
// and print them.
type (
	text  string
	whole int
	real  float64
)

func (v *text) String() string      { return string(*v) }
func (v *text) Set(s string) error  { *v = text(s); return nil }
func (v *text) Type() string        { return "string" }
func (v *whole) String() string     { return strconv.Itoa(int(*v)) }
func (v *whole) Type() string       { return "int" }
func (v *real) String() string      { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }
func (v *real) Type() string        { return "float64" }
func (v *whole) Set(s string) error { x, err := strconv.ParseInt(s, 0, 64); *v = whole(x); return err }
func (v *real) Set(s string) error  { x, err := strconv.ParseFloat(s, 64); *v = real(x); return err }
