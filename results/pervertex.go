package results

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/graphgen"
)

// PerVertex gathers where the load goes, vertex by vertex, over the trials
// of a run on a graph: each vertex's mean load, its standard deviation and
// the fraction of trials in which it held the maximum load (tied vertices
// each count), and per class of degrees the mean load and the mean over
// the trials of the class's largest load. It keeps O(1) numbers a vertex,
// not the trials' loads: Add folds in one trial's loads in O(n).
//
// The sums are integers, so the result does not depend on the order in
// which trials are added (alloc.Run's workers finish in any order). Add is
// safe for concurrent use.
type PerVertex struct {
	mu      sync.Mutex
	names   []string // the file's ids; nil: vertex v is named v
	degree  []int32
	class   []uint16 // the degree class of each vertex
	classes []DegreeClass
	sum     []uint64
	sumSq   []uint64
	maxHits []uint32
	trials  int
	// classMax[c] sums over the trials the largest load in class c.
	classMax []uint64
}

// DegreeClass is a class of vertices by degree, with its statistics.
type DegreeClass struct {
	Lo, Hi   int // degrees in [Lo, Hi]
	Vertices int
	// MeanLoad is the mean load of the class's vertices over the trials;
	// MeanMaxLoad the mean over the trials of the class's largest load.
	MeanLoad, MeanMaxLoad float64
}

// maxExactClasses is the most distinct degrees that get a class each;
// beyond, classes are powers of two, [2^k, 2^{k+1}).
const maxExactClasses = 16

// PerVertexBytes is what a PerVertex keeps for each vertex: its degree (4
// bytes), class (2), sums of loads and squared loads (8 each) and max hits
// (4), beside the names of a file's vertices.
const PerVertexBytes = 26

// NewPerVertex returns an empty PerVertex for the vertices of g, named by
// names (FileInfo.Labels of a file graph) or by their index if names is
// nil.
func NewPerVertex(g graphgen.Graph, names []string) *PerVertex {
	n := g.Order()
	p := &PerVertex{names: names, degree: make([]int32, n), class: make([]uint16, n),
		sum: make([]uint64, n), sumSq: make([]uint64, n), maxHits: make([]uint32, n)}
	distinct := map[int]bool{}
	for v := range n {
		d := g.Degree(v)
		p.degree[v] = int32(d)
		if len(distinct) <= maxExactClasses {
			distinct[d] = true
		}
	}
	exact := len(distinct) <= maxExactClasses
	var bounds []int // each class's least degree, increasing
	if exact {
		for d := range distinct {
			bounds = append(bounds, d)
		}
		slices.Sort(bounds)
	}
	classOf := func(d int) int {
		if exact {
			i, _ := slices.BinarySearch(bounds, d)
			return i
		}
		return bits.Len(uint(d)) // 0 for degree 0, then [2^(k-1), 2^k)
	}
	idx := map[int]int{}
	for v := range n {
		c := classOf(int(p.degree[v]))
		i, ok := idx[c]
		if !ok {
			i = len(p.classes)
			idx[c] = i
			lo, hi := int(p.degree[v]), int(p.degree[v])
			if !exact && c > 0 {
				lo, hi = 1<<(c-1), 1<<c-1
			}
			p.classes = append(p.classes, DegreeClass{Lo: lo, Hi: hi})
		}
		p.class[v] = uint16(i)
		p.classes[i].Vertices++
	}
	// Classes in increasing degree.
	order := make([]int, len(p.classes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return p.classes[a].Lo - p.classes[b].Lo })
	rank := make([]uint16, len(order))
	sorted := make([]DegreeClass, len(order))
	for r, i := range order {
		rank[i], sorted[r] = uint16(r), p.classes[i]
	}
	for v := range p.class {
		p.class[v] = rank[p.class[v]]
	}
	p.classes = sorted
	p.classMax = make([]uint64, len(p.classes))
	return p
}

