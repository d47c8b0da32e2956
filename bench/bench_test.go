package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/platform/metrics"
)

func TestPercentileMs(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1 // 1..100 ms
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   float64
	}{
		{"empty", nil, 0.99, 0},
		{"one sample", ms(7), 0.5, 7},
		{"one sample max", ms(7), 1, 7},
		{"median of two is the lower", ms(1, 2), 0.5, 1},
		{"p50 of 1..100", ms(hundred...), 0.50, 50},
		{"p95 of 1..100", ms(hundred...), 0.95, 95},
		{"p99 of 1..100", ms(hundred...), 0.99, 99},
		{"max of 1..100", ms(hundred...), 1, 100},
		{"p99 of 10 samples is the largest", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.99, 10},
		{"p90 of 10 samples", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.90, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentileMs(tt.sorted, tt.p); got != tt.want {
				t.Errorf("percentileMs(p=%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

// TestRunBounded: the driver stops at maxRequests, counts errors and keeps
// the first one.
func TestRunBounded(t *testing.T) {
	var calls atomic.Int64
	boom := errors.New("boom")
	res := run(t.Context(), "s", "raw", 4, time.Minute, 1000, func(ctx context.Context, r *rand.Rand) error {
		if calls.Add(1)%10 == 0 {
			return boom
		}
		return nil
	})
	if res.Requests != 1000 || calls.Load() != 1000 {
		t.Fatalf("requests = %d, calls = %d, want 1000 each", res.Requests, calls.Load())
	}
	if res.Errors != 100 || res.FirstError != "boom" {
		t.Errorf("errors = %d (%q), want 100 (boom)", res.Errors, res.FirstError)
	}
	if res.RPS <= 0 || res.P50ms > res.P99ms || res.P99ms > res.MaxMs {
		t.Errorf("summary out of order: %+v", res)
	}
}

// TestRunEndsWithoutDeadline: the calls' context carries no deadline (a
// raw call refuses to start near one: the run's last 250 ms were all
// instant failures) and is cancelled when the run ends, which cuts the
// calls then in flight.
func TestRunEndsWithoutDeadline(t *testing.T) {
	res := run(t.Context(), "s", "raw", 2, 300*time.Millisecond, 1_000_000, func(ctx context.Context, r *rand.Rand) error {
		if _, ok := ctx.Deadline(); ok {
			return errors.New("called with a deadline")
		}
		select {
		case <-time.After(5 * time.Millisecond):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	// Each worker is in a call nearly all the time, but one may be between
	// two calls when the run ends (seen under -race on a loaded box).
	if res.Errors != 0 || res.Requests == 0 || res.Incomplete < 1 || res.Incomplete > 2 {
		t.Fatalf("%+v: want requests, no errors, the calls in flight at the end (1 or 2) cut", res)
	}
}

// TestHTTPCaller: keys are taken in turn and a non-2xx answer is an error.
func TestHTTPCaller(t *testing.T) {
	seen := map[string]int{}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("Authorization")]++
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/missing") {
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte(`{"success":true}`))
	}))
	defer srv.Close()
	next := func(r *rand.Rand) Request { return Request{Method: "GET", Path: "/v1/ok"} }
	call := httpCaller(srv.Client(), srv.URL, []string{"a", "b", "c"}, next)
	res := run(t.Context(), "s", "gateway", 1, time.Minute, 30, call)
	if res.Requests != 30 || res.Errors != 0 {
		t.Fatalf("requests %d errors %d (%s)", res.Requests, res.Errors, res.FirstError)
	}
	for _, k := range []string{"Bearer a", "Bearer b", "Bearer c"} {
		if seen[k] != 10 {
			t.Errorf("%s used %d times, want 10 (%v)", k, seen[k], seen)
		}
	}
	// The Blockfrost dialect's paths send the key as its SDKs do.
	var projectIDs, bearers atomic.Int64
	bfSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("project_id") == "k" {
			projectIDs.Add(1)
		}
		if r.Header.Get("Authorization") != "" {
			bearers.Add(1)
		}
	}))
	defer bfSrv.Close()
	bfCall := httpCaller(bfSrv.Client(), bfSrv.URL, []string{"k"}, func(r *rand.Rand) Request { return Request{Method: "GET", Path: "/api/v0/txs/ab"} })
	if res := run(t.Context(), "s", "gateway", 1, time.Minute, 4, bfCall); res.Errors != 0 || projectIDs.Load() != 4 || bearers.Load() != 0 {
		t.Errorf("/api/v0: %d project_id headers and %d Authorization of 4 requests (%s)", projectIDs.Load(), bearers.Load(), res.FirstError)
	}
	missing := httpCaller(srv.Client(), srv.URL, []string{"a"}, func(r *rand.Rand) Request { return Request{Method: "GET", Path: "/v1/missing"} })
	res = run(t.Context(), "s", "gateway", 1, time.Minute, 3, missing)
	if res.Errors != 3 || !strings.Contains(res.FirstError, "Not Found on /v1/missing") {
		t.Errorf("errors %d (%q), want 3 Not Found", res.Errors, res.FirstError)
	}
}

