package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/study"
)

// processFlags are the process flags of run, compare, bounds and fluid: one
// definition, so that their help texts, defaults and checks are the same.
// The parameter flags are those of alloc.ParamTable, bound by name.
type processFlags struct {
	process string
	text    map[string]*string  // the ParamText flags
	num     map[string]*float64 // the ParamFloat flags
	whole   map[string]*int     // the ParamInt flags
}

// processList is the list of processes for a help text.
func processList() string { return strings.Join(alloc.Names(), ", ") }

// add defines the flags on fs, one a parameter of alloc.ParamTable; -p
// has the given default and help.
func (o *processFlags) add(fs *pflag.FlagSet, defProcess, processHelp string) {
	fs.StringVarP(&o.process, "process", "p", defProcess, processHelp)
	o.text, o.num, o.whole = map[string]*string{}, map[string]*float64{}, map[string]*int{}
	for _, s := range alloc.ParamTable {
		switch s.Kind {
		case alloc.ParamText:
			o.text[s.Name] = new(string)
			fs.StringVarP(o.text[s.Name], s.Name, s.Short, s.Default, s.Usage)
		case alloc.ParamInt:
			def, err := strconv.Atoi(s.Default)
			if err != nil {
				panic(fmt.Sprintf("graphalloc: parameter %s: default %q is not whole", s.Name, s.Default))
			}
			o.whole[s.Name] = new(int)
			fs.IntVar(o.whole[s.Name], s.Name, def, s.Usage)
		case alloc.ParamFloat:
			def, err := strconv.ParseFloat(s.Default, 64)
			if err != nil {
				panic(fmt.Sprintf("graphalloc: parameter %s: default %q is not a number", s.Name, s.Default))
			}
			o.num[s.Name] = new(float64)
			fs.Float64Var(o.num[s.Name], s.Name, def, s.Usage)
		}
	}
}

// value is the number flag name holds, as a float64.
func (o *processFlags) value(name string) float64 {
	if v, ok := o.whole[name]; ok {
		return float64(*v)
	}
	return *o.num[name]
}

// topologyFlags are the flags beyond alloc.ParamTable that only a process
// reading a graph takes.
var topologyFlags = []string{graphFlagName, "expansion"}

// users lists the processes that read parameter p.
func users(p alloc.Param) string { return strings.Join(alloc.Readers(p), ", -p ") }

// descriptors looks up the processes of a comma-separated -p value, in
// order, without repeats.
func (o *processFlags) descriptors() ([]*alloc.Descriptor, error) {
	var ds []*alloc.Descriptor
	for name := range strings.SplitSeq(o.process, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		d, err := alloc.Lookup(name)
		if err != nil {
			return nil, usagef("--process: %v", err)
		}
		if !slices.Contains(ds, d) {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return nil, usagef("--process: no process given")
	}
	return ds, nil
}

// params parses the parameter flags for the processes ds: a flag given
// that none of them reads is an error naming the processes that read it;
// Ties stays TiesDefault unless --ties is given.
func (o *processFlags) params(fs *pflag.FlagSet, ds []*alloc.Descriptor) (alloc.Params, error) {
	var p alloc.Params
	var uses alloc.Param
	var names []string
	for _, d := range ds {
		uses |= d.Uses
		names = append(names, d.Name)
	}
	refuse := func(flag string, bit alloc.Param) error {
		if bit != 0 && fs.Lookup(flag) != nil && fs.Changed(flag) && uses&bit == 0 {
			return usagef("--%s applies only to -p %s, not to -p %s", flag, users(bit), strings.Join(names, ","))
		}
		return nil
	}
	for _, s := range alloc.ParamTable {
		flags := []string{s.Name}
		if s.Bit == alloc.ParamSample {
			flags = append(flags, topologyFlags...) // the graph's flags beside its sampling
		}
		for _, f := range flags {
			bit := s.Bit
			if f != s.Name {
				bit = alloc.ParamGraph
			}
			if err := refuse(f, bit); err != nil {
				return p, err
			}
		}
	}
	for _, s := range alloc.ParamTable {
		if s.Kind != alloc.ParamText {
			v := o.value(s.Name)
			if err := s.CheckFlag(v); err != nil {
				return p, usageError{err}
			}
			if uses&s.Bit != 0 {
				s.Set(&p, v)
			}
		} else if v := *o.text[s.Name]; (v != "" || s.Default != "") && (!s.GivenOnly || fs.Changed(s.Name)) {
			if err := s.Parse(&p, v); err != nil {
				return p, usagef("--%s: %v", s.Name, err)
			}
		}
	}
	// graph reads β only when it is given (see alloc.Params).
	p.GraphBeta = uses&alloc.ParamBeta != 0 && fs.Changed("beta")
	return p, nil
}

// checkParams checks p for each process of ds that does not take a graph
// (a graph process is checked once its graph is built), and warns on
// stderr of weights whose variance is infinite.
func checkParams(ds []*alloc.Descriptor, p alloc.Params, stderr io.Writer) error {
	for _, d := range ds {
		if d.Uses&alloc.ParamGraph != 0 {
			continue
		}
		if err := d.Check(p); err != nil {
			return usageError{err}
		}
		if c := p.Weights.Caveat(); d.Uses&alloc.ParamWeights != 0 && c != "" {
			fmt.Fprintln(stderr, "graphalloc: warning:", c)
		}
	}
	return nil
}

// addBatch defines --batch on fs.
func addBatch(fs *pflag.FlagSet, batch *string) {
	fs.StringVar(batch, "batch", "1", "batch size B: balls come in batches of B, each ball reading the loads at the start of its batch (1: one at a time); a count (1024, 2^10) or a multiple of n (n, 16n)")
}

// parseBatch is study.ParseBatch, whose errors are usage errors.
func parseBatch(s string, n int64, ds []*alloc.Descriptor) (int64, error) {
	b, err := study.ParseBatch(s, n, ds)
	return b, wrapUsage(err)
}

// parseBalls is study.ParseBalls, whose errors are usage errors.
func parseBalls(s string, n int64) (int64, error) {
	m, err := study.ParseBalls(s, n)
	return m, wrapUsage(err)
}

// processHelp lists the processes with their synopses, for help texts.
func processHelp() string {
	var b strings.Builder
	for _, d := range alloc.Descriptors() {
		line := fmt.Sprintf("  %-14s", d.Name)
		for _, word := range strings.Fields(d.Synopsis) {
			if len(line)+1+len(word) > 78 {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line = strings.Repeat(" ", 16)
			} else if !strings.HasSuffix(line, " ") {
				line += " "
			}
			line += word
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
