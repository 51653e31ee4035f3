package queue

// window follows the counts of queues at each length and integrates them
// over time, batch by batch. cnt[i] is the number of queues of length ≥ i
// (cnt[0] = n); an event moves one queue by one, so it changes exactly one
// count. Over a batch [a, b] whose count c jumps by δ_k = ±1 at times t_k,
//
//	∫_a^b c dt = c(b)·(b − a) − Σ_k δ_k·(t_k − a),
//
// so an event adds ±(t − a) to its level's sum jump[i] and nothing else:
// O(1) a step whatever the number of levels, without a multiplication or
// a second array to read. At a batch boundary every level's integral and
// time average s_i = ∫cnt[i]dt / (n·length) is recorded: O(levels) a
// batch. The sums stay within (events in the batch)·length, so their
// rounding is far below the integrals.
type window struct {
	n    float64
	cnt  []int64
	jump []float64 // Σ δ·(t − from) over the batch's events at each level
	from float64   // the start of the current batch
	hi   int       // the longest queue now
	bmax int       // the longest queue of the current batch before the last fall of hi

	horizon, length float64 // Time, and the length of a batch
	batch, batches  int     // the current batch, and their number
	every, next     float64 // series interval and the next series time
	stop            float64 // the next boundary: batch end, series point or horizon

	rows   [][]float64 // rows[b][i-1]: s_i averaged over batch b
	maxes  []int       // maxes[b]: the longest queue during batch b
	series []Point
}

// Point is the state at one time of a series: the mean queue length
// (jobs / n), the tails s_1, s_2, s_3 and the longest queue.
type Point struct {
	T    float64    `json:"t"`
	Mean float64    `json:"mean_queue"`
	S    [3]float64 `json:"s"`
	Max  int        `json:"max_queue"`
}

// initialLevels is the number of levels allocated at the start; more are
// added as queues grow (rarely, and outside the step's common path).
const initialLevels = 64

// newWindow starts a window of n queues over [0, horizon].
func newWindow(n int64, horizon float64, batches int, every float64) *window {
	w := &window{n: float64(n), horizon: horizon, batches: batches, length: horizon / float64(batches), every: every}
	w.cnt = make([]int64, initialLevels)
	w.jump = make([]float64, initialLevels)
	w.cnt[0] = n
	w.rows = make([][]float64, 0, batches)
	w.maxes = make([]int, 0, batches)
	w.next = horizon + 1
	if every > 0 {
		w.next = every
	}
	w.stop = min(w.batchEnd(0), w.next)
	return w
}

// batchEnd is the end of batch b (the horizon itself for the last).
func (w *window) batchEnd(b int) float64 {
	if b >= w.batches-1 {
		return w.horizon
	}
	return float64(b+1) * w.length
}

// grow makes level i exist.
func (w *window) grow(i int) {
	for len(w.cnt) <= i {
		w.cnt = append(w.cnt, 0)
		w.jump = append(w.jump, 0)
	}
}

// up records a queue growing to length i at time t.
func (w *window) up(i int, t float64) {
	if i >= len(w.cnt) {
		w.grow(i)
	}
	w.jump[i] += t - w.from
	w.cnt[i]++
	w.hi = max(w.hi, i)
}

// down records a queue shrinking from length i ≥ 1 at time t.
func (w *window) down(i int, t float64) {
	w.jump[i] -= t - w.from
	w.cnt[i]--
	if w.cnt[i] == 0 && i == w.hi {
		w.bmax = max(w.bmax, w.hi)
		w.hi--
	}
}

// move records the count of level i moving by delta at time t: +1 a queue
// growing to length i, −1 a queue shrinking from length i ≥ 1, 0 nothing
// (i = 0, where the count n never moves).
func (w *window) move(i int, delta int64, t float64) {
	if i >= len(w.cnt) {
		w.grow(i)
	}
	w.jump[i] += float64(delta) * (t - w.from)
	w.cnt[i] += delta
	if i > w.hi {
		w.hi = i
	} else if w.cnt[i] == 0 && i == w.hi {
		w.bmax = max(w.bmax, w.hi)
		w.hi--
	}
}

// top is the longest queue now.
func (w *window) top() int {
	for i := len(w.cnt) - 1; i > 0; i-- {
		if w.cnt[i] > 0 {
			return i
		}
	}
	return 0
}

// cross handles the boundaries up to time t (the time of the next event):
// batch ends and series points. It reports false once the horizon is
// reached, when the event at t is past it.
func (w *window) cross(t float64) bool {
	for w.stop <= t {
		s := w.stop
		end := w.batchEnd(w.batch)
		if s == w.next {
			w.point(s)
			w.next = float64(len(w.series)+1) * w.every
		}
		if s == end {
			w.closeBatch(s)
			if w.batch == w.batches {
				return false
			}
			end = w.batchEnd(w.batch)
		}
		w.stop = min(end, w.next)
	}
	return true
}

// closeBatch records the batch that ends at s and starts the next.
func (w *window) closeBatch(s float64) {
	row := make([]float64, len(w.cnt)-1)
	length := s - w.from
	for i := 1; i < len(w.cnt); i++ {
		row[i-1] = (float64(w.cnt[i])*length - w.jump[i]) / (w.n * length)
		w.jump[i] = 0
	}
	for len(row) > 0 && row[len(row)-1] == 0 {
		row = row[:len(row)-1]
	}
	w.rows = append(w.rows, row)
	w.maxes = append(w.maxes, max(w.bmax, w.hi))
	w.batch++
	w.from = s
	w.bmax = w.hi
}

// point records the state at time s.
func (w *window) point(s float64) {
	p := Point{T: s, Max: w.hi}
	var jobs float64
	for i := 1; i < len(w.cnt); i++ {
		jobs += float64(w.cnt[i])
		if i <= len(p.S) {
			p.S[i-1] = float64(w.cnt[i]) / w.n
		}
	}
	p.Mean = jobs / w.n
	w.series = append(w.series, p)
}