// Add folds in the final loads of one trial.
func (p *PerVertex) Add(loads []uint32) {
	var mx uint32
	for _, l := range loads {
		mx = max(mx, l)
	}
	cmax := make([]uint32, len(p.classes))
	p.mu.Lock()
	defer p.mu.Unlock()
	for v, l := range loads {
		p.sum[v] += uint64(l)
		p.sumSq[v] += uint64(l) * uint64(l)
		if l == mx {
			p.maxHits[v]++
		}
		c := p.class[v]
		cmax[c] = max(cmax[c], l)
	}
	for c, l := range cmax {
		p.classMax[c] += uint64(l)
	}
	p.trials++
}

// Trials returns the number of trials added.
func (p *PerVertex) Trials() int { return p.trials }

// name returns vertex v's name.
func (p *PerVertex) name(v int) string {
	if p.names != nil {
		return p.names[v]
	}
	return strconv.Itoa(v)
}

// stats returns vertex v's mean load and sample standard deviation.
func (p *PerVertex) stats(v int) (mean, sd float64) {
	t := float64(p.trials)
	if t == 0 {
		return 0, 0
	}
	mean = float64(p.sum[v]) / t
	if p.trials > 1 {
		// Σ(l − mean)² = Σl² − (Σl)²/t, from exact integer sums.
		ss := float64(p.sumSq[v]) - float64(p.sum[v])*float64(p.sum[v])/t
		sd = math.Sqrt(max(ss, 0) / (t - 1))
	}
	return mean, sd
}

