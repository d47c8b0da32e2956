package cache_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/testdb"
)

// TestFetchLoadsOncePerKey: concurrent callers, and callers that arrive
// after a load finished, share one load; a nil client just loads.
func TestFetchLoadsOncePerKey(t *testing.T) {
	c := testdb.Redis(t)
	var loads atomic.Int32
	load := func(ctx context.Context) (map[string]int, error) {
		loads.Add(1)
		time.Sleep(5 * time.Millisecond)
		return map[string]int{"n": 7}, nil
	}
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := cache.Fetch(t.Context(), c, c.Key("fetch-once"), time.Minute, load)
			if err != nil || v["n"] != 7 {
				t.Errorf("got %v %v", v, err)
			}
		}()
	}
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Errorf("loaded %d times, want 1", n)
	}
	v, err := cache.Fetch[map[string]int](t.Context(), nil, "k", time.Minute, load)
	if err != nil || v["n"] != 7 || loads.Load() != 2 {
		t.Errorf("nil client: %v %v loads=%d", v, err, loads.Load())
	}
}

// TestFlightGroupSurvivesTheLeaderLeaving: the caller that starts a load
// may go away (its client disconnected); the callers waiting on the same key
// still get the value, the load is not cancelled, and a caller whose own
// context ends stops waiting at once.
func TestFlightGroupSurvivesTheLeaderLeaving(t *testing.T) {
	var g cache.FlightGroup
	release := make(chan struct{})
	var calls atomic.Int32
	load := func(ctx context.Context) (any, error) {
		calls.Add(1)
		select {
		case <-release:
			return "value", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	leaderCtx, leave := context.WithCancel(t.Context())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := g.Do(leaderCtx, "k", load)
		leaderErr <- err
	}()
	for calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	waiter := make(chan any, 1)
	go func() {
		v, err := g.Do(t.Context(), "k", load)
		if err != nil {
			v = err
		}
		waiter <- v
	}()
	impatientCtx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if _, err := g.Do(impatientCtx, "k", load); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("impatient caller: %v, want its own deadline", err)
	}
	leave()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Errorf("leader: %v, want context.Canceled", err)
	}
	close(release)
	if v := <-waiter; v != "value" {
		t.Errorf("waiter got %v after the leader left; want the shared value", v)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d loads, want 1", n)
	}
	if _, err := g.Do(t.Context(), "p", func(context.Context) (any, error) { panic("boom") }); err == nil {
		t.Error("a panicking load returned no error")
	}
}
