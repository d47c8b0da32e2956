package handlers

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// The administration tests run against a real, freshly migrated admin
// database and the real Redis. Each top-level test gets its own database;
// "instances" are independent servers (own store, credential cache and
// hot-path Redis pool) over that database, as twenty replicas would be.

const testBootstrapKey = "bootstrap-key-for-tests-0123456789abcdef"

// testClock is a settable clock shared by an environment's instances.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type adminEnv struct {
	t     testing.TB
	db    *sqlx.DB
	redis *cache.Client
	clock *testClock
	// Set before starting instances: their security-event bounds, admin
	// rate limit, log (nil: quiet) and configuration (zero: defaults; the
	// admin rate limit above overrides its field).
	secOpts   admin.SecurityEventOptions
	adminRate int
	log       *slog.Logger
	cfg       config.Config
	// fastTimeout overrides the hot-path Redis deadline (50 ms), for tests
	// whose cross-instance assertions must not fall back under CPU load.
	fastTimeout time.Duration
	// rateInstances sizes the instances' limiters and quota fallbacks as
	// RATE_LIMIT_INSTANCES does (0: the default, cache.DefaultInstances).
	rateInstances int
	// quotaRefresh: how often a quota counted without Redis is read again
	// from usage (0: quota.DefaultLocalRefresh).
	quotaRefresh time.Duration
	// listen makes instances LISTEN for invalidations on the admin
	// database, as serve does (one connection each, so off by default).
	listen bool
	dsn    string
}

type instance struct {
	srv   *Server
	store *admin.Store
	auth  *auth.Authenticator
	fast  *cache.FastClient
}

func newAdminEnv(t testing.TB) *adminEnv {
	t.Helper()
	requireServices(t)
	dsn := testdb.New(t, "sg_test_handlers_admin")
	db := testdb.Open(t, dsn)
	// As serve does: a flood of concurrent requests waits for one of 16
	// connections instead of opening a connection each and, with the
	// other test packages connected too, running into max_connections.
	db.SetMaxOpenConns(16)
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return &adminEnv{t: t, db: db, dsn: dsn, redis: testRedis(t), clock: &testClock{t: time.Now()}}
}

// instance starts a server over the environment's database and Redis (rc
// overrides Redis, e.g. with one that is down).
func (e *adminEnv) instance(rc ...*cache.Client) *instance {
	e.t.Helper()
	r := e.redis
	if len(rc) > 0 {
		r = rc[0]
	}
	return e.newInstance(r, nil)
}

// usageInstance starts a server that counts data requests with rec.
func (e *adminEnv) usageInstance(rec UsageRecorder) *instance {
	e.t.Helper()
	return e.newInstance(e.redis, rec)
}

func (e *adminEnv) newInstance(r *cache.Client, usage UsageRecorder) *instance {
	e.t.Helper()
	fast := cache.NewFastClient(r, cache.FastOptions{Now: e.clock.Now, Timeout: e.fastTimeout})
	log := e.log
	if log == nil {
		log = quiet
	}
	var listen string
	if e.listen {
		listen = e.dsn
	}
	authn := auth.New(auth.Options{
		DB: e.db, Redis: fast, ListenURL: listen, Now: e.clock.Now, Log: log,
		RetryInterval: time.Hour, // failed invalidation announcements are retried on Close only
	})
	store := admin.NewStore(e.db, admin.Options{
		BootstrapAdminKey: testBootstrapKey, Invalidator: authn, Now: e.clock.Now, Log: log,
		SecurityEvents: e.secOpts,
	})
	e.t.Cleanup(func() { store.Close(); authn.Close(); fast.Close() })
	cfg := e.cfg
	if e.adminRate != 0 {
		cfg.AdminRateLimitPerMinute = e.adminRate
	}
	// Failed authentications are counted through a pool of their own, as serve does.
	authFailFast := cache.NewFastClient(r, cache.FastOptions{Now: e.clock.Now, Timeout: cache.AuthFailureTimeout})
	e.t.Cleanup(func() { authFailFast.Close() })
	qo := quota.Options{Counter: cache.NewQuotaCounter(fast), Usage: store, Now: e.clock.Now, Log: log,
		Instances: e.rateInstances, LocalRefresh: e.quotaRefresh}
	if u, ok := usage.(quota.Unflushed); ok {
		qo.Recorder = u
	}
	limiter := cache.NewLimiter(fast, e.clock.Now)
	if e.rateInstances > 0 {
		limiter.ForInstances(e.rateInstances)
	}
	srv := New(Deps{Config: cfg, Credentials: authn, Admin: store, Limiter: limiter,
		AuthFailures: cache.NewLimiter(authFailFast, e.clock.Now), Usage: usage, Quota: quota.New(qo), Now: e.clock.Now, Log: log})
	// A data route that needs nothing but authentication, and one that asks
	// for the caller's chain database (none is served in these tests).
	srv.engine.GET("/v1/test/whoami", append(srv.dataMiddleware(), httpx.H(func(c *gin.Context) error {
		caller, _ := callerOf(c)
		httpx.OK(c, gin.H{"credential_id": caller.CredentialID, "network_id": caller.NetworkID})
		return nil
	}))...)
	srv.engine.GET("/v1/test/chain", append(srv.dataMiddleware(), httpx.H(func(c *gin.Context) error {
		_, err := srv.chainDB(c)
		return err
	}))...)
	return &instance{srv: srv, store: store, auth: authn, fast: fast}
}

