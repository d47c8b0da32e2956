package bf

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestFigureMemo: one pass per key and epoch, in the background: the
// first ask waits for it (no longer than it may), later ones get its
// figures; a new epoch's asks get the last figures while its pass runs;
// a failed pass's error reaches those waiting and is not retried at once.
func TestFigureMemo(t *testing.T) {
	var m figureMemo
	var runs atomic.Int32
	release := make(chan struct{})
	compute := func(locked string, fail bool) func(context.Context) (figures, error) {
		return func(context.Context) (figures, error) {
			runs.Add(1)
			<-release
			if fail {
				return figures{}, errors.New("pass failed")
			}
			return figures{Locked: locked}, nil
		}
	}
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.get(short, "db", 5, compute("five", false)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("first ask before the pass ended: %v", err)
	}
	done := make(chan figures)
	go func() {
		f, _ := m.get(context.Background(), "db", 5, compute("again", false))
		done <- f
	}()
	time.Sleep(20 * time.Millisecond)
	close(release)
	if f := <-done; f.Locked != "five" || runs.Load() != 1 {
		t.Fatalf("the waiting ask: %+v after %d passes", f, runs.Load())
	}
	if f, err := m.get(context.Background(), "db", 5, compute("never", false)); err != nil || f.Locked != "five" || runs.Load() != 1 {
		t.Fatalf("a later ask: %+v %v after %d passes", f, err, runs.Load())
	}

	// A new epoch: the last figures while its pass runs, then its own.
	release = make(chan struct{})
	next := compute("six", false)
	for range 3 {
		if f, err := m.get(context.Background(), "db", 6, next); err != nil || f.Locked != "five" {
			t.Fatalf("while epoch 6's pass runs: %+v %v", f, err)
		}
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for {
		f, _ := m.get(context.Background(), "db", 6, next)
		if f.Locked == "six" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("epoch 6's figures never came")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if runs.Load() != 2 {
		t.Fatalf("%d passes for two epochs", runs.Load())
	}

	// Another key whose pass fails: its waiting ask gets the error, and
	// an ask right after gets it too, without a new pass.
	release = make(chan struct{})
	close(release)
	if _, err := m.get(context.Background(), "other", 1, compute("", true)); err == nil {
		t.Fatal("a failed pass answered")
	}
	if _, err := m.get(context.Background(), "other", 1, compute("", true)); err == nil || runs.Load() != 3 {
		t.Fatalf("retried at once: %v, %d passes", err, runs.Load())
	}
}
