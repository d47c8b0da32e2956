// Package logbuf batches a service's log lines into few writes: at tens of
// thousands of requests a second, one write(2) per access-log line is a
// visible share of the server's CPU (docs/PERFORMANCE.md "The per-request path"). Lines are held at most
// an interval (or until the buffer fills), so a log shipper still sees
// them within that time, and Close writes what is held.
package logbuf

import (
	"io"
	"sync"
	"time"
)

// Writer is safe for concurrent use; each Write is kept whole.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	buf    []byte
	max    int
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	closed bool
}

// New returns a Writer to w that writes what it holds every interval, or
// as soon as it holds max bytes.
func New(w io.Writer, interval time.Duration, max int) *Writer {
	b := &Writer{w: w, buf: make([]byte, 0, max), max: max, stop: make(chan struct{}), done: make(chan struct{})}
	go b.loop(interval)
	return b
}

func (b *Writer) loop(interval time.Duration) {
	defer close(b.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = b.Flush()
		case <-b.stop:
			return
		}
	}
}

// Write holds p (a line is never split), writing first what is held when
// p would not fit; a p larger than the buffer is written at once.
func (b *Writer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed { // nothing would write held lines any more
		return b.w.Write(p)
	}
	if len(b.buf)+len(p) > b.max {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
		if len(p) > b.max {
			return b.w.Write(p)
		}
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// Flush writes what is held.
func (b *Writer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *Writer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0] // a failed write drops its lines rather than grow without end
	return err
}

// Close stops the periodic writes and writes what is held; later Writes
// go straight through.
func (b *Writer) Close() error {
	b.once.Do(func() { close(b.stop) })
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return b.flushLocked()
}
