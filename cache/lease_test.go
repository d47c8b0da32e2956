package cache_test

import (
	"context"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// redisNow is the real Redis' clock, the one the GCRA runs on.
func redisNow(t *testing.T, rc *cache.Client) time.Time {
	t.Helper()
	now, err := rc.Redis().Time(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// TestLeasesOvershootFourInstances is the overshoot claim, counted against
// a real Redis: four limiters (four connection pools, as four instances
// have) each hold a full slice of one credential when its bucket is full
// again (the worst moment: a window boundary), then all hammer the
// credential until each has been refused. Everything allowed beyond what
// the exact GCRA allows over the same time (the full bucket plus what Redis
// refilled meanwhile) is overshoot, and must stay within 5 % of the limit.
// The limiters' clock is frozen so no slice expires on a slow machine.
func TestLeasesOvershootFourInstances(t *testing.T) {
	rc := testdb.Redis(t)
	const limit, instances = 6000, 4
	clk := &clock{t: time.Now()}
	ls := make([]*cache.Limiter, instances)
	for i := range ls {
		ls[i] = cache.NewLimiter(fast(t, rc, clk.now), clk.now).ForInstances(instances)
	}
	maxSlice := ls[0].MaxSlice(limit)
	if maxSlice != 75 {
		t.Fatalf("slice of %d/min for %d instances: %d, want 75", limit, instances, maxSlice)
	}
	ctx := context.Background()
	id := "cred-" + testdb.RandomSuffix(6)

	// Each instance builds its slice up to the cap and keeps all but one token.
	held := 0
	for _, l := range ls {
		for n := 0; l.Held(id) < maxSlice-1; n++ {
			if d := l.Allow(ctx, id, limit, ""); !d.Allowed || !d.Shared {
				t.Fatalf("building a slice: %+v", d)
			}
			if n > 2*maxSlice {
				t.Fatalf("slice never reached %d tokens (holds %d)", maxSlice, l.Held(id))
			}
		}
		held += l.Held(id)
	}
	// The bucket is full again while the slices are still held.
	if err := rc.Redis().Del(ctx, "rate:"+rc.Key("rl", id)).Err(); err != nil {
		t.Fatal(err)
	}

	start := redisNow(t, rc)
	var allowed, refused atomic.Int64
	var wg sync.WaitGroup
	for _, l := range ls {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					d := l.Allow(ctx, id, limit, "")
					if !d.Shared {
						t.Errorf("a local decision with Redis up: %+v", d)
						return
					}
					if !d.Allowed {
						refused.Add(1)
						return
					}
					allowed.Add(1)
				}
			}()
		}
	}
	wg.Wait()
	refill := int64(redisNow(t, rc).Sub(start) * limit / time.Minute) // what Redis added meanwhile
	for _, l := range ls {
		if l.Held(id) != 0 {
			t.Errorf("an instance still holds %d tokens after its refusal", l.Held(id))
		}
	}
	over := allowed.Load() - limit - refill
	t.Logf("allowed %d (limit %d, refilled %d, held at the boundary %d): overshoot %d = %.2f %% of the limit",
		allowed.Load(), limit, refill, held, over, 100*float64(over)/limit)
	if allowed.Load() < limit {
		t.Fatalf("allowed %d, fewer than the full bucket of %d: tokens were lost", allowed.Load(), limit)
	}
	if allowed.Load()-refill > limit*105/100 {
		t.Fatalf("allowed %d beyond the %d Redis refilled: over %d × 1.05", allowed.Load()-refill, refill, limit)
	}
	if over > int64(held) {
		t.Fatalf("overshoot %d exceeds the %d tokens held at the boundary", over, held)
	}
}

