package handlers

import (
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestRevocationWithoutRedis: two instances share the
// admin database and a real Redis, which the test then cuts off. A
// revocation or a suspension made on instance A must be refused on
// instance B within a second: B's clock is frozen, so no TTL can help and
// only the invalidation through PostgreSQL can tell it. The delays
// (docs/RESILIENCE.md) are logged.
func TestRevocationWithoutRedis(t *testing.T) {
	e := newAdminEnv(t)
	e.listen = true
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
	a, b := e.instance(rc), e.instance(rc)
	for _, in := range []*instance{a, b} {
		for deadline := time.Now().Add(10 * time.Second); !in.auth.Listening(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("listener not trusted after 10 s")
			}
		}
	}
	_, key := e.adminKey(a, "p", allPerms...)
	proxy.Cut() // Redis is gone for both instances from here on

	// refusedAfter makes the change on A and returns how long B went on
	// accepting apiKey after A had answered.
	refusedAfter := func(method, path, apiKey, msg string) time.Duration {
		t.Helper()
		b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "") // cached on B
		a.call(t, method, path, key, "").want(t, 200, "")
		done := time.Now()
		for {
			r := b.call(t, "GET", "/v1/test/whoami", apiKey, "")
			if r.Code == 401 {
				r.want(t, 401, msg)
				return time.Since(done)
			}
			r.want(t, 200, "")
			// The cached entry is trusted for CacheTTL (the listener vouches):
			// only the notification ends it sooner; 10 s is a lost one.
			if time.Since(done) > 10*time.Second {
				t.Fatalf("%s %s: B still accepts the key %v after A answered", method, path, time.Since(done))
			}
		}
	}
	// B is polled as fast as it answers: a limit the polling cannot reach.
	const pollable = `,"rate_limit_per_minute":10000`
	var revoked, suspended []time.Duration
	for range 20 {
		userID := e.user(a, key, "u")
		credID, apiKey := e.credential(a, key, userID, pollable)
		revoked = append(revoked, refusedAfter("DELETE", "/v1/admin/credentials/"+credID, apiKey, "API key has been revoked"))
		_, other := e.credential(a, key, userID, pollable)
		suspended = append(suspended, refusedAfter("POST", "/v1/admin/users/"+userID+"/suspend", other, "User account is not active"))
	}
	t.Logf("revoked credential refused on the other instance after: %s", spread(revoked))
	t.Logf("suspended user refused on the other instance after: %s", spread(suspended))
}

// spread summarises durations: min, median, p90, max.
func spread(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[int(q*float64(len(s)-1))] }
	return "n=" + strconv.Itoa(len(s)) + " min " + s[0].String() + ", median " + at(0.5).String() +
		", p90 " + at(0.9).String() + ", max " + s[len(s)-1].String()
}

// TestRevocationWithLeases: a credential whose limit is leased in slices
// (10 000/min) asks Redis only once per slice, so a revocation made on A
// no longer rides the very next request to B. Without a listener B must
// still refuse the key once FallbackTTL (1 s, B's clock) has passed since
// Redis last vouched for it; with a listener it is refused as soon as the
// NOTIFY arrives, whatever the clock.
func TestRevocationWithLeases(t *testing.T) {
	const leased = `,"rate_limit_per_minute":10000`
	t.Run("no listener", func(t *testing.T) {
		e := newAdminEnv(t)
		a, b := e.instance(), e.instance()
		_, key := e.adminKey(a, "p", allPerms...)
		userID := e.user(a, key, "u")
		credID, apiKey := e.credential(a, key, userID, leased)
		calls := b.fast.Calls()
		for range 20 {
			b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
		}
		if n := b.fast.Calls() - calls; n >= 20 {
			t.Fatalf("20 requests made %d Redis calls: not leased", n)
		}
		a.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
		// Within the bound B may still answer from its slice and cache...
		e.clock.Add(999 * time.Millisecond)
		b.call(t, "GET", "/v1/test/whoami", apiKey, "")
		// ...and once it has passed, the revocation holds.
		e.clock.Add(time.Millisecond)
		b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "API key has been revoked")
	})
	t.Run("listener", func(t *testing.T) {
		e := newAdminEnv(t)
		e.listen = true
		a, b := e.instance(), e.instance()
		for deadline := time.Now().Add(10 * time.Second); !b.auth.Listening(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("listener not trusted after 10 s")
			}
		}
		_, key := e.adminKey(a, "p", allPerms...)
		userID := e.user(a, key, "u")
		credID, apiKey := e.credential(a, key, userID, leased)
		for range 20 {
			b.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
		}
		a.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
		done := time.Now()
		for {
			r := b.call(t, "GET", "/v1/test/whoami", apiKey, "")
			if r.Code == 401 {
				r.want(t, 401, "API key has been revoked")
				t.Logf("refused on the other instance %s after the revocation", time.Since(done))
				return
			}
			r.want(t, 200, "")
			if time.Since(done) > 10*time.Second { // a hang, not a latency bound
				t.Fatal("B still accepts the revoked key after 10 s")
			}
			time.Sleep(time.Millisecond)
		}
	})
}
