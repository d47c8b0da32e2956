package cache_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

type totals struct {
	Stake  string `json:"stake"`
	Blocks int64  `json:"blocks"`
}

// counter is a loader that counts its calls.
type counter struct {
	calls atomic.Int32
	delay time.Duration
	val   totals
	err   error
}

func (c *counter) load(ctx context.Context) (totals, error) {
	c.calls.Add(1)
	time.Sleep(c.delay)
	return c.val, c.err
}

func (c *counter) n() int { return int(c.calls.Load()) }

func mustGet[T any](t *testing.T, c *cache.Cache[T], key string, load func(context.Context) (T, error)) T {
	t.Helper()
	v, err := c.Get(t.Context(), key, load)
	if err != nil {
		t.Fatalf("Get(%s): %v", key, err)
	}
	return v
}

// TestHitAndMiss: a miss loads and stores the value as JSON under
// "<prefix><name>:<key>" with the TTL; the next Get is a hit; a load error
// is returned and not cached.
func TestHitAndMiss(t *testing.T) {
	rc := testdb.Redis(t)
	c := cache.NewJSON[totals](rc, "pool", cache.Options{TTL: time.Minute})
	l := &counter{val: totals{Stake: "42", Blocks: 7}}
	for i := range 3 {
		if v := mustGet(t, c, "mainnet:ab:epoch:9", l.load); v != l.val {
			t.Fatalf("get %d: %+v", i, v)
		}
	}
	if l.n() != 1 {
		t.Errorf("loaded %d times, want 1", l.n())
	}
	key := rc.Key("pool", "mainnet", "ab", "epoch", "9")
	if b, err := rc.Redis().Get(t.Context(), key).Result(); err != nil || b != `{"stake":"42","blocks":7}` {
		t.Errorf("Redis %s = %q, %v", key, b, err)
	}
	if ttl := rc.Redis().TTL(t.Context(), key).Val(); ttl <= 50*time.Second || ttl > time.Minute {
		t.Errorf("TTL %v, want about a minute", ttl)
	}
	// What another instance stored is served as is.
	rc.Redis().Set(t.Context(), key, `{"stake":"1","blocks":2}`, time.Minute)
	if v := mustGet(t, c, "mainnet:ab:epoch:9", l.load); v != (totals{"1", 2}) || l.n() != 1 {
		t.Errorf("stored value not served: %+v, %d loads", v, l.n())
	}

	boom := errors.New("db down")
	failing := &counter{err: boom}
	for range 2 {
		if _, err := c.Get(t.Context(), "failing", failing.load); !errors.Is(err, boom) {
			t.Fatalf("load error: %v", err)
		}
	}
	if failing.n() != 2 {
		t.Errorf("a failed load was cached: %d loads, want 2", failing.n())
	}
	if n := rc.Redis().Exists(t.Context(), rc.Key("pool", "failing")).Val(); n != 0 {
		t.Error("a failed load was stored")
	}
}

var errNoSuchPool = errors.New("no such pool")

// TestNegative: a NotFound answer is remembered for NegativeTTL (in Redis,
// so other instances share it) and returned without loading; then it is
// asked again. Without negative caching configured it is never remembered.
func TestNegative(t *testing.T) {
	rc := testdb.Redis(t)
	opts := cache.Options{TTL: time.Hour, NotFound: errNoSuchPool, NegativeTTL: 300 * time.Millisecond}
	c := cache.NewJSON[totals](rc, "neg", opts)
	l := &counter{err: fmt.Errorf("pool x: %w", errNoSuchPool)}
	for range 3 {
		if _, err := c.Get(t.Context(), "x", l.load); !errors.Is(err, errNoSuchPool) {
			t.Fatalf("got %v, want not found", err)
		}
	}
	if l.n() != 1 {
		t.Errorf("loaded %d times, want 1", l.n())
	}
	if ttl := rc.Redis().PTTL(t.Context(), rc.Key("neg", "x")).Val(); ttl <= 0 || ttl > 300*time.Millisecond {
		t.Errorf("negative entry TTL %v, want at most 300ms", ttl)
	}
	other := cache.NewJSON[totals](rc, "neg", opts) // another instance
	if _, err := other.Get(t.Context(), "x", l.load); !errors.Is(err, errNoSuchPool) || l.n() != 1 {
		t.Errorf("second instance: %v, %d loads", err, l.n())
	}
	time.Sleep(400 * time.Millisecond)
	if _, err := c.Get(t.Context(), "x", l.load); !errors.Is(err, errNoSuchPool) || l.n() != 2 {
		t.Errorf("after the negative TTL: %v, %d loads, want 2", err, l.n())
	}

	plain := cache.NewJSON[totals](rc, "plain", cache.Options{TTL: time.Hour, NotFound: errNoSuchPool})
	for range 2 {
		plain.Get(t.Context(), "x", l.load) //nolint:errcheck // counted below
	}
	if l.n() != 4 {
		t.Errorf("without NegativeTTL: %d loads, want 4", l.n())
	}
}

