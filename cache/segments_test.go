package cache_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/testdb"
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
		w := s.Create(t.Context(), key)
		for i := 0; i < len(answer); i += 3 { // written in uneven pieces
			w.Write(answer[i:min(i+3, len(answer))])
			if s.Open(t.Context(), key) != nil {
				t.Fatalf("%q visible before it was committed", answer)
			}
		}
		w.Commit()
		r := s.Open(t.Context(), key)
		if r == nil {
			t.Fatalf("%q not stored", answer)
		}
		if got := readAll(t, r); !bytes.Equal(got, answer) {
			t.Fatalf("read back %q, want %q", got, answer)
		}
	}
	w := s.Create(t.Context(), "abandoned")
	w.Write(bytes.Repeat([]byte("z"), 40))
	if s.Open(t.Context(), "abandoned") != nil {
		t.Fatal("an answer never committed is visible")
	}

	// Without Redis nothing is stored and every caller has its turn.
	none := cache.NewSegments(nil, "seg", time.Minute, 8)
	none.Create(t.Context(), "k").Write([]byte("x"))
	if none.Open(t.Context(), "k") != nil {
		t.Fatal("stored without Redis")
	}
	done1, wait1 := none.Turn("k")
	done2, wait2 := none.Turn("k")
	if wait1 != nil || wait2 != nil {
		t.Fatal("without Redis a caller waited for another")
	}
	done1()
	done2()
}

// One caller at a time produces an answer; the others wait until it is
// done, then look again.
func TestSegmentsTurn(t *testing.T) {
	s := cache.NewSegments(testdb.Redis(t), "seg", time.Minute, 0)
	done, wait := s.Turn("k")
	if wait != nil || done == nil {
		t.Fatal("the first caller did not get its turn")
	}
	if d, w := s.Turn("k"); d != nil || w == nil {
		t.Fatal("a second caller got a turn while the first produces the answer")
	}
	if d, w := s.Turn("other"); w != nil {
		t.Fatal("another key waited")
	} else {
		d()
	}
	_, w := s.Turn("k")
	done()
	select {
	case <-w:
	default:
		t.Fatal("the waiter was not released")
	}
	if d, w := s.Turn("k"); w != nil {
		t.Fatal("no turn after the first caller was done")
	} else {
		d()
	}
}
