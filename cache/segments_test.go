package cache_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/platform/spool"
)

// readAll reads a stored answer to its end.
func readAll(t *testing.T, r *cache.Reader) []byte {
	t.Helper()
	var out []byte
	for {
		b, err := r.Next(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		out = append(out, b...)
	}
}

// An answer is visible only once committed, reads back byte for byte
// whether it fits one segment (stored inline in the head) or many, and an
// abandoned or failed write leaves nothing.
func TestSegmentsRoundTrip(t *testing.T) {
	rc := testdb.Redis(t)
	s := cache.NewSegments(rc, "seg", time.Minute, 8)
	for _, answer := range [][]byte{[]byte("short"), bytes.Repeat([]byte("0123456789"), 7), []byte("exactly8")} {
		key := string(answer[:3]) + "x"
		w, _ := s.Produce(t.Context(), key)
		for i := 0; i < len(answer); i += 3 { // written in uneven pieces
			w.Write(answer[i:min(i+3, len(answer))])
			if s.Open(t.Context(), key) != nil {
				t.Fatalf("%q visible before it was committed", answer)
			}
		}
		w.Commit()
		w.Close()
		r := s.Open(t.Context(), key)
		if r == nil {
			t.Fatalf("%q not stored", answer)
		}
		if got := readAll(t, r); !bytes.Equal(got, answer) {
			t.Fatalf("read back %q, want %q", got, answer)
		}
	}
	w, _ := s.Produce(t.Context(), "abandoned")
	w.Write(bytes.Repeat([]byte("z"), 40))
	w.Close()
	if s.Open(t.Context(), "abandoned") != nil {
		t.Fatal("an answer never committed is visible")
	}

	// Without Redis nothing is stored or shared.
	none := cache.NewSegments(nil, "seg", time.Minute, 8)
	if w, f := none.Produce(t.Context(), "k"); w != nil || f != nil {
		t.Fatal("without Redis an answer was to be stored or followed")
	}
}

// A request producing an answer is followed by the others of the process,
// segment by segment as they are stored; an abandoned answer stops them.
func TestSegmentsFollowed(t *testing.T) {
	s := cache.NewSegments(testdb.Redis(t), "seg", time.Minute, 4)
	for _, answer := range [][]byte{[]byte("abc"), []byte("0123456789abcdefghij")} {
		key := string(answer)
		w, f := s.Produce(t.Context(), key)
		if w == nil || f != nil {
			t.Fatal("the first request does not produce the answer")
		}
		_, f1 := s.Produce(t.Context(), key)
		_, f2 := s.Produce(t.Context(), key)
		if f1 == nil || f2 == nil {
			t.Fatal("a second request does not follow")
		}
		got := make(chan []byte, 2)
		for _, f := range []*cache.Follower{f1, f2} {
			go func() {
				var out []byte
				for {
					b, err := f.Next(t.Context())
					if err != nil || b == nil {
						got <- out
						return
					}
					out = append(out, b...)
				}
			}()
		}
		for i := 0; i < len(answer); i += 3 {
			w.Write(answer[i:min(i+3, len(answer))])
			time.Sleep(time.Millisecond)
		}
		w.Commit()
		w.Close()
		for range 2 {
			if b := <-got; !bytes.Equal(b, answer) {
				t.Fatalf("follower read %q, want %q", b, answer)
			}
		}
	}
	w, _ := s.Produce(t.Context(), "gives up")
	_, f := s.Produce(t.Context(), "gives up")
	w.Write([]byte("0123456789"))
	w.Close()
	var err error
	for err == nil {
		var b []byte
		if b, err = f.Next(t.Context()); b == nil && err == nil {
			t.Fatal("an abandoned answer ended as if whole")
		}
	}
	if !errors.Is(err, cache.ErrProducerGone) {
		t.Fatalf("follower of an abandoned answer: %v", err)
	}
}

// Segments read once are kept in process: read again they come whole
// without Redis holding them, but only while Redis still holds the head.
func TestSegmentsKeptInProcess(t *testing.T) {
	rc := testdb.Redis(t)
	s := cache.NewSegments(rc, "segl", time.Minute, 8)
	answer := bytes.Repeat([]byte("0123456789"), 5)
	w, _ := s.Produce(t.Context(), "k")
	w.Write(answer)
	w.Commit()
	w.Close()
	if got := readAll(t, s.Open(t.Context(), "k")); !bytes.Equal(got, answer) {
		t.Fatalf("read back %q", got)
	}
	segs, err := rc.Redis().Keys(t.Context(), rc.Key("segl", "k", "*")).Result()
	if err != nil || len(segs) < 2 {
		t.Fatalf("segments %v (%v)", segs, err)
	}
	rc.Redis().Del(t.Context(), segs...)
	if got := readAll(t, s.Open(t.Context(), "k")); !bytes.Equal(got, answer) {
		t.Fatalf("read again without its segments in Redis: %q", got)
	}
	rc.Redis().Del(t.Context(), rc.Key("segl", "k"))
	if s.Open(t.Context(), "k") != nil {
		t.Fatal("an answer whose head is gone from Redis is still served")
	}
}

// With a spool, an answer in segments that this process produced, or read
// whole from Redis, is read again from its file (Size known) with no Redis
// key left; a read cut short copies nothing, and a short (inline) answer
// is not spooled.
func TestSegmentsSpool(t *testing.T) {
	rc := testdb.Redis(t)
	sp, err := spool.New(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	producer := cache.NewSegments(rc, "seg", time.Minute, 8).WithSpool(sp)
	answer := bytes.Repeat([]byte("0123456789"), 7)
	w, _ := producer.Produce(t.Context(), "long")
	w.Write(answer)
	w.Commit()
	w.Close()
	w, _ = producer.Produce(t.Context(), "short")
	w.Write([]byte("short"))
	w.Commit()
	w.Close()
	if sp.Used() != int64(len(answer)) {
		t.Fatalf("spool holds %d bytes after producing, want the long answer's %d", sp.Used(), len(answer))
	}
	dropRedis := func() {
		keys, _ := rc.Redis().Keys(t.Context(), rc.Key("seg", "*")).Result()
		rc.Redis().Del(t.Context(), keys...)
	}
	sized := func(s *cache.Segments, key string) []byte {
		r := s.Open(t.Context(), key)
		if r == nil {
			t.Fatalf("%s: not found", key)
		}
		defer r.Close()
		if r.Size() != int64(len(answer)) || !r.Segmented() {
			t.Fatalf("%s: size %d, segmented %v: not the spooled file", key, r.Size(), r.Segmented())
		}
		return readAll(t, r)
	}

	// Another process (its own spool) reads the answer from Redis first.
	sp2, err := spool.New(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer sp2.Close()
	reader := cache.NewSegments(rc, "seg", time.Minute, 8).WithSpool(sp2)
	r := reader.Open(t.Context(), "long")
	if r.Size() != -1 {
		t.Fatalf("a Redis read has size %d", r.Size())
	}
	if _, err := r.Next(t.Context()); err != nil { // cut short: no copy
		t.Fatal(err)
	}
	r.Close()
	if sp2.Used() != 0 {
		t.Fatalf("a read cut short left %d bytes in the spool", sp2.Used())
	}
	r = reader.Open(t.Context(), "long")
	readAll(t, r)
	r.Close()

	dropRedis()
	for name, s := range map[string]*cache.Segments{"producer": producer, "reader": reader} {
		if got := sized(s, "long"); !bytes.Equal(got, answer) {
			t.Fatalf("%s: spooled answer %q, want %q", name, got, answer)
		}
	}
	if producer.Open(t.Context(), "short") != nil {
		t.Fatal("a short answer was served without Redis")
	}
}
