package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// serve: the web explorer. The page (internal/explorer, embedded) sends a
// run's flags as the query of /api/run; the server parses them with run's
// own parser and setup (runOptions.parse, runOptions.setup), runs them on
// alloc.Run and streams a snapshot per finished trial as server-sent
// events. /api/download runs the same query again and writes what
// `graphalloc run` writes: the same seed gives the same file.

// serveOptions are the flags of serve.
type serveOptions struct {
	addr, data, maxMemory string
	maxBinTrials          int64
	maxBallTrials         int64
	public                bool // --public: listening beyond loopback is meant
}

// serveKeys are the run flags the page may set, as query keys: the
// parameters of alloc.ParamTable among run's own.
var serveKeys = explorer.Keys([]string{"process", graphFlagName, "bins", "balls", "seed", "trials"},
	[]string{"batch", "every", "engine", "expansion"})

func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o serveOptions
	fs := newFlags("serve", stdout, stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port); 127.0.0.1 keeps it to this machine")
	fs.StringVar(&o.data, "data", "", "directory of graph files the page may name (file:NAME, relative to DIR); none if unset")
	fs.StringVar(&o.maxMemory, "max-memory", "", "the memory all requests share; a run that needs more than is free waits, then is refused (default: the memory available)")
	fs.Int64Var(&o.maxBinTrials, "max-bin-trials", 1<<26, "refuse a request whose n·trials exceeds this")
	fs.Int64Var(&o.maxBallTrials, "max-ball-trials", 1<<31, "refuse a request whose m·trials exceeds this")
	fs.BoolVar(&o.public, "public", false, "allow an --addr beyond loopback (0.0.0.0, a network address): anyone who reaches it can run simulations and read --data")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := o.checkAddr(stderr); err != nil {
		return err
	}
	if _, err := parseMaxMemory(o.maxMemory); err != nil {
		return err
	}
	if o.maxBinTrials < 1 || o.maxBallTrials < 1 {
		return usagef("--max-bin-trials and --max-ball-trials: need caps >= 1, got %d and %d", o.maxBinTrials, o.maxBallTrials)
	}
	if o.data != "" {
		st, err := os.Stat(o.data)
		if err != nil || !st.IsDir() {
			return usagef("--data: %s is not a directory", o.data)
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return usagef("--addr: %v", err)
	}
	o.addr = ln.Addr().String() // the port chosen for :0, which Host headers name
	srv := &http.Server{Handler: newServer(o, stderr), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "graphalloc: serving the explorer on http://%s/ (Ctrl-C stops)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// dataDir is --data.
func (o *serveOptions) dataDir() explorer.DataDir { return explorer.DataDir(o.data) }

// checkAddr refuses an --addr beyond loopback without --public, and warns
// with it: the explorer runs what any page that reaches it asks, and reads
// --data.
func (o *serveOptions) checkAddr(stderr io.Writer) error {
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return usagef("--addr: want host:port (127.0.0.1:8080), got %q", o.addr)
	}
	if explorer.IsLoopback(host) {
		return nil
	}
	if !o.public {
		return usagef("--addr %s listens beyond this machine: anyone who can reach it can run simulations and read --data; add --public if that is meant", o.addr)
	}
	fmt.Fprintf(stderr, "graphalloc: warning: --public: serving on %s, beyond this machine; anyone who can reach it can run simulations and read --data\n", o.addr)
	return nil
}

// server is the explorer's HTTP handler.
type server struct {
	opt    serveOptions
	log    io.Writer
	mux    *http.ServeMux
	guard  http.Handler // mux behind the Host and cross-site checks
	budget *explorer.Budget
	wait   time.Duration // how long a request waits for budget
	// build sets a job up (setupBuild); it holds the job's reservation
	// until it returns, and should return when ctx ends.
	build func(ctx context.Context, j *job) error
	slots explorer.Slots
}

func newServer(o serveOptions, log io.Writer) *server {
	s := &server{opt: o, log: log, mux: http.NewServeMux(), wait: budgetWait, build: setupBuild}
	total, err := parseMaxMemory(o.maxMemory)
	if err != nil || total == 0 {
		total = study.AvailableMemory()
	}
	if total <= 0 {
		total = math.MaxInt64 // no way to know: each run's own guard only
	}
	s.budget = explorer.NewBudget(total)
	static, err := fs.Sub(explorer.Files, "web")
	if err != nil {
		panic(err) // the embedded files: a build defect
	}
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/run", s.handleRun)
	s.mux.HandleFunc("GET /api/download", s.handleDownload)
	s.mux.HandleFunc("GET /api/params", explorer.ServeParams(serveKeys))
	addr := o.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	g := explorer.NewGuard(addr)
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

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.guard.ServeHTTP(w, r) }

// cliMessage is err as the CLI prints it, "graphalloc: ..." on one line.
func cliMessage(err error) string {
	var b bytes.Buffer
	report(&b, err)
	return strings.TrimSpace(b.String())
}

// job is a request's run, set up by run's own code.
type job struct {
	o     runOptions
	cfg   alloc.Config
	head  results.Config
	args  []string // the flags of the equivalent `graphalloc run`
	notes string   // what setup wrote to stderr
	graph graphgen.Graph
	spec  graphgen.Spec
	fset  *pflag.FlagSet
	// notesBuf gathers what parse and setup write to stderr.
	notesBuf bytes.Buffer
	// release gives the job's bytes back to the server's budget.
	release func()
}

// setupJob turns a request's query into a run: the flags of `graphalloc
// run`, parsed by run's code, checked against the server's caps and
// reserved in its memory budget before anything is built, then set up by
// run's code. A download also holds the file it writes, about as large
// as the trials it holds. The caller releases the job (j.release) when
// it is done.
func (s *server) setupJob(ctx context.Context, q url.Values, download bool) (*job, error) {
	j, err := s.parseJob(q)
	if err != nil {
		return nil, err
	}
	d, err := j.demand()
	if err != nil {
		return nil, err
	}
	if err := s.checkCaps(d.n, d.m, j.o.trials); err != nil {
		return nil, err
	}
	if download {
		// The file's text, which the JSON encoder holds whole: about
		// 1.7 times the trials' memory (a trial of 64 balls in 16 bins,
		// 22 points of series: 2245 bytes of JSON, 1328 estimated),
		// in a buffer that grows by doubling.
		d.bytes += 4 * d.results
	}
	if j.release, err = s.reserve(ctx, d.bytes); err != nil {
		return nil, err
	}
	if err := s.buildJob(ctx, j); err != nil {
		j.release()
		return nil, err
	}
	if err := s.checkCaps(int64(j.cfg.N), j.cfg.M, j.o.trials); err != nil {
		j.release()
		return nil, err
	}
	if j.cfg.Every == 0 {
		// The series of the picture: about 20 points (and the same flag in
		// the command, so that run gives the same file).
		j.cfg.Every = max(1, j.cfg.M/20)
		j.head.Every = j.cfg.Every
		j.args = append(j.args, fmt.Sprintf("--every=%d", j.cfg.Every))
	}
	if orig, err := graphgen.ParseSpec(q.Get(graphFlagName)); err == nil && orig.FromFile() {
		// The file as the page named it (run in --data gives this file).
		j.head.Graph = orig.String()
	}
	j.notes = s.opt.dataDir().Hide(j.notesBuf.String())
	return j, nil
}

// parseJob parses a request's query with run's parser.
func (s *server) parseJob(q url.Values) (*job, error) {
	j := &job{release: func() {}}
	for k := range q {
		if k != "page" && k != "slot" && k != "format" && !slices.Contains(serveKeys, k) {
			return nil, usagef("unknown parameter %q (allowed: %s)", k, strings.Join(serveKeys, ", "))
		}
	}
	var runArgs []string
	for _, k := range serveKeys {
		v := strings.TrimSpace(q.Get(k))
		if v == "" {
			continue
		}
		j.args = append(j.args, "--"+k+"="+v)
		if k == graphFlagName {
			var err error
			if v, err = s.opt.dataDir().Resolve(v); err != nil {
				return nil, usageError{err}
			}
		}
		runArgs = append(runArgs, "--"+k+"="+v)
	}
	if s.opt.maxMemory != "" {
		runArgs = append(runArgs, "--max-memory="+s.opt.maxMemory)
	}
	runArgs = append(runArgs, "--format=json")
	fset, err := j.o.parse(runArgs, io.Discard, &j.notesBuf)
	j.fset = fset
	if errors.Is(err, pflag.ErrHelp) {
		return nil, usagef("help is not a run")
	}
	if err != nil {
		return nil, err
	}
	if sp, err := graphgen.ParseSpec(j.o.graph); err == nil {
		j.spec = sp
	}
	return j, nil
}

// checkCaps refuses a run above the server's caps on n·trials and
// m·trials.
func (s *server) checkCaps(n, m int64, trials int) error {
	if float64(n)*float64(trials) > float64(s.opt.maxBinTrials) {
		return usagef("n·trials = %d·%d is above this server's cap of %d (--max-bin-trials)", n, trials, s.opt.maxBinTrials)
	}
	if float64(m)*float64(trials) > float64(s.opt.maxBallTrials) {
		return usagef("m·trials = %d·%d is above this server's cap of %d (--max-ball-trials)", m, trials, s.opt.maxBallTrials)
	}
	return nil
}

// command is the job's equivalent command line.
func (j *job) command(format string) string {
	parts := []string{"graphalloc", "run"}
	for _, a := range j.args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(append(parts, "-f", format), " ")
}

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=.,:/^+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// trialList is 0..trials-1.
func (j *job) trialList() []int {
	ts := make([]int, j.o.trials)
	for i := range ts {
		ts[i] = i
	}
	return ts
}

// runAll runs every trial and returns them in trial order (the file run
// writes).
func (j *job) runAll(ctx context.Context) (*results.File, error) {
	var all []alloc.Result
	err := alloc.Run(ctx, j.cfg, j.trialList(), j.o.workers, func(r alloc.Result) error {
		all = append(all, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	sum, err := results.Summarize(j.head, all)
	if err != nil {
		return nil, err
	}
	return &results.File{Config: j.head, Trials: all, Summary: sum}, nil
}

// message is err as the CLI prints it, with files under --data named as
// the page named them.
func (s *server) message(err error) string { return s.opt.dataDir().Hide(cliMessage(err)) }

// httpError writes err as JSON {"error": the CLI's message}.
func (s *server) httpError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": s.message(err)})
}

// handleDownload writes the run's JSON, CSV or PNG, as run -f json|csv and
// --plot FILE.png write them.
func (s *server) handleDownload(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	format := q.Get("format")
	if format != "json" && format != "csv" && format != "png" {
		s.httpError(w, http.StatusBadRequest, usagef("format: want json, csv or png, got %q", format))
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
	f, err := j.runAll(r.Context())
	if err != nil {
		s.httpError(w, http.StatusInternalServerError, err)
		return
	}
	a := &attachment{w: w, name: "graphalloc-run." + format}
	if format == "png" {
		a.ctype = "image/png"
		var fig *study.Figure
		if fig, err = results.RunFigure(j.head, f.Trials); err == nil {
			// The options of run --plot FILE.png without figure flags.
			var opts study.FigureOptions
			if opts, err = j.o.ff.options(j.fset, "--plot", "run.png"); err == nil {
				err = fig.Draw(a, opts)
			}
		}
	} else {
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

// picture describes the job's graph for the page; nil above
// explorer.PictureMax bins.
func (j *job) picture() *explorer.Picture {
	uses := j.cfg.Process == nil || alloc.Describe(j.cfg.Process).Uses&alloc.ParamGraph != 0
	return explorer.NewPicture(j.spec, j.cfg.N, uses, j.graph)
}

// buildGraph rebuilds the job's graph for the picture, exactly as setup
// built it (the same spec, n and graph stream of the seed).
func (j *job) buildGraph(ctx context.Context) {
	if j.cfg.N > explorer.PictureMax || j.spec.Kind == "" || j.spec.Kind == "cycle" || j.spec.Kind == "torus" || j.spec.Kind == "complete" {
		return
	}
	if d := alloc.Describe(j.cfg.Process); d == nil || d.Uses&alloc.ParamGraph == 0 {
		return
	}
	maxN, why := binsLimit(j.o.engine, alloc.Describe(j.cfg.Process), alloc.Params{}, j.o.graph)
	gf, err := parseGraph(j.o.graph, j.o.bins, true, maxN, why)
	if err != nil {
		return
	}
	gf.n = int64(j.cfg.N)
	if g, _, err := gf.buildContext(ctx, j.o.seed, io.Discard); err == nil {
		j.graph = g
	}
}

// configEvent is the first event of a run: its config, the equivalent
// command, setup's notes and the graph picture.
type configEvent struct {
	Config  results.Config    `json:"config"`
	Command string            `json:"command"`
	Notes   string            `json:"notes,omitempty"`
	Graph   *explorer.Picture `json:"graph"`
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
func (s *server) handleRun(w http.ResponseWriter, r *http.Request) {
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
	send("config", configEvent{Config: j.head, Command: j.command("json"), Notes: strings.TrimSpace(j.notes), Graph: j.picture()})

	feed := explorer.NewFeed(j.head, j.o.trials)
	cfg := j.cfg
	if cfg.N <= explorer.PictureMax {
		cfg.Loads = feed.SetLoads
	}
	if cfg.Check() != nil {
		cfg.Loads = nil // a rule without per-bin loads (weighted balls, the level engine): no picture
	}
	if cfg.Loads != nil && !explorer.Frames(ctx, cfg, send) {
		return
	}
	var next time.Time
	err = alloc.Run(ctx, cfg, j.trialList(), j.o.workers, func(res alloc.Result) error {
		feed.Add(res)
		if start := time.Now(); start.After(next) && feed.Done() < j.o.trials && streamed < streamMax {
			if sn, err := feed.Snapshot(false); err == nil {
				send("snapshot", sn)
			}
			next = time.Now().Add(max(snapshotEvery, 4*time.Since(start)))
		}
		return nil
	})
	if err == nil {
		var sn *explorer.Snapshot
		if sn, err = feed.Snapshot(true); err == nil {
			send("done", sn)
			return
		}
	}
	if ctx.Err() == nil {
		send("fail", map[string]string{"error": s.message(err)})
	}
}
