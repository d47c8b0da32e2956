package delivery

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
)

// fastRetry keeps retries quick in tests.
var fastRetry = retryPolicy{base: 100 * time.Millisecond, max: 400 * time.Millisecond, attempts: 200}

// env is a migrated admin database with one user, a store and a sealer.
type env struct {
	dsn    string
	db     *sqlx.DB
	store  *events.Store
	sealer *events.Sealer
	user   uuid.UUID
}

func newEnv(t testing.TB) *env {
	t.Helper()
	testdb.RequirePostgres(t)
	dsn := testdb.New(t, "sg_test_delivery")
	db := testdb.Open(t, dsn)
	db.SetMaxOpenConns(8) // the pool DECISIONS gives the service
	db.SetMaxIdleConns(8)
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	user := testdb.AdminUser(t, db)
	sealer, err := events.NewSealer(randomKey(t))
	if err != nil {
		t.Fatal(err)
	}
	return &env{dsn: dsn, db: db, store: events.NewStore(db, events.Options{Sealer: sealer}), sealer: sealer, user: user}
}

func randomKey(t testing.TB) []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

// webhook creates a pushing webhook to url signed with key.
func (e *env) webhook(t testing.TB, url string, key []byte) uuid.UUID {
	t.Helper()
	sealed, err := e.sealer.Seal(key)
	if err != nil {
		t.Fatal(err)
	}
	var id uuid.UUID
	if err := e.db.Get(&id, `INSERT INTO syncgate.webhooks (user_account_id, network, url, depth, event_types, secret_sealed, scanned_through)
		VALUES ($1, 'preprod', $2, 0, '{tx.confirmed}', $3, 0) RETURNING id`, e.user, url, sealed); err != nil {
		t.Fatal(err)
	}
	return id
}

// decide decides n webhook.test events for hook in one transaction.
func (e *env) decide(t testing.TB, hook uuid.UUID, n int) []events.Decided {
	t.Helper()
	evs := make([]events.NewEvent, n)
	for i := range evs {
		evs[i] = events.NewEvent{WebhookID: hook, Type: events.TypeWebhookTest, Data: events.WebhookNote{Message: "test"}}
	}
	ctx := context.Background()
	tx := e.db.MustBeginTx(ctx, nil)
	d, err := e.store.AppendEvents(ctx, tx, "preprod", evs)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return d
}

// service builds a delivery service (installed as the store's enqueuer)
// and starts it unless o.noStart; it is stopped in t.Cleanup.
func (e *env) service(t testing.TB, o Options, start bool) *Service {
	t.Helper()
	o.DB, o.Events, o.Sealer = e.db, e.store, e.sealer
	if o.retry.attempts == 0 {
		o.retry = fastRetry
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	e.store.SetEnqueuer(s)
	if start {
		if err := s.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s.Stop(ctx) //nolint:errcheck
		})
	}
	return s
}

type deliveryRow struct {
	Status      string     `db:"status"`
	Attempts    int        `db:"attempts"`
	LastCode    *int       `db:"last_code"`
	LastError   *string    `db:"last_error"`
	DeliveredAt *time.Time `db:"delivered_at"`
	LastAt      *time.Time `db:"last_attempt_at"`
}