// TestTTLExpiry: a value lives for the cache's TTL, or for the TTL its
// loader gave, then is loaded again.
func TestTTLExpiry(t *testing.T) {
	rc := testdb.Redis(t)
	c := cache.NewJSON[totals](rc, "ttl", cache.Options{TTL: 300 * time.Millisecond})
	l := &counter{val: totals{Stake: "1"}}
	mustGet(t, c, "a", l.load)
	mustGet(t, c, "a", l.load)
	if l.n() != 1 {
		t.Fatalf("%d loads before expiry, want 1", l.n())
	}
	time.Sleep(400 * time.Millisecond)
	mustGet(t, c, "a", l.load)
	if l.n() != 2 {
		t.Errorf("%d loads after expiry, want 2", l.n())
	}

	long := cache.NewJSON[totals](rc, "ttl2", cache.Options{TTL: time.Hour})
	short := func(ctx context.Context) (totals, time.Duration, error) {
		v, err := l.load(ctx)
		return v, 200 * time.Millisecond, err
	}
	for range 2 {
		if _, err := long.GetTTL(t.Context(), "b", short); err != nil {
			t.Fatal(err)
		}
	}
	if ttl := rc.Redis().PTTL(t.Context(), rc.Key("ttl2", "b")).Val(); ttl <= 0 || ttl > 200*time.Millisecond {
		t.Errorf("loader's TTL not used: %v", ttl)
	}
	time.Sleep(300 * time.Millisecond)
	long.GetTTL(t.Context(), "b", short) //nolint:errcheck // counted below
	if l.n() != 4 {
		t.Errorf("%d loads, want 4 (the loader's TTL expired once)", l.n())
	}
}

// TestSingleFlight: 50 concurrent Gets of one key run the loader once, with
// Redis and without (local store only); callers arriving after the load
// finished read what it stored.
func TestSingleFlight(t *testing.T) {
	for _, tc := range []struct {
		name  string
		redis bool
	}{{"redis", true}, {"no redis", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var rc *cache.Client // the local store alone: runs under -short too
			if tc.redis {
				rc = testdb.Redis(t)
			}
			c := cache.NewJSON[totals](rc, "flight", cache.Options{TTL: time.Minute})
			l := &counter{val: totals{Stake: "5"}, delay: 20 * time.Millisecond}
			start := make(chan struct{})
			var wg sync.WaitGroup
			for range 50 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					if v, err := c.Get(t.Context(), "k", l.load); err != nil || v.Stake != "5" {
						t.Errorf("got %+v %v", v, err)
					}
				}()
			}
			close(start)
			wg.Wait()
			mustGet(t, c, "k", l.load)
			if l.n() != 1 {
				t.Errorf("loader ran %d times for 51 gets, want 1", l.n())
			}
		})
	}
}

