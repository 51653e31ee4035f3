package explorer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// job is a request's run: its flags, parsed and then set up by the
// Planner, and its reservation in the server's budget.
type job struct {
	parsed Job
	run    *Run
	args   []string // the flags of the equivalent `graphalloc run`
	// release gives the job's bytes back to the server's budget.
	release func()
}

// setupJob turns a request's query into a run: the flags of `graphalloc
// run`, parsed by the Planner, checked against the server's caps and
// reserved in its memory budget before anything is built, then set up by
// the Planner's job. A download also holds the file it writes, about as large
// as the trials it holds. The caller releases the job (j.release) when
// it is done.
func (s *Server) setupJob(ctx context.Context, q url.Values, download bool) (*job, error) {
	j, err := s.parseJob(q)
	if err != nil {
		return nil, err
	}
	d, err := j.demand()
	if err != nil {
		return nil, err
	}
	if err := s.checkCaps(d.N, d.M, d.Trials); err != nil {
		return nil, err
	}
	if download {
		// The file's text, which the JSON encoder holds whole: about
		// 1.7 times the trials' memory (a trial of 64 balls in 16 bins,
		// 22 points of series: 2245 bytes of JSON, 1328 estimated),
		// in a buffer that grows by doubling.
		d.Bytes += 4 * d.Results
	}
	if j.release, err = s.reserve(ctx, d.Bytes); err != nil {
		return nil, err
	}
	if err := s.buildJob(ctx, j); err != nil {
		j.release()
		return nil, err
	}
	r := j.run
	balls := r.Config.M
	if r.Dynamic != nil {
		balls = r.Dynamic.M + r.Dynamic.Steps // every step places or removes a ball
	}
	if err := s.checkCaps(int64(r.Config.N), balls, r.Trials); err != nil {
		j.release()
		return nil, err
	}
	if r.Config.Every == 0 && r.Dynamic == nil {
		// The series of the picture: about 20 points (and the same flag in
		// the command, so that run gives the same file).
		r.Config.Every = max(1, r.Config.M/20)
		r.Head.Every = r.Config.Every
		j.args = append(j.args, fmt.Sprintf("--every=%d", r.Config.Every))
	}
	if orig, err := graphgen.ParseSpec(q.Get(s.opt.GraphKey)); err == nil && orig.FromFile() {
		// The file as the page named it (run in --data gives this file).
		r.Head.Graph = orig
	}
	r.Notes = s.opt.Data.Hide(r.Notes)
	return j, nil
}

// parseJob parses a request's query with the Planner: the keys the page
// may set (Options.Keys), as run's flags, a graph file resolved under
// Options.Data. The command shown keeps the file as the page named it.
func (s *Server) parseJob(q url.Values) (*job, error) {
	j := &job{release: func() {}}
	keys := s.opt.Keys
	for k := range q {
		if k != "page" && k != "slot" && k != "format" && !slices.Contains(keys, k) {
			return nil, fmt.Errorf("unknown parameter %q (allowed: %s)", k, strings.Join(keys, ", "))
		}
	}
	var runArgs []string
	for _, k := range keys {
		v := strings.TrimSpace(q.Get(k))
		if v == "" {
			continue
		}
		j.args = append(j.args, "--"+k+"="+v)
		if k == s.opt.GraphKey {
			var err error
			if v, err = s.opt.Data.Resolve(v); err != nil {
				return nil, err
			}
		}
		runArgs = append(runArgs, "--"+k+"="+v)
	}
	var err error
	if j.parsed, err = s.planner.Parse(runArgs); err != nil {
		return nil, err
	}
	return j, nil
}

// demand is the job's Demand.
func (j *job) demand() (Demand, error) {
	r, err := j.parsed.Request()
	if err != nil {
		return Demand{}, err
	}
	return demandOf(r)
}