// WriteCSV writes a row per vertex: vertex (the file's own name, or the
// index), degree, mean_load, sd_load, max_fraction (the fraction of trials
// in which the vertex held the maximum load).
func (p *PerVertex) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := csv.NewWriter(bw)
	cw.Write([]string{"vertex", "degree", "mean_load", "sd_load", "max_fraction"})
	for v := range p.degree {
		mean, sd := p.stats(v)
		frac := 0.0
		if p.trials > 0 {
			frac = float64(p.maxHits[v]) / float64(p.trials)
		}
		cw.Write([]string{p.name(v), strconv.Itoa(int(p.degree[v])), FormatFloat(mean), FormatFloat(sd), FormatFloat(frac)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// Classes returns the degree classes, in increasing degree, with their
// statistics.
func (p *PerVertex) Classes() []DegreeClass {
	out := slices.Clone(p.classes)
	sums := make([]float64, len(out))
	for v, c := range p.class {
		sums[c] += float64(p.sum[v])
	}
	for c := range out {
		if p.trials > 0 && out[c].Vertices > 0 {
			out[c].MeanLoad = sums[c] / float64(p.trials) / float64(out[c].Vertices)
			out[c].MeanMaxLoad = float64(p.classMax[c]) / float64(p.trials)
		}
	}
	return out
}

// DegreeStat is a class of vertices by degree as a run's file keeps it
// (summary.by_degree): the exact sums over the trials beside their means,
// so that the files of a run's shards merge into the unsharded run's
// numbers, whatever their order.
type DegreeStat struct {
	DegreeLo int `json:"degree_lo"` // degrees in [DegreeLo, DegreeHi]
	DegreeHi int `json:"degree_hi"`
	Vertices int `json:"vertices"`
	Trials   int `json:"trials"`
	// LoadSum sums the final loads of the class's vertices over the
	// trials; MaxLoadSum sums over the trials the class's largest load.
	LoadSum    uint64 `json:"load_sum"`
	MaxLoadSum uint64 `json:"max_load_sum"`
	// MeanLoad is LoadSum / (Trials · Vertices), MeanMaxLoad
	// MaxLoadSum / Trials.
	MeanLoad    float64 `json:"mean_load"`
	MeanMaxLoad float64 `json:"mean_max_load"`
}

// ByDegree returns the degree classes, in increasing degree, as a file
// keeps them.
func (p *PerVertex) ByDegree() []DegreeStat {
	sums := make([]uint64, len(p.classes))
	for v, c := range p.class {
		sums[c] += p.sum[v]
	}
	out := make([]DegreeStat, len(p.classes))
	for c, k := range p.classes {
		out[c] = withMeans(DegreeStat{DegreeLo: k.Lo, DegreeHi: k.Hi, Vertices: k.Vertices, Trials: p.trials, LoadSum: sums[c], MaxLoadSum: p.classMax[c]})
	}
	return out
}

// withMeans is d with its means computed from its sums.
func withMeans(d DegreeStat) DegreeStat {
	d.MeanLoad, d.MeanMaxLoad = 0, 0
	if d.Trials > 0 && d.Vertices > 0 {
		d.MeanLoad = float64(d.LoadSum) / float64(d.Trials) / float64(d.Vertices)
		d.MeanMaxLoad = float64(d.MaxLoadSum) / float64(d.Trials)
	}
	return d
}

// MergeByDegree adds the degree classes of the shards of one run: the
// same classes in each, their sums added. It returns nil, and false, if
// the shards' classes differ or one shard has none.
func MergeByDegree(shards [][]DegreeStat) ([]DegreeStat, bool) {
	if len(shards) == 0 || len(shards[0]) == 0 {
		return nil, false
	}
	out := slices.Clone(shards[0])
	for _, sh := range shards[1:] {
		if len(sh) != len(out) {
			return nil, false
		}
		for i, d := range sh {
			o := &out[i]
			if d.DegreeLo != o.DegreeLo || d.DegreeHi != o.DegreeHi || d.Vertices != o.Vertices {
				return nil, false
			}
			o.Trials += d.Trials
			o.LoadSum += d.LoadSum
			o.MaxLoadSum += d.MaxLoadSum
		}
	}
	for i := range out {
		out[i] = withMeans(out[i])
	}
	return out, true
}

// DegreeClasses are the classes of a file's by_degree, for the table and
// the figure.
func DegreeClasses(ds []DegreeStat) []DegreeClass {
	out := make([]DegreeClass, len(ds))
	for i, d := range ds {
		d = withMeans(d)
		out[i] = DegreeClass{Lo: d.DegreeLo, Hi: d.DegreeHi, Vertices: d.Vertices, MeanLoad: d.MeanLoad, MeanMaxLoad: d.MeanMaxLoad}
	}
	return out
}

// WriteDegreeTable writes the load-against-degree table: a row per class
// of degrees with its vertices, mean load and mean max load.
func WriteDegreeTable(w io.Writer, classes []DegreeClass) {
	fmt.Fprintln(w, "\nload against degree (mean over the trials):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "degree\tvertices\tmean load\tmean max load\t")
	for _, c := range classes {
		deg := strconv.Itoa(c.Lo)
		if c.Hi != c.Lo {
			deg = fmt.Sprintf("%d–%d", c.Lo, c.Hi)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4g\t%.4g\t\n", deg, c.Vertices, c.MeanLoad, c.MeanMaxLoad)
	}
	tw.Flush()
}

// DegreePanel is the load against the degree: the mean load and the mean
// max load of each degree class (at the class's mean degree), log–log when
// the degrees span more than a decade. It is the picture of where the load
// goes on a network whose degrees differ.
func DegreePanel(classes []DegreeClass) *figure.Panel {
	mean := &figure.Series{Name: "mean load", Style: figure.StylePoints}
	top := &figure.Series{Name: "mean max load", Color: 1, Shape: 1, Style: figure.StylePoints}
	lo, hi := math.Inf(1), 0.0
	for _, c := range classes {
		d := (float64(c.Lo) + float64(c.Hi)) / 2
		if d == 0 {
			continue // no place on a log axis, and no edge to draw balls
		}
		lo, hi = min(lo, d), max(hi, d)
		mean.Points = append(mean.Points, figure.Pt{X: d, Y: c.MeanLoad})
		top.Points = append(top.Points, figure.Pt{X: d, Y: c.MeanMaxLoad})
	}
	p := &figure.Panel{Title: "load against degree (mean over the trials)", XLabel: "degree", YLabel: "load",
		Series: []*figure.Series{mean, top}}
	if hi > 10*lo {
		p.XScale, p.YScale = figure.ScaleLog10, figure.ScaleLog10
	} else {
		p.XInt = true
	}
	return p
}
