package scanner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/service/delivery"
)

// TestPushEndToEnd runs the whole path as serve wires it, with the
// production polling intervals: db-sync commits a block paying a watched
// address, the scanner decides the event, river schedules the push in the
// same transaction, a worker signs and sends it, and a real HTTP receiver
// gets it. Every payment arrives exactly once (by webhook-id); the time
// from the block's commit to the receiver is logged (docs/PERFORMANCE.md).
func TestPushEndToEnd(t *testing.T) {
	e := newEnv(t, "core")
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	sealer, err := events.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	secret, _, err := events.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := sealer.Seal(secret)
	if err != nil {
		t.Fatal(err)
	}

	type arrival struct {
		id, tx string
		at     time.Time
	}
	var mu sync.Mutex
	var got []arrival
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var b events.Body
		var d events.TxConfirmed
		if json.Unmarshal(body, &b) != nil || json.Unmarshal(b.Data, &d) != nil || r.Header.Get("webhook-signature") == "" {
			t.Errorf("push %s", body)
		}
		mu.Lock()
		got = append(got, arrival{id: r.Header.Get("webhook-id"), tx: d.TxHash, at: time.Now()})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := delivery.New(delivery.Options{DB: e.admin, Events: e.store, Sealer: sealer, AllowPrivate: true, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e.store.SetEnqueuer(svc)
	if err := svc.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		svc.Stop(ctx) //nolint:errcheck
	})

	addr := e.m.Addresses[0].Address
	var hook uuid.UUID
	if err := e.admin.Get(&hook, `INSERT INTO syncgate.webhooks (user_account_id, network, url, depth, event_types, secret_sealed, scanned_through, items)
		VALUES ($1, $2, $3, 0, $4, $5, $6, 1) RETURNING id`, e.user, e.net, receiver.URL, pq.Array(allTypes), sealed, e.tip()); err != nil {
		t.Fatal(err)
	}
	e.admin.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value) VALUES ($1, $2, 'address', $3)`, hook, e.net, addr)

	s, err := New(Options{Network: e.net, DB: e.db, Events: e.store, Log: quiet}) // production intervals
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, 10*time.Second, "scanner leads", s.Leading)

	const blocks = 30
	committed := map[string]time.Time{} // written before the receiver can see its tx

	for range blocks {
		tx := hex.EncodeToString(e.pay(addr, 1_500_000))
		e.appendBlocks(1)
		committed[tx] = time.Now()
		time.Sleep(300 * time.Millisecond) // a block every ~0.3 s: faster than mainnet's 20 s
	}
	waitFor(t, 30*time.Second, "every push", func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, a := range got {
			if _, ok := committed[a.tx]; ok {
				n++
			}
		}
		return n >= blocks
	})
	time.Sleep(time.Second) // a duplicate would arrive by now
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]bool{}
	var latencies []time.Duration
	for _, a := range got {
		if seen[a.id] {
			t.Fatalf("event %s pushed twice", a.id)
		}
		seen[a.id] = true
		if at, ok := committed[a.tx]; ok { // (the follower's own traffic pays the address too)
			latencies = append(latencies, a.at.Sub(at))
		}
	}
	if len(latencies) != blocks {
		t.Fatalf("%d pushes for our %d payments", len(latencies), blocks)
	}
	slices.Sort(latencies)
	t.Logf("block commit → receiver, %d pushes at depth 0: p50 %s, p99 %s, max %s", len(latencies),
		latencies[len(latencies)/2].Round(time.Millisecond), latencies[len(latencies)*99/100].Round(time.Millisecond),
		latencies[len(latencies)-1].Round(time.Millisecond))
}
