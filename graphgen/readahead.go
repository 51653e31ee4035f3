package graphgen

import "io"

// readAhead reads its source in a goroutine of its own, a block ahead of
// its reader: decompressing a gzip file then overlaps with parsing it, on
// a second core (a 10^9-edge file is about 20 GB of text).
type readAhead struct {
	full    chan aheadBlock
	free    chan []byte
	done    chan struct{} // closed by Close
	stopped chan struct{} // closed by the goroutine as it returns
	cur     aheadBlock
	rest    []byte // the unread bytes of cur.b
}

type aheadBlock struct {
	b   []byte
	err error
}

// aheadBlocks blocks of at most aheadSize bytes are in flight at most;
// the first is aheadFirst bytes.
const (
	aheadBlocks = 4
	aheadSize   = 1 << 20
	aheadFirst  = 4 << 10
)

func newReadAhead(r io.Reader) *readAhead {
	a := &readAhead{full: make(chan aheadBlock, aheadBlocks), free: make(chan []byte, aheadBlocks),
		done: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(a.stopped)
		// The blocks start small and double up to aheadSize, so that a
		// small file costs a few KiB.
		size, made := aheadFirst, 0
		for {
			var b []byte
			if made < aheadBlocks {
				made++
			} else {
				select {
				case b = <-a.free:
				case <-a.done:
					return
				}
			}
			if cap(b) < size {
				b = make([]byte, size)
				size = min(2*size, aheadSize)
			}
			b = b[:cap(b)]
			n, err := 0, error(nil)
			for n < len(b) && err == nil {
				var k int
				k, err = r.Read(b[n:])
				n += k
			}
			select {
			case a.full <- aheadBlock{b[:n], err}:
			case <-a.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return a
}

// Read reads from the blocks read ahead, in order; it returns the source's
// error once their bytes are read.
func (a *readAhead) Read(p []byte) (int, error) {
	for len(a.rest) == 0 {
		if a.cur.err != nil {
			return 0, a.cur.err
		}
		if a.cur.b != nil {
			a.free <- a.cur.b[:cap(a.cur.b)]
		}
		a.cur = <-a.full
		a.rest = a.cur.b
	}
	n := copy(p, a.rest)
	a.rest = a.rest[n:]
	return n, nil
}

// Close stops the goroutine and waits for it: the source is not read
// after Close returns.
func (a *readAhead) Close() error {
	close(a.done)
	<-a.stopped
	return nil
}
