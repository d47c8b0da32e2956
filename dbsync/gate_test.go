package dbsync

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// Requests that find the gate full are admitted in the order they came.
func TestGateAdmitsInArrivalOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(1)
		if err := g.enter(t.Context()); err != nil {
			t.Fatal(err)
		}
		admitted := make(chan int, 5)
		for i := range 5 {
			go func() {
				if err := g.enter(context.Background()); err != nil {
					t.Error(err)
					return
				}
				admitted <- i
				g.leave()
			}()
			synctest.Wait() // request i is queued before i+1 arrives
		}
		g.leave()
		for want := range 5 {
			if got := <-admitted; got != want {
				t.Fatalf("admitted request %d, want %d (arrival order)", got, want)
			}
		}
	})
}

// A request whose deadline passes while it waits gives up with the
// context's error and takes no slot.
func TestGateWaitEndsWithTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(2)
		for range 2 {
			if err := g.enter(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := g.enter(ctx); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 100*time.Millisecond {
			t.Fatalf("enter = %v after %s; want the deadline after 100ms", err, time.Since(start))
		}
		g.leave()
		if err := g.enter(t.Context()); err != nil || len(g.slots) != 2 {
			t.Fatalf("after a timed-out wait: enter = %v, %d slots taken, want 2", err, len(g.slots))
		}
	})
}

func TestNilGateAdmitsEveryone(t *testing.T) {
	var g *gate = newGate(0)
	for range 100 {
		if err := g.enter(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	g.leave()
}
