package cache_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// clock is a settable time source for the breaker and the local limiter.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func fast(t testing.TB, c *cache.Client, now func() time.Time) *cache.FastClient {
	t.Helper()
	f := cache.NewFastClient(c, cache.FastOptions{Now: now})
	t.Cleanup(func() { f.Close() })
	return f
}

// wantSequence checks n allowed requests with Remaining n-1 … 0, then a refusal.
func wantSequence(t *testing.T, allow func(i int) cache.Decision, n int, shared bool) {
	t.Helper()
	for i := 0; i < n; i++ {
		d := allow(i)
		if !d.Allowed || d.Remaining != n-1-i || d.Limit != n || d.Shared != shared {
			t.Fatalf("request %d: %+v, want allowed, remaining %d, shared %v", i+1, d, n-1-i, shared)
		}
	}
	d := allow(n)
	if d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > time.Minute/time.Duration(n) || d.Shared != shared {
		t.Fatalf("request %d: %+v, want refused with 0 < RetryAfter <= %s", n+1, d, time.Minute/time.Duration(n))
	}
}

func TestLimiterSharedAcrossInstances(t *testing.T) {
	rc := testdb.Redis(t)
	a := cache.NewLimiter(fast(t, rc, nil), nil)
	b := cache.NewLimiter(fast(t, rc, nil), nil)
	ctx := context.Background()
	wantSequence(t, func(i int) cache.Decision {
		if i%2 == 0 {
			return a.Allow(ctx, "cred-1", 5, "")
		}
		return b.Allow(ctx, "cred-1", 5, "")
	}, 5, true)
	// Another credential has its own budget.
	if d := b.Allow(ctx, "cred-2", 5, ""); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("cred-2: %+v", d)
	}
}

