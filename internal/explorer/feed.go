package explorer

import (
	"slices"
	"sync"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/results"
)

// ShownTrials is the most trials whose rows a run streams to the page
// (trials 0..ShownTrials-1); the summary and the load distribution cover
// every trial. A page cannot show millions of rows, and a stream that
// carried them all would grow with the number of trials.
const ShownTrials = 1000

// Snapshot is one event of a run in progress. It carries only what the
// page has not had: the rows of the trials finished since the last
// snapshot, and the loads of the picture if they changed; the rest is a
// summary of bounded size.
type Snapshot struct {
	Done   int  `json:"done"`
	Trials int  `json:"trials"`
	Final  bool `json:"final"`
	// Shown is the number of trials whose rows are streamed, 0..Shown-1.
	Shown int `json:"shown"`
	// Results are the trials below Shown finished since the last
	// snapshot, in trial order.
	Results []alloc.Result  `json:"results"`
	Summary results.Summary `json:"summary"`
	// Tails[i] is the fraction of bins with load >= i, the mean over the
	// finished trials (none for weighted balls).
	Tails []float64 `json:"tails,omitempty"`
	// Loads are the loads of the lowest finished trial, Trial (trial 0
	// in the end), sent when that trial changes and in the final
	// snapshot; n <= 16384 only.
	Loads []uint32 `json:"loads,omitempty"`
	Trial int      `json:"trial"`
}

// Feed gathers a run's finished trials and makes its snapshots. Add and
// Snapshot are called by the run's one collector; SetLoads may be called
// by its workers at once.
type Feed struct {
	head    results.Config
	trials  int
	all     []alloc.Result
	pending []alloc.Result // finished, below ShownTrials, not yet sent
	tails   []float64      // sums over the trials of their tail fractions

	mu         sync.Mutex // guards loads and loadsTrial
	loads      []uint32
	loadsTrial int
	sentTrial  int // whose loads the page has
}

// NewFeed returns the feed of a run of the given config and trials.
func NewFeed(head results.Config, trials int) *Feed {
	return &Feed{head: head, trials: trials, loadsTrial: -1, sentTrial: -1}
}

// Add records a finished trial.
func (f *Feed) Add(r alloc.Result) {
	f.all = append(f.all, r)
	if r.Trial < ShownTrials {
		f.pending = append(f.pending, r)
	}
	var n int64
	for _, c := range r.LoadCounts {
		n += c
	}
	if n == 0 {
		return
	}
	for len(f.tails) < len(r.LoadCounts) {
		f.tails = append(f.tails, 0)
	}
	var acc int64
	for i := len(r.LoadCounts) - 1; i >= 0; i-- {
		acc += r.LoadCounts[i]
		f.tails[i] += float64(acc) / float64(n)
	}
}

// SetLoads offers the loads of trial i: kept if i is the lowest trial so
// far, so that trial 0's are shown in the end whatever order the workers
// finish in.
func (f *Feed) SetLoads(i int, loads []uint32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.loadsTrial < 0 || i < f.loadsTrial {
		f.loads = append(f.loads[:0], loads...)
		f.loadsTrial = i
	}
}

// Done is the number of finished trials.
func (f *Feed) Done() int { return len(f.all) }

// All returns the finished trials in trial order.
func (f *Feed) All() []alloc.Result {
	slices.SortFunc(f.all, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	return f.all
}

// Snapshot returns what the page has not had, with the summary of every
// finished trial (in trial order when final, as run writes it).
func (f *Feed) Snapshot(final bool) (*Snapshot, error) {
	rs := f.all
	if final {
		rs = f.All()
	}
	sum, err := results.Summarize(f.head, rs)
	if err != nil {
		return nil, err
	}
	sn := &Snapshot{Done: len(f.all), Trials: f.trials, Final: final, Shown: min(f.trials, ShownTrials), Summary: sum}
	slices.SortFunc(f.pending, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	sn.Results, f.pending = f.pending, nil
	if sn.Results == nil {
		sn.Results = []alloc.Result{}
	}
	if len(f.all) > 0 {
		for _, t := range f.tails {
			sn.Tails = append(sn.Tails, t/float64(len(f.all)))
		}
	}
	f.mu.Lock()
	if final || f.loadsTrial != f.sentTrial {
		sn.Loads = slices.Clone(f.loads)
		f.sentTrial = f.loadsTrial
	}
	sn.Trial = f.loadsTrial
	f.mu.Unlock()
	return sn, nil
}