// TestLeaseSlicesGrowAndExpire: slices double while they run out before
// they expire, stop at the cap, and an expired slice's unspent tokens go
// back to Redis in the next call, which asks for only what was used.
// 100/min leaves over 0.6 s between two tokens of Redis' refill, far more
// than the test takes, so Redis' counts are exact.
func TestLeaseSlicesGrowAndExpire(t *testing.T) {
	rc := testdb.Redis(t)
	clk := &clock{t: time.Now()}
	f := fast(t, rc, clk.now)
	l := cache.NewLimiter(f, clk.now).ForInstances(1) // slices of up to 5
	ctx := context.Background()
	id := "cred-" + testdb.RandomSuffix(6)
	// Redis calls for requests 1…9 (slices 1, 2, 4, then 5 at the cap).
	wantCall := []bool{true, true, false, true, false, false, false, true, false}
	for i, want := range wantCall {
		before := f.Calls()
		d := l.Allow(ctx, id, 100, "")
		if !d.Allowed || !d.Shared || d.Remaining != 99-i {
			t.Fatalf("request %d: %+v, want allowed with %d remaining", i+1, d, 99-i)
		}
		if got := f.Calls() - before; got != map[bool]int64{true: 1, false: 0}[want] {
			t.Fatalf("request %d made %d Redis calls, want Redis %v", i+1, got, want)
		}
	}
	if l.Held(id) != 3 {
		t.Fatalf("holds %d tokens, want 3 of the slice of 5", l.Held(id))
	}
	// Past the lease's second the 3 tokens are void; the next request gives
	// them back and leases 2 (what the last slice served).
	clk.add(time.Second)
	before := f.Calls()
	d := l.Allow(ctx, id, 100, "")
	if f.Calls() != before+1 {
		t.Fatal("an expired slice was spent")
	}
	// Redis: 12 leased - 3 given back + 2 = 11 taken; this instance holds 1.
	if !d.Allowed || d.Remaining != 90 || l.Held(id) != 1 {
		t.Fatalf("after expiry: %+v, holds %d; want remaining 90 (the 3 tokens given back), holding 1", d, l.Held(id))
	}
}

// TestLeaseHeaders: across slices the decision counts down one per
// request as with a call per request, the reset time grows, the refusal
// carries Redis' Retry-After, and refusals are answered locally until then.
func TestLeaseHeaders(t *testing.T) {
	rc := testdb.Redis(t)
	clk := &clock{t: time.Now()}
	f := fast(t, rc, clk.now)
	l := cache.NewLimiter(f, clk.now).ForInstances(1)
	ctx := context.Background()
	id := "cred-" + testdb.RandomSuffix(6)
	const limit = 100
	emission := time.Minute / limit
	for i := range limit {
		d := l.Allow(ctx, id, limit, "")
		if !d.Allowed || d.Remaining != limit-1-i || d.Limit != limit || d.RetryAfter != -1 {
			t.Fatalf("request %d: %+v, want allowed with %d remaining", i+1, d, limit-1-i)
		}
		if d.ResetAfter < time.Duration(i)*emission || d.ResetAfter > time.Minute {
			t.Fatalf("request %d: reset after %s, want at least %s (the tokens taken) and at most a minute", i+1, d.ResetAfter, time.Duration(i)*emission)
		}
	}
	calls := f.Calls()
	d := l.Allow(ctx, id, limit, "")
	if d.Allowed || d.Remaining != 0 || d.RetryAfter <= 0 || d.RetryAfter > emission || d.ResetAfter < time.Minute-emission {
		t.Fatalf("refusal: %+v, want 0 < Retry-After <= %s and a reset near a minute", d, emission)
	}
	if f.Calls() != calls+1 {
		t.Fatal("the refusal did not come from Redis")
	}
	again := l.Allow(ctx, id, limit, "")
	if again.Allowed || again.RetryAfter != d.RetryAfter || f.Calls() != calls+1 {
		t.Fatalf("second refusal: %+v after %d calls; want the same Retry-After, answered locally", again, f.Calls()-calls)
	}
	clk.add(d.RetryAfter)
	l.Allow(ctx, id, limit, "")
	if f.Calls() != calls+2 {
		t.Fatal("after Retry-After the limiter did not ask Redis again")
	}
}