func (e *env) delivery(t testing.TB, id uuid.UUID) deliveryRow {
	t.Helper()
	var r deliveryRow
	if err := e.db.Get(&r, `SELECT status, attempts, last_code, last_error, delivered_at, last_attempt_at
		FROM syncgate.webhook_deliveries WHERE event_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return r
}

// jobState is river's state of event id's latest push job (its first
// push's, or the job of its own that retries or redelivers it).
func (e *env) jobState(t testing.TB, id uuid.UUID) string {
	t.Helper()
	var s string
	if err := e.db.Get(&s, `SELECT state FROM syncgate_river.river_job
		WHERE args->>'event_id' = $1 OR args->'event_ids' ? $1 ORDER BY id DESC LIMIT 1`, id.String()); err != nil {
		t.Fatal(err)
	}
	return s
}

// eventually polls cond until it holds (the deadline only ends a test
// that would otherwise hang).
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// got is a request a receiver saw.
type got struct {
	header http.Header
	body   []byte
}

// receiver records every request and answers with answer(request number).
type receiver struct {
	mu     sync.Mutex
	reqs   []got
	answer func(n int, w http.ResponseWriter, r *http.Request)
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, got{header: r.Header.Clone(), body: b})
	n := len(rc.reqs)
	rc.mu.Unlock()
	if rc.answer != nil {
		rc.answer(n, w, r)
	}
}

func (rc *receiver) requests() []got {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]got(nil), rc.reqs...)
}

// verifyPy checks a webhook-signature header the way a receiver written
// in Python would: it prints ok when one of the signatures is the
// HMAC-SHA256 of id.timestamp.body under key.
const verifyPy = `
import sys, hmac, hashlib, base64
key = base64.b64decode(sys.argv[1])
msg = (sys.argv[2] + "." + sys.argv[3] + ".").encode() + sys.stdin.buffer.read()
want = base64.b64encode(hmac.new(key, msg, hashlib.sha256).digest()).decode()
sigs = [s.split(",", 1)[1] for s in sys.argv[4].split(" ") if s.startswith("v1,")]
print("ok" if any(hmac.compare_digest(want, s) for s in sigs) else "bad")
`

func verifiedBy(t *testing.T, key []byte, g got) bool {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	cmd := exec.Command(py, "-c", verifyPy, base64.StdEncoding.EncodeToString(key),
		g.header.Get("webhook-id"), g.header.Get("webhook-timestamp"), g.header.Get("webhook-signature"))
	cmd.Stdin = strings.NewReader(string(g.body))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	return strings.TrimSpace(string(out)) == "ok"
}

// A push carries the stored body byte for byte with Standard Webhooks
// headers that a receiver verifies with its secret; during a roll's
// overlap both the new and the previous secret verify it, and after the
// overlap only the new one.
func TestPushSignedAcrossSecretRoll(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	k1, k2, other := randomKey(t), randomKey(t), randomKey(t)
	hook := e.webhook(t, srv.URL+"/hook", k1)
	e.service(t, Options{AllowPrivate: true}, true)

	d := e.decide(t, hook, 1)
	eventually(t, "first push", func() bool { return e.delivery(t, d[0].ID).Status == events.DeliverySucceeded })
	r := e.delivery(t, d[0].ID)
	if r.Attempts != 1 || r.LastCode == nil || *r.LastCode != 200 || r.DeliveredAt == nil || r.LastError != nil {
		t.Fatalf("delivery %+v", r)
	}
	reqs := rc.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	g := reqs[0]
	var body string
	if err := e.db.Get(&body, `SELECT body FROM syncgate.webhook_events WHERE id = $1`, d[0].ID); err != nil {
		t.Fatal(err)
	}
	if string(g.body) != body || g.header.Get("Content-Type") != "application/json" || g.header.Get("webhook-id") != d[0].ID.String() {
		t.Fatalf("request %v %s", g.header, g.body)
	}
	if strings.Count(g.header.Get("webhook-signature"), "v1,") != 1 || !verifiedBy(t, k1, g) || verifiedBy(t, other, g) {
		t.Fatalf("signature %q", g.header.Get("webhook-signature"))
	}

	// Roll: k2 signs, k1 still does for an hour.
	s1, _ := e.sealer.Seal(k1)
	s2, _ := e.sealer.Seal(k2)
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET secret_sealed = $2, previous_secret_sealed = $3,
		previous_secret_expires_at = now() + interval '1 hour' WHERE id = $1`, hook, s2, s1); err != nil {
		t.Fatal(err)
	}
	d = e.decide(t, hook, 1)
	eventually(t, "push during the roll", func() bool { return len(rc.requests()) == 2 })
	g = rc.requests()[1]
	if strings.Count(g.header.Get("webhook-signature"), "v1,") != 2 || !verifiedBy(t, k2, g) || !verifiedBy(t, k1, g) || verifiedBy(t, other, g) {
		t.Fatalf("signature during the roll %q", g.header.Get("webhook-signature"))
	}

	// The overlap is over: k1 no longer signs.
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, hook); err != nil {
		t.Fatal(err)
	}
	e.decide(t, hook, 1)
	eventually(t, "push after the roll", func() bool { return len(rc.requests()) == 3 })
	g = rc.requests()[2]
	if strings.Count(g.header.Get("webhook-signature"), "v1,") != 1 || !verifiedBy(t, k2, g) || verifiedBy(t, k1, g) {
		t.Fatalf("signature after the roll %q", g.header.Get("webhook-signature"))
	}
}

