package delivery

import (
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
)

// lastHeaders reads the delivery log's entry for event id as the
// deliveries routes do (the store's page).
func (e *env) lastHeaders(t *testing.T, hook, id uuid.UUID) (events.Delivery, bool) {
	t.Helper()
	ds, _, err := e.store.Deliveries(context.Background(), events.Owner{UserID: e.user, Network: "preprod"}, hook, 100, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.EventID == id {
			return d, true
		}
	}
	return events.Delivery{}, false
}

// sent is what the receiver got as the recorded headers' shape.
func sent(g got, names ...string) events.SentHeaders {
	var out events.SentHeaders
	for _, n := range names {
		out = append(out, events.SentHeader{Name: n, Value: g.header.Get(n)})
	}
	return out
}

// The delivery log records, per delivery, the signature headers its last
// attempt sent, exactly as the receiver got them: the Standard Webhooks
// trio for a standard webhook, Blockfrost-Signature alone for a
// Blockfrost-format one; a retry replaces them with its own. Neither the
// secret nor the signatures reach the service's log.
func TestDeliveryRecordsSignatureHeaders(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{answer: func(n int, w http.ResponseWriter, r *http.Request) {
		// The first push of each webhook fails once, so a retry follows.
		if strings.HasSuffix(r.URL.Path, "/fail-once") && n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	key := randomKey(t)
	standard := e.webhook(t, srv.URL+"/fail-once", key)
	bf := e.webhook(t, srv.URL+"/bf", key)
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET format = 'blockfrost' WHERE id = $1`, bf); err != nil {
		t.Fatal(err)
	}
	logs := &testdb.LogBuffer{}
	e.service(t, Options{AllowPrivate: true, Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}, true)

	// Standard: a failed attempt, then a successful retry.
	d := e.decide(t, standard, 1)[0]
	eventually(t, "the standard push's retry", func() bool { return e.delivery(t, d.ID).Status == events.DeliverySucceeded })
	reqs := rc.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	got, ok := e.lastHeaders(t, standard, d.ID)
	want := sent(reqs[1], "webhook-id", "webhook-timestamp", "webhook-signature")
	if !ok || got.Attempts != 2 || !equalHeaders(got.LastHeaders, want) || want[0].Value != d.ID.String() ||
		!strings.HasPrefix(want[2].Value, "v1,") || !verifiedBy(t, key, reqs[1]) {
		t.Fatalf("standard delivery %+v\nreceiver got %v", got, want)
	}
	// The failed attempt's row had its own headers (what the receiver saw first).
	if first := sent(reqs[0], "webhook-id", "webhook-timestamp", "webhook-signature"); first[0].Value != d.ID.String() || first[2].Value == "" {
		t.Fatalf("first attempt %v", first)
	}

	// Blockfrost: one header, the one the receiver verifies.
	b := e.decide(t, bf, 1)[0]
	eventually(t, "the Blockfrost push", func() bool { return e.delivery(t, b.ID).Status == events.DeliverySucceeded })
	reqs = rc.requests()
	g := reqs[len(reqs)-1]
	got, ok = e.lastHeaders(t, bf, b.ID)
	want = sent(g, "Blockfrost-Signature")
	if !ok || !equalHeaders(got.LastHeaders, want) || !strings.HasPrefix(want[0].Value, "t=") || g.header.Get("webhook-signature") != "" {
		t.Fatalf("Blockfrost delivery %+v\nreceiver got %v", got, g.header)
	}
	if v := blockfrostSignature([][]byte{key}, tsOf(t, want[0].Value), g.body); v != want[0].Value {
		t.Fatalf("recorded %q, signing the body gives %q", want[0].Value, v)
	}

	// The secret is in no row and no log line; no signature is logged.
	secret := base64.StdEncoding.EncodeToString(key)
	var leaked int
	if err := e.db.Get(&leaked, `SELECT count(*) FROM syncgate.webhook_deliveries WHERE last_signature_headers::text LIKE '%' || $1 || '%'`, secret); err != nil || leaked != 0 {
		t.Fatalf("the secret in a delivery row: %d %v", leaked, err)
	}
	out := logs.String()
	for _, s := range []string{secret, got.LastHeaders[0].Value, "v1,", "v1="} {
		if strings.Contains(out, s) {
			t.Fatalf("logged %q:\n%s", s, out)
		}
	}
}

// tsOf is the t= of a Blockfrost-Signature.
func tsOf(t *testing.T, h string) int64 {
	t.Helper()
	ts, err := strconv.ParseInt(strings.TrimPrefix(strings.SplitN(h, ",", 2)[0], "t="), 10, 64)
	if err != nil {
		t.Fatalf("header %q: %v", h, err)
	}
	return ts
}

func equalHeaders(a, b events.SentHeaders) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// An attempt that sends no request (its URL refused before any) records
// no headers, and the log entry says so with null.
func TestDeliveryNoRequestNoHeaders(t *testing.T) {
	e := newEnv(t)
	// http is refused without AllowPrivate, before a request is made.
	hook := e.webhook(t, "http://example.com/hook", randomKey(t))
	e.service(t, Options{}, true)
	d := e.decide(t, hook, 1)[0]
	eventually(t, "the refused attempt", func() bool { return e.delivery(t, d.ID).Attempts >= 1 })
	got, ok := e.lastHeaders(t, hook, d.ID)
	if !ok || got.LastHeaders != nil || got.LastError == nil || *got.LastError != "URL not allowed: https required" {
		t.Fatalf("delivery %+v", got)
	}
}
