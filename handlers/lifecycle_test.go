package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
)

// probe GETs an unauthenticated path, checked against the OpenAPI document.
func probe(t *testing.T, s *Server, path string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	serveChecked(t, s.Handler(), w, httptest.NewRequest(http.MethodGet, path, nil))
	var b struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("%s: %s", path, w.Body)
	}
	return w, b.Data
}

// TestLivezReadyz: /livez always answers; /readyz is 200 only with the
// admin database ready and a network serving, and turns 503 at once when
// the instance drains, when every response also closes its connection.
func TestLivezReadyz(t *testing.T) {
	var adminErr atomic.Pointer[error]
	var draining atomic.Bool
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Log: quietLog,
		Draining: draining.Load,
		AdminCheck: func(context.Context) error {
			if e := adminErr.Load(); e != nil {
				return *e
			}
			return nil
		}})
	ready := func(wantCode int, want map[string]any) {
		t.Helper()
		w, d := probe(t, s, "/readyz")
		got, _ := json.Marshal(d)
		exp, _ := json.Marshal(want)
		if w.Code != wantCode || string(got) != string(exp) {
			t.Errorf("/readyz: %d %s; want %d %s", w.Code, got, wantCode, exp)
		}
	}
	if w, d := probe(t, s, "/livez"); w.Code != http.StatusOK || d["status"] != "ok" {
		t.Errorf("/livez: %d %v", w.Code, d)
	}
	ready(200, map[string]any{"status": "ready", "admin_database": "ok", "networks": map[string]any{"mainnet": "ok"}})
	down := errors.New("admin database unreachable")
	adminErr.Store(&down)
	ready(503, map[string]any{"status": "not_ready", "admin_database": "unavailable", "networks": map[string]any{"mainnet": "ok"}})
	adminErr.Store(nil)

	draining.Store(true)
	ready(503, map[string]any{"status": "draining", "admin_database": "ok", "networks": map[string]any{"mainnet": "ok"}})
	for _, path := range []string{"/livez", "/readyz", "/v1/health"} {
		if w, _ := probe(t, s, path); w.Header().Get("Connection") != "close" {
			t.Errorf("%s while draining: Connection %q", path, w.Header().Get("Connection"))
		}
	}
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/v1/epochs/latest", nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	serveChecked(t, s.Handler(), w, req)
	if w.Code != http.StatusOK || w.Header().Get("Connection") != "close" {
		t.Errorf("data route while draining: %d, Connection %q", w.Code, w.Header().Get("Connection"))
	}
	draining.Store(false)
	if w, _ := probe(t, s, "/livez"); w.Header().Get("Connection") != "" {
		t.Errorf("not draining: Connection %q", w.Header().Get("Connection"))
	}

	// A network whose db-sync never came up is not a serving one.
	gone, drop := emptyChain(t, "sg_test_ready_gone")
	drop()
	waitOut(t, gone)
	s = New(Deps{Networks: map[string]*dbsync.DB{"mainnet": gone}, Log: quietLog})
	ready(503, map[string]any{"status": "not_ready", "admin_database": "unchecked", "networks": map[string]any{"mainnet": "unavailable"}})
}

