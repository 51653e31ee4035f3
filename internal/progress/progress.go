// Package progress draws the one-line progress bar of graphalloc's commands
// on a terminal's stderr.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Bar draws a one-line progress bar on stderr — trials done, balls
// per second, the estimated time left — when stderr is a terminal, and does
// nothing otherwise (a file, a pipe, a test's buffer), so that redirected
// output and golden tests never see it. It redraws on every update (at most
// ten times a second) and on a timer, so the elapsed time moves even while
// a long trial runs; done erases the line.
type Bar struct {
	w     io.Writer
	label string
	start time.Time

	mu                sync.Mutex
	trials, trialsAll int
	balls, ballsAll   int64
	lastDraw          time.Time
	stopped           bool
	stop              chan struct{}
	wg                sync.WaitGroup
	width             int
	now               func() time.Time
	what              string // what else is being done, shown instead of the ETA
	unit              string // what trialsAll counts: "trials", or "points" for a study
}

// IsTerminal reports whether w is a character device (a terminal), by the
// file mode: no dependency beyond os.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// New returns a bar for trialsAll trials of ballsAll balls in all,
// or nil (whose methods do nothing) when stderr is not a terminal.
func New(stderr io.Writer, label string, trialsAll int, ballsAll int64) *Bar {
	if !IsTerminal(stderr) {
		return nil
	}
	return start(stderr, label, trialsAll, ballsAll, time.Now)
}

func start(w io.Writer, label string, trialsAll int, ballsAll int64, now func() time.Time) *Bar {
	p := &Bar{w: w, label: label, start: now(), trialsAll: trialsAll, ballsAll: ballsAll, stop: make(chan struct{}), now: now}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// Set records the trials and balls done so far.
func (p *Bar) Set(trials int, balls int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.trials, p.balls = trials, balls
	if p.now().Sub(p.lastDraw) >= 100*time.Millisecond || trials == p.trialsAll {
		p.draw()
	}
}

// Status sets a word on what is being done besides the trials ("building
// regular:degree=16 at n=65536"), or clears it with "".
func (p *Bar) Status(s string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.what = s
	p.draw()
}

// Point records that a study is at point done of total, doing what.
func (p *Bar) Point(done, total int, what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.unit, p.trials, p.trialsAll, p.what = "points", done, total, what
	p.draw()
}

// Count records done steps of an open-ended task, counted in unit (its
// total unknown: the line shows the count and the time, no bar), doing
// what.
func (p *Bar) Count(done int, unit, what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.unit, p.trials, p.trialsAll, p.what = unit, done, 0, what
	if p.now().Sub(p.lastDraw) >= 100*time.Millisecond {
		p.draw()
	}
}

// Add records one more trial of m balls.
func (p *Bar) Add(m int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	t, b := p.trials+1, p.balls+m
	p.mu.Unlock()
	p.Set(t, b)
}

// Note prints a line to w (stderr) above the bar: the bar is erased, the
// line printed, and the bar drawn again below it.
func (p *Bar) Note(w io.Writer, line string) {
	if p == nil {
		fmt.Fprintln(w, line)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
	}
	fmt.Fprintln(w, line)
	p.draw()
}

// Done stops the timer and erases the bar.
func (p *Bar) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	close(p.stop)
	p.mu.Unlock()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
	}
}

// line formats the bar; the caller holds mu.
func (p *Bar) line() string {
	el := p.now().Sub(p.start)
	frac := 0.0
	if p.ballsAll > 0 {
		frac = float64(p.balls) / float64(p.ballsAll)
	} else if p.trialsAll > 0 {
		frac = float64(p.trials) / float64(p.trialsAll)
	}
	const barWidth = 24
	fill := int(frac * barWidth)
	bar := strings.Repeat("█", fill) + strings.Repeat("░", barWidth-fill)
	rate, eta := "", "ETA --"
	if s := el.Seconds(); s > 0 && p.balls > 0 {
		rate = fmt.Sprintf("  %s balls/s", siCount(float64(p.balls)/s))
		if frac > 0 && frac < 1 {
			left := time.Duration(float64(el) * (1 - frac) / frac)
			eta = "ETA " + left.Round(time.Second).String()
		} else if frac >= 1 {
			eta = "done"
		}
	}
	if p.what != "" {
		eta = p.what
	}
	unit := p.unit
	if unit == "" {
		unit = "trials"
	}
	if p.trialsAll == 0 && p.ballsAll == 0 {
		return fmt.Sprintf("%s %d %s  %s  %s", p.label, p.trials, unit, el.Round(time.Second), p.what)
	}
	return fmt.Sprintf("%s %s %d/%d %s%s  %s  %s", p.label, bar, p.trials, p.trialsAll, unit, rate, el.Round(time.Second), eta)
}

// draw rewrites the line in place; the caller holds mu.
func (p *Bar) draw() {
	if p.stopped {
		return
	}
	s := p.line()
	pad := ""
	if n := len([]rune(s)); n < p.width {
		pad = strings.Repeat(" ", p.width-n)
	} else {
		p.width = n
	}
	fmt.Fprintf(p.w, "\r%s%s", s, pad)
	p.lastDraw = p.now()
}

// siCount formats a rate with an SI prefix: 1.23M, 456k.
func siCount(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.3gG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.3gk", x/1e3)
	}
	return fmt.Sprintf("%.3g", x)
}
