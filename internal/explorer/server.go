package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// The server: the page (web/, embedded) sends a run's flags as the query
// of /api/run; the server hands them to the command line's own parser and
// setup (a Planner), runs them on alloc.Run and streams a snapshot per
// finished trial as server-sent events. /api/download runs the same query
// again and writes what `graphalloc run` writes: the same seed gives the
// same file. The server holds no copy of run's flags or checks, so that
// the page can ask for nothing run would refuse or read differently.

// Options configure a Server.
type Options struct {
	// Addr is the address the server listens on (host:port), which Host
	// headers must name; "" is 127.0.0.1 on any port.
	Addr string
	// Data is the directory of graph files the page may name (file:NAME).
	Data DataDir
	// MaxMemory is the bytes all requests share (--max-memory); 0 is the
	// memory available.
	MaxMemory int64
	// MaxBinTrials and MaxBallTrials cap n·trials and m·trials.
	MaxBinTrials, MaxBallTrials int64
	// Keys are the run flags the page may set, as query keys; the value
	// of GraphKey, the topology, may name a file under Data.
	Keys     []string
	GraphKey string
	// Message is an error as the command line prints it; nil: its text.
	Message func(error) string
}

// Planner sets a request's run up with the command line's code.
type Planner interface {
	// Parse parses the flags of `graphalloc run` (--key=value, files
	// under Data already resolved) and checks them.
	Parse(args []string) (Job, error)
}

// Job is a parsed run, not yet built.
type Job interface {
	// Request is the run as study.Plan takes it, from its flags alone; a
	// zero Request (no Process) if a flag cannot be read, which Build
	// then reports.
	Request() (study.RunRequest, error)
	// Build sets the run up, building its graph. It holds the job's
	// reservation until it returns, and should return once ctx is done.
	Build(ctx context.Context) (*Run, error)
}

// Demand is what a request will hold, from its flags alone: n as the
// graph spec plans it, m, and the bytes of the graph, the loads of the
// trials that run at once and the finished trials (Results, of Bytes);
// and the trials.
type Demand struct {
	N, M, Bytes, Results int64
	Trials               int
}

// demandOf works out the demand of request r before anything is built
// (study.Plan), with the picture's series of about 20 points when r asks
// for none.
func demandOf(r study.RunRequest) (Demand, error) {
	if r.Process == nil {
		return Demand{}, nil
	}
	p, _ := study.Plan(r) // a bad engine counts for nothing here: Build refuses it
	d := Demand{N: r.N, Trials: r.Trials}
	if r.Process.Uses&alloc.ParamGraph != 0 {
		if p.GraphErr != nil {
			return Demand{}, p.GraphErr
		}
		d.N, d.Bytes = p.N, p.GraphBytes
	}
	d.M, _ = study.ParseCount(r.Balls, d.N)
	every, _ := study.ParseCount(r.Every, d.N)
	if every < 1 {
		every = max(1, d.M/20) // the picture's series
	}
	m := p.Memory
	m.Every, m.JSON = every, false
	d.Results = m.HeldBytes()
	d.Bytes += m.Bytes()
	return d, nil
}

// Run is a set-up run.
type Run struct {
	Config          alloc.Config
	Head            results.Config
	Trials, Workers int
	Notes           string         // what setup wrote to stderr
	Spec            graphgen.Spec  // the topology, for the picture
	Graph           graphgen.Graph // the graph for the picture (pictureGraph)
	// Dynamic is the run with deletions of run --delete (nil for none),
	// which runs instead of Config and sends its file whole.
	Dynamic *alloc.Dynamic
	// Delete is --delete as given.
	Delete string
	// PNG draws a figure of the run (results.RunFigure, or DynamicFigure
	// for a run with deletions) as run --plot FILE.png draws it.
	PNG func(w io.Writer, fig *figure.Figure) error
}

// BudgetWait is how long a request waits for other runs to release the
// bytes it needs before it is refused as busy.
const BudgetWait = 2 * time.Second

// Server is the explorer's HTTP handler.
type Server struct {
	opt     Options
	planner Planner
	mux     *http.ServeMux
	guard   http.Handler // mux behind the Host and cross-site checks
	budget  *Budget
	slots   Slots
	// Wait is how long a request waits for budget (BudgetWait).
	Wait time.Duration
}

// NewServer returns the explorer's handler, which sets runs up with p.
func NewServer(o Options, p Planner) *Server {
	if o.Message == nil {
		o.Message = error.Error
	}
	s := &Server{opt: o, planner: p, mux: http.NewServeMux(), Wait: BudgetWait}
	total := o.MaxMemory
	if total == 0 {
		total = study.AvailableMemory()
	}
	if total <= 0 {
		total = math.MaxInt64 // no way to know: each run's own guard only
	}
	s.budget = NewBudget(total)
	static, err := fs.Sub(Files, "web")
	if err != nil {
		panic(err) // the embedded files: a build defect
	}
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/run", s.handleRun)
	s.mux.HandleFunc("GET /api/queue", s.handleQueue)
	s.mux.HandleFunc("GET /api/download", s.handleDownload)
	s.mux.HandleFunc("GET /api/params", ServeParams(o.Keys))
	addr := o.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	g := NewGuard(addr)
	g.Runs = func(path string) bool { return strings.HasPrefix(path, "/api/") }
	s.guard = g.Wrap(s.mux)
	s.mux.HandleFunc("GET /api/processes", func(w http.ResponseWriter, _ *http.Request) {
		var names []string
		for _, d := range alloc.Descriptors() {
			names = append(names, d.Name)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(names)
	})
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.guard.ServeHTTP(w, r) }

// Budget is the memory budget the server's requests share.
func (s *Server) Budget() *Budget { return s.budget }

// Busy reports whether a run holds the page's slot.
func (s *Server) Busy(page, slot string) bool { return s.slots.Busy(page, slot) }

// message is err as the CLI prints it, with files under Data named as
// the page named them.
func (s *Server) message(err error) string { return s.opt.Data.Hide(s.opt.Message(err)) }

// httpError writes err as JSON {"error": the CLI's message}.
func (s *Server) httpError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": s.message(err)})
}

