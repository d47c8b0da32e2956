package cache

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/syncgate/syncgate/internal/platform/bounded"
	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/internal/platform/spool"
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
// every lookup misses: an in-process copy of whole answers would cost more
// memory than it saves. Segments read from Redis are kept in process too,
// bounded (LocalSegmentBytes): a list polled by many clients is then
// copied once from Redis, not once per request (read back from Redis per
// request, much of a long list's server CPU went to reading it). They are found only through
// a head read from Redis, so what Redis no longer holds is not served, and
// a key's segments never change (keys name the tip they were read at).
//
// With a spool (WithSpool), an answer in segments that this process
// produced or read whole is also kept in a file, and later Opens of its
// key read that file without asking Redis: it is the same answer, read a
// pooled buffer at a time, so a list polled by many clients costs neither
// Redis round trips nor a heap that grows with each reader.
type Segments struct {
	rc    *Client
	name  string
	ttl   time.Duration
	size  int
	local *bounded.Map[string, []byte]
	spool *spool.Spool

	mu      sync.Mutex
	writing map[string]*progress // answers being written by this process
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
	return &Segments{rc: rc, name: name, ttl: ttl, size: size, local: bounded.New[string, []byte](LocalSegmentBytes, nil)}
}

// WithSpool makes s keep whole answers in segments in sp too (nil: none).
// It returns s.
func (s *Segments) WithSpool(sp *spool.Spool) *Segments {
	s.spool = sp
	return s
}

// LocalSegmentBytes bounds the segments a Segments keeps in process.
const LocalSegmentBytes = 24 << 20

// head markers: an inline answer or a segment count.
const (
	inlineMark = 'i'
	countMark  = 'n'
)

// ErrSegmentGone: a segment of an answer being read has expired or was
// evicted; the answer cannot be finished from the cache.
var ErrSegmentGone = errors.New("cache: answer segment gone")

// Reader is a stored answer being read, one segment at a time, or whole
// from its spooled file (File). Close it when done.
type Reader struct {
	s      *Segments
	full   string
	inline []byte
	count  int
	next   int
	file   *os.File
	size   int64
	buf    *[]byte       // reading file
	fill   *spool.Writer // copying the segments read from Redis into the spool
}

// fileBuffers hold what a Reader of a spooled file has read, one per
// Reader until its Close. 256 kB at a time sends a long list about as fast
// as 1 MB (and faster than 64 kB, 4 MB or sendfile(2)) on loopback
// (docs/PERFORMANCE.md "Long UTxO lists"), for a quarter of the memory per slow client.
var fileBuffers = sync.Pool{New: func() any {
	b := make([]byte, 256<<10)
	return &b
}}

