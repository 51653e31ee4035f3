package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/figure/render"
	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/study"
)

// serve: the web explorer (internal/explorer, with its embedded page).
// The command binds the flags and hands the server run's own parser and
// setup (runPlanner), so that a request runs what `graphalloc run` runs.

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
	[]string{"batch", "every", "engine", "expansion", "delete", "steps"})

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
	srv := &http.Server{Handler: newServer(o), ReadHeaderTimeout: 10 * time.Second}
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

// newServer is the explorer's handler for the flags of serve.
func newServer(o serveOptions) *explorer.Server {
	return explorer.NewServer(o.options(), runPlanner{maxMemory: o.maxMemory})
}

// options are the server's options from the flags of serve.
func (o *serveOptions) options() explorer.Options {
	total, _ := parseMaxMemory(o.maxMemory)
	return explorer.Options{Addr: o.addr, Data: explorer.DataDir(o.data), MaxMemory: total,
		MaxBinTrials: o.maxBinTrials, MaxBallTrials: o.maxBallTrials, Keys: serveKeys, GraphKey: graphFlagName, Message: cliMessage}
}

// cliMessage is err as the CLI prints it, "graphalloc: ..." on one line.
func cliMessage(err error) string {
	var b bytes.Buffer
	report(&b, err)
	return strings.TrimSpace(b.String())
}

// runPlanner sets the explorer's runs up with run's own parser and setup,
// under serve's --max-memory.
type runPlanner struct{ maxMemory string }

// serveJob is a request's run, parsed by run's code.
type serveJob struct {
	o    runOptions
	fset *pflag.FlagSet
	// notes gathers what parse and setup write to stderr.
	notes bytes.Buffer
}

// Parse parses the request's flags with run's parser, as -f json.
func (p runPlanner) Parse(args []string) (explorer.Job, error) {
	if p.maxMemory != "" {
		args = append(args, "--max-memory="+p.maxMemory)
	}
	args = append(args, "--format=json")
	j := &serveJob{}
	fset, err := j.o.parse(args, io.Discard, &j.notes)
	j.fset = fset
	if errors.Is(err, pflag.ErrHelp) {
		return nil, usagef("help is not a run")
	}
	if err == nil && (strings.HasPrefix(j.o.dyn.Delete, "file:") || strings.HasPrefix(j.o.dyn.Delete, "masking:")) {
		err = usagef("--delete: the explorer runs abku, fifo and random deletions; a sequence is run's (graphalloc run --delete file:PATH or masking:survivors=S)")
	}
	return j, err
}

// Build is run's setup, which builds the graph; it stops once ctx is
// done (the client has gone), so the job's reservation returns within a
// second.
func (j *serveJob) Build(ctx context.Context) (*explorer.Run, error) {
	cfg, head, _, err := j.o.setupContext(ctx, j.fset, &j.notes)
	if err != nil {
		return nil, err
	}
	r := &explorer.Run{Config: cfg, Head: head, Spec: j.o.spec, Trials: j.o.trials, Workers: j.o.workers, Notes: j.notes.String(), PNG: j.png, Delete: j.o.dyn.Delete}
	if j.o.dyn.Delete != "" {
		c, err := j.o.dyn.Dynamic(cfg, j.fset.Changed)
		r.Dynamic = &c
		return r, wrapUsage(err)
	}
	return r, nil
}

// png draws the run's figure with the options of run --plot FILE.png
// without figure flags.
func (j *serveJob) png(w io.Writer, fig *figure.Figure) error {
	opts, err := j.o.ff.options(j.fset, "--plot", "run.png")
	if err != nil {
		return err
	}
	return render.Draw(w, fig, opts)
}

// Request is the job's run as study.Plan takes it: a flag it cannot read
// gives none (setup reports it), a bad -g or -n an error.
func (j *serveJob) Request() (study.RunRequest, error) {
	o := &j.o
	descs, err := o.pf.descriptors()
	if err != nil || len(descs) != 1 {
		return study.RunRequest{}, nil
	}
	params, err := o.pf.params(j.fset, descs)
	if err != nil {
		return study.RunRequest{}, nil
	}
	_, req, err := o.request(j.fset, descs[0], params)
	return req, err
}