// handleDownload writes the run's JSON, CSV or PNG, as run -f json|csv and
// --plot FILE.png write them.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	format := q.Get("format")
	if format != "json" && format != "csv" && format != "png" {
		s.httpError(w, http.StatusBadRequest, fmt.Errorf("format: want json, csv or png, got %q", format))
		return
	}
	j, err := s.setupJob(r.Context(), q, true)
	if err != nil {
		status := http.StatusBadRequest
		if errors.As(err, new(busyError)) {
			status = http.StatusServiceUnavailable
		}
		s.httpError(w, status, err)
		return
	}
	defer j.release()
	if j.run.Dynamic != nil {
		s.downloadDynamic(w, r.Context(), j, format)
		return
	}
	f, err := j.runAll(r.Context())
	if err != nil {
		s.httpError(w, http.StatusInternalServerError, err)
		return
	}
	a := &attachment{w: w, name: "graphalloc-run." + format}
	switch {
	case format == "png" && j.run.PNG == nil:
		err = errors.New("format: this server draws no png")
	case format == "png":
		var fig *figure.Figure
		if fig, err = results.RunFigure(f.Config, f.Trials); err == nil {
			a.ctype = "image/png"
			err = j.run.PNG(a, fig)
		}
	default:
		a.ctype = map[string]string{"json": "application/json", "csv": "text/csv"}[format]
		err = results.Write(a, format, f)
	}
	if err != nil && !a.started {
		s.httpError(w, http.StatusInternalServerError, err)
	}
}

// attachment writes a download to the client: its headers go out with
// the first byte, so that a failure before it still gets a status and a
// message, and the file is never held in a second buffer.
type attachment struct {
	w           http.ResponseWriter
	ctype, name string
	started     bool
}

func (a *attachment) Write(p []byte) (int, error) {
	if !a.started {
		a.started = true
		a.w.Header().Set("Content-Type", a.ctype)
		a.w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", a.name))
	}
	return a.w.Write(p)
}

// ConfigEvent is the first event of a run: its config, the equivalent
// command, setup's notes and the graph picture.
type ConfigEvent struct {
	Config  results.Config `json:"config"`
	Command string         `json:"command"`
	Notes   string         `json:"notes,omitempty"`
	Graph   *Picture       `json:"graph"`
}

// snapshotEvery is the least time between two snapshots of a run; a
// snapshot that takes long to make (a summary of many trials) spaces them
// further: four times its own time.
const snapshotEvery = 150 * time.Millisecond

// streamMax is the most bytes a run streams before its last snapshot:
// beyond it, only the final snapshot is sent.
const streamMax = 64 << 20

// handleRun streams a run as server-sent events: "config" (the config,
// the command, the graph picture), "snapshot" after trials finish,
// "done" with the last snapshot, or "fail" with the CLI's message.
func (s *Server) handleRun(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	var streamed int64
	send := func(event string, v any) {
		b, _ := json.Marshal(v)
		k, _ := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		streamed += int64(k)
		fl.Flush()
	}
	q := r.URL.Query()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer s.slots.Claim(q.Get("page"), q.Get("slot"), cancel)()

	j, err := s.setupJob(ctx, q, false)
	if err != nil {
		if ctx.Err() == nil {
			send("fail", map[string]string{"error": s.message(err)})
		}
		return
	}
	defer j.release()
	send("config", ConfigEvent{Config: j.run.Head, Command: j.command("json"), Notes: strings.TrimSpace(j.run.Notes), Graph: j.picture()})
	if j.run.Dynamic != nil {
		err = j.streamDynamic(ctx, send)
	} else {
		err = j.stream(ctx, send, func() bool { return streamed < streamMax })
	}
	if err != nil && ctx.Err() == nil {
		send("fail", map[string]string{"error": s.message(err)})
	}
}

// stream runs every trial, sending the picture's frames, a snapshot
// after trials finish (at most every snapshotEvery, while more is
// wanted) and "done" with the last.
func (j *job) stream(ctx context.Context, send func(string, any), more func() bool) error {
	trials := j.run.Trials
	feed := NewFeed(j.run.Head, trials)
	cfg := j.run.Config
	if cfg.N <= PictureMax {
		cfg.Loads = feed.SetLoads
	}
	if cfg.Check() != nil {
		cfg.Loads = nil // a rule without per-bin loads (weighted balls, the level engine): no picture
	}
	if cfg.Loads != nil && !Frames(ctx, cfg, send) {
		return nil
	}
	var next time.Time
	err := alloc.Run(ctx, cfg, j.trialList(), j.run.Workers, func(res alloc.Result) error {
		feed.Add(res)
		if start := time.Now(); start.After(next) && feed.Done() < trials && more() {
			if sn, err := feed.Snapshot(false); err == nil {
				send("snapshot", sn)
			}
			next = time.Now().Add(max(snapshotEvery, 4*time.Since(start)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	sn, err := feed.Snapshot(true)
	if err != nil {
		return err
	}
	send("done", sn)
	return nil
}

// Demand returns the demand of a request's query, as the server works it
// out before reserving it.
func (s *Server) Demand(q url.Values) (Demand, error) {
	j, err := s.parseJob(q)
	if err != nil {
		return Demand{}, err
	}
	return j.demand()
}
