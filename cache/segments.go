package cache

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// Segments stores long answers (UTxO lists of thousands of outputs, tens of
// megabytes) in Redis as a sequence of segments, so that neither writing
// nor serving one ever holds the whole answer in memory: a writer sends
// each segment as it fills, a reader fetches one segment at a time. An
// answer is visible only once complete: its head key is written last (and
// holds the segment count, or the whole answer when it fits one segment,
// so a short answer costs one GET). Segments outlive their head by
// segmentGrace, so a reader that found the head can read every segment.
//
// Keys: <prefix><name>:<key> (head), <prefix><name>:<key>:<n> (segments).
//
// Without Redis (nil client, Redis down or skipped) nothing is stored and
// every lookup misses: an in-process copy of such answers would cost more
// memory than it saves.
type Segments struct {
	rc   *Client
	name string
	ttl  time.Duration
	size int

	mu      sync.Mutex
	writing map[string]chan struct{} // answers being written by this process
}

// segmentGrace: how much longer segments live than their head.
const segmentGrace = 30 * time.Second

// DefaultSegmentSize is the segment size NewSegments uses for size <= 0.
const DefaultSegmentSize = 256 << 10

// NewSegments returns a segmented answer store named name (its keys' first
// part) whose answers live ttl.
func NewSegments(rc *Client, name string, ttl time.Duration, size int) *Segments {
	if size <= 0 {
		size = DefaultSegmentSize
	}
	return &Segments{rc: rc, name: name, ttl: ttl, size: size}
}

// head markers: an inline answer or a segment count.
const (
	inlineMark = 'i'
	countMark  = 'n'
)

// ErrSegmentGone: a segment of an answer being read has expired or was
// evicted; the answer cannot be finished from the cache.
var ErrSegmentGone = errors.New("cache: answer segment gone")

// Reader is a stored answer being read, one segment at a time.
type Reader struct {
	s      *Segments
	full   string
	inline []byte
	count  int
	next   int
}

// Open returns the stored answer under key, or nil when there is none (or
// no Redis to ask).
func (s *Segments) Open(ctx context.Context, key string) *Reader {
	if s == nil || s.rc == nil {
		return nil
	}
	full := s.rc.Key(s.name, key)
	b, r := s.rc.get(ctx, full)
	if r != found || len(b) == 0 {
		return nil
	}
	switch b[0] {
	case inlineMark:
		return &Reader{s: s, full: full, inline: b[1:], count: 1}
	case countMark:
		n, err := strconv.Atoi(string(b[1:]))
		if err != nil || n < 1 {
			return nil
		}
		return &Reader{s: s, full: full, count: n}
	}
	return nil
}

// Next returns the next segment, or nil, nil after the last.
func (r *Reader) Next(ctx context.Context) ([]byte, error) {
	if r.next >= r.count {
		return nil, nil
	}
	r.next++
	if r.inline != nil {
		return r.inline, nil
	}
	b, rep := r.s.rc.get(ctx, r.full+":"+strconv.Itoa(r.next-1))
	if rep != found {
		return nil, ErrSegmentGone
	}
	return b, nil
}

// Writer collects an answer as it is produced and stores it segment by
// segment. It gives up (stores nothing more, and no head) at the first
// failure; the answer being served is not affected.
type Writer struct {
	s      *Segments
	ctx    context.Context
	full   string
	buf    []byte
	sent   int
	failed bool
}

// Create starts storing an answer under key; nil without Redis.
func (s *Segments) Create(ctx context.Context, key string) *Writer {
	if s == nil || s.rc == nil {
		return nil
	}
	return &Writer{s: s, ctx: ctx, full: s.rc.Key(s.name, key), buf: make([]byte, 0, s.size)}
}

// Write adds p to the answer (a nil Writer ignores it).
func (w *Writer) Write(p []byte) {
	if w == nil || w.failed {
		return
	}
	for len(p) > 0 {
		n := min(len(p), w.s.size-len(w.buf))
		w.buf = append(w.buf, p[:n]...)
		p = p[n:]
		if len(w.buf) == w.s.size {
			w.flush()
		}
	}
}

func (w *Writer) flush() {
	if len(w.buf) == 0 || w.failed {
		return
	}
	key := w.full + ":" + strconv.Itoa(w.sent)
	if err := w.s.rc.call(w.ctx, func(ctx context.Context) error {
		return w.s.rc.rdb.Set(ctx, key, w.buf, w.s.ttl+segmentGrace).Err()
	}); err != nil {
		w.failed = true
		return
	}
	w.sent++
	w.buf = w.buf[:0]
}

// Commit stores what is left and the head, making the answer visible.
func (w *Writer) Commit() {
	if w == nil || w.failed {
		return
	}
	var head []byte
	if w.sent == 0 {
		head = append([]byte{inlineMark}, w.buf...)
	} else {
		w.flush()
		if w.failed {
			return
		}
		head = append([]byte{countMark}, strconv.Itoa(w.sent)...)
	}
	w.s.rc.set(w.ctx, w.full, head, w.s.ttl)
}

// Turn lets one request of this process at a time produce the answer under
// key: it returns done (call it once the answer is committed or abandoned)
// when it is the caller's turn, or a channel closed when the request
// producing it is done, after which the caller looks again. Without Redis
// every caller gets its turn at once (nothing would be shared).
func (s *Segments) Turn(key string) (done func(), wait <-chan struct{}) {
	if s == nil || s.rc == nil {
		return func() {}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.writing[key]; ok {
		return nil, ch
	}
	if s.writing == nil {
		s.writing = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	s.writing[key] = ch
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.writing, key)
		close(ch)
	}, nil
}
