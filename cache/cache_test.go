package cache_test

import (
	"context"
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