// TestFirstByte: an HTTP call records when the answer's first bytes came,
// before its body has been read whole.
func TestFirstByte(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"success":true,"data":[`))
		w.(http.Flusher).Flush()
		time.Sleep(100 * time.Millisecond)
		_, _ = w.Write([]byte(`]}`))
	}))
	defer srv.Close()
	call := httpCaller(srv.Client(), srv.URL, []string{"a"}, func(r *rand.Rand) Request { return Request{Method: "GET", Path: "/v1/slow"} })
	res := run(t.Context(), "s", "gateway", 2, time.Minute, 4, call)
	if res.Errors != 0 || res.FirstByteP50ms <= 0 || res.FirstByteP99ms >= res.P50ms || res.P50ms < 100 {
		t.Fatalf("first byte p50 %.1f / p99 %.1f ms, whole answer p50 %.1f ms: want the first byte before the body's end", res.FirstByteP50ms, res.FirstByteP99ms, res.P50ms)
	}
	raw := run(t.Context(), "s", "raw", 1, time.Minute, 3, func(ctx context.Context, r *rand.Rand) error { return nil })
	if raw.FirstByteP99ms != 0 {
		t.Fatalf("a raw call has a first byte: %.1f ms", raw.FirstByteP99ms)
	}
	var b strings.Builder
	writeMarkdown(&b, nil, &report{Results: []Result{res}})
	if !strings.Contains(b.String(), "first byte p99 ms") {
		t.Fatalf("no first-byte column in\n%s", b.String())
	}
}

// TestBuildScenarios walks a small seeded chain as the bench does at start
// and runs every target of every scenario once through the store: each
// identifier the manifest and the walks give must be valid and found.
func TestBuildScenarios(t *testing.T) {
	testdb.RequirePostgres(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 20_000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	ctx := t.Context()
	adminURL := testdb.New(t, "sg_test_bench_admin")
	if _, err := admin.Migrate(ctx, testdb.Open(t, adminURL)); err != nil {
		t.Fatal(err)
	}
	raw, err := openRaw(ctx, dsn, adminURL, m.Network)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	// What the server's background refresher stores, for the pool runs.
	if _, err := raw.stats.Refresh(ctx, m.Network); err != nil {
		t.Fatal(err)
	}
	p, err := prepare(ctx, m, storePager(raw.db), 3, 64)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.WhaleCursors) == 0 || len(p.TxHashes) < 10 {
		t.Fatalf("prepared %d whale cursors and %d hashes", len(p.WhaleCursors), len(p.TxHashes))
	}
	for _, c := range p.WhaleCursors {
		if c.Address != m.Whale.Address || c.FromSlot <= 0 || c.FromSlot > int64(m.Tip.Slot) {
			t.Errorf("whale cursor %+v outside the chain (tip slot %d)", c, m.Tip.Slot)
		}
	}
	scenarios, skipped, err := buildScenarios(m, p, raw)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d scenarios; skipped on this small chain: %v", len(scenarios), skipped)
	names := map[string]bool{}
	for _, s := range scenarios {
		names[s.Name] = true
		// The dialect's scenarios are measured against /v1's, not raw.
		bf := strings.HasPrefix(s.Name, "bf_")
		if (s.Raw == nil) != bf || len(s.Paths) == 0 {
			t.Errorf("%s: raw function %v, %d paths", s.Name, s.Raw != nil, len(s.Paths))
		}
		prefix := map[bool]string{false: "/v1/", true: "/api/v0/"}[bf]
		for _, path := range s.Paths {
			if !strings.HasPrefix(path, prefix) || strings.Contains(path, "/tx/submit") {
				t.Errorf("%s: path %q", s.Name, path)
			}
		}
		if want, ok := bfRoutes[s.Name]; ok && !strings.HasPrefix(s.Paths[0], want) {
			t.Errorf("%s: path %q, want the route %s", s.Name, s.Paths[0], want)
		}
	}
	for name := range bfRoutes {
		if !names[name] {
			t.Errorf("no scenario %s", name)
		}
	}
	// The deep pages: page 1,000 of the whale at 100 a page, or its last;
	// /v1 at the same offset.
	deep := bfWhalePage(m)
	if deep < 1 || deep > bfDeepPage || (deep-1)*bfPageCount >= int(m.Whale.TxCount) {
		t.Errorf("deep page %d of a whale of %d transactions", deep, m.Whale.TxCount)
	}
	for name, want := range map[string]string{
		"bf_address_transactions_p1":    "?count=100&order=desc&page=1",
		"bf_address_transactions_p1000": fmt.Sprintf("?count=100&order=desc&page=%d", deep),
		"tx_history_whale_p1000":        fmt.Sprintf("?limit=100&offset=%d", (deep-1)*100),
	} {
		if got := scenarioPath(scenarios, name); !strings.HasSuffix(got, want) || !strings.Contains(got, m.Whale.Address) {
			t.Errorf("%s: path %q, want the whale's with %s", name, got, want)
		}
	}
	for _, want := range []string{"utxos_by_address", "utxos_by_stake", "balance_by_address", "balance_by_stake",
		"tx_history", "tx_history_whale_cursor", "tx_history_whale_offset", "tx_history_busy_slot",
		"tx_address", "tx_address_whale_cursor", "tx_hash", "asset_info_popular", "asset_info_rare",
		"pool_info_big", "pool_info", "pool_delegators_big", "pool_delegators", "pool_metadata", "pool_delegator_count",
		"pool_blocks", "utxos_by_credential", "balance_by_credential", "epoch_params_latest", "epoch_params", "tx_status", "tx_status_unknown"} {
		if !names[want] {
			t.Errorf("no scenario %s", want)
		}
	}
	// Every request of every mix succeeds once through the store.
	for _, s := range scenarios {
		if s.Raw == nil {
			continue
		}
		res := run(ctx, s.Name, "raw", 1, time.Minute, 3*len(s.Paths), s.Raw)
		if res.Errors > 0 {
			t.Errorf("%s: %d of %d store calls failed: %s", s.Name, res.Errors, res.Requests, res.FirstError)
		}
	}
	rawRunsStatements(t, scenarios, m.Network)
	// The service's store counts blocks one below the tip as final (the raw
	// store, memo off, remembers nothing however final a page is).
	rawHistoryMemoOff(t, raw.db, testdb.MustOpenDBSyncWith(t, dsn, dbsync.Options{FinalDepth: 1}), p)
}

// bfRoutes is the route each Blockfrost scenario asks.
var bfRoutes = map[string]string{
	"bf_address_utxos": "/api/v0/addresses/", "bf_address_utxos_whale": "/api/v0/addresses/",
	"bf_address": "/api/v0/addresses/", "bf_address_whale": "/api/v0/addresses/",
	"bf_address_total": "/api/v0/addresses/", "bf_address_total_whale": "/api/v0/addresses/",
	"bf_tx": "/api/v0/txs/", "bf_tx_utxos": "/api/v0/txs/", "bf_blocks_latest": "/api/v0/blocks/latest",
	"bf_epochs_latest_parameters":   "/api/v0/epochs/latest/parameters",
	"bf_address_transactions_p1":    "/api/v0/addresses/",
	"bf_address_transactions_p1000": "/api/v0/addresses/",
}

// scenarioPath is the first path of the scenario called name ("" if none).
func scenarioPath(ss []Scenario, name string) string {
	for _, s := range ss {
		if s.Name == name {
			return s.Paths[0]
		}
	}
	return ""
}

// statementsRun is how many db-sync statements this process has run for
// network: the store counts each in its latency histogram (the servers'
// probes are not counted there).
func statementsRun(t *testing.T, network string) uint64 {
	t.Helper()
	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, f := range families {
		if f.GetName() != "syncgate_dbsync_query_duration_seconds" {
			continue
		}
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "network" && l.GetValue() == network {
					n += s.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	return n
}

// rawRunsStatements: raw measures PostgreSQL, so every raw request runs
// db-sync statements, also right after the same request: none is answered
// from process memory alone. The delegator
// lists are the exception by design: their raw side reads the stored
// distribution in the admin database, as the handler does.
func rawRunsStatements(t *testing.T, scenarios []Scenario, network string) {
	ctx := t.Context()
	for _, s := range scenarios {
		if s.Name == "pool_delegators" || s.Name == "pool_delegators_big" || s.RawAt == nil {
			continue
		}
		for i, path := range s.Paths {
			// Twice in a row: the second finds whatever the first left.
			if err := s.RawAt(ctx, i); err != nil {
				t.Fatalf("%s %s: %v", s.Name, path, err)
			}
			before := statementsRun(t, network)
			if err := s.RawAt(ctx, i); err != nil {
				t.Fatalf("%s %s: %v", s.Name, path, err)
			}
			if statementsRun(t, network) == before {
				t.Errorf("%s: the raw side of %s ran no db-sync statement", s.Name, path)
				break
			}
		}
	}
}

// rawHistoryMemoOff: the raw store runs a final history page's statements
// every time, where the service's store (memo on) answers it again from
// memory; the service's store counts blocks one below the tip as final,
// so every cursor page of this short chain is.
func rawHistoryMemoOff(t *testing.T, raw, served *dbsync.DB, p prepared) {
	ctx := t.Context()
	i := slices.IndexFunc(p.WhaleCursors, func(c pageCursor) bool { return !c.Asc })
	if i < 0 {
		t.Fatal("no newest-first whale cursor")
	}
	c := p.WhaleCursors[i]
	addr, err := cardano.ParseAddress(c.Address, true)
	if err != nil {
		t.Fatal(err)
	}
	q := dbsync.HistoryQuery{Limit: pageLimit, FromSlot: &c.FromSlot}
	statements := func(db *dbsync.DB) (first, again uint64) {
		var runs [2]uint64
		for k := range runs {
			before := statementsRun(t, db.Network.Name)
			page, err := db.TxsByAddress(ctx, addr, q, noTotal)
			if err != nil || len(page.Items) == 0 {
				t.Fatalf("page %+v: %d items, %v", c, len(page.Items), err)
			}
			runs[k] = statementsRun(t, db.Network.Name) - before
		}
		return runs[0], runs[1]
	}
	if first, again := statements(served); again >= first {
		t.Fatalf("the service's store ran %d statements for a final page, then %d: its memo is not on, so this check proves nothing", first, again)
	}
	if first, again := statements(raw); again != first {
		t.Errorf("the raw store ran %d statements for a final page, then %d: a memo answered it", first, again)
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:80"} {
		if err := loopbackOnly(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1:8080", "https://example.com", "not a url"} {
		if loopbackOnly(u) == nil {
			t.Errorf("%s accepted", u)
		}
	}
}

// TestMarkdownMarksMissedTargets: the report table puts the c=16 rows that
// miss a target in bold and pairs before/after rows by scenario and level.
func TestMarkdownMarksMissedTargets(t *testing.T) {
	after := &report{Results: []Result{
		{Scenario: "fast", Mode: "gateway", Concurrency: 16, RPS: 900, P50ms: 5, P99ms: 20},
		{Scenario: "fast", Mode: "raw", Concurrency: 16, RPS: 1000},
		{Scenario: "slow", Mode: "gateway", Concurrency: 16, RPS: 100, P50ms: 40, P99ms: 80},
		{Scenario: "slow", Mode: "raw", Concurrency: 16, RPS: 200},
		{Scenario: "slow", Mode: "gateway", Concurrency: 64, RPS: 100, P99ms: 300},
	}}
	before := &report{Results: []Result{{Scenario: "slow", Mode: "gateway", Concurrency: 16, RPS: 50, P99ms: 400}}}
	var b strings.Builder
	writeMarkdown(&b, before, after)
	got := b.String()
	for _, want := range []string{
		"| fast | 16 | 900 | 5.0 | 20.0 | 0 | 1000 | 90% | - | - |",
		"| slow | 16 | 100 | 40.0 | **80.0** | 0 | 200 | **50%** | 50 | 400.0 |",
		"| slow | 64 | 100 | 0.0 | 300.0 | 0 | - | - | - | - |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing row %q in\n%s", want, got)
		}
	}
}

// TestOnlyScenarios: --only keeps its order and repeats (runs in turn),
// refuses unknown names, and leaves the wide scenarios last.
func TestOnlyScenarios(t *testing.T) {
	ss := []Scenario{{Name: "tx_hash"}, {Name: "bf_tx"}, {Name: "wide_tx_hash_sweep", Population: 9}}
	got, err := onlyScenarios(ss, "wide_tx_hash_sweep,bf_tx, tx_hash,bf_tx,tx_hash")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if want := []string{"bf_tx", "tx_hash", "bf_tx", "tx_hash", "wide_tx_hash_sweep"}; !slices.Equal(names, want) {
		t.Errorf("%v, want %v", names, want)
	}
	if _, err := onlyScenarios(ss, "tx_hash,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown name: %v", err)
	}
}
