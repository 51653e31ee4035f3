package analysis

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/graphalloc/graphalloc/graphgen"
)

// walk is the random-walk matrix P = D⁻¹A of a connected graph on n ≥ 2
// vertices, with its top eigenvector deflated:
//
//	P̃x = Px − 2·(πᵀx)·1,  π_v = d_v / vol,  vol = Σ_v d_v = 2|E|.
//
// P is self-adjoint in the inner product ⟨x, y⟩_D = Σ_v d_v x_v y_v, and
// x ↦ D^{1/2}x carries it to the symmetric N = D^{−1/2}AD^{−1/2}, with the
// same eigenvalues 1 = μ₁ > μ₂ ≥ … ≥ μ_n ≥ −1; the constant vector 1 (√d
// for N) belongs to μ₁. P̃ is P with μ₁ moved to −1, so that the largest
// eigenvalue of P̃ is μ₂ and every eigenvalue lies in [−1, μ₂]: the
// deflated direction is never amplified, so no projection is needed.
// Vectors are kept in this "h-form" (h = D^{−1/2}w for the symmetric w):
// a product with P costs one gather per adjacency entry.
//
// Large graphs are relabelled in breadth-first order from vertex 0, so
// that the gathers of consecutive rows fall near each other (about 1.7
// times faster on a random 3-regular graph with 10^6 vertices); perm maps
// back. The rows are split into blocks of about equal work, fixed by the
// graph, and the CPUs share them; sums are accumulated per block and added
// in block order, so every result is the same whatever the number of CPUs.
type walk struct {
	n      int
	off    []int
	adj    []uint32
	deg    []float64 // d_v; nil for a regular graph, whose degree is d
	invdeg []float64 // 1/d_v; nil for a regular graph (invd)
	d      float64
	invd   float64
	dmax   int
	vol    float64
	perm   []int32 // position i holds vertex perm[i] of the graph; nil: identity

	bounds  []int // row blocks [bounds[b], bounds[b+1])
	workers int
	part    [][4]float64 // per-block partial sums

	ctx context.Context // once done, products are skipped (nil: never)
	// progress, if set, is told the passes over the graph made so far
	// (DescribeOptions.Progress).
	progress func(passes int)
	passes   int
}

// cancelled reports whether the walk's context is done: every product
// with the walk is then skipped, and its results mean nothing.
func (w *walk) cancelled() bool { return cancelled(w.ctx) }

// newWalk returns the walk of g, connected with at least 2 vertices,
// relabelled in breadth-first order when reorder is set, under ctx (nil:
// never done).
func newWalk(g *graphgen.CSR, reorder bool, ctx context.Context) *walk {
	n := g.Order()
	off, adj := g.Offsets(), g.Adjacency()
	w := &walk{n: n, off: off, adj: adj, vol: float64(len(adj)), ctx: ctx}
	if reorder {
		w.relabel()
	}
	dmin := math.MaxInt
	for v := range n {
		d := w.off[v+1] - w.off[v]
		w.dmax = max(w.dmax, d)
		dmin = min(dmin, d)
	}
	if dmin == w.dmax {
		w.d = float64(dmin)
		w.invd = 1 / w.d
	} else {
		w.deg = make([]float64, n)
		w.invdeg = make([]float64, n)
		for v := range n {
			d := float64(w.off[v+1] - w.off[v])
			w.deg[v], w.invdeg[v] = d, 1/d
		}
	}
	per := float64(n) + w.vol
	blocks := min(64, max(1, int(per/(1<<16))))
	w.bounds = make([]int, blocks+1)
	for b, v := 1, 0; b < blocks; b++ {
		target := int(float64(b) * per / float64(blocks))
		for v < n && v+w.off[v] < target {
			v++
		}
		w.bounds[b] = v
	}
	w.bounds[blocks] = n
	w.workers = min(runtime.GOMAXPROCS(0), blocks)
	w.part = make([][4]float64, blocks)
	return w
}

