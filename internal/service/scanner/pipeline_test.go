package scanner

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
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
// address, the scanner decides the events (rendering Blockfrost payloads),
// river schedules the pushes in the same transaction, a worker signs and
// sends them, and a real HTTP receiver gets them. Two webhooks: a
// standard one on the address's tx.confirmed, and a Blockfrost-format one
// on every block.added, its Blockfrost-Signature verified as blockfrost-js
// verifies it. Every payment and every block arrives exactly once (by
// event id); the time from the block's commit to the receiver is logged
// per webhook (docs/PERFORMANCE.md).
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

	bfKey, bfShown, err := events.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	bfSealed, err := sealer.Seal(bfKey)
	if err != nil {
		t.Fatal(err)
	}

	// An arrival is one push: its event id and what it announces (a
	// transaction's hash, or a block's for the Blockfrost webhook).
	type arrival struct {
		id, what string
		at       time.Time
	}
	var mu sync.Mutex
	var got, gotBlocks []arrival
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		at := time.Now()
		if r.URL.Path == "/blockfrost" {
			id, block, err := verifyBlockfrostPush(body, r.Header.Get("Blockfrost-Signature"), bfShown, at)
			if err != nil || r.Header.Get("webhook-signature") != "" {
				t.Errorf("Blockfrost push refused: %v\n%s", err, body)
			}
			mu.Lock()
			gotBlocks = append(gotBlocks, arrival{id: id, what: block, at: at})
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
			return
		}
		var b events.Body
		var d events.TxConfirmed
		if json.Unmarshal(body, &b) != nil || json.Unmarshal(b.Data, &d) != nil || r.Header.Get("webhook-signature") == "" {
			t.Errorf("push %s", body)
		}
		mu.Lock()
		got = append(got, arrival{id: r.Header.Get("webhook-id"), what: d.TxHash, at: at})
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
	e.admin.MustExec(`INSERT INTO syncgate.webhooks (user_account_id, network, url, depth, event_types, format, secret_sealed, scanned_through)
		VALUES ($1, $2, $3, 0, $4, 'blockfrost', $5, $6)`, e.user, e.net, receiver.URL+"/blockfrost",
		pq.Array([]string{events.TypeBlockAdded, events.TypeBlockRolledBack}), bfSealed, e.tip())

	// Production intervals, and serve's Blockfrost renderer.
	s, err := New(Options{Network: e.net, DB: e.db, Events: e.store, Log: quiet, Blockfrost: benchRenderer()})
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
	blockAt := map[string]time.Time{}   // by block hash

	for range blocks {
		tx := hex.EncodeToString(e.pay(addr, 1_500_000))
		b := e.appendBlocks(1)
		now := time.Now()
		committed[tx], blockAt[b.Hash] = now, now
		time.Sleep(300 * time.Millisecond) // a block every ~0.3 s: faster than mainnet's 20 s
	}
	waitFor(t, 30*time.Second, "every push", func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, a := range got {
			if _, ok := committed[a.what]; ok {
				n++
			}
		}
		return n >= blocks && len(gotBlocks) >= blocks
	})
	time.Sleep(time.Second) // a duplicate would arrive by now
	mu.Lock()
	defer mu.Unlock()
	// latencies checks that every push arrived once and returns the
	// commit → receiver times of those announcing what since holds.
	latencies := func(arrivals []arrival, since map[string]time.Time) []time.Duration {
		t.Helper()
		seen := map[string]bool{}
		var out []time.Duration
		for _, a := range arrivals {
			if seen[a.id] {
				t.Fatalf("event %s pushed twice", a.id)
			}
			seen[a.id] = true
			if at, ok := since[a.what]; ok { // (the follower's own traffic pays the address too)
				out = append(out, a.at.Sub(at))
			}
		}
		slices.Sort(out)
		return out
	}
	txs, bs := latencies(got, committed), latencies(gotBlocks, blockAt)
	if len(txs) != blocks {
		t.Fatalf("%d pushes for our %d payments", len(txs), blocks)
	}
	if len(bs) != blocks || len(gotBlocks) != blocks {
		t.Fatalf("%d Blockfrost block pushes (%d for our blocks) for %d blocks", len(gotBlocks), len(bs), blocks)
	}
	for _, l := range []struct {
		what string
		d    []time.Duration
	}{{"tx.confirmed, standard", txs}, {"block.added, Blockfrost format", bs}} {
		t.Logf("block commit → receiver, %d pushes at depth 0 (%s): p50 %s, p99 %s, max %s", len(l.d), l.what,
			l.d[len(l.d)/2].Round(time.Millisecond), l.d[len(l.d)*99/100].Round(time.Millisecond), l.d[len(l.d)-1].Round(time.Millisecond))
	}
}

// verifyBlockfrostPush checks a Blockfrost-format push as blockfrost-js's
// verifyWebhookSignature does (6.2.0): the header is "t=<unix>" and one or
// more "v1=<hex>", one of which is the HMAC-SHA256, keyed with the secret
// as the user was shown it, of "<t>." and JSON.stringify(JSON.parse(body));
// a timestamp over 600 s old is refused. It returns the envelope's event
// id and, for a block event, the block's hash.
func verifyBlockfrostPush(body []byte, header, secret string, now time.Time) (id, block string, err error) {
	var ts int64
	var sigs []string
	for _, tok := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(tok, "=")
		switch k {
		case "t":
			ts, _ = strconv.ParseInt(v, 10, 64)
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if ts == 0 || len(sigs) == 0 {
		return "", "", fmt.Errorf("header %q", header)
	}
	stringified, err := events.JSCanonical(body)
	if err != nil {
		return "", "", err
	}
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.", ts)
	mac.Write(stringified)
	want := hex.EncodeToString(mac.Sum(nil))
	if !slices.ContainsFunc(sigs, func(s string) bool { return hmac.Equal([]byte(s), []byte(want)) }) {
		return "", "", fmt.Errorf("no signature in %q matches", header)
	}
	if now.Unix()-ts > 600 {
		return "", "", fmt.Errorf("timestamp %d outside the tolerance", ts)
	}
	var env struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Payload struct {
			Hash string `json:"hash"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Type != events.BlockfrostBlock || env.Payload.Hash == "" {
		return "", "", fmt.Errorf("not a block event (%v)", err)
	}
	return env.ID, env.Payload.Hash, nil
}