// TestRedisDown: with Redis unreachable a Get still answers, from the
// loader and then from the local store (for LocalTTL), and fast.
func TestRedisDown(t *testing.T) {
	rc, err := cache.New("redis://"+closedPort(t), "sgtest:down:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	c := cache.NewJSON[totals](rc, "down", cache.Options{TTL: time.Hour, LocalTTL: 300 * time.Millisecond,
		NotFound: errNoSuchPool, NegativeTTL: time.Hour})
	l := &counter{val: totals{Stake: "3"}}
	begin := time.Now()
	for range 3 {
		if v := mustGet(t, c, "a", l.load); v.Stake != "3" {
			t.Fatalf("got %+v", v)
		}
	}
	// Fast: a refused port, then skipped; the bound is a loaded machine's,
	// a get waiting on Redis's timeouts (a quarter second each) is slower.
	if took := time.Since(begin); took >= time.Second {
		t.Errorf("three gets with Redis down took %v", took)
	}
	if l.n() != 1 {
		t.Errorf("%d loads, want 1 (local fallback)", l.n())
	}
	missing := &counter{err: errNoSuchPool}
	for range 2 {
		if _, err := c.Get(t.Context(), "gone", missing.load); !errors.Is(err, errNoSuchPool) {
			t.Fatalf("not found with Redis down: %v", err)
		}
	}
	if missing.n() != 1 {
		t.Errorf("negative entry not kept locally: %d loads", missing.n())
	}
	time.Sleep(400 * time.Millisecond) // LocalTTL caps both
	mustGet(t, c, "a", l.load)
	c.Get(t.Context(), "gone", missing.load) //nolint:errcheck // counted below
	if l.n() != 2 || missing.n() != 2 {
		t.Errorf("after LocalTTL: %d and %d loads, want 2 and 2", l.n(), missing.n())
	}
}

// TestRedisHung: a Redis that accepts connections and never answers costs
// a Get one short timeout, and the Gets that follow nothing.
func TestRedisHung(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan string, 64) // each connection's client address, in order
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, conn) // read nothing, answer nothing
			accepted <- conn.RemoteAddr().String()
		}
	}()
	// dialled counts the connections the client opened since the last
	// call: a marker connection of our own is accepted after them.
	dialled := func() int {
		t.Helper()
		m, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		n := 0
		for a := range accepted {
			if a == m.LocalAddr().String() {
				return n
			}
			n++
		}
		return n
	}
	rc, err := cache.New("redis://"+ln.Addr().String(), "sgtest:hung:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	c := cache.NewJSON[totals](rc, "hung", cache.Options{TTL: time.Hour})
	l := &counter{val: totals{Stake: "9"}}
	begin := time.Now()
	if v := mustGet(t, c, "a", l.load); v.Stake != "9" {
		t.Fatalf("got %+v", v)
	}
	// Bounded: the bound is a loaded machine's, not the call's timeout.
	if took := time.Since(begin); took >= time.Second {
		t.Errorf("first get with Redis hung took %v", took)
	}
	if n := dialled(); n == 0 {
		t.Fatal("the first get never reached Redis")
	}
	// Skipped after the timeout: no connection (a timed-out one is
	// discarded, so trying Redis again means dialling it).
	mustGet(t, c, "b", l.load)
	mustGet(t, c, "a", l.load)
	if n := dialled(); n != 0 {
		t.Errorf("gets after the timeout opened %d connections; Redis should be skipped", n)
	}
	if l.n() != 2 {
		t.Errorf("%d loads, want 2 (a from the local store the second time)", l.n())
	}
}

// TestForeignValues: whatever else sits under a key (not JSON, JSON of
// another shape, another Redis type, a not-found entry where negative
// caching is off) is a miss: the loader runs and its value replaces it.
func TestForeignValues(t *testing.T) {
	rc := testdb.Redis(t)
	ctx := t.Context()
	c := cache.NewJSON[totals](rc, "foreign", cache.Options{TTL: time.Minute})
	l := &counter{val: totals{Stake: "8", Blocks: 1}}
	plant := map[string]func(key string) error{
		"garbage":  func(k string) error { return rc.Redis().Set(ctx, k, "\xff\xfe{not json", time.Minute).Err() },
		"shape":    func(k string) error { return rc.Redis().Set(ctx, k, `["a list"]`, time.Minute).Err() },
		"empty":    func(k string) error { return rc.Redis().Set(ctx, k, "", time.Minute).Err() },
		"hash":     func(k string) error { return rc.Redis().HSet(ctx, k, "f", "v").Err() },
		"list":     func(k string) error { return rc.Redis().RPush(ctx, k, "v").Err() },
		"notfound": func(k string) error { return rc.Redis().Set(ctx, k, "\x00syncgate:not-found", time.Minute).Err() },
	}
	for name, put := range plant {
		if err := put(rc.Key("foreign", name)); err != nil {
			t.Fatal(err)
		}
		before := l.n()
		if v := mustGet(t, c, name, l.load); v != l.val {
			t.Errorf("%s: got %+v", name, v)
		}
		if l.n() != before+1 {
			t.Errorf("%s: not treated as a miss", name)
		}
		if v := mustGet(t, c, name, l.load); v != l.val || l.n() != before+1 {
			t.Errorf("%s: the loaded value did not replace it (%+v, %d loads)", name, v, l.n()-before)
		}
	}

	raw := cache.NewRawJSON(rc, "rawforeign", cache.Options{TTL: time.Minute})
	rc.Redis().Set(ctx, rc.Key("rawforeign", "k"), `{"cut off`, time.Minute)
	doc := []byte(`{"success":true}` + "\n")
	got, err := raw.Get(ctx, "k", func(context.Context) ([]byte, error) { return doc, nil })
	if err != nil || string(got) != string(doc) {
		t.Errorf("raw: %q %v", got, err)
	}
	if b, _ := rc.Redis().Get(ctx, rc.Key("rawforeign", "k")).Bytes(); string(b) != string(doc) {
		t.Errorf("raw document not stored byte for byte: %q", b)
	}
}

