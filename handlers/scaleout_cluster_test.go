//go:build linux

package handlers

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestTwoInstancesOnRedisCluster: two instances share a 3-master Redis
// Cluster (and the admin database). One credential's per-minute budget is
// one budget across both; a revocation on one is refused on the other at
// once; with a master killed, every request still answers within its
// deadline (limits fall back to each instance's own count for the keys
// whose slots are gone, as with Redis down).
func TestTwoInstancesOnRedisCluster(t *testing.T) {
	rcl := testdb.NewRedisCluster(t, 3) // skips under -short
	e := newAdminEnv(t)
	e.listen = true
	// The budget assertion must not see the hot path's fallback to local
	// counting when Redis is slow, which a loaded test machine triggers.
	e.fastTimeout = 2 * time.Second
	client, err := cache.New(rcl.URL(), "sg-scaleout:"+testdb.RandomSuffix(6)+":")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	a, b := e.instance(client), e.instance(client)
	_, key := e.adminKey(a, "p", allPerms...)
	userID := e.user(a, key, "u")

	// One budget: 60 a minute, asked 200 times alternately on A and B,
	// with the clock frozen (no refill).
	_, apiKey := e.credential(a, key, userID, `,"rate_limit_per_minute":60`)
	var allowed, limited atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		in := a
		if i%2 == 1 {
			in = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch r := in.call(t, "GET", "/v1/test/whoami", apiKey, ""); r.Code {
			case 200:
				allowed.Add(1)
			case 429:
				limited.Add(1)
			default:
				t.Errorf("status %d: %s", r.Code, r.Raw)
			}
		}()
	}
	wg.Wait()
	// Each instance leases at most 5 % of the budget split across the
	// configured instances: the overshoot bound (docs/RESILIENCE.md).
	if n := allowed.Load(); n < 60 || n > 63 {
		t.Fatalf("allowed %d of 200 with a budget of 60 shared by two instances (limited %d)", n, limited.Load())
	}
	t.Logf("budget 60/min across two instances on a Redis Cluster: %d allowed, %d refused", allowed.Load(), limited.Load())

	// Revocation on A is refused on B.
	credID, other := e.credential(a, key, userID, `,"rate_limit_per_minute":10000`)
	b.call(t, "GET", "/v1/test/whoami", other, "").want(t, 200, "")
	a.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
	b.call(t, "GET", "/v1/test/whoami", other, "").want(t, 401, "API key has been revoked")

	// A master dies: requests on both instances keep answering in time.
	// A request pays the dead master at most one hot-path Redis deadline
	// (e.fastTimeout: the first failure opens the circuit, and the frozen
	// clock keeps it open, so what follows counts locally); past that it
	// would be waiting on the dead master, which is what this rules out.
	// The second is a loaded machine's slack, as for the health probes.
	bound := e.fastTimeout + time.Second
	_, live := e.credential(a, key, userID, `,"rate_limit_per_minute":10000`)
	rcl.Servers[0].Kill()
	var slowest time.Duration
	for i := range 40 {
		in := a
		if i%2 == 1 {
			in = b
		}
		start := time.Now()
		r := in.call(t, "GET", "/v1/test/whoami", live, "")
		took := time.Since(start)
		slowest = max(slowest, took)
		if r.Code != 200 {
			t.Fatalf("request %d with a master down: %d %s", i, r.Code, r.Raw)
		}
		if took > bound {
			t.Fatalf("request %d took %s with a master down, more than one hot-path Redis deadline (%s) and slack", i, took, e.fastTimeout)
		}
	}
	t.Logf("with a master killed: 40 requests answered 200, slowest %s", slowest.Round(time.Millisecond))
}