// Open returns the stored answer under key, or nil when there is none (or
// no Redis to ask).
func (s *Segments) Open(ctx context.Context, key string) *Reader {
	if s == nil || s.rc == nil {
		return nil
	}
	full := s.rc.Key(s.name, key)
	if s.spool != nil {
		f, size, ok := s.spool.Open(full)
		metrics.CacheLookup(s.name+"_spool", ok) // a tier of its own in the cache metrics
		if ok {
			return &Reader{s: s, full: full, file: f, size: size}
		}
	}
	b, r := s.rc.get(ctx, full)
	metrics.CacheLookup(s.name, r == found && len(b) > 0)
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

// Segmented reports whether the answer is stored in segments (it did not
// fit in its head); spooled answers always are.
func (r *Reader) Segmented() bool { return r.inline == nil }

// Size is the answer's length in bytes when it is known before reading it
// (a spooled answer), else -1.
func (r *Reader) Size() int64 {
	if r.file == nil {
		return -1
	}
	return r.size
}

// Close releases the spooled file, or drops a spool copy not finished.
// A Next's segment is not valid after Close.
func (r *Reader) Close() {
	if r == nil {
		return
	}
	if r.file != nil {
		_ = r.file.Close()
	}
	if r.buf != nil {
		fileBuffers.Put(r.buf)
		r.buf = nil
	}
	r.fill.Abort()
}

// Next returns the next segment, or nil, nil after the last.
func (r *Reader) Next(ctx context.Context) ([]byte, error) {
	if r.file != nil {
		if r.buf == nil {
			r.buf = fileBuffers.Get().(*[]byte)
		}
		n, err := io.ReadFull(r.file, *r.buf)
		if n > 0 {
			return (*r.buf)[:n], nil
		}
		if err == io.EOF {
			return nil, nil
		}
		return nil, ErrSegmentGone
	}
	if r.next >= r.count {
		return nil, nil
	}
	r.next++
	if r.inline != nil {
		return r.inline, nil
	}
	if r.next == 1 {
		// Copied into the spool only when read from the start (a Reader
		// opened and not read, as a gzip request's plain one, makes no file).
		r.fill = r.s.spool.Create(r.full, r.s.ttl)
	}
	key := r.full + ":" + strconv.Itoa(r.next-1)
	b, ok := r.s.local.Get(key)
	if !ok {
		var rep reply
		if b, rep = r.s.rc.get(ctx, key); rep != found {
			r.fill.Abort()
			return nil, ErrSegmentGone
		}
		r.s.local.Set(key, b, len(key)+len(b)+64)
	}
	r.fill.Write(b)
	if r.next == r.count {
		r.fill.Commit()
	}
	return b, nil
}

// Writer collects an answer as it is produced and stores it segment by
// segment. It gives up (stores nothing more, and no head) at the first
// failure; the answer being served is not affected.
type Writer struct {
	s      *Segments
	ctx    context.Context
	key    string
	full   string
	buf    []byte
	sent   int
	failed bool
	p      *progress
	fill   *spool.Writer // the answer's spool copy
}

// progress is what the Followers of an answer being written see.
type progress struct {
	mu      sync.Mutex
	changed chan struct{} // closed (and replaced) at every change
	sent    int           // segments stored
	tail    []byte        // the whole answer, when it fits one segment (inline)
	done    bool          // committed
	failed  bool          // abandoned: nothing more will come
}

func (p *progress) update(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f()
	close(p.changed)
	p.changed = make(chan struct{})
}

// Produce returns a Writer for the answer under key when no request of
// this process is producing it (the caller produces it, then Closes the
// Writer), else a Follower that reads it as that request stores it. Both
// are nil without Redis (nothing is stored or shared: just produce it).
func (s *Segments) Produce(ctx context.Context, key string) (*Writer, *Follower) {
	if s == nil || s.rc == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.writing[key]; ok {
		return nil, &Follower{s: s, full: s.rc.Key(s.name, key), p: p}
	}
	if s.writing == nil {
		s.writing = map[string]*progress{}
	}
	p := &progress{changed: make(chan struct{})}
	s.writing[key] = p
	// The buffer grows as the answer does and the spool file is made at
	// the first segment: most answers are a few hundred bytes, and a
	// 256 kB buffer and a file created and removed for each of them were
	// much of a cold UTxO request's CPU.
	return &Writer{s: s, ctx: ctx, key: key, full: s.rc.Key(s.name, key), p: p}, nil
}

// Close ends the Writer's turn: Followers of an answer not committed stop.
func (w *Writer) Close() {
	if w == nil {
		return
	}
	w.fill.Abort()
	w.s.mu.Lock()
	delete(w.s.writing, w.key)
	w.s.mu.Unlock()
	w.p.update(func() {
		if !w.p.done {
			w.p.failed = true
		}
	})
}

// ErrProducerGone: the request producing an answer gave up before it was
// whole.
var ErrProducerGone = errors.New("cache: the answer's producer gave up")

// Follower reads an answer while another request of this process stores
// it, segment by segment as they are stored.
type Follower struct {
	s    *Segments
	full string
	p    *progress
	next int
	end  bool
}

// Next returns the next segment, or nil, nil after the last; it waits for
// segments not stored yet.
func (f *Follower) Next(ctx context.Context) ([]byte, error) {
	for !f.end {
		f.p.mu.Lock()
		sent, done, failed, tail, changed := f.p.sent, f.p.done, f.p.failed, f.p.tail, f.p.changed
		f.p.mu.Unlock()
		switch {
		case f.next < sent:
			b, rep := f.s.rc.get(ctx, f.full+":"+strconv.Itoa(f.next))
			if rep != found {
				return nil, ErrSegmentGone
			}
			f.next++
			return b, nil
		case done:
			f.end = true
			if sent == 0 {
				return tail, nil
			}
			return nil, nil
		case failed:
			return nil, ErrProducerGone
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
	return nil, nil
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
	if w.sent == 0 {
		w.fill = w.s.spool.Create(w.full, w.s.ttl) // nil: no spool, or the key is spooled already
	}
	w.fill.Write(w.buf)
	key := w.full + ":" + strconv.Itoa(w.sent)
	if err := w.s.rc.call(w.ctx, func(ctx context.Context) error {
		return w.s.rc.rdb.Set(ctx, key, w.buf, w.s.ttl+segmentGrace).Err()
	}); err != nil {
		w.failed = true
		w.p.update(func() { w.p.failed = true })
		return
	}
	w.sent++
	w.p.update(func() { w.p.sent = w.sent })
	w.buf = w.buf[:0]
}

// Segmented reports whether the answer is being stored in segments: it
// outgrew one, and no store has failed.
func (w *Writer) Segmented() bool { return w != nil && !w.failed && w.sent > 0 }

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
	if w.sent > 0 { // short answers are one GET: not worth a file
		w.fill.Commit()
	}
	w.p.update(func() {
		w.p.done = true
		if w.sent == 0 {
			w.p.tail = w.buf
		}
	})
}