// relabel renumbers the vertices in breadth-first order from vertex 0
// (the graph is connected, so every vertex is reached). Once the walk is
// cancelled it leaves the numbering as it is.
func (w *walk) relabel() {
	n := w.n
	perm := make([]int32, n)
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = -1
	}
	pos[0] = 0
	for head, tail := 0, 1; head < tail; head++ {
		if head%4096 == 4095 && w.cancelled() {
			return
		}
		v := perm[head]
		for _, u := range w.adj[w.off[v]:w.off[v+1]] {
			if pos[u] < 0 {
				pos[u] = int32(tail)
				perm[tail] = int32(u)
				tail++
			}
		}
	}
	off := make([]int, n+1)
	adj := make([]uint32, len(w.adj))
	k := 0
	for i, v := range perm {
		if i%4096 == 4095 && w.cancelled() {
			return
		}
		for _, u := range w.adj[w.off[v]:w.off[v+1]] {
			adj[k] = uint32(pos[u])
			k++
		}
		off[i+1] = k
	}
	w.off, w.adj, w.perm = off, adj, perm
}

// degree returns d_v and 1/d_v.
func (w *walk) degree(v int) (float64, float64) {
	if w.deg == nil {
		return w.d, w.invd
	}
	return w.deg[v], w.invdeg[v]
}

// par runs f on every block, the CPUs sharing them, and returns the
// per-block partial sums f left in w.part added in block order.
func (w *walk) par(f func(b, lo, hi int)) [4]float64 {
	if w.cancelled() {
		return [4]float64{}
	}
	if w.progress != nil {
		w.passes++
		w.progress(w.passes)
	}
	nb := len(w.bounds) - 1
	if w.workers <= 1 {
		for b := range nb {
			f(b, w.bounds[b], w.bounds[b+1])
		}
	} else {
		var wg sync.WaitGroup
		for k := range w.workers {
			wg.Go(func() {
				for b := k; b < nb; b += w.workers {
					f(b, w.bounds[b], w.bounds[b+1])
				}
			})
		}
		wg.Wait()
	}
	var s [4]float64
	for _, p := range w.part {
		for i := range s {
			s[i] += p[i]
		}
	}
	return s
}

// gaussian returns h = D^{−1/2}g for g with independent standard normal
// entries from src, and ‖g‖².
func (w *walk) gaussian(src rand.Source) ([]float64, float64) {
	rng := rand.New(src)
	h := make([]float64, w.n)
	var g2 float64
	for v := range h {
		g := rng.NormFloat64()
		d, _ := w.degree(v)
		h[v] = g / math.Sqrt(d)
		g2 += g * g
	}
	return h, g2
}

// dsum returns Σ_v d_v x_v and Σ_v d_v x_v²: vol·πᵀx and ‖x‖²_D.
func (w *walk) dsum(x []float64) (float64, float64) {
	s := w.par(func(b, lo, hi int) {
		var s1, s2 float64
		for v := lo; v < hi; v++ {
			d, _ := w.degree(v)
			s1 += d * x[v]
			s2 += d * x[v] * x[v]
		}
		w.part[b] = [4]float64{s1, s2}
	})
	return s[0], s[1]
}

// The kernels below are the hot loops: each has a version for regular
// graphs, whose rows are adj[v·d : v·d+d] and whose degree is a constant
// (about 20% faster), and a general one.

// chebStep overwrites xp with a1·(Px)_v + a0·x_v − b·xp_v + c0 and
// returns Σ d_v xp_v and Σ d_v xp_v² of the new xp.
func (w *walk) chebStep(x, xp []float64, a1, a0, b, c0 float64) (float64, float64) {
	off, adj := w.off, w.adj
	s := w.par(func(bl, lo, hi int) {
		var s1, s2 float64
		if w.deg == nil {
			k, a1id := int(w.d), a1*w.invd
			rows, xo, xs := adj[lo*k:hi*k], x[lo:hi], xp[lo:hi]
			for i := range xs {
				var sum float64
				for _, u := range rows[i*k : i*k+k] {
					sum += x[u]
				}
				y := a1id*sum + a0*xo[i] - b*xs[i] + c0
				xs[i] = y
				s1 += y
				s2 += y * y
			}
			s1, s2 = s1*w.d, s2*w.d
		} else {
			for v := lo; v < hi; v++ {
				var sum float64
				for _, u := range adj[off[v]:off[v+1]] {
					sum += x[u]
				}
				d := w.deg[v]
				y := a1*(w.invdeg[v]*sum) + a0*x[v] - b*xp[v] + c0
				xp[v] = y
				s1 += d * y
				s2 += d * y * y
			}
		}
		w.part[bl] = [4]float64{s1, s2}
	})
	return s[0], s[1]
}