func TestLimiterPeeksInSameRoundTrip(t *testing.T) {
	rc := testdb.Redis(t)
	f := fast(t, rc, nil)
	l := cache.NewLimiter(f, nil)
	ctx := context.Background()
	key := rc.Key("authv", "abc")
	d := l.Allow(ctx, "cred", 10, key)
	if !d.PeekOK || d.Peeked != "" {
		t.Fatalf("absent key: %+v", d)
	}
	if err := rc.Redis().Set(ctx, key, "7", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	before := f.Calls()
	d = l.Allow(ctx, "cred", 10, key)
	if !d.PeekOK || d.Peeked != "7" || !d.Shared || d.Remaining != 8 {
		t.Fatalf("present key: %+v", d)
	}
	if f.Calls() != before+1 {
		t.Fatalf("Allow with peek made %d Redis calls, want 1", f.Calls()-before)
	}
}

func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestLimiterFallsBackWhenRedisRefuses(t *testing.T) {
	rc, err := cache.New("redis://"+closedPort(t)+"/0", "sgtest:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	clk := &clock{t: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	f := fast(t, rc, clk.now)
	// Alone, the instance's share is the whole budget: the fallback has
	// the GCRA's arithmetic.
	l := cache.NewLimiter(f, clk.now).ForInstances(1)
	ctx := context.Background()
	wantSequence(t, func(int) cache.Decision { return l.Allow(ctx, "cred", 5, "authv:x") }, 5, false)
	// Only the first request tried Redis; the open circuit spared the rest.
	if f.Calls() != 1 || f.Available() {
		t.Fatalf("Redis calls = %d, available = %v; want 1 call and an open circuit", f.Calls(), f.Available())
	}
	if d := l.Allow(ctx, "cred", 5, "authv:x"); d.PeekOK {
		t.Fatalf("peek reported OK without Redis: %+v", d)
	}
}

func TestLimiterFallsBackWhenRedisHangs(t *testing.T) {
	// A server that accepts connections and never answers: only the
	// hot-path deadline can end the call.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	rc, err := cache.New("redis://"+ln.Addr().String()+"/0", "sgtest:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	f := fast(t, rc, nil)
	l := cache.NewLimiter(f, nil) // sized for 4 instances: a share of 12 / 4
	d := l.Allow(context.Background(), "cred", 12, "")
	if !d.Allowed || d.Shared || d.Remaining != 2 || d.Limit != 12 {
		t.Fatalf("%+v, want a local decision from a share of 3", d)
	}
	if f.Available() {
		t.Fatal("circuit still closed after a timeout")
	}
}

// TestFallbackSharesTheBudget: instances that all decide alone (Redis
// refuses, so every call misses) grant the budget in total, each its
// share, and the answer still names the credential's limit.
func TestFallbackSharesTheBudget(t *testing.T) {
	rc, err := cache.New("redis://"+closedPort(t)+"/0", "sgtest:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	clk := &clock{t: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	for _, c := range []struct{ instances, limit, want int }{{2, 60, 60}, {3, 60, 60}, {4, 10, 8}, {4, 3, 4}} {
		allowed := 0
		for range c.instances {
			l := cache.NewLimiter(fast(t, rc, clk.now), clk.now).ForInstances(c.instances)
			for range 2 * c.limit {
				if d := l.Allow(ctx, "cred", c.limit, ""); d.Allowed {
					if d.Shared || d.Limit != c.limit {
						t.Fatalf("%+v", d)
					}
					allowed++
				}
			}
		}
		if allowed != c.want {
			t.Errorf("%d instances, %d a minute: %d allowed, want %d", c.instances, c.limit, allowed, c.want)
		}
	}
}

func TestLimiterReturnsToRedis(t *testing.T) {
	mr := miniredis.RunT(t)
	rc, err := cache.New("redis://"+mr.Addr()+"/0", "sgtest:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	clk := &clock{t: time.Now()}
	f := fast(t, rc, clk.now)
	l := cache.NewLimiter(f, clk.now)
	ctx := context.Background()
	if d := l.Allow(ctx, "cred", 10, ""); !d.Shared || d.Remaining != 9 {
		t.Fatalf("with Redis: %+v", d)
	}
	mr.Close()
	if d := l.Allow(ctx, "cred", 10, ""); d.Shared || !d.Allowed {
		t.Fatalf("Redis stopped: %+v, want a local decision", d)
	}
	if err := mr.Restart(); err != nil {
		t.Fatal(err)
	}
	if d := l.Allow(ctx, "cred", 10, ""); d.Shared {
		t.Fatalf("inside the cool-down: %+v, want Redis still skipped", d)
	}
	clk.add(5 * time.Second)
	// Redis kept its state across the restart: this is its second request.
	if d := l.Allow(ctx, "cred", 10, ""); !d.Shared || d.Remaining != 8 {
		t.Fatalf("after the cool-down: %+v, want Redis again", d)
	}
}

func TestLocalGCRAMatchesRedisRate(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	l := cache.NewLimiter(nil, clk.now)
	ctx := context.Background()
	wantSequence(t, func(int) cache.Decision { return l.Allow(ctx, "k", 5, "") }, 5, false)
	d := l.Allow(ctx, "k", 5, "")
	if d.RetryAfter != 12*time.Second || d.ResetAfter != time.Minute {
		t.Fatalf("refusal: %+v, want RetryAfter 12s, ResetAfter 1m", d)
	}
	clk.add(12 * time.Second)
	if d := l.Allow(ctx, "k", 5, ""); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("12 s later: %+v, want one more allowed", d)
	}
	clk.add(time.Minute)
	if d := l.Allow(ctx, "k", 5, ""); !d.Allowed || d.Remaining != 4 || d.ResetAfter != 12*time.Second {
		t.Fatalf("after a full reset: %+v", d)
	}
}

// BenchmarkLimiterAllow is the Redis share of the hot path: one pipelined
// round trip (GCRA script + version GET), next to a bare PING for scale.
func BenchmarkLimiterAllow(b *testing.B) {
	rc := testdb.Redis(b)
	f := fast(b, rc, nil)
	l := cache.NewLimiter(f, nil)
	ctx := context.Background()
	key := rc.Key("authv", "bench")
	b.Run("allow+peek", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if d := l.Allow(ctx, "bench-"+string(rune('a'+i%20)), 10000, key); !d.Shared {
				b.Fatal("Redis not used")
			}
		}
	})
	b.Run("ping", func(b *testing.B) {
		for b.Loop() {
			if err := rc.Ping(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestLimiterZeroRateUsesDefault(t *testing.T) {
	l := cache.NewLimiter(nil, nil)
	d := l.Allow(t.Context(), "zero-rate", 0, "")
	if !d.Allowed || d.Limit != cache.DefaultPerMinute {
		t.Fatalf("decision %+v, want allowed at the default %d/min", d, cache.DefaultPerMinute)
	}
}
