package handlers

import (
	"context"
	"encoding/json"
	"github.com/syncgate/syncgate/internal/cardano"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestChainFailuresAnswered sends data requests into the three ways the
// chain database can httpx.Fail a request and checks the spec's status and
// message for each: a statement past statement_timeout (504), a db-sync
// without blocks and a database that has gone (503), and a client that
// leaves before the answer (499, not a 500).
func TestChainFailuresAnswered(t *testing.T) {
	smp := testSamples(t)
	c := seededChains(t)[0]

	// 504: tx_out is locked by another session, the statement waits past
	// its 1 s statement_timeout and PostgreSQL cancels it. (Opening runs
	// capability detection under the same timeout: a much shorter one failed
	// it on a loaded machine.)
	slow, err := dbsync.Open(t.Context(), config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: c.dsn}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	lock, err := c.raw.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(`LOCK TABLE tx_out IN ACCESS EXCLUSIVE MODE`); err != nil {
		lock.Rollback() //nolint:errcheck
		t.Fatal(err)
	}
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": slow}, Credentials: testCredentials, Log: quietLog})
	cred := c.manifest.Credentials.Payment.Hex
	for _, path := range []string{"/v1/utxos/address/" + smp.Small, "/v1/assets/balance/address/" + smp.Small, "/v1/tx/history/" + smp.Small,
		"/v1/utxos/credential/" + cred, "/v1/assets/balance/credential/" + cred} {
		if r := get(t, s, path); r.Status != http.StatusGatewayTimeout || r.Error != "Query timed out" {
			t.Errorf("GET %s with tx_out locked: %d %q", path, r.Status, r.Error)
		}
	}
	lock.Rollback() //nolint:errcheck
	if r := get(t, s, "/v1/utxos/address/"+smp.Small); r.Status != http.StatusOK {
		t.Errorf("after the lock: %d %s", r.Status, r.Raw)
	}

	// 503: a db-sync schema without a block yet, then the database gone.
	gone, drop := emptyChain(t, "sg_test_chain_gone")
	s = New(Deps{Networks: map[string]*dbsync.DB{"mainnet": gone}, Credentials: testCredentials, Log: quietLog})
	for _, path := range []string{"/v1/tx/history/" + smp.Small, "/v1/assets/" + c.manifest.Assets.CIP25V1.Unit, "/v1/epochs/latest"} {
		if r := get(t, s, path); r.Status != http.StatusServiceUnavailable || r.Error != "Chain database unavailable" {
			t.Errorf("GET %s on a chain without blocks: %d %q", path, r.Status, r.Error)
		}
	}
	drop()
	for _, path := range []string{"/v1/utxos/address/" + smp.Small, "/v1/tx/hash/" + smp.FailedTx} {
		if r := get(t, s, path); r.Status != http.StatusServiceUnavailable || r.Error != "Chain database unavailable" {
			t.Errorf("GET %s, database gone: %d %q", path, r.Status, r.Error)
		}
	}

	// 499: the client has already gone when the handler reaches the database.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v1/utxos/address/"+smp.Small, nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	chainServer(t, c).Handler().ServeHTTP(w, req)
	if w.Code != 499 {
		t.Errorf("client gone: %d %s; want 499", w.Code, w.Body.Bytes())
	}
}

// TestHealthOneNetworkHangs: networks are probed at once, so one chain
// database that hangs costs the probe timeout once and the other network
// still reads as up; without Redis configured the instance is healthy.
func TestHealthOneNetworkHangs(t *testing.T) {
	hung, ok := seededChains(t)[0], seededChains(t)[1]
	health := func(s *Server) (int, healthData) {
		w := httptest.NewRecorder()
		serveChecked(t, s.Handler(), w, httptest.NewRequest(http.MethodGet, "/v1/health", nil))
		var b struct {
			Data healthData `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
			t.Fatalf("health body %s", w.Body)
		}
		return w.Code, b.Data
	}
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": hung.db, "preprod": ok.db}, Log: quietLog})

	lock, err := hung.raw.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(`LOCK TABLE block IN ACCESS EXCLUSIVE MODE`); err != nil {
		lock.Rollback() //nolint:errcheck
		t.Fatal(err)
	}
	start := time.Now()
	code, h := health(s)
	took := time.Since(start)
	lock.Rollback() //nolint:errcheck
	if code != http.StatusServiceUnavailable || h.Networks["mainnet"].Error != "unavailable" {
		t.Errorf("hung network: %d %+v", code, h)
	}
	if p := h.Networks["preprod"]; p.Error != "" || p.TipSlot == nil || *p.TipSlot != int64(ok.manifest.Tip.Slot) {
		t.Errorf("the other network was reported down or without its tip: %+v", p)
	}
	if took > healthProbeTimeout+time.Second {
		t.Errorf("health took %s", took)
	}

	code, h = health(s)
	if code != http.StatusOK || h.Status != "healthy" || h.Redis != "unavailable" {
		t.Errorf("no Redis configured, both networks up: %d %+v", code, h)
	}
}

// emptyChain opens a db-sync database that has the schema but no block yet;
// drop removes the database under it (the DB is closed when t ends).
func emptyChain(t *testing.T, prefix string) (db *dbsync.DB, drop func()) {
	t.Helper()
	dsn, drop, err := testdb.Create(prefix)
	if err != nil {
		t.Fatal(err)
	}
	if err := chaingen.CreateSchema(t.Context(), testdb.Open(t, dsn).DB); err != nil {
		drop()
		t.Fatal(err)
	}
	db, err = dbsync.Open(t.Context(), config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: dsn}, time.Second)
	if err != nil {
		drop()
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db, drop
}