// lanczosA sets r_v = sp·((Pp)_v − 2c) − bq·pp_v, returns Σ d_v·sp·p_v·r_v,
// and, if y is not nil, adds sy·sp·p_v to y_v.
func (w *walk) lanczosA(p, pp, r, y []float64, sp, c, bq, sy float64) float64 {
	off, adj := w.off, w.adj
	s := w.par(func(bl, lo, hi int) {
		var a float64
		if w.deg == nil {
			k, spid, c2 := int(w.d), sp*w.invd, 2*c*sp
			rows, po, ppo, ro := adj[lo*k:hi*k], p[lo:hi], pp[lo:hi], r[lo:hi]
			for i := range ro {
				var sum float64
				for _, u := range rows[i*k : i*k+k] {
					sum += p[u]
				}
				rv := spid*sum - c2 - bq*ppo[i]
				ro[i] = rv
				a += po[i] * rv
			}
			a *= w.d * sp
		} else {
			for v := lo; v < hi; v++ {
				var sum float64
				for _, u := range adj[off[v]:off[v+1]] {
					sum += p[u]
				}
				rv := sp*(w.invdeg[v]*sum-2*c) - bq*pp[v]
				r[v] = rv
				a += w.deg[v] * p[v] * rv
			}
			a *= sp
		}
		if y != nil {
			for v := lo; v < hi; v++ {
				y[v] += sy * sp * p[v]
			}
		}
		w.part[bl] = [4]float64{a}
	})
	return s[0]
}

// lanczosB subtracts ap·p from r and returns Σ d_v r_v and Σ d_v r_v².
func (w *walk) lanczosB(p, r []float64, ap float64) (float64, float64) {
	s := w.par(func(bl, lo, hi int) {
		var s1, s2 float64
		po, ro := p[lo:hi], r[lo:hi]
		if w.deg == nil {
			for i := range ro {
				rv := ro[i] - ap*po[i]
				ro[i] = rv
				s1 += rv
				s2 += rv * rv
			}
			s1, s2 = s1*w.d, s2*w.d
		} else {
			do := w.deg[lo:hi]
			for i := range ro {
				rv := ro[i] - ap*po[i]
				ro[i] = rv
				s1 += do[i] * rv
				s2 += do[i] * rv * rv
			}
		}
		w.part[bl] = [4]float64{s1, s2}
	})
	return s[0], s[1]
}

// quadratic returns yᵀAy = Σ_v y_v·Σ_{u~v} y_u, Σ_v d_v y_v and Σ_v d_v y_v².
func (w *walk) quadratic(y []float64) (float64, float64, float64) {
	off, adj := w.off, w.adj
	s := w.par(func(bl, lo, hi int) {
		var q, s1, s2 float64
		for v := lo; v < hi; v++ {
			var sum float64
			for _, u := range adj[off[v]:off[v+1]] {
				sum += y[u]
			}
			d, _ := w.degree(v)
			q += y[v] * sum
			s1 += d * y[v]
			s2 += d * y[v] * y[v]
		}
		w.part[bl] = [4]float64{q, s1, s2}
	})
	return s[0], s[1], s[2]
}

// residual returns ‖P̃y − θy‖²_D, c = πᵀy.
func (w *walk) residual(y []float64, theta, c float64) float64 {
	off, adj := w.off, w.adj
	s := w.par(func(bl, lo, hi int) {
		var s2 float64
		for v := lo; v < hi; v++ {
			var sum float64
			for _, u := range adj[off[v]:off[v+1]] {
				sum += y[u]
			}
			d, id := w.degree(v)
			r := id*sum - 2*c - theta*y[v]
			s2 += d * r * r
		}
		w.part[bl] = [4]float64{s2}
	})
	return s[0]
}