// waitOut waits until db's primary has left rotation.
func waitOut(t *testing.T, db *dbsync.DB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); db.Serving(); {
		if time.Now().After(deadline) {
			t.Fatal("the primary stayed in rotation")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestInFlightBound: beyond MAX_IN_FLIGHT requests in progress, the next
// is answered 503 at once with Retry-After; probes still answer.
func TestInFlightBound(t *testing.T) {
	smp := testSamples(t)
	db := gatedChain(t, 1, 0)
	release := holdGate(t, db)
	cfg := config.Config{}
	cfg.MaxInFlight = 2
	s := New(Deps{Config: cfg, Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Log: quietLog})
	var wg sync.WaitGroup
	for range 2 { // both wait at the gate, in flight
		wg.Go(func() {
			if r := get(t, s, "/v1/utxos/address/"+smp.Small); r.Status != http.StatusOK {
				t.Errorf("request in flight: %d %s", r.Status, r.Raw)
			}
		})
	}
	waitQueued(t, db, 2)
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/v1/utxos/address/"+smp.Small, nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	start := time.Now()
	s.Handler().ServeHTTP(w, req)
	// Refused at arrival, not queued: the two in flight hold the gate
	// until release() below. The bound, a second, is far above a refusal
	// even on a loaded machine.
	took := time.Since(start) // the answer only: the schema check below may load the document
	checkResponse(t, req, nil, w)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" || took >= time.Second ||
		!json.Valid(w.Body.Bytes()) || errorOf(w) != "Service temporarily unavailable" {
		t.Errorf("third request: %d Retry-After %q after %s: %s", w.Code, w.Header().Get("Retry-After"), took, w.Body)
	}
	if w, _ := probe(t, s, "/livez"); w.Code != http.StatusOK {
		t.Errorf("/livez with the instance full: %d", w.Code)
	}
	release()
	wg.Wait()
}

// TestGateShedsWhenItsQueueIsFull: a db-sync server whose gate queue is
// full answers the next request 503 at once, with Retry-After. (Pages not
// asked for before: concurrent requests for a first page, or a page asked
// for again, share one read through the page cache, so the second would
// wait for the first instead.)
func TestGateShedsWhenItsQueueIsFull(t *testing.T) {
	smp := testSamples(t)
	db := gatedChain(t, 1, 1)
	release := holdGate(t, db)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Log: quietLog})
	var wg sync.WaitGroup
	wg.Go(func() {
		if r := get(t, s, "/v1/tx/history/"+smp.Small+"?offset=1"); r.Status != http.StatusOK {
			t.Errorf("queued request: %d %s", r.Status, r.Raw)
		}
	})
	waitQueued(t, db, 1)
	start := time.Now()
	r := get(t, s, "/v1/tx/history/"+smp.Small+"?offset=2") // another page: one asked again is cached
	// At once, not queued: the gate is held until release() below. The
	// bound, a second, is far above a refusal even on a loaded machine.
	if took := time.Since(start); r.Status != http.StatusServiceUnavailable || r.Error != "Service temporarily unavailable" || took >= time.Second {
		t.Errorf("beyond the queue: %d %q after %s", r.Status, r.Error, took)
	}
	release()
	wg.Wait()
}

func errorOf(w *httptest.ResponseRecorder) string {
	var b struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &b)
	return b.Error
}

// gatedChain opens the core test chain anew with its own gate (active
// requests at a time, queue bound), closed when the test ends.
func gatedChain(t *testing.T, active, queue int) *dbsync.DB {
	t.Helper()
	db, err := dbsync.Open(t.Context(), config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: seededChains(t)[0].dsn}, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	// Wait until the primary is in rotation: Open returns before its first
	// probe has admitted it ("not reached yet").
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := db.ReadTx(t.Context(), func(*dbsync.Snapshot) error { return nil })
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the test chain never served: %v", err)
		}
	}
	db.SetMaxQueue(queue)
	db.SetMaxActive(active)
	return db
}

// holdGate takes db's only gate slot until the returned func is called.
func holdGate(t *testing.T, db *dbsync.DB) (release func()) {
	t.Helper()
	held, end, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- db.ReadTx(t.Context(), func(*dbsync.Snapshot) error {
			close(held)
			<-end
			return nil
		})
	}()
	select {
	case <-held:
	case err := <-done: // never admitted: httpx.Fail, don't wait forever
		t.Fatalf("holding the gate: the read ended before it was admitted: %v", err)
	}
	return func() {
		close(end)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// waitQueued waits until n requests wait at db's primary gate.
func waitQueued(t *testing.T, db *dbsync.DB, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); db.Queued() < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests queued, want %d", db.Queued(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
