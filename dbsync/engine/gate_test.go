package engine

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
		first, err := g.enter(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		admitted := make(chan int, 5)
		for i := range 5 {
			go func() {
				tk, err := g.enter(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				admitted <- i
				g.leave(tk)
			}()
			synctest.Wait() // request i is queued before i+1 arrives
		}
		g.leave(first)
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
		var held []ticket
		for range 2 {
			tk, err := g.enter(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, tk)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, err := g.enter(ctx); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 100*time.Millisecond {
			t.Fatalf("enter = %v after %s; want the deadline after 100ms", err, time.Since(start))
		}
		g.leave(held[0])
		if _, err := g.enter(t.Context()); err != nil || len(g.slots) != 2 {
			t.Fatalf("after a timed-out wait: enter = %v, %d slots taken, want 2", err, len(g.slots))
		}
	})
}

func TestNilGateAdmitsEveryone(t *testing.T) {
	var g *gate = newGate(0)
	for range 100 {
		if _, err := g.enter(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	g.leave(ticket{})
}

// A full queue refuses the next request at once, with a Retry-After of
// at least a second.
func TestGateFullQueueRefusesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(1)
		g.maxQueue = 2
		tk, _ := g.enter(t.Context())
		for range 2 {
			go func() {
				if tk, err := g.enter(t.Context()); err == nil {
					g.leave(tk)
				}
			}()
		}
		synctest.Wait()
		start := time.Now()
		_, err := g.enter(t.Context())
		var oe *OverloadedError
		if !errors.As(err, &oe) || !errors.Is(err, ErrOverloaded) || time.Since(start) != 0 || oe.RetryAfter < time.Second {
			t.Fatalf("third in a queue of two: %v after %s", err, time.Since(start))
		}
		g.leave(tk)
	})
}

// A request whose deadline is shorter than the expected wait plus its own
// run is refused at once; one with enough time queues.
func TestGateRefusesWhatCannotFitItsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(1)
		// Teach the gate that a request holds its slot for a second.
		for range 40 {
			tk, _ := g.enter(t.Context())
			time.Sleep(time.Second)
			g.leave(tk)
		}
		if h := time.Duration(g.hold.Load()); h < 900*time.Millisecond {
			t.Fatalf("average hold %s, want about 1s", h)
		}
		tk, _ := g.enter(t.Context())
		short, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
		defer cancel()
		if _, err := g.enter(short); !errors.Is(err, ErrOverloaded) {
			t.Fatalf("1.5 s left, about 2 s needed: %v", err)
		}
		long, cancel2 := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel2()
		done := make(chan error, 1)
		go func() {
			tk, err := g.enter(long)
			if err == nil {
				g.leave(tk)
			}
			done <- err
		}()
		time.Sleep(time.Second)
		g.leave(tk)
		if err := <-done; err != nil {
			t.Fatalf("5 s left: %v", err)
		}
	})
}
