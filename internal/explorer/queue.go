package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/results"
)

// The supermarket model (/api/queue): the page sends the flags of
// `graphalloc queue` as a query; the server parses and sets them up with
// the command's own code (a QueuePlanner), under the same caps, budget
// and slots as a run, runs them on queue.Run and sends the file that
// `graphalloc queue -f json` writes: the same seed gives the same numbers.

// QueuePlanner sets a supermarket-model request up with the code of
// `graphalloc queue`. A Planner that is also a QueuePlanner serves
// /api/queue.
type QueuePlanner interface {
	// ParseQueue parses and checks the flags of `graphalloc queue`
	// (--key=value).
	ParseQueue(args []string) (QueueJob, error)
}

// QueueJob is a parsed queue run, not yet built.
type QueueJob interface {
	// Demand is the run's servers (N), events a trial (M), bytes and
	// trials, from its flags alone.
	Demand() Demand
	// Build sets the run up, building its graph; it should return once
	// ctx is done.
	Build(ctx context.Context) (*QueueRun, error)
}

// QueueRun is a set-up queue run.
type QueueRun struct {
	Config          queue.Config
	Head            results.QueueConfig
	Spec            graphgen.Spec // the topology, for the predictions
	Trials, Workers int
	Notes           string
}

// QueueKeys are the query keys of /api/queue: the flags of queue.Options
// and the trials and seed.
func QueueKeys() []string {
	var keys []string
	for _, f := range new(queue.Options).Flags() {
		keys = append(keys, f.Name)
	}
	return append(keys, "trials", "seed")
}

// QueueEvent is the config event of a queue run: its head and the
// equivalent command.
type QueueEvent struct {
	Config  results.QueueConfig `json:"config"`
	Command string              `json:"command"`
	Notes   string              `json:"notes,omitempty"`
}

// handleQueue streams a queue run as server-sent events: "config", a
// "progress" after each trial but the last, then "done" with the whole
// file (config, trials, summary with the predictions), or "fail".
func (s *Server) handleQueue(w http.ResponseWriter, r *http.Request) {
	qp, ok := s.planner.(QueuePlanner)
	fl, canFlush := w.(http.Flusher)
	if !ok || !canFlush {
		http.Error(w, "no queue runs on this server", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	send := func(event string, v any) { sendEvent(w, fl, event, v) }
	q := r.URL.Query()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer s.slots.Claim(q.Get("page"), q.Get("slot"), cancel)()
	var args, shown []string
	keys := QueueKeys()
	for k := range q {
		if k != "page" && k != "slot" && !slices.Contains(keys, k) {
			send("fail", map[string]string{"error": fmt.Sprintf("unknown parameter %q (allowed: %s)", k, strings.Join(keys, ", "))})
			return
		}
	}
	for _, k := range keys {
		if v := strings.TrimSpace(q.Get(k)); v != "" {
			shown = append(shown, shellQuote("--"+k+"="+v))
			if k == s.opt.GraphKey {
				var err error
				if v, err = s.opt.Data.Resolve(v); err != nil {
					send("fail", map[string]string{"error": s.message(err)})
					return
				}
			}
			args = append(args, "--"+k+"="+v)
		}
	}
	run, release, err := s.setupQueue(ctx, qp, args)
	if err != nil {
		if ctx.Err() == nil {
			send("fail", map[string]string{"error": s.message(err)})
		}
		return
	}
	defer release()
	command := "graphalloc queue " + strings.Join(shown, " ") + " -f json"
	send("config", QueueEvent{Config: run.Head, Command: command, Notes: s.opt.Data.Hide(strings.TrimSpace(run.Notes))})
	var all []queue.Trial
	err = queue.Run(ctx, run.Config, trialRange(run.Trials), run.Workers, func(t queue.Trial) error {
		all = append(all, t)
		if len(all) < run.Trials {
			send("progress", map[string]int{"done": len(all), "trials": run.Trials})
		}
		return nil
	})
	if err != nil {
		if ctx.Err() == nil {
			send("fail", map[string]string{"error": s.message(err)})
		}
		return
	}
	send("done", &results.QueueFile{Config: run.Head, Trials: all, Summary: results.QueueSummaryOf(&run.Config, run.Spec, all)})
}

// setupQueue parses a queue request, checks it against the caps (n·trials
// and events·trials), reserves its bytes in the budget and builds it. The
// caller calls release when the run is done.
func (s *Server) setupQueue(ctx context.Context, qp QueuePlanner, args []string) (*QueueRun, func(), error) {
	j, err := qp.ParseQueue(args)
	if err != nil {
		return nil, nil, err
	}
	d := j.Demand()
	if err := s.checkCaps(d.N, d.M, d.Trials); err != nil {
		return nil, nil, err
	}
	release, err := s.reserve(ctx, d.Bytes)
	if err != nil {
		return nil, nil, err
	}
	run, err := j.Build(ctx)
	if err == nil {
		events := int64((1 + run.Config.Lambda) * float64(run.Config.N) * run.Config.Time)
		err = s.checkCaps(run.Config.N, events, run.Trials)
	}
	if err != nil {
		release()
		return nil, nil, err
	}
	return run, release, nil
}

// trialRange is 0..trials-1.
func trialRange(trials int) []int {
	ts := make([]int, trials)
	for i := range ts {
		ts[i] = i
	}
	return ts
}

// sendEvent writes one server-sent event and flushes it.
func sendEvent(w http.ResponseWriter, fl http.Flusher, event string, v any) int {
	b, _ := json.Marshal(v)
	k, _ := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	fl.Flush()
	return k
}