// With the receiver down, pushes fail and are retried; once it is back
// every event is delivered (none lost) and the webhook is healthy again.
func TestRetriesUntilReceiverRecovers(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // down: connections refused
	hook := e.webhook(t, "http://"+addr+"/hook", randomKey(t))
	e.service(t, Options{AllowPrivate: true, Workers: 8}, true)

	ds := e.decide(t, hook, 30)
	eventually(t, "failed attempts", func() bool {
		var n int
		e.db.Get(&n, `SELECT count(*) FROM syncgate.webhook_deliveries WHERE status = 'failed' AND attempts >= 2`) //nolint:errcheck
		return n == len(ds)
	})
	var failing *time.Time
	if err := e.db.Get(&failing, `SELECT failing_since FROM syncgate.webhooks WHERE id = $1`, hook); err != nil || failing == nil {
		t.Fatalf("failing_since %v %v", failing, err)
	}

	rc := &receiver{}
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: rc}
	go srv.Serve(ln) //nolint:errcheck
	defer srv.Close()
	eventually(t, "every delivery", func() bool {
		var n int
		e.db.Get(&n, `SELECT count(*) FROM syncgate.webhook_deliveries WHERE status = 'succeeded'`) //nolint:errcheck
		return n == len(ds)
	})
	seen := map[string]bool{}
	for _, g := range rc.requests() {
		seen[g.header.Get("webhook-id")] = true
	}
	for _, d := range ds {
		if !seen[d.ID.String()] {
			t.Fatalf("event %s never received", d.ID)
		}
	}
	if err := e.db.Get(&failing, `SELECT failing_since FROM syncgate.webhooks WHERE id = $1`, hook); err != nil || failing != nil {
		t.Fatalf("failing_since after recovery %v %v", failing, err)
	}
}

// 410 Gone ends the delivery: recorded as gone, never tried again.
func TestGoneStopsRetrying(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{answer: func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) }}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	hook := e.webhook(t, srv.URL, randomKey(t))
	e.service(t, Options{AllowPrivate: true}, true)
	d := e.decide(t, hook, 1)
	eventually(t, "the job to finish", func() bool { return e.jobState(t, d[0].ID) == "completed" })
	r := e.delivery(t, d[0].ID)
	if r.Status != events.DeliveryGone || r.Attempts != 1 || *r.LastCode != 410 || len(rc.requests()) != 1 {
		t.Fatalf("delivery %+v, %d requests", r, len(rc.requests()))
	}
}

// A redirect is an answer, not a place to go: the target never hears of it.
func TestRedirectNotFollowed(t *testing.T) {
	e := newEnv(t)
	target := &receiver{}
	tsrv := httptest.NewServer(target)
	defer tsrv.Close()
	rc := &receiver{answer: func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, tsrv.URL+"/elsewhere", http.StatusTemporaryRedirect)
	}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	hook := e.webhook(t, srv.URL, randomKey(t))
	e.service(t, Options{AllowPrivate: true}, true)
	d := e.decide(t, hook, 1)
	eventually(t, "two attempts", func() bool { return e.delivery(t, d[0].ID).Attempts >= 2 })
	r := e.delivery(t, d[0].ID)
	if r.Status != events.DeliveryFailed || *r.LastCode != 307 || *r.LastError != "HTTP 307" || len(target.requests()) != 0 {
		t.Fatalf("delivery %+v, target saw %d", r, len(target.requests()))
	}
}

