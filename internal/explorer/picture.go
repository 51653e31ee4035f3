package explorer

import (
	"context"
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// PictureMax is the largest n whose graph and per-bin loads the page
// draws.
const PictureMax = 16384

// Picture is what the page needs to draw the graph: its kind, the
// torus side, and for other graphs the edges (for a layout computed once
// on the page).
type Picture struct {
	Kind  string  `json:"kind"`
	N     int     `json:"n"`
	Dim   int     `json:"dim,omitempty"`
	Side  int     `json:"side,omitempty"`
	Edges [][]int `json:"edges,omitempty"`
}

// NewPicture describes graph g, built from spec on n vertices, for the
// page; nil above PictureMax vertices. A process that takes no graph
// (usesGraph false) is drawn on the complete graph; g may be nil for the
// kinds the page draws without edges (complete, cycle, torus).
func NewPicture(spec graphgen.Spec, n int, usesGraph bool, g graphgen.Graph) *Picture {
	if n > PictureMax {
		return nil
	}
	kind := spec.Kind
	if !usesGraph {
		kind = "complete"
	}
	p := &Picture{Kind: kind, N: n}
	switch kind {
	case "cycle", "complete":
		return p
	case "torus":
		p.Dim = 2
		if d, err := fmt.Sscan(spec.Params["dim"], &p.Dim); d != 1 || err != nil {
			p.Dim = 2
		}
		p.Side = int(math.Round(math.Pow(float64(n), 1/float64(p.Dim))))
		return p
	}
	if g == nil {
		return p
	}
	for v := range n {
		g.Visit(v, func(w int, _ int64) bool {
			if v < w {
				p.Edges = append(p.Edges, []int{v, w})
			}
			return len(p.Edges) >= 1<<18
		})
	}
	return p
}

// frameBudget bounds the balls the frames of a run replay (about 10.5 m).
const frameBudget = 1 << 25

// Frame is the loads of trial 0 after its first Balls balls.
type Frame struct {
	Balls int64    `json:"balls"`
	Loads []uint32 `json:"loads"`
}

// Frames sends the picture's frames: trial 0 run with m = k·m/20 balls,
// k = 1..20, each the state of the process after that many balls (the
// same seed and trial; a run of -m k·m/20 gives it). It returns false if
// the request ended.
func Frames(ctx context.Context, cfg alloc.Config, send func(string, any)) bool {
	if cfg.M < 20 || cfg.M > frameBudget*2/21 {
		return true
	}
	var loads []uint32
	prev := int64(0)
	for k := int64(1); k <= 20; k++ {
		c := cfg
		c.M, c.Every = cfg.M*k/20, 0
		if c.M == prev {
			continue
		}
		prev = c.M
		c.Loads = func(_ int, l []uint32) { loads = append(loads[:0], l...) }
		if c.Check() != nil {
			return true
		}
		if err := alloc.Run(ctx, c, []int{0}, 1, func(alloc.Result) error { return nil }); err != nil {
			return ctx.Err() == nil
		}
		send("frame", Frame{Balls: c.M, Loads: loads})
	}
	return true
}