// TestLeaseSurvivesRedisFailure: Redis goes away mid-slice. The tokens
// Redis granted are still spent (shared decisions, no call), then the
// local GCRA takes over behind the open circuit.
func TestLeaseSurvivesRedisFailure(t *testing.T) {
	testdb.RequireRedis(t)
	u, err := url.Parse(testdb.RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := testdb.NewProxy(t, u.Host, true)
	rc, err := cache.New("redis://"+proxy.Addr()+"/0", "sgtest:"+testdb.RandomSuffix(6)+":")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	clk := &clock{t: time.Now()}
	f := fast(t, rc, clk.now)
	l := cache.NewLimiter(f, clk.now).ForInstances(1)
	ctx := context.Background()
	const limit = 6000 // slices of up to 300
	for l.Held("cred") < 10 {
		if d := l.Allow(ctx, "cred", limit, ""); !d.Allowed || !d.Shared {
			t.Fatalf("building a slice: %+v", d)
		}
	}
	held := l.Held("cred")
	proxy.Cut()
	calls := f.Calls()
	for i := range held {
		if d := l.Allow(ctx, "cred", limit, ""); !d.Allowed || !d.Shared {
			t.Fatalf("leased token %d with Redis gone: %+v", i+1, d)
		}
	}
	if f.Calls() != calls {
		t.Fatalf("spending the slice made %d Redis calls", f.Calls()-calls)
	}
	d := l.Allow(ctx, "cred", limit, "authv:x")
	if !d.Allowed || d.Shared || d.PeekOK || d.Remaining != limit-1 {
		t.Fatalf("slice spent, Redis gone: %+v, want the local GCRA's first answer", d)
	}
	if f.Available() {
		t.Fatal("circuit still closed after Redis failed")
	}
	if d := l.Allow(ctx, "cred", limit, ""); d.Shared || f.Calls() != calls+1 {
		t.Fatalf("behind the open circuit: %+v after %d calls, want local and no call", d, f.Calls()-calls)
	}
}

// TestLeaseSmallLimitsAskEveryTime: below two tokens a slice (160/min for
// four instances) every request asks Redis and reads the peek key, as the
// credential cache's next-request invalidation needs.
func TestLeaseSmallLimitsAskEveryTime(t *testing.T) {
	rc := testdb.Redis(t)
	f := fast(t, rc, nil)
	l := cache.NewLimiter(f, nil)
	if l.MaxSlice(159) != 1 || l.MaxSlice(160) != 2 {
		t.Fatalf("slices of 159 and 160/min: %d, %d; want 1, 2", l.MaxSlice(159), l.MaxSlice(160))
	}
	ctx := context.Background()
	for i := range 5 {
		before := f.Calls()
		d := l.Allow(ctx, "cred", 159, rc.Key("authv", "x"))
		if f.Calls() != before+1 || !d.PeekOK || d.Remaining != 158-i {
			t.Fatalf("request %d: %+v with %d calls, want one call with the peek", i+1, d, f.Calls()-before)
		}
	}
}

// TestLeaseBookBounded: leases nobody uses any more are dropped once the
// book is large, so a stream of distinct ids (client IPs on the failed-
// authentication limit) does not grow it without end.
func TestLeaseBookBounded(t *testing.T) {
	rc := testdb.Redis(t)
	clk := &clock{t: time.Now()}
	l := cache.NewLimiter(fast(t, rc, clk.now), clk.now)
	ctx := context.Background()
	prefix := "ip-" + testdb.RandomSuffix(6) + "-"
	for i := range 10_000 {
		l.Allow(ctx, prefix+strconv.Itoa(i), 30, "")
	}
	clk.add(2 * time.Second) // every lease has expired
	l.Allow(ctx, prefix+"new", 30, "")
	if n := l.Leases(); n != 1 {
		t.Fatalf("%d leases kept after the sweep, want the new one only", n)
	}
}