// reply is a decoded response.
type reply struct {
	Code       int
	Header     http.Header
	Raw        string
	Success    bool                       `json:"success"`
	Data       json.RawMessage            `json:"data"`
	Message    string                     `json:"message"`
	Error      string                     `json:"error"`
	Pagination map[string]json.RawMessage `json:"pagination"`
}

// call sends a request with an optional bearer key and JSON body.
func (in *instance) call(t testing.TB, method, path, key, body string) reply {
	t.Helper()
	auth := ""
	if key != "" {
		auth = "Bearer " + key
	}
	return in.callHeader(t, method, path, auth, body)
}

// callHeader sends a request with a raw Authorization header.
func (in *instance) callHeader(t testing.TB, method, path, authorization, body string) reply {
	t.Helper()
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	req.RemoteAddr = "203.0.113.7:4242"
	w := httptest.NewRecorder()
	serveChecked(t, in.srv.Handler(), w, req)
	r := reply{Code: w.Code, Header: w.Header(), Raw: w.Body.String()}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s %s: body is not JSON: %q", method, path, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json;charset=utf-8" {
		t.Fatalf("%s %s: Content-Type %q", method, path, ct)
	}
	return r
}

// want fails unless the reply has the status and, for errors, the exact message.
func (r reply) want(t testing.TB, status int, errMsg string) reply {
	t.Helper()
	if r.Code != status || r.Error != errMsg || r.Success != (errMsg == "") {
		t.Fatalf("got %d %s\nwant %d error %q", r.Code, r.Raw, status, errMsg)
	}
	return r
}

// into decodes data into v.
func (r reply) into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("data %s: %v", r.Data, err)
	}
}

// fields returns data's object keys (to check exact field sets).
func (r reply) fields(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	r.into(t, &m)
	return m
}

// page returns the pagination numbers and whether hasMore is present.
func (r reply) page(t *testing.T) (limit, offset, total int, hasMore *bool) {
	t.Helper()
	get := func(k string) int {
		var n int
		if err := json.Unmarshal(r.Pagination[k], &n); err != nil {
			t.Fatalf("pagination %s in %s: %v", k, r.Raw, err)
		}
		return n
	}
	if raw, ok := r.Pagination["hasMore"]; ok {
		var b bool
		_ = json.Unmarshal(raw, &b)
		hasMore = &b
	}
	return get("limit"), get("offset"), get("total"), hasMore
}

// snapshot fingerprints every admin table, so a test can prove that a
// refused request wrote nothing (not even an audit entry).
func (e *adminEnv) snapshot() string {
	e.t.Helper()
	var out []string
	for _, table := range []string{"admin_keys", "user_accounts", "credentials", "audit_logs", "plans"} {
		var s string
		err := e.db.Get(&s, `SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t.id)), '') FROM syncgate.`+table+` t`)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, table+"="+s)
	}
	return strings.Join(out, " ")
}

// unchanged runs fn and fails if any admin table changed.
func (e *adminEnv) unchanged(t *testing.T, fn func()) {
	t.Helper()
	before := e.snapshot()
	fn()
	if after := e.snapshot(); after != before {
		t.Fatalf("database changed:\nbefore %s\nafter  %s", before, after)
	}
}

// adminKey creates an admin key through the API with the bootstrap key.
func (e *adminEnv) adminKey(in *instance, name string, perms ...string) (id, key string) {
	e.t.Helper()
	pj, _ := json.Marshal(perms)
	if perms == nil {
		pj = []byte("[]")
	}
	r := in.call(e.t, "POST", "/v1/admin/keys", testBootstrapKey, `{"admin_entity_name":"`+name+`","permissions":`+string(pj)+`}`).want(e.t, 201, "")
	var d struct {
		AdminKey struct {
			ID string `json:"id"`
		} `json:"admin_key"`
		Key string `json:"key"`
	}
	r.into(e.t, &d)
	return d.AdminKey.ID, d.Key
}

// user creates a user account for the admin key.
func (e *adminEnv) user(in *instance, key, name string) string {
	e.t.Helper()
	r := in.call(e.t, "POST", "/v1/admin/users", key, `{"name":"`+name+`"}`).want(e.t, 201, "")
	var d struct {
		ID string `json:"id"`
	}
	r.into(e.t, &d)
	return d.ID
}

// credential creates a credential for the user and returns its id and key.
func (e *adminEnv) credential(in *instance, key, userID, extra string) (id, apiKey string) {
	e.t.Helper()
	body := `{"name":"cred","user_account_id":"` + userID + `","network_id":0` + extra + `}`
	r := in.call(e.t, "POST", "/v1/admin/credentials", key, body).want(e.t, 201, "")
	var d struct {
		Credential struct {
			ID string `json:"id"`
		} `json:"credential"`
		APIKey string `json:"api_key"`
	}
	r.into(e.t, &d)
	return d.Credential.ID, d.APIKey
}

// quiet drops the access log (it would dominate the benchmark).
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var allPerms = []string{admin.PermManageUsers, admin.PermManageCredentials, admin.PermViewUsage, admin.PermViewAuditLogs}

// isoTime is how admin records write times (ISO 8601, UTC, milliseconds, Z).
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