// TestLoaderPanicAndLeavingCaller: a panicking loader is an error, not a
// crash; a caller whose context ends stops waiting while the load goes on
// for the others.
func TestLoaderPanicAndLeavingCaller(t *testing.T) {
	c := cache.NewJSON[totals](testdb.Redis(t), "panic", cache.Options{TTL: time.Minute})
	if _, err := c.Get(t.Context(), "p", func(context.Context) (totals, error) { panic("boom") }); err == nil {
		t.Error("a panicking load returned no error")
	}

	release := make(chan struct{})
	var loads atomic.Int32
	slow := func(ctx context.Context) (totals, error) {
		loads.Add(1)
		select {
		case <-release:
			return totals{Stake: "late"}, nil
		case <-ctx.Done():
			return totals{}, ctx.Err()
		}
	}
	leaderCtx, leave := context.WithCancel(t.Context())
	leader := make(chan error, 1)
	go func() {
		_, err := c.Get(leaderCtx, "slow", slow)
		leader <- err
	}()
	for loads.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	waiter := make(chan totals, 1)
	go func() {
		v, _ := c.Get(t.Context(), "slow", slow)
		waiter <- v
	}()
	leave()
	if err := <-leader; !errors.Is(err, context.Canceled) {
		t.Errorf("leader: %v, want context.Canceled", err)
	}
	close(release)
	if v := <-waiter; v.Stake != "late" {
		t.Errorf("waiter got %+v after the leader left", v)
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("%d loads, want 1", n)
	}
}

