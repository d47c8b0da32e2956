package handlers

import (
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/handlers/httpx"
)

func TestDataAuthentication(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "p", allPerms...)
	userID := e.user(in, key, "u")
	_, apiKey := e.credential(in, key, userID, "")
	for _, tc := range []struct{ name, auth, msg string }{
		{"no header", "", "Missing or malformed Authorization header"},
		{"bearer without key", "Bearer ", "Missing or malformed Authorization header"},
		{"basic", "Basic " + apiKey, "Missing or malformed Authorization header"},
		{"unknown well-formed key", "Bearer sgk1_" + strings.Repeat("ab", 24), "Invalid API key"},
		{"truncated key", "Bearer " + apiKey[:52], "Invalid API key"},
		{"upper-case key", "Bearer " + strings.ToUpper(apiKey), "Invalid API key"},
		{"admin key", "Bearer " + key, "Invalid API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := in.callHeader(t, "GET", "/v1/test/whoami", tc.auth, "").want(t, 401, tc.msg)
			if r.Header.Get("X-RateLimit-Limit") != "" {
				t.Error("rate-limit headers on an unauthenticated response")
			}
		})
	}
	// The scheme is case-insensitive.
	in.callHeader(t, "GET", "/v1/test/whoami", "bearer "+apiKey, "").want(t, 200, "")
	// A network this deployment does not serve: chainDB's 503, with rate-limit headers.
	r := in.call(t, "GET", "/v1/test/chain", apiKey, "").want(t, 503, "Network mainnet is not served by this deployment")
	if r.Header.Get("X-RateLimit-Limit") != "60" {
		t.Fatalf("headers on an authenticated error: %v", r.Header)
	}
}

// TestChangesSeenByOtherInstance: revocation, suspension, reactivation and
// expiry made through one instance hold on the very next request to
// another instance that has the key cached.
func TestChangesSeenByOtherInstance(t *testing.T) {
	e := newAdminEnv(t)
	a, b := e.instance(), e.instance()
	_, key := e.adminKey(a, "p", allPerms...)
	userID := e.user(a, key, "u")
	credID, apiKey := e.credential(a, key, userID, "")
	otherUser := e.user(a, key, "other")
	_, otherKey := e.credential(a, key, otherUser, "")
	warm := func(k string) {
		for i := 0; i < 3; i++ {
			b.call(t, "GET", "/v1/test/whoami", k, "").want(t, 200, "")
		}
	}

	warm(apiKey)
	warm(otherKey)
	a.call(t, "POST", "/v1/admin/users/"+userID+"/suspend", key, "").want(t, 200, "")
	b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "User account is not active")
	b.call(t, "GET", "/v1/test/whoami", otherKey, "").want(t, 200, "") // other users are untouched

	a.call(t, "POST", "/v1/admin/users/"+userID+"/reactivate", key, "").want(t, 200, "")
	b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")

	a.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
	b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "API key has been revoked")
	a.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "API key has been revoked")

	// Expiry needs no invalidation: the cached expires_at is checked on every request.
	expires := e.clock.Now().Add(30 * time.Second).UTC().Format(time.RFC3339Nano)
	_, expiring := e.credential(a, key, otherUser, `,"expires_at":"`+expires+`"`)
	warm(expiring)
	e.clock.Add(31 * time.Second)
	b.call(t, "GET", "/v1/test/whoami", expiring, "").want(t, 401, "API key has expired")
	a.call(t, "GET", "/v1/test/whoami", expiring, "").want(t, 401, "API key has expired")
}

// TestOneRoundTrip: a request with a key seen before costs exactly one
// Redis call (rate limit and cache version together) and no PostgreSQL query.
func TestOneRoundTrip(t *testing.T) {
	e := newAdminEnv(t)
	a, b := e.instance(), e.instance()
	_, key := e.adminKey(a, "p", allPerms...)
	userID := e.user(a, key, "u")
	_, apiKey := e.credential(a, key, userID, "")
	b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	before := b.fast.Calls()
	// With the admin database gone, only the cache can answer.
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	}
	if got := b.fast.Calls() - before; got != 5 {
		t.Fatalf("5 requests made %d Redis calls, want 5", got)
	}
}

// TestChangesWithoutRedis: an instance that cannot reach Redis (and does
// not listen on the admin database) trusts its cache for the fallback TTL
// (1 s) only.
func TestChangesWithoutRedis(t *testing.T) {
	e := newAdminEnv(t)
	a := e.instance()
	down := e.instance(deadRedis(t))
	_, key := e.adminKey(a, "p", allPerms...)
	userID := e.user(a, key, "u")
	credID, apiKey := e.credential(a, key, userID, "")
	down.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	a.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
	// Within the fallback TTL the stale entry may still answer (the
	// documented bound); once it has passed, the revocation holds.
	e.clock.Add(time.Second)
	down.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "API key has been revoked")
}