// checkCaps refuses a run above the server's caps on n·trials and
// m·trials.
func (s *Server) checkCaps(n, m int64, trials int) error {
	if float64(n)*float64(trials) > float64(s.opt.MaxBinTrials) {
		return fmt.Errorf("n·trials = %d·%d is above this server's cap of %d (--max-bin-trials)", n, trials, s.opt.MaxBinTrials)
	}
	if float64(m)*float64(trials) > float64(s.opt.MaxBallTrials) {
		return fmt.Errorf("m·trials = %d·%d is above this server's cap of %d (--max-ball-trials)", m, trials, s.opt.MaxBallTrials)
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
	ts := make([]int, j.run.Trials)
	for i := range ts {
		ts[i] = i
	}
	return ts
}

// runAll runs every trial and returns them in trial order (the file run
// writes).
func (j *job) runAll(ctx context.Context) (*results.File, error) {
	var all []alloc.Result
	err := alloc.Run(ctx, j.run.Config, j.trialList(), j.run.Workers, func(r alloc.Result) error {
		all = append(all, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	sum, err := results.Summarize(j.run.Head, all)
	if err != nil {
		return nil, err
	}
	return &results.File{Config: j.run.Head, Trials: all, Summary: sum}, nil
}

// picture describes the job's graph for the page; nil above PictureMax
// bins.
func (j *job) picture() *Picture {
	cfg := j.run.Config
	uses := cfg.Process == nil || alloc.Describe(cfg.Process).Uses&alloc.ParamGraph != 0
	return NewPicture(j.run.Spec, cfg.N, uses, j.run.Graph)
}

// reserve takes need bytes of the server's budget, waiting up to s.Wait
// for other runs to finish.
func (s *Server) reserve(ctx context.Context, need int64) (func(), error) {
	release, err := s.budget.Reserve(ctx, need, s.Wait)
	switch {
	case errors.Is(err, ErrOverBudget):
		what := "--max-memory"
		if s.opt.MaxMemory == 0 {
			what = "the memory available"
		}
		return nil, fmt.Errorf("this run needs about %s, more than %s (%s), which all this server's runs share; ask for fewer bins, balls or trials", graphgen.FormatBytes(need), what, graphgen.FormatBytes(s.budget.Total()))
	case errors.Is(err, ErrBusy):
		return nil, busyError{need: need, total: s.budget.Total()}
	}
	return release, err
}

// busyError refuses a run whose bytes other runs hold: a try later, not
// a bad request (503 for a download).
type busyError struct{ need, total int64 }

func (e busyError) Error() string {
	return "the server is busy: this run needs about " + graphgen.FormatBytes(e.need) + " of its memory budget of " + graphgen.FormatBytes(e.total) + ", which other runs hold; try again when they finish"
}

// pictureGraph builds the run's graph again for the picture, exactly as
// its setup built it (the same spec, n and graph stream of the seed); nil
// above PictureMax vertices, for a process without a graph, and for the
// kinds the page draws without edges. The build stops once ctx is done.
func pictureGraph(ctx context.Context, r *Run) graphgen.Graph {
	if r.Config.N > PictureMax || r.Spec.Kind == "" || r.Spec.Kind == "cycle" || r.Spec.Kind == "torus" || r.Spec.Kind == "complete" {
		return nil
	}
	if d := alloc.Describe(r.Config.Process); d == nil || d.Uses&alloc.ParamGraph == 0 {
		return nil
	}
	b := study.GraphBuild{Spec: r.Spec, N: int64(r.Config.N)}
	g, _, _, err := b.Build(ctx, r.Config.Seed)
	if err != nil {
		return nil
	}
	return g
}

// buildJob sets the job up (building its graph) with its Build, and the
// picture's graph (pictureGraph), and waits
// for it, unless ctx ends first: then it returns at once, and the job's
// bytes go back to the budget only when the build has returned, since
// until then the build holds them.
func (s *Server) buildJob(ctx context.Context, j *job) error {
	type built struct {
		run *Run
		err error
	}
	done := make(chan built, 1)
	go func() {
		r, err := j.parsed.Build(ctx)
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			r.Graph = pictureGraph(ctx, r)
		}
		done <- built{r, err}
	}()
	select {
	case b := <-done:
		j.run = b.run
		return b.err
	case <-ctx.Done():
		release := j.release
		j.release = func() {}
		go func() {
			<-done
			release()
		}()
		return ctx.Err()
	}
}

// runDynamic runs every trial of the job's run with deletions and returns
// its file, as run --delete writes it.
func (j *job) runDynamic(ctx context.Context) (*results.DynamicFile, error) {
	var all []alloc.DynamicResult
	err := alloc.RunDynamic(ctx, *j.run.Dynamic, j.trialList(), j.run.Workers, func(r alloc.DynamicResult) error {
		all = append(all, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b alloc.DynamicResult) int { return a.Trial - b.Trial })
	return results.NewDynamicFile(results.DynamicConfig(*j.run.Dynamic, j.run.Head, j.run.Delete), all)
}

// streamDynamic runs a run with deletions and sends "dynamic" with its
// file: the statistics over the trials and the bounds in their regimes.
func (j *job) streamDynamic(ctx context.Context, send func(string, any)) error {
	f, err := j.runDynamic(ctx)
	if err != nil {
		return err
	}
	send("dynamic", f)
	return nil
}

// downloadDynamic writes the JSON, CSV or PNG of a run with deletions, as
// run --delete -f json|csv and --plot FILE.png write them.
func (s *Server) downloadDynamic(w http.ResponseWriter, ctx context.Context, j *job, format string) {
	if format == "png" && j.run.PNG == nil {
		s.httpError(w, http.StatusBadRequest, errors.New("format: this server draws no png"))
		return
	}
	f, err := j.runDynamic(ctx)
	if err != nil {
		s.httpError(w, http.StatusInternalServerError, err)
		return
	}
	a := &attachment{w: w, name: "graphalloc-run." + format}
	if format == "png" {
		a.ctype = "image/png"
		err = j.run.PNG(a, results.DynamicFigure(f.Config, f.Trials))
	} else {
		a.ctype = map[string]string{"json": "application/json", "csv": "text/csv"}[format]
		err = results.WriteDynamic(a, format, f)
	}
	if err != nil && !a.started {
		s.httpError(w, http.StatusInternalServerError, err)
	}
}