// A receiver that answers 200 and then streams forever does not hold the
// push: at most 64 kB of its answer is read and the connection dropped.
func TestResponseReadIsCapped(t *testing.T) {
	e := newEnv(t)
	written := make(chan int64, 1)
	rc := &receiver{answer: func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := make([]byte, 32<<10)
		var n int64
		for {
			if _, err := w.Write(chunk); err != nil {
				written <- n
				return
			}
			n += int64(len(chunk))
			w.(http.Flusher).Flush()
		}
	}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	hook := e.webhook(t, srv.URL, randomKey(t))
	e.service(t, Options{AllowPrivate: true}, true)
	d := e.decide(t, hook, 1)
	eventually(t, "the attempt", func() bool { return e.delivery(t, d[0].ID).Attempts >= 1 })
	// Had the whole answer been read, the push would have run into its
	// timeout and failed.
	if r := e.delivery(t, d[0].ID); r.Status != events.DeliverySucceeded || r.Attempts != 1 {
		t.Fatalf("delivery %+v", r)
	}
	n := <-written // the receiver saw the connection dropped
	t.Logf("receiver wrote %d bytes before the push hung up", n)
}

// Without WEBHOOK_ALLOW_PRIVATE a URL resolving to loopback is refused at
// connect time (the receiver never sees a connection), and plain http is
// refused outright.
func TestPrivateAddressRefused(t *testing.T) {
	e := newEnv(t)
	var conns atomic.Int64
	rc := &receiver{}
	srv := httptest.NewUnstartedServer(rc)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	defer srv.Close()
	// "localhost" goes through the resolver: the check is on the address
	// dialled, not on the URL's text.
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	tlsHook := e.webhook(t, url, randomKey(t))
	plainHook := e.webhook(t, "http://example.com/hook", randomKey(t))
	e.service(t, Options{retry: retryPolicy{base: time.Hour, max: time.Hour, attempts: 2}}, true)
	d1, d2 := e.decide(t, tlsHook, 1), e.decide(t, plainHook, 1)
	eventually(t, "both attempts", func() bool {
		return e.delivery(t, d1[0].ID).Attempts == 1 && e.delivery(t, d2[0].ID).Attempts == 1
	})
	r1, r2 := e.delivery(t, d1[0].ID), e.delivery(t, d2[0].ID)
	if r1.Status != events.DeliveryFailed || r1.LastError == nil || *r1.LastError != errForbiddenAddress.Error() || r1.LastCode != nil {
		t.Fatalf("loopback delivery %+v %v", r1, *r1.LastError)
	}
	if r2.Status != events.DeliveryFailed || r2.LastError == nil || !strings.Contains(*r2.LastError, "https required") {
		t.Fatalf("http delivery %+v", r2)
	}
	if conns.Load() != 0 || len(rc.requests()) != 0 {
		t.Fatalf("receiver saw %d connections", conns.Load())
	}
}

