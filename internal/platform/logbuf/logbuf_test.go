package logbuf

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer records each write it gets.
type lockedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.buf.Write(p)
}

func (l *lockedBuffer) get() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String(), l.writes
}

func TestLinesAreBatchedAndKeptWhole(t *testing.T) {
	out := &lockedBuffer{}
	w := New(out, time.Hour, 64)
	for i := 0; i < 10; i++ {
		if n, err := w.Write([]byte("line of twenty bytes\n")); n != 21 || err != nil {
			t.Fatalf("write: %d, %v", n, err)
		}
	}
	got, writes := out.get()
	// 3 lines fit in 64 bytes: each fourth line writes the three before it.
	if writes != 3 || strings.Count(got, "\n") != 9 {
		t.Fatalf("%d writes holding %d lines; want 3 holding 9", writes, strings.Count(got, "\n"))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ = out.get(); got != strings.Repeat("line of twenty bytes\n", 10) {
		t.Fatalf("after Close: %q", got)
	}
	w.Write([]byte("after close\n"))
	if got, _ = out.get(); !strings.HasSuffix(got, "after close\n") {
		t.Fatal("a line written after Close was held")
	}
	w2 := New(out, time.Hour, 64)
	defer w2.Close()
	big := strings.Repeat("x", 100) + "\n"
	w2.Write([]byte(big))
	if got, _ = out.get(); !strings.HasSuffix(got, big) {
		t.Fatal("a line bigger than the buffer was held")
	}
}

func TestHeldLinesAreWrittenWithinTheInterval(t *testing.T) {
	out := &lockedBuffer{}
	w := New(out, 10*time.Millisecond, 1<<20)
	defer w.Close()
	w.Write([]byte("held\n"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		if got, _ := out.get(); got == "held\n" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("a held line was never written")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestConcurrentWritesStayWhole(t *testing.T) {
	out := &lockedBuffer{}
	w := New(out, time.Millisecond, 256)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			for i := 0; i < 200; i++ {
				w.Write([]byte("0123456789abcdef\n"))
			}
		})
	}
	wg.Wait()
	w.Close()
	got, _ := out.get()
	if got != strings.Repeat("0123456789abcdef\n", 1600) {
		t.Fatalf("lines interleaved or lost: %d bytes", len(got))
	}
}
