package explorer

import (
	"encoding/json"
	"net/http"

	"github.com/graphalloc/graphalloc/alloc"
)

// A Field is one parameter field of the page's form, made from
// alloc.ParamTable: the page builds its form from /api/params and holds
// no list of its own, so that a parameter the table gains is one the page
// can set.
type Field struct {
	Name        string `json:"name"`        // the query key, run's flag
	Label       string `json:"label"`       // the symbol the papers use
	Kind        string `json:"kind"`        // text, int or float
	Placeholder string `json:"placeholder"` // the flag's default, if every process shares it
	Title       string `json:"title"`       // the flag's help
	// Processes are the processes that read the parameter, those whose
	// form shows the field; none when every process reads it (ties).
	Processes []string `json:"processes,omitempty"`
}

// Fields are the form's fields of the parameters of alloc.ParamTable, in
// its order.
func Fields() []Field {
	var fs []Field
	for _, s := range alloc.ParamTable {
		f := Field{Name: s.Name, Label: s.Symbol, Kind: s.Kind.String(), Placeholder: s.Default, Title: s.Usage}
		if s.DefaultVaries {
			f.Placeholder = ""
		}
		for _, d := range alloc.Descriptors() {
			if s.Bit != 0 && d.Uses&s.Bit != 0 {
				f.Processes = append(f.Processes, d.Name)
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// Keys are the query keys a page may set: run's keys first, the
// parameters of alloc.ParamTable, then more.
func Keys(run, more []string) []string {
	keys := append([]string(nil), run...)
	for _, s := range alloc.ParamTable {
		keys = append(keys, s.Name)
	}
	return append(keys, more...)
}

// Params is the JSON of /api/params: every key the page may set, and the
// fields it builds for the parameters.
type Params struct {
	Keys   []string `json:"keys"`
	Fields []Field  `json:"fields"`
	// GraphProcesses are the processes that run on a graph, those whose
	// form shows the graph field.
	GraphProcesses []string `json:"graph_processes"`
	// QueueKeys are the keys of /api/queue, graphalloc queue's flags.
	QueueKeys []string `json:"queue_keys"`
}

// ServeParams returns the handler of /api/params for the query keys keys.
func ServeParams(keys []string) http.HandlerFunc {
	var graph []string
	for _, d := range alloc.Descriptors() {
		if d.Uses&alloc.ParamGraph != 0 {
			graph = append(graph, d.Name)
		}
	}
	body, err := json.Marshal(Params{Keys: keys, Fields: Fields(), GraphProcesses: graph, QueueKeys: QueueKeys()})
	if err != nil {
		panic(err) // strings only: a build defect
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}