// A webhook failing for 72 hours is disabled: its owed deliveries are
// cancelled, its feed gets webhook.disabled, the partner's audit log says
// so, and its remaining jobs finish without sending.
func TestDisabledAfterFailureWindow(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{answer: func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	hook := e.webhook(t, srv.URL, randomKey(t))
	var ahead atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	e.service(t, Options{AllowPrivate: true, Now: now,
		retry: retryPolicy{base: 200 * time.Millisecond, max: 200 * time.Millisecond, attempts: 1000}}, true)
	ds := e.decide(t, hook, 3)
	eventually(t, "failing", func() bool {
		var since *time.Time
		e.db.Get(&since, `SELECT failing_since FROM syncgate.webhooks WHERE id = $1`, hook) //nolint:errcheck
		return since != nil
	})
	var status string
	if err := e.db.Get(&status, `SELECT status FROM syncgate.webhooks WHERE id = $1`, hook); err != nil || status != events.StatusActive {
		t.Fatalf("status %q %v", status, err)
	}
	ahead.Store(int64(FailureWindow + time.Hour))
	eventually(t, "disabled", func() bool {
		e.db.Get(&status, `SELECT status FROM syncgate.webhooks WHERE id = $1`, hook) //nolint:errcheck
		return status == events.StatusDisabled
	})
	var reason string
	if err := e.db.Get(&reason, `SELECT disabled_reason FROM syncgate.webhooks WHERE id = $1 AND disabled_at IS NOT NULL`, hook); err != nil || !strings.Contains(reason, "72 hours") {
		t.Fatalf("reason %q %v", reason, err)
	}
	for _, d := range ds {
		eventually(t, "jobs to finish", func() bool { return e.jobState(t, d.ID) == "completed" })
		if r := e.delivery(t, d.ID); r.Status != events.DeliveryCancelled {
			t.Fatalf("delivery %+v", r)
		}
	}
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.webhook_events e WHERE webhook_id = $1 AND type = 'webhook.disabled'
		AND NOT EXISTS (SELECT 1 FROM syncgate.webhook_deliveries d WHERE d.event_id = e.id)`, hook); err != nil || n != 1 {
		t.Fatalf("webhook.disabled events %d %v", n, err)
	}
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'webhook.disabled' AND target_id = $1`, hook); err != nil || n != 1 {
		t.Fatalf("audit entries %d %v", n, err)
	}
	// A disabled webhook's new events are not pushed, and nothing more is sent.
	before := len(rc.requests())
	if d := e.decide(t, hook, 1); d[0].Push {
		t.Fatal("a disabled webhook's event was pushed")
	}
	time.Sleep(time.Second)
	if after := len(rc.requests()); after != before {
		t.Fatalf("%d pushes after the webhook was disabled", after-before)
	}
}

// An event's first push is made by its decision's job; a redelivery
// gets a job of its own, not doubled while it waits, and once delivered
// the event may be owed and pushed again.
func TestRedeliveryAfterCompletion(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	hook := e.webhook(t, srv.URL, randomKey(t))
	s := e.service(t, Options{AllowPrivate: true}, false)
	d := e.decide(t, hook, 3)
	ctx := context.Background()
	jobs := func() (first, own int) {
		t.Helper()
		if err := e.db.Get(&first, `SELECT count(*) FROM syncgate_river.river_job WHERE kind = 'webhook_first_push'`); err != nil {
			t.Fatal(err)
		}
		if err := e.db.Get(&own, `SELECT count(*) FROM syncgate_river.river_job WHERE kind = 'webhook_push'`); err != nil {
			t.Fatal(err)
		}
		return first, own
	}
	if first, own := jobs(); first != 1 || own != 0 {
		t.Fatalf("a decision of 3 events made %d first-push jobs and %d of their own", first, own)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(context.Background()) }) //nolint:errcheck
	eventually(t, "delivered", func() bool { return e.jobState(t, d[0].ID) == "completed" })
	if n := len(rc.requests()); n != 3 {
		t.Fatalf("%d pushes of 3 events", n)
	}
	if err := s.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	// The store's redelivery, as the API calls it, with this service as
	// its Enqueuer; asked twice while the first waits: still one job.
	e.store.SetEnqueuer(s)
	for range 2 {
		again, err := e.store.Redeliver(ctx, events.Owner{UserID: e.user}, hook, d[0].ID, nil)
		if err != nil || again.Seq != d[0].Seq || again.Status != events.DeliveryPending {
			t.Fatalf("redeliver %+v %v", again, err)
		}
	}
	if first, own := jobs(); first != 1 || own != 1 {
		t.Fatalf("%d first-push jobs and %d of their own after two redeliveries", first, own)
	}
	s2 := e.service(t, Options{AllowPrivate: true}, true)
	e.store.SetEnqueuer(s2)
	eventually(t, "delivered again", func() bool { return len(rc.requests()) == 4 })
	eventually(t, "recorded", func() bool { return e.delivery(t, d[0].ID).Attempts == 2 })
	if r := e.delivery(t, d[0].ID); r.Status != events.DeliverySucceeded {
		t.Fatalf("delivery %+v", r)
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(rc.requests()); n != 4 {
		t.Fatalf("%d pushes, want 4 (3 first, 1 redelivery)", n)
	}
}