// lanczosOptions tunes lanczos.
type lanczosOptions struct {
	maxSteps int
	// full keeps every Lanczos vector and reorthogonalises against all
	// of them (twice) at each step: for small graphs, where the Ritz
	// vector then comes for free. Otherwise no vector is kept and the
	// Ritz vector is formed by running the same recurrence again.
	full bool
	// tol is the relative accuracy wanted on the gap 1 − θ₁; with
	// width = targetWidth(tol, θ₁) the run stops once the residual
	// estimate β_k·|s_k| is below width/100, or (without full) once θ₁
	// has moved by less than width/30 over the last 30 steps: θ₁
	// converges geometrically, and on random regular graphs its error is
	// then below a tenth of width (drift, the last 30 steps' move, is
	// kept: three times it estimates the error).
	tol  float64
	seed uint64
}

// lanczosResult is what lanczos found: the largest Ritz value θ₁ of P̃
// after steps steps, its residual estimate β_k·|s_k| (exact arithmetic:
// the residual norm of the Ritz pair), how much θ₁ moved over the last
// 30 steps, and the Ritz vector y (h-form, not normalised).
type lanczosResult struct {
	steps     int
	theta     float64
	resid     float64
	drift     float64
	y         []float64
	breakdown bool
}

// lanczos runs the Lanczos recurrence for P̃ in the D-inner product from a
// random start vector (deterministic given o.seed). Without o.full it is
// the plain three-term recurrence: in floating point its vectors lose
// orthogonality once θ₁ converges and copies of converged Ritz values
// appear, but the largest Ritz value still converges to μ₂ [Paige 1976];
// nothing here relies on it being right, since the certificate checks
// whatever it returns. Each step costs one product with P (n + 2|E|) and
// two passes over the vectors.
func (w *walk) lanczos(o lanczosOptions) lanczosResult {
	n := w.n
	h, _ := w.gaussian(rand.NewPCG(o.seed, 0x1a9c205))
	c, nrm2 := w.dsum(h)
	var p, pp, r []float64 = h, make([]float64, n), make([]float64, n)
	sp := 1 / math.Sqrt(nrm2) // q_k = sp·p
	cp := c / w.vol           // πᵀp
	var Q [][]float64
	if o.full {
		q := make([]float64, n)
		for v := range q {
			q[v] = sp * p[v]
		}
		Q = append(Q, q)
	}
	var alpha, beta []float64
	var hist []float64
	res := lanczosResult{}
	bq := 0.0 // β_{k−1}·(scale of q_{k−1})
	var s []float64
	for k := 1; k <= o.maxSteps; k++ {
		if w.cancelled() {
			return lanczosResult{} // y nil
		}
		a := w.lanczosA(p, pp, r, nil, sp, cp, bq, 0)
		c1, b2 := w.lanczosB(p, r, a*sp)
		if o.full {
			for range 2 {
				for _, q := range Q {
					var dot float64
					for v := range r {
						dd, _ := w.degree(v)
						dot += dd * r[v] * q[v]
					}
					for v := range r {
						r[v] -= dot * q[v]
					}
				}
			}
			c1, b2 = w.dsum(r)
		}
		b := math.Sqrt(b2)
		alpha, beta = append(alpha, a), append(beta, b)
		res.steps = k
		last := k == o.maxSteps || (o.full && k >= n) || !(b > 1e-13)
		if last || k%10 == 0 {
			var th float64
			th, s = tridiagTop(alpha, beta[:k-1])
			res.theta, res.resid = th, b*math.Abs(s[k-1])
			hist = append(hist, th)
			res.drift = th - hist[max(len(hist)-4, 0)]
			if !(b > 1e-13) {
				res.breakdown = true
				break
			}
			width := targetWidth(o.tol, th)
			if last || res.resid <= width/100 || (!o.full && len(hist) > 3 && res.drift <= width/30) {
				break
			}
		}
		// Rotate: q_{k+1} = r/b.
		bq = b * sp
		pp, p, r = p, r, pp
		sp, cp = 1/b, c1/w.vol
		if o.full {
			q := make([]float64, n)
			for v := range q {
				q[v] = p[v] / b
			}
			Q = append(Q, q)
		}
	}
	// The Ritz vector y = Σ s_j q_j.
	y := make([]float64, n)
	if o.full {
		for j, q := range Q[:res.steps] {
			for v := range y {
				y[v] += s[j] * q[v]
			}
		}
		res.y = y
		return res
	}
	h, _ = w.gaussian(rand.NewPCG(o.seed, 0x1a9c205))
	c, nrm2 = w.dsum(h)
	p, pp = h, pp[:n]
	clear(pp)
	sp, cp, bq = 1/math.Sqrt(nrm2), c/w.vol, 0
	for k := 1; k <= res.steps; k++ {
		a := w.lanczosA(p, pp, r, y, sp, cp, bq, s[k-1])
		if k == res.steps {
			break
		}
		c1, b2 := w.lanczosB(p, r, a*sp)
		b := math.Sqrt(b2)
		bq = b * sp
		pp, p, r = p, r, pp
		sp, cp = 1/b, c1/w.vol
	}
	res.y = y
	return res
}

