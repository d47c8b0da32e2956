package txstatus

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/node"
)

func newFlights() *flights { return &flights{m: map[string]*flight{}, done: map[string]finished{}} }

// Concurrent requests share one flight; one that started before the flight
// ended takes its answer; one that starts afterwards flies again.
func TestFlightsShareOneAnswer(t *testing.T) {
	g := newFlights()
	var runs atomic.Int32
	fn := func(context.Context) (SubmitResult, error) {
		runs.Add(1)
		time.Sleep(30 * time.Millisecond)
		return SubmitResult{Status: Submitted}, nil
	}
	var wg sync.WaitGroup
	lateStart := time.Now()
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res, err := g.do(context.Background(), "k", time.Now(), fn); err != nil || res.Status != Submitted {
				t.Errorf("got %+v %v", res, err)
			}
		}()
	}
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Fatalf("%d flights, want 1", n)
	}
	// Started before the flight ended (it was concurrent with it): shared.
	if _, err := g.do(context.Background(), "k", lateStart, fn); err != nil || runs.Load() != 1 {
		t.Fatalf("a request concurrent with the flight flew again (%d, %v)", runs.Load(), err)
	}
	// Started afterwards: a new flight; another key: its own.
	g.do(context.Background(), "k", time.Now(), fn)
	g.do(context.Background(), "other", time.Now(), fn)
	if n := runs.Load(); n != 3 {
		t.Fatalf("%d flights, want 3", n)
	}
}

// A waiter whose request ends gets its own error at once; the flight goes
// on, unaffected by the cancellation of the request that started it.
func TestFlightsOutliveTheirRequest(t *testing.T) {
	g := newFlights()
	release := make(chan struct{})
	flightErr := make(chan error, 1)
	fn := func(ctx context.Context) (SubmitResult, error) {
		<-release
		flightErr <- ctx.Err()
		return SubmitResult{Status: Submitted}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := g.do(ctx, "k", time.Now(), fn)
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer dcancel()
	if _, err := g.do(dctx, "k", time.Now(), fn); !errors.Is(err, node.ErrTimeout) {
		t.Fatalf("waiter out of time: %v, want node.ErrTimeout", err)
	}
	close(release)
	if err := <-flightErr; err != nil {
		t.Fatalf("the flight's context ended with its request: %v", err)
	}
}
