package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
)

// TestEndToEndCredentialOnChainData walks the product's main path with no
// test doubles: a partner's admin key creates a user and a mainnet API
// key through the admin API; the key reads chain data from a seeded
// db-sync; a preprod key on a mainnet-only deployment gets the DECISIONS
// 503; revoking the key stops it on the next request; the usage endpoint
// counts what was served.
func TestEndToEndCredentialOnChainData(t *testing.T) {
	chain := seededChains(t)[0]
	env := newAdminEnv(t)
	in := env.instance()
	rec := admin.NewUsageRecorder(env.db, time.Hour, quiet) // flushed by the test
	srv := New(Deps{
		Config:      config.Config{StatementTimeout: 10 * time.Second},
		Networks:    map[string]*dbsync.DB{"mainnet": chain.db},
		Redis:       env.redis,
		Credentials: in.auth,
		Admin:       in.store,
		Limiter:     cache.NewLimiter(in.fast, env.clock.Now),
		Usage:       rec,
		Now:         env.clock.Now,
		Log:         quiet,
	})
	data := &instance{srv: srv, store: in.store, auth: in.auth, fast: in.fast}

	_, partner := env.adminKey(in, "partner", allPerms...)
	userID := env.user(in, partner, "alice")
	credID, apiKey := env.credential(in, partner, userID, "")
	_, preprodKey := env.credential(in, partner, userID, `,"name":"pp","network_id":2`)

	whale := chain.manifest.Whale.Address
	r := data.call(t, "GET", "/v1/assets/balance/address/"+whale, apiKey, "").want(t, 200, "")
	var bal struct {
		Lovelace json.Number `json:"lovelace"`
	}
	r.into(t, &bal)
	var want string
	if err := chain.raw.Get(&want, `SELECT COALESCE(SUM(o.value), 0)::text FROM tx_out o
		WHERE o.address = $1 AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`, whale); err != nil {
		t.Fatal(err)
	}
	if bal.Lovelace.String() != want {
		t.Fatalf("whale balance through a real credential = %s, direct SQL %s", bal.Lovelace, want)
	}
	if r.Header.Get("X-RateLimit-Limit") != "60" || r.Header.Get("X-RateLimit-Remaining") != "59" {
		t.Errorf("rate-limit headers %q/%q, want 60/59", r.Header.Get("X-RateLimit-Limit"), r.Header.Get("X-RateLimit-Remaining"))
	}
	data.call(t, "GET", "/v1/tx/hash/"+chain.manifest.Txs.Ordinary.Hash, apiKey, "").want(t, 200, "")
	data.call(t, "GET", "/v1/tx/hash/zz", apiKey, "").want(t, 400, "Invalid transaction hash format (expected 64 hex characters)")
	data.call(t, "GET", "/v1/utxos/address/"+whale, preprodKey, "").want(t, 503, "Network preprod is not served by this deployment")

	in.call(t, "DELETE", "/v1/admin/credentials/"+credID, partner, "").want(t, 200, "")
	data.call(t, "GET", "/v1/utxos/address/"+whale, apiKey, "").want(t, 401, "API key has been revoked")

	// Three counted requests for the revoked key (200, 200, 400); the 401
	// after revocation is not an authenticated request.
	if err := rec.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	r = in.call(t, "GET", "/v1/admin/usage/"+credID, partner, "").want(t, 200, "")
	var u struct {
		Summary struct {
			Total  int `json:"total_requests"`
			OK     int `json:"successful_requests"`
			Failed int `json:"failed_requests"`
		} `json:"summary"`
	}
	r.into(t, &u)
	if u.Summary.Total != 3 || u.Summary.OK != 2 || u.Summary.Failed != 1 {
		t.Errorf("usage %+v, want 3 total, 2 ok, 1 failed", u.Summary)
	}
}

// TestHealthReportsTipLagAndRedis checks /v1/health against a seeded chain.
func TestHealthReportsTipLagAndRedis(t *testing.T) {
	chain := seededChains(t)[0]
	tip := chain.manifest.Tip
	get := func(s *Server) (int, healthData) {
		w := httptest.NewRecorder()
		serveChecked(t, s.Handler(), w, httptest.NewRequest("GET", "/v1/health", nil))
		var b struct {
			Success bool       `json:"success"`
			Data    healthData `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil || !b.Success {
			t.Fatalf("health body %s", w.Body)
		}
		return w.Code, b.Data
	}
	at := func(d time.Duration) func() time.Time { return func() time.Time { return tip.Time.Add(d) } }
	cfg := config.Config{MaxTipLag: 10 * time.Minute}
	nets := map[string]*dbsync.DB{"mainnet": chain.db}

	code, h := get(New(Deps{Config: cfg, Networks: nets, Redis: testRedis(t), Now: at(30 * time.Second), Log: quiet}))
	n := h.Networks["mainnet"]
	if code != http.StatusOK || h.Status != "healthy" || h.Redis != "ok" || n.TipSlot == nil || uint64(*n.TipSlot) != tip.Slot || *n.LagSeconds != 30 || n.Layout != "core" {
		t.Errorf("fresh tip: %d %+v %+v", code, h, n)
	}
	if _, h = get(New(Deps{Config: cfg, Networks: nets, Redis: testRedis(t), Now: at(time.Hour), Log: quiet})); h.Status != "degraded" {
		t.Errorf("an hour behind: status %q, want degraded", h.Status)
	}
	down, err := cache.New("redis://127.0.0.1:1/0", "x:")
	if err != nil {
		t.Fatal(err)
	}
	if _, h = get(New(Deps{Config: cfg, Networks: nets, Redis: down, Now: at(time.Second), Log: quiet})); h.Status != "degraded" || h.Redis != "unavailable" {
		t.Errorf("redis down: %+v", h)
	}
	// A chain database that disappears: unhealthy, HTTP 503, so a load
	// balancer drains the instance.
	gone, drop := emptyChain(t, "sg_test_health")
	drop()
	code, h = get(New(Deps{Config: cfg, Networks: map[string]*dbsync.DB{"mainnet": gone}, Now: at(time.Second), Log: quiet}))
	if code != http.StatusServiceUnavailable || h.Status != "unhealthy" || h.Networks["mainnet"].Error != "unavailable" {
		t.Errorf("database gone: %d %+v", code, h)
	}
}

// TestAdminDatabaseDownIs503 checks that losing the admin database is
// answered as a dependency outage (503), never as our bug (500), on both
// admin and data routes.
func TestAdminDatabaseDownIs503(t *testing.T) {
	dead, err := sqlx.Open("postgres", "postgres://postgres@127.0.0.1:1/nothing?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	authn := auth.New(auth.Options{DB: dead, Log: quiet})
	defer authn.Close()
	store := admin.NewStore(dead, admin.Options{BootstrapAdminKey: testBootstrapKey, Invalidator: authn, Log: quiet})
	defer store.Close()
	srv := New(Deps{Credentials: authn, Admin: store, Log: quiet})
	in := &instance{srv: srv, store: store, auth: authn}
	in.call(t, "GET", "/v1/admin/users", "sga1_"+strings.Repeat("a", 48), "").want(t, 503, "Service temporarily unavailable")
	in.call(t, "GET", "/v1/utxos/address/x", "sgk1_"+strings.Repeat("b", 48), "").want(t, 503, "Service temporarily unavailable")
}