// tridiagTop returns the largest eigenvalue θ of the symmetric tridiagonal
// matrix with diagonal a and off-diagonal b (len(b) = len(a) − 1), by
// bisection on the Sturm count, and a unit eigenvector by inverse
// iteration. It takes O(k) time per bisection step, 60 steps.
func tridiagTop(a, b []float64) (float64, []float64) {
	k := len(a)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range k {
		r := 0.0
		if i > 0 {
			r += math.Abs(b[i-1])
		}
		if i < k-1 {
			r += math.Abs(b[i])
		}
		lo, hi = min(lo, a[i]-r), max(hi, a[i]+r)
	}
	// below counts the eigenvalues below x: the negative pivots of the
	// LDLᵀ factorisation of T − xI (Sylvester's law of inertia).
	below := func(x float64) int {
		cnt := 0
		q := a[0] - x
		for i := range k {
			if i > 0 {
				q = a[i] - x - b[i-1]*b[i-1]/q
			}
			if q == 0 {
				q = -1e-300
			}
			if q < 0 {
				cnt++
			}
		}
		return cnt
	}
	for range 100 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if below(mid) == k {
			hi = mid
		} else {
			lo = mid
		}
	}
	theta := hi
	// Inverse iteration: solve (T − σI)x = x_old with σ just above θ,
	// Gaussian elimination with partial pivoting on the tridiagonal.
	sigma := theta + 1e-14*max(math.Abs(theta), 1)
	x := make([]float64, k)
	for i := range x {
		x[i] = 1 / math.Sqrt(float64(k))
	}
	for range 3 {
		x = tridiagSolve(a, b, sigma, x)
		var s float64
		for _, v := range x {
			s += v * v
		}
		s = math.Sqrt(s)
		for i := range x {
			x[i] /= s
		}
	}
	return theta, x
}

// tridiagSolve solves (T − σI)x = rhs for the tridiagonal T (diagonal a,
// off-diagonal b) by Gaussian elimination with partial pivoting (as
// LAPACK's dgtsv), a zero pivot replaced by a tiny one.
func tridiagSolve(a, b []float64, sigma float64, rhs []float64) []float64 {
	k := len(a)
	d := make([]float64, k)  // diagonal
	du := make([]float64, k) // first superdiagonal
	du2 := make([]float64, k)
	dl := make([]float64, k)
	x := append([]float64(nil), rhs...)
	for i := range k {
		d[i] = a[i] - sigma
		if i < k-1 {
			du[i], dl[i] = b[i], b[i]
		}
	}
	const tiny = 1e-300
	for i := 0; i < k-1; i++ {
		if math.Abs(d[i]) >= math.Abs(dl[i]) {
			if d[i] == 0 {
				d[i] = tiny
			}
			f := dl[i] / d[i]
			d[i+1] -= f * du[i]
			x[i+1] -= f * x[i]
			dl[i] = 0
		} else {
			// Swap rows i and i+1.
			f := d[i] / dl[i]
			d[i] = dl[i]
			tmp := d[i+1]
			d[i+1] = du[i] - f*tmp
			du[i] = tmp
			if i < k-2 {
				du2[i] = du[i+1]
				du[i+1] = -f * du2[i]
			}
			x[i], x[i+1] = x[i+1], x[i]-f*x[i+1]
		}
	}
	if d[k-1] == 0 {
		d[k-1] = tiny
	}
	x[k-1] /= d[k-1]
	if k > 1 {
		x[k-2] = (x[k-2] - du[k-2]*x[k-1]) / d[k-2]
	}
	for i := k - 3; i >= 0; i-- {
		x[i] = (x[i] - du[i]*x[i+1] - du2[i]*x[i+2]) / d[i]
	}
	return x
}