// BenchmarkHit: a warm Get of a 2 KB answer against the bare Redis GET it
// wraps (deadline, decode check, metrics on top).
func BenchmarkHit(b *testing.B) {
	rc := testdb.Redis(b)
	c := cache.NewRawJSON(rc, "bench", cache.Options{TTL: time.Minute})
	doc := []byte(`{"success":true,"data":"` + string(make([]byte, 2000)) + `"}`)
	for i := range doc[25:2025] {
		doc[25+i] = 'x'
	}
	load := func(context.Context) ([]byte, error) { return doc, nil }
	if _, err := c.Get(b.Context(), "k", load); err != nil {
		b.Fatal(err)
	}
	b.Run("cache", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Get(b.Context(), "k", load); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bare GET", func(b *testing.B) {
		key := rc.Key("bench", "k")
		for b.Loop() {
			if err := rc.Redis().Get(b.Context(), key).Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestLocalFirst: a LocalFirst cache answers what it holds without asking
// Redis (a key it stored, or one another instance stored and it read once)
// for LocalTTL, then asks Redis again; a cache without it reads Redis
// every time, so it sees a key that Redis no longer holds as missing.
func TestLocalFirst(t *testing.T) {
	rc := testdb.Redis(t)
	ctx := t.Context()
	raw := func(first bool) *cache.Cache[[]byte] {
		return cache.NewRawJSON(rc, "localfirst", cache.Options{TTL: time.Minute, LocalTTL: 300 * time.Millisecond, LocalFirst: first})
	}
	load := func(v string, n *atomic.Int32) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) { n.Add(1); return []byte(v), nil }
	}
	var loads atomic.Int32
	first, plain := raw(true), raw(false)

	// Stored by this instance: Redis losing it does not matter until LocalTTL.
	if b, err := first.Get(ctx, "tipA:mine", load(`{"a":1}`, &loads)); err != nil || string(b) != `{"a":1}` {
		t.Fatalf("first get: %q, %v", b, err)
	}
	rc.Redis().Del(ctx, rc.Key("localfirst", "tipA:mine"))
	if b, _ := first.Get(ctx, "tipA:mine", load(`{"a":2}`, &loads)); string(b) != `{"a":1}` || loads.Load() != 1 {
		t.Errorf("local value not served first: %q after %d loads", b, loads.Load())
	}
	if b, _ := plain.Get(ctx, "tipA:mine", load(`{"a":3}`, &loads)); string(b) != `{"a":3}` || loads.Load() != 2 {
		t.Errorf("a cache without LocalFirst must ask Redis: %q after %d loads", b, loads.Load())
	}

	// Stored by another instance: read from Redis once, then held.
	key := rc.Key("localfirst", "tipA:theirs")
	rc.Redis().Set(ctx, key, `{"theirs":true}`, time.Minute)
	if b, _ := first.Get(ctx, "tipA:theirs", load(`{}`, &loads)); string(b) != `{"theirs":true}` {
		t.Fatalf("Redis value: %q", b)
	}
	rc.Redis().Set(ctx, key, `{"changed":true}`, time.Minute) // never happens to a tip-named key; shows where answers come from
	if b, _ := first.Get(ctx, "tipA:theirs", load(`{}`, &loads)); string(b) != `{"theirs":true}` {
		t.Errorf("value read from Redis not held locally: %q", b)
	}
	time.Sleep(400 * time.Millisecond)
	if b, _ := first.Get(ctx, "tipA:theirs", load(`{}`, &loads)); string(b) != `{"changed":true}` {
		t.Errorf("after LocalTTL the cache must ask Redis again: %q", b)
	}
	if loads.Load() != 2 {
		t.Errorf("%d loads, want 2", loads.Load())
	}
}

// LookupValid and Load: a value that no longer holds is a miss; a first
// ask of a key is not looked up and what Load reads then is not stored;
// from the second ask on it is, and concurrent loads of one version run
// once.
func TestLookupValidAndLoad(t *testing.T) {
	rc := testdb.Redis(t)
	c := cache.NewRawJSON(rc, "valid", cache.Options{TTL: time.Minute, Admit: cache.NewAdmission()})
	ctx := t.Context()
	holds := func(want string) func([]byte) bool {
		return func(b []byte) bool { return string(b) == want }
	}
	if _, hit, again := c.LookupValid(ctx, "k", false, holds("1")); hit || again {
		t.Fatalf("first ask: hit %v, again %v", hit, again)
	}
	var loads atomic.Int32
	load := func(ctx context.Context) ([]byte, time.Duration, error) {
		loads.Add(1)
		time.Sleep(20 * time.Millisecond)
		return []byte("1"), 0, nil
	}
	if _, err := c.Load(ctx, "k", "v1", false, load); err != nil {
		t.Fatal(err)
	}
	if n, _ := rc.Redis().Exists(ctx, rc.Key("valid", "k")).Result(); n != 0 {
		t.Fatal("stored at the first ask")
	}
	_, hit, again := c.LookupValid(ctx, "k", false, holds("1"))
	if hit || !again {
		t.Fatalf("second ask: hit %v, again %v", hit, again)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if v, err := c.Load(ctx, "k", "v2", again, load); err != nil || string(v) != "1" {
				t.Errorf("load: %s, %v", v, err)
			}
		})
	}
	wg.Wait()
	if loads.Load() != 2 {
		t.Fatalf("%d loads, want one per version", loads.Load())
	}
	if v, hit, _ := c.LookupValid(ctx, "k", false, holds("1")); !hit || string(v) != "1" {
		t.Fatalf("third ask: %s, hit %v", v, hit)
	}
	if _, hit, _ := c.LookupValid(ctx, "k", false, holds("2")); hit {
		t.Fatal("a value that no longer holds was a hit")
	}
	if _, hit, again := c.LookupValid(ctx, "new", true, holds("1")); hit || !again {
		t.Fatalf("admitted key: hit %v, again %v", hit, again)
	}
}
