package handlers

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestLogsNoPresentedKey: no part of a presented key reaches the logs,
// whether the key is unknown, malformed or valid; after authentication the
// access log names the credential or admin key by id.
func TestLogsNoPresentedKey(t *testing.T) {
	e := newAdminEnv(t)
	var buf testdb.LogBuffer
	e.log = slog.New(slog.NewJSONHandler(&buf, nil))
	in := e.instance()
	adminID, p := e.adminKey(in, "P", allPerms...)
	u := e.user(in, p, "u")
	credID, key := e.credential(in, p, u, "")
	unknownData := "sgk1_" + "Zq9" + strings.Repeat("x", 45)
	unknownAdmin := "sga1_" + "Wv7" + strings.Repeat("y", 45)

	in.call(t, "GET", "/v1/test/whoami", unknownData, "").want(t, 401, "Invalid API key")
	in.call(t, "GET", "/v1/admin/users", unknownAdmin, "").want(t, 401, "Invalid API key")
	in.callHeader(t, "GET", "/v1/test/whoami", "Bearer Qk3-not-a-key-at-all", "").want(t, 401, "Invalid API key")
	in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/users", p, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/keys", testBootstrapKey, "").want(t, 200, "")

	logs := buf.String()
	for _, secret := range []string{unknownData, unknownAdmin, key, p, testBootstrapKey} {
		// Anything past the public prefix ("sgk1_", "sga1_") is secret.
		if frag := secret[5:9]; strings.Contains(logs, frag) {
			t.Errorf("log holds %q of a presented key:\n%s", frag, logs)
		}
	}
	for _, f := range []string{"Zq9", "Wv7", "Qk3", "key_prefix"} {
		if strings.Contains(logs, f) {
			t.Errorf("log holds %q:\n%s", f, logs)
		}
	}
	for _, want := range []string{`"credential_id":"` + credID + `"`, `"admin_key_id":"` + adminID + `"`,
		`"admin_key_id":"` + admin.BootstrapKeyID.String() + `"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %s:\n%s", want, logs)
		}
	}
}

// TestSecurityHeaders: nosniff everywhere, no-store on admin routes (the
// key-creating response above all), WWW-Authenticate on 401s, no Server
// header, and a 500's body without internals.
func TestSecurityHeaders(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, p := e.adminKey(in, "P", allPerms...)
	u := e.user(in, p, "u")
	_, key := e.credential(in, p, u, "")

	created := in.call(t, "POST", "/v1/admin/keys", testBootstrapKey, `{"admin_entity_name":"Q","permissions":[]}`).want(t, 201, "")
	for _, r := range []struct {
		name    string
		r       reply
		noStore bool
	}{
		{"new admin key", created, true},
		{"admin list", in.call(t, "GET", "/v1/admin/users", p, ""), true},
		{"admin 401", in.call(t, "GET", "/v1/admin/users", "", ""), true},
		{"admin 404", in.call(t, "GET", "/v1/admin/nope", p, ""), true},
		{"data 200", in.call(t, "GET", "/v1/test/whoami", key, ""), false},
		{"data 401", in.call(t, "GET", "/v1/test/whoami", "sgk1_"+strings.Repeat("a", 48), ""), false},
		{"unknown route", in.call(t, "GET", "/v2/x", "", ""), false},
	} {
		if got := r.r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", r.name, got)
		}
		if got := r.r.Header.Get("Cache-Control"); r.noStore && got != "no-store" {
			t.Errorf("%s: Cache-Control %q", r.name, got)
		}
		if got := r.r.Header.Get("Server"); got != "" {
			t.Errorf("%s: Server %q", r.name, got)
		}
		if got := r.r.Header.Get("WWW-Authenticate"); (r.r.Code == 401) != (got == "Bearer") {
			t.Errorf("%s: status %d, WWW-Authenticate %q", r.name, r.r.Code, got)
		}
	}

	// A broken admin schema: the 500 says nothing about why.
	if _, err := e.db.Exec(`ALTER TABLE syncgate.user_accounts RENAME TO user_accounts_gone`); err != nil {
		t.Fatal(err)
	}
	r := in.call(t, "GET", "/v1/admin/users", p, "").want(t, 500, "Internal server error")
	for _, leak := range []string{"pq", "relation", "syncgate.", "user_accounts", ".go", "/"} {
		if strings.Contains(r.Raw, leak) {
			t.Errorf("500 body leaks %q: %s", leak, r.Raw)
		}
	}
}

// TestCORS: off by default; with CORS_ALLOWED_ORIGINS, preflights from a
// listed origin get 204 before authentication, others nothing.
func TestCORS(t *testing.T) {
	e := newAdminEnv(t)
	off := e.instance()
	e.cfg.CORSAllowedOrigins = []string{"https://app.example.com"}
	on := e.instance()
	_, p := e.adminKey(on, "P", allPerms...)

	preflight := func(in *instance, origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("OPTIONS", "/v1/admin/users", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "authorization")
		w := httptest.NewRecorder()
		in.srv.Handler().ServeHTTP(w, req)
		return w
	}
	if w := preflight(off, "https://app.example.com"); w.Code == 204 || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS off: %d %v", w.Code, w.Header())
	}
	w := preflight(on, "https://app.example.com")
	if w.Code != 204 || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(w.Header().Get("Access-Control-Allow-Headers"), "Authorization") ||
		!strings.Contains(w.Header().Get("Access-Control-Allow-Methods"), "GET") {
		t.Errorf("preflight: %d %v", w.Code, w.Header())
	}
	if w := preflight(on, "https://evil.example"); w.Code == 204 || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("foreign origin: %d %v", w.Code, w.Header())
	}
	req := httptest.NewRequest("GET", "/v1/admin/users", nil)
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("Authorization", "Bearer "+p)
	rw := httptest.NewRecorder()
	on.srv.Handler().ServeHTTP(rw, req)
	if rw.Code != 200 || rw.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(rw.Header().Get("Access-Control-Expose-Headers"), "X-Request-Id") {
		t.Errorf("actual request: %d %v", rw.Code, rw.Header())
	}
}

// callFrom sends a request from the TCP peer remote, with an optional
// X-Forwarded-For.
func (in *instance) callFrom(t testing.TB, remote, xff, path, key string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.RemoteAddr = remote
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	w := httptest.NewRecorder()
	in.srv.Handler().ServeHTTP(w, req)
	return w
}

// TestAuthFailureLimit: failed authentications are limited per client IP
// across instances (Redis); once over, every request of that IP needing a
// key is 429 with Retry-After; X-Forwarded-For counts only from a trusted
// proxy; other clients are unaffected.
func TestAuthFailureLimit(t *testing.T) {
	e := newAdminEnv(t)
	e.cfg.AuthFailuresPerMinute = 5
	e.cfg.TrustedProxies = []string{"10.0.0.0/8"}
	a, b := e.instance(), e.instance()
	_, p := e.adminKey(a, "P", allPerms...)
	u := e.user(a, p, "u")
	_, key := e.credential(a, p, u, "")
	unknown := func(i int) string { return "sgk1_" + strings.Repeat("c", 40) + fmt.Sprintf("%08d", i) }
	const attacker = "203.0.113.66:5555"

	// A spoofed X-Forwarded-For from an untrusted peer changes nothing:
	// all five failures count against the peer.
	for i := range 5 {
		w := a.callFrom(t, attacker, fmt.Sprintf("198.51.100.%d", i), "/v1/test/whoami", unknown(i))
		if w.Code != 401 {
			t.Fatalf("failure %d: %d %s", i, w.Code, w.Body)
		}
	}
	check429 := func(name string, w *httptest.ResponseRecorder) {
		t.Helper()
		ra, _ := strconv.Atoi(w.Header().Get("Retry-After"))
		if w.Code != 429 || ra < 1 || ra > 60 ||
			strings.TrimSpace(w.Body.String()) != `{"success":false,"error":"Too many failed authentication attempts"}` {
			t.Fatalf("%s: %d Retry-After %q %s", name, w.Code, w.Header().Get("Retry-After"), w.Body)
		}
	}
	// The other instance shares the budget through Redis.
	check429("sixth failure, other instance", b.callFrom(t, attacker, "198.51.100.99", "/v1/test/whoami", unknown(5)))
	// Blocked: even a valid key, and admin routes, from that IP.
	check429("valid key while blocked", b.callFrom(t, attacker, "", "/v1/test/whoami", key))
	check429("admin route while blocked", b.callFrom(t, attacker, "", "/v1/admin/users", p))
	check429("first instance too", a.callFrom(t, attacker, "", "/v1/test/whoami", unknown(6)))

	// Other clients are unaffected, directly or through the trusted proxy
	// (which names them in X-Forwarded-For).
	if w := a.callFrom(t, "203.0.113.67:1", "", "/v1/test/whoami", key); w.Code != 200 {
		t.Fatalf("other client: %d %s", w.Code, w.Body)
	}
	if w := b.callFrom(t, "10.1.2.3:1", "198.51.100.7", "/v1/test/whoami", unknown(7)); w.Code != 401 {
		t.Fatalf("client behind proxy, first failure: %d %s", w.Code, w.Body)
	}
	// Behind the proxy, the attacker's address is what counts.
	check429("attacker behind the trusted proxy", b.callFrom(t, "10.1.2.3:1", "203.0.113.66", "/v1/test/whoami", unknown(8)))
	if w := a.callFrom(t, "10.1.2.3:1", "198.51.100.8", "/v1/test/whoami", key); w.Code != 200 {
		t.Fatalf("client behind proxy, valid key: %d %s", w.Code, w.Body)
	}
	// The block ends with Retry-After (local memory; the shared budget
	// refills in Redis' real time, so only the local block is checked).
	e.clock.Add(61 * time.Second)
	if w := a.callFrom(t, attacker, "", "/v1/test/whoami", key); w.Code != 200 {
		t.Fatalf("valid key after the block: %d %s", w.Code, w.Body)
	}
}

// TestUsageExactThroughShutdown: steady load on one key through two
// instances; one stops mid-load (HTTP drain, then its final usage flush
// with an already exhausted shutdown deadline). Afterwards the usage rows
// equal, per status class, exactly the responses the client received.
func TestUsageExactThroughShutdown(t *testing.T) {
	e := newAdminEnv(t)
	recA := admin.NewUsageRecorder(e.db, 20*time.Millisecond, quiet)
	recB := admin.NewUsageRecorder(e.db, 20*time.Millisecond, quiet)
	recA.Start()
	recB.Start()
	inA, inB := e.usageInstance(recA), e.usageInstance(recB)
	_, p := e.adminKey(inA, "P", allPerms...)
	u := e.user(inA, p, "u")
	credID, key := e.credential(inA, p, u, `,"rate_limit_per_minute":40`)
	srvA, srvB := httptest.NewServer(inA.srv.Handler()), httptest.NewServer(inB.srv.Handler())
	defer srvB.Close()

	var (
		mu       sync.Mutex
		received = map[int]int64{} // status class (2, 4, 5) → responses
		stopped  atomic.Bool       // A is gone: send to B only
		stopLoad = make(chan struct{})
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 5 * time.Second}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stopLoad:
					return
				default:
				}
				base := srvB.URL
				if (w+i)%2 == 0 && !stopped.Load() {
					base = srvA.URL
				}
				path := "/v1/test/whoami"
				if i%5 == 0 {
					path = "/v1/test/chain" // 503: no chain database served
				}
				req, _ := http.NewRequest("GET", base+path, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				resp, err := client.Do(req)
				if err != nil {
					continue // no answer: not received, must not be counted
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				received[resp.StatusCode/100]++
				mu.Unlock()
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	// Instance A: SIGTERM. Drain HTTP, then the final flush, whose context
	// the drain has used up.
	stopped.Store(true)
	// As serve drains: a graceful Shutdown finishes every request it has
	// read and writes its response. (httptest's Close alone cuts
	// connections, so a response the server counted could be lost on the
	// wire: a count the client never saw, off by one under load.)
	drainCtx, drainCancel := context.WithTimeout(context.Background(), 10*time.Second)
	if err := srvA.Config.Shutdown(drainCtx); err != nil {
		t.Fatal(err)
	}
	drainCancel()
	srvA.Close()
	exhausted, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-exhausted.Done()
	if err := recA.Close(exhausted); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	close(stopLoad)
	wg.Wait()
	if err := recB.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	var got struct{ Total, OK, Failed int64 }
	if err := e.db.Get(&got, `SELECT COALESCE(sum(total_requests), 0) AS total, COALESCE(sum(successful_requests), 0) AS ok,
	  COALESCE(sum(failed_requests), 0) AS failed FROM syncgate.usage_hourly WHERE credential_id = $1`, credID); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("received %v; usage %+v", received, got)
	if received[2] == 0 || received[4] == 0 || received[5] == 0 {
		t.Fatalf("load lacks a status class: %v", received)
	}
	if got.OK != received[2] || got.Failed != received[4]+received[5] || got.Total != received[2]+received[4]+received[5] {
		t.Fatalf("usage %+v, client received %v", got, received)
	}
}

// TestAuthFailureLimitExact: exactly AUTH_FAILURES_PER_MINUTE unknown keys
// of one client IP are answered 401 and every later one 429, for data and
// admin keys alike, one at a time and all at once, across two instances.
func TestAuthFailureLimitExact(t *testing.T) {
	e := newAdminEnv(t)
	const budget = 30
	e.cfg.AuthFailuresPerMinute = budget
	// A hot path whose Redis deadline is missed all the time (as under
	// load) must not let the failures fall back to per-instance budgets.
	e.fastTimeout = time.Millisecond
	a, b := e.instance(), e.instance()
	for _, tc := range []struct {
		name, path, prefix, ip string
		concurrent             bool
	}{
		{"data keys, in turn", "/v1/test/whoami", "sgk1_", "203.0.113.70:1", false},
		{"admin keys, in turn", "/v1/admin/users", "sga1_", "203.0.113.71:1", false},
		{"data keys, at once", "/v1/test/whoami", "sgk1_", "203.0.113.72:1", true},
		{"admin keys, at once", "/v1/admin/users", "sga1_", "203.0.113.73:1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 100
			codes := make([]int, n)
			one := func(i int) {
				in := a
				if i%2 == 1 {
					in = b
				}
				key := tc.prefix + strings.Repeat("d", 40) + fmt.Sprintf("%08d", i)
				codes[i] = in.callFrom(t, tc.ip, "", tc.path, key).Code
			}
			if tc.concurrent {
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() { defer wg.Done(); one(i) }()
				}
				wg.Wait()
			} else {
				for i := range n {
					one(i)
				}
			}
			count := map[int]int{}
			for _, c := range codes {
				count[c]++
			}
			if count[401] != budget || count[429] != n-budget {
				t.Fatalf("statuses %v, want %d × 401 and %d × 429", count, budget, n-budget)
			}
			if !tc.concurrent {
				for i, c := range codes {
					if want := map[bool]int{true: 401, false: 429}[i < budget]; c != want {
						t.Fatalf("request %d: %d, want %d", i, c, want)
					}
				}
			}
		})
	}
}

// TestRateLimitFallbackShared: two instances whose hot-path Redis deadline
// is always missed decide alone, and together grant one credential's
// budget, not a budget each: each spends its share (budget /
// RATE_LIMIT_INSTANCES).
func TestRateLimitFallbackShared(t *testing.T) {
	e := newAdminEnv(t)
	e.fastTimeout = time.Nanosecond // every hot-path call misses its deadline
	e.rateInstances = 2
	const budget = 60
	a, b := e.instance(), e.instance()
	_, p := e.adminKey(a, "P", allPerms...)
	u := e.user(a, p, "u")
	_, key := e.credential(a, p, u, `,"rate_limit_per_minute":`+strconv.Itoa(budget))
	count := map[int]int{}
	for i := range 4 * budget {
		in := a
		if i%2 == 1 {
			in = b
		}
		w := in.callFrom(t, "203.0.113.80:1", "", "/v1/test/whoami", key)
		count[w.Code]++
		if w.Code == 200 && w.Header().Get("X-RateLimit-Limit") != strconv.Itoa(budget) {
			t.Fatalf("X-RateLimit-Limit %q", w.Header().Get("X-RateLimit-Limit"))
		}
	}
	if count[200] != budget || count[429] != 3*budget {
		t.Fatalf("statuses %v, want %d × 200 and %d × 429 across both instances", count, budget, 3*budget)
	}
	if a.fast.Available() || b.fast.Available() {
		t.Fatal("a deadline was met: the test did not run the fallback")
	}
}