// deadRedis is a Redis client pointed at a port nobody listens on.
func deadRedis(t testing.TB) *cache.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	rc, err := cache.New("redis://"+addr+"/0", "sgtest:dead:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	return rc
}

func TestRateLimit(t *testing.T) {
	e := newAdminEnv(t)
	a, b := e.instance(), e.instance()
	_, key := e.adminKey(a, "p", allPerms...)
	userID := e.user(a, key, "u")
	_, apiKey := e.credential(a, key, userID, `,"rate_limit_per_minute":5`)

	// Shared through Redis: five requests alternating between two
	// instances are allowed, the sixth and seventh are refused on either.
	for i := 0; i < 5; i++ {
		in := a
		if i%2 == 1 {
			in = b
		}
		r := in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
		if got := r.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(4-i) {
			t.Fatalf("request %d: X-RateLimit-Remaining %q, want %d", i+1, got, 4-i)
		}
		if r.Header.Get("X-RateLimit-Limit") != "5" {
			t.Fatalf("X-RateLimit-Limit %q", r.Header.Get("X-RateLimit-Limit"))
		}
		if reset, err := strconv.Atoi(r.Header.Get("X-RateLimit-Reset")); err != nil || reset < 12*(i+1)-1 || reset > 12*(i+1) {
			t.Fatalf("request %d: X-RateLimit-Reset %q", i+1, r.Header.Get("X-RateLimit-Reset"))
		}
	}
	for _, in := range []*instance{b, a} {
		r := in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 429, "Rate limit exceeded: 5 requests per minute")
		if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 12 {
			t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
		}
		if r.Header.Get("X-RateLimit-Remaining") != "0" || r.Header.Get("X-RateLimit-Limit") != "5" {
			t.Fatalf("429 headers: %v", r.Header)
		}
	}
	// Another credential has its own budget.
	_, other := e.credential(a, key, userID, `,"rate_limit_per_minute":5`)
	b.call(t, "GET", "/v1/test/whoami", other, "").want(t, 200, "")
}

func TestRateLimitWithoutRedis(t *testing.T) {
	e := newAdminEnv(t)
	e.rateInstances = 1 // one instance: its fallback share is the whole budget
	a := e.instance()
	down := e.instance(deadRedis(t))
	_, key := e.adminKey(a, "p", allPerms...)
	userID := e.user(a, key, "u")
	_, apiKey := e.credential(a, key, userID, `,"rate_limit_per_minute":3`)

	// The per-instance limiter takes over: the limit is still enforced.
	for i := 0; i < 3; i++ {
		r := down.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
		if r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Fatalf("request %d: remaining %q", i+1, r.Header.Get("X-RateLimit-Remaining"))
		}
	}
	r := down.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 429, "Rate limit exceeded: 3 requests per minute")
	if r.Header.Get("Retry-After") != "20" {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// No request waited on the dead Redis but the first: the circuit
	// breaker skipped it for the other three (auth and limiter alike).
	if calls := down.fast.Calls(); calls != 1 {
		t.Fatalf("%d calls went to the dead Redis, want 1", calls)
	}
	// After the cool-down Redis is tried again (and, still dead, skipped
	// again); 20 s later the local limiter has one request to give.
	e.clock.Add(20 * time.Second)
	down.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	if calls := down.fast.Calls(); calls != 2 {
		t.Fatalf("%d calls after the cool-down, want 2", calls)
	}
}

// BenchmarkAuthAndRateLimit measures what authentication plus rate
// limiting add to a data request with a warm credential cache and the real
// Redis: compare the two sub-benchmarks (same handler, with and without
// the data middleware).
func BenchmarkAuthAndRateLimit(b *testing.B) {
	e := newAdminEnv(b)
	in := e.instance()
	_, key := e.adminKey(in, "bench", allPerms...)
	userID := e.user(in, key, "bench")
	// Enough credentials at the maximum rate that no request is refused.
	var keys []string
	for i := 0; i < 50; i++ {
		_, k := e.credential(in, key, userID, `,"rate_limit_per_minute":10000`)
		keys = append(keys, k)
		in.call(b, "GET", "/v1/test/whoami", k, "").want(b, 200, "")
	}
	in.srv.engine.GET("/v1/test/bare", httpx.H(func(c *gin.Context) error { httpx.OK(c, map[string]string{"credential_id": "x"}); return nil }))

	run := func(b *testing.B, path string, withKey bool) {
		for i := 0; b.Loop(); i++ {
			req := httptest.NewRequest("GET", path, nil)
			if withKey {
				req.Header.Set("Authorization", "Bearer "+keys[i%len(keys)])
			}
			w := httptest.NewRecorder()
			in.srv.Handler().ServeHTTP(w, req)
			if w.Code != 200 {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
		}
	}
	b.Run("baseline", func(b *testing.B) { run(b, "/v1/test/bare", false) })
	b.Run("auth+ratelimit", func(b *testing.B) { run(b, "/v1/test/whoami", true) })
}