// An instance killed in the middle of a push (its database gone and its
// jobs cancelled while the receiver holds the request) loses nothing:
// another instance rescues the stuck job and delivers the event.
func TestKilledInstanceMidDelivery(t *testing.T) {
	e := newEnv(t)
	held := make(chan struct{})
	var holdOnce sync.Once
	delivered := map[string]bool{}
	var mu sync.Mutex
	rc := &receiver{answer: func(n int, w http.ResponseWriter, r *http.Request) {
		first := false
		holdOnce.Do(func() { first = true })
		if first {
			close(held)
			<-r.Context().Done() // hold until the pushing instance is gone
			return
		}
		mu.Lock()
		delivered[r.Header.Get("webhook-id")] = true
		mu.Unlock()
	}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	hook := e.webhook(t, srv.URL, randomKey(t))

	tuning := Options{AllowPrivate: true, Workers: 1, pushTimeout: 5 * time.Second, jobTimeout: 6 * time.Second, rescueAfter: 6 * time.Second}
	// Instance A has a pool of its own, to lose.
	adb := testdb.Open(t, e.dsn)
	ao := tuning
	ao.DB, ao.Events, ao.Sealer, ao.retry, ao.noLeader = adb, events.NewStore(adb, events.Options{}), e.sealer, fastRetry, true
	a, err := New(ao)
	if err != nil {
		t.Fatal(err)
	}
	e.store.SetEnqueuer(a)
	ds := e.decide(t, hook, 5)
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-held
	adb.Close() // nothing A does from here reaches the database
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	a.client.StopAndCancel(stop) //nolint:errcheck
	cancel()
	a.stopBatches()
	var running int
	if err := e.db.Get(&running, `SELECT count(*) FROM syncgate_river.river_job WHERE state = 'running'`); err != nil || running != 1 {
		t.Fatalf("%d jobs left running by the dead instance %v", running, err)
	}
	// Wait out the stuck threshold so B's rescuer, which runs when B
	// starts leading, finds the job.
	time.Sleep(tuning.rescueAfter)
	e.service(t, tuning, true)
	eventually(t, "every event delivered", func() bool {
		var n int
		e.db.Get(&n, `SELECT count(*) FROM syncgate.webhook_deliveries WHERE status = 'succeeded'`) //nolint:errcheck
		return n == len(ds)
	})
	mu.Lock()
	defer mu.Unlock()
	for _, d := range ds {
		if !delivered[d.ID.String()] {
			t.Fatalf("event %s not received", d.ID)
		}
	}
}

// A webhook deleted (or disabled) after its events were decided gets
// nothing: the jobs finish without sending and the deliveries are
// cancelled.
func TestDeletedWebhookNotPushed(t *testing.T) {
	e := newEnv(t)
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	deleted, disabled := e.webhook(t, srv.URL, randomKey(t)), e.webhook(t, srv.URL, randomKey(t))
	s := e.service(t, Options{AllowPrivate: true}, false)
	d1, d2 := e.decide(t, deleted, 2), e.decide(t, disabled, 1)
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET deleted_at = now() WHERE id = $1`, deleted); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Exec(`UPDATE syncgate.webhooks SET status = 'disabled' WHERE id = $1`, disabled); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(context.Background()) }) //nolint:errcheck
	for _, d := range append(d1, d2...) {
		eventually(t, "the job to finish", func() bool { return e.jobState(t, d.ID) == "completed" })
		if r := e.delivery(t, d.ID); r.Status != events.DeliveryCancelled || r.Attempts != 0 {
			t.Fatalf("delivery %+v", r)
		}
	}
	if n := len(rc.requests()); n != 0 {
		t.Fatalf("%d pushes", n)
	}
}
