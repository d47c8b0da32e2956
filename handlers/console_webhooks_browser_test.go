package handlers

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/service/delivery"
)

// TestConsoleWebhooksInBrowser drives the console's Webhooks page in
// headless Chromium against a real server: a user's webhooks made with
// their data key, reached from the nav and from the user's page; a test
// event and its delivery row (pending: no delivery service runs here), a
// redelivery, a secret roll shown once, disabling and deleting. The same
// watch as TestConsoleInBrowser: any console error, exception, CSP
// violation or foreign request fails it.
func TestConsoleWebhooksInBrowser(t *testing.T) {
	requireServices(t) // and Chromium
	env := newAdminEnv(t)
	cfg := config.Config{StatementTimeout: 10 * time.Second, WebhookSecretKey: make([]byte, 32), WebhooksPerUser: 20}
	sealer, err := events.NewSealer(cfg.WebhookSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	ts := webhookConsoleServer(t, env, cfg, events.NewStore(env.db, events.Options{Sealer: sealer}))

	// A partner, its user and the user's data key, then two webhooks made
	// with that key: one pushing with a watch set of three, one pull only.
	partnerKey, userID, dataKey := consoleUserKey(t, ts.URL)
	var hook struct {
		Data struct {
			ID     string `json:"id"`
			Secret string `json:"secret"`
			Status string `json:"status"`
		} `json:"data"`
	}
	httpJSON(t, "POST", ts.URL+"/v1/webhooks", dataKey, `{"url":"https://receiver.example.com/cardano/hook","depth":2,"items":`+txItems(1, 3)+`}`, 201, &hook)
	hookID, firstSecret := hook.Data.ID, hook.Data.Secret
	httpJSON(t, "POST", ts.URL+"/v1/webhooks", dataKey, `{"description":"feed reader","event_types":["tx.confirmed"]}`, 201, &hook)
	pullID := hook.Data.ID

	ctx, must, finish := startBrowser(t, ts.URL)
	defer finish()
	shots := newScreenshots(t, ctx)
	// waitJS polls a page expression until it is true.
	waitJS := func(what, js string) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, 25*time.Second)
		defer cancel()
		if _, err := chromedp.Run(step, chromedp.Poll[bool](js)); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash + "\n" + document.body.innerText`))
			t.Fatalf("%s: %v\npage: %s", what, err, page)
		}
	}
	row := `[data-webhook="` + hookID + `"]`

	must("sign in", chromedp.Navigate(ts.URL+"/console"), chromedp.WaitVisible(chromedp.ID("signin-key")),
		chromedp.SendKeys(chromedp.ID("signin-key"), partnerKey), chromedp.Click(chromedp.ID("signin-submit")), chromedp.WaitVisible(chromedp.ID("new-user")))

	// From the nav: choose the user, see both webhooks.
	must("open Webhooks", chromedp.Click(chromedp.CSS(`nav a[href="#/webhooks"]`)), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Choose a user"]`)))
	shots.take("webhooks", "")
	must("choose the user", chromedp.Click(chromedp.CSS(`table[aria-label="Choose a user"] a[href="#/webhooks/user/`+userID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Webhooks"] `+row)))
	list := eval[[]string](t, ctx, `[...document.querySelectorAll('table[aria-label="Webhooks"] tbody tr')].map(r => r.innerText.replace(/\s+/g, ' '))`)
	if len(list) != 2 || !strings.Contains(list[0], "https://receiver.example.com/cardano/hook mainnet 2 active tx.confirmed, tx.rolled_back 3 0") ||
		!strings.Contains(list[1], "pull only mainnet 0 active tx.confirmed 0 0") {
		t.Fatalf("webhook rows %q", list)
	}
	if active := eval[string](t, ctx, `document.querySelector('nav a.active').textContent`); active != "Webhooks" {
		t.Errorf("nav marks %q", active)
	}
	shots.take("webhooks-user", "")

	// From the user's page too.
	must("the user's page", chromedp.Navigate(ts.URL+"/console#/users/"+userID), chromedp.WaitVisible(chromedp.ID("user-webhooks")),
		chromedp.Click(chromedp.ID("user-webhooks")), chromedp.WaitVisible(chromedp.CSS(row)))

	// One webhook: its facts and watch set, no deliveries yet.
	must("open the webhook", chromedp.Click(chromedp.CSS(row)), chromedp.WaitVisible(chromedp.ID("hook-test")),
		chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Watch set"]`)))
	wantText(t, ctx, "#hook-items", "3 items")
	// The deliveries and the watch set fill in after their own requests.
	waitJS("the watch set's three rows and no deliveries",
		`document.querySelectorAll('table[aria-label="Watch set"] tbody tr').length === 3 && document.body.innerText.includes('No deliveries yet')`)

	// A test event: its delivery row appears, pending.
	must("send a test event", chromedp.Click(chromedp.ID("hook-test")), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Deliveries"] [data-delivery]`)))
	wantText(t, ctx, "#hook-note", "Test event #1 decided")
	delivery := eval[string](t, ctx, `document.querySelector('table[aria-label="Deliveries"] tbody tr').innerText.replace(/\s+/g, ' ')`)
	if !strings.Contains(delivery, "#1 webhook.test pending 0") {
		t.Fatalf("delivery row %q", delivery)
	}
	eventID := attr(t, ctx, "[data-delivery]", "data-delivery")

	// A failed delivery, redelivered: pending again, attempts kept.
	if _, err := env.db.Exec(`UPDATE syncgate.webhook_deliveries SET status = 'failed', attempts = 5, last_code = 502, last_latency_ms = 1234,
		last_error = 'HTTP 502 from the receiver', last_attempt_at = now() WHERE event_id = $1`, eventID); err != nil {
		t.Fatal(err)
	}
	must("see it failed", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Deliveries"] .badge.failed`)))
	delivery = eval[string](t, ctx, `document.querySelector('table[aria-label="Deliveries"] tbody tr').innerText.replace(/\s+/g, ' ')`)
	if !strings.Contains(delivery, "failed 5 502 1,234 ms HTTP 502 from the receiver") {
		t.Fatalf("failed delivery row %q", delivery)
	}
	shots.take("webhook", "")
	must("redeliver", chromedp.Click(chromedp.CSS(`[data-delivery="`+eventID+`"] [data-action=redeliver]`)),
		chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Deliveries"] .badge.pending`)))
	wantText(t, ctx, "#hook-note", "Event #1 scheduled for delivery again")
	var status string
	var attempts int
	if err := env.db.QueryRow(`SELECT status, attempts FROM syncgate.webhook_deliveries WHERE event_id = $1`, eventID).Scan(&status, &attempts); err != nil || status != "pending" || attempts != 5 {
		t.Fatalf("redelivered: %s %d %v", status, attempts, err)
	}

	// Roll the secret: shown once, with the overlap's end.
	must("roll the secret", chromedp.Click(chromedp.ID("hook-roll")), chromedp.WaitVisible(chromedp.CSS("dialog[open] #f-overlap_seconds")),
		chromedp.SetValue(chromedp.CSS("dialog[open] #f-overlap_seconds"), "600"),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("new-secret")))
	secret := value(t, ctx, "#new-secret")
	if !strings.HasPrefix(secret, "whsec_") || len(secret) != len(firstSecret) || secret == firstSecret {
		t.Fatalf("rolled secret %q", secret)
	}
	wantText(t, ctx, "dialog[open] .warn", "only time the full secret is shown")
	wantText(t, ctx, "dialog[open]", "The previous secret also signs until")
	var overlap float64
	if err := env.db.QueryRow(`SELECT extract(epoch FROM previous_secret_expires_at - updated_at) FROM syncgate.webhooks WHERE id = $1`, hookID).Scan(&overlap); err != nil || overlap != 600 {
		t.Fatalf("overlap %v %v", overlap, err)
	}
	shots.take("webhook-secret", "")
	must("close the secret", chromedp.Click(chromedp.CSS("dialog[open] .btn.primary")), chromedp.WaitVisible(chromedp.ID("hook-note")))
	waitJS("the roll noted", `document.querySelector('#hook-note')?.textContent === 'Secret rolled.'`)
	if n := eval[int](t, ctx, `[...document.querySelectorAll('input')].filter(i => i.value.startsWith('whsec_')).length + (document.body.innerText.includes('whsec_') ? 1 : 0)`); n != 0 {
		t.Fatal("the secret is still in the page after its dialog closed")
	}
	wantText(t, ctx, ".facts", "Previous secret signs until")

	// Disable with a reason: the status and the reason show, redelivery is off.
	must("disable", chromedp.Click(chromedp.ID("hook-disable")), chromedp.WaitVisible(chromedp.CSS("dialog[open] #f-reason")),
		chromedp.SendKeys(chromedp.CSS("dialog[open] #f-reason"), "receiver answers 502 for days"),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("hook-problem")))
	wantText(t, ctx, ".hook-title .badge", "disabled")
	wantText(t, ctx, "#hook-problem", "receiver answers 502 for days")
	if eval[bool](t, ctx, `!!document.querySelector('#hook-disable')`) {
		t.Fatal("a disabled webhook still offers disabling")
	}
	waitJS("redelivery off", `document.querySelector('[data-action=redeliver]')?.disabled === true`)
	httpJSON(t, "GET", ts.URL+"/v1/webhooks/"+hookID, dataKey, "", 200, &hook)
	if hook.Data.Status != "disabled" {
		t.Fatalf("the user sees status %q", hook.Data.Status)
	}
	must("back to the list", chromedp.Click(chromedp.CSS(`.crumbs a[href="#/webhooks/user/`+userID+`"]`)), chromedp.WaitVisible(chromedp.CSS(row)))
	list = eval[[]string](t, ctx, `[...document.querySelectorAll('table[aria-label="Webhooks"] tbody tr')].map(r => r.innerText.replace(/\s+/g, ' '))`)
	if !strings.Contains(list[0], "disabled") || !strings.Contains(list[0], "receiver answers 502 for days") {
		t.Fatalf("disabled row %q", list[0])
	}
	shots.take("webhooks-user", "")

	// Signed out first: the phone screenshots start from the sign-in box.
	must("sign out", chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signin-key")))
	if n := eval[int](t, ctx, `sessionStorage.length`); n != 0 {
		t.Fatal("the admin key outlived sign-out")
	}
	shots.phone(map[string]string{
		"webhooks":      "#/webhooks",
		"webhooks-user": "#/webhooks/user/" + userID,
		"webhook":       "#/webhooks/user/" + userID + "/" + hookID,
	}, partnerKey, ts.URL)
	must("sign in again", chromedp.Navigate(ts.URL+"/console"), chromedp.WaitVisible(chromedp.ID("signin-key")),
		chromedp.SendKeys(chromedp.ID("signin-key"), partnerKey), chromedp.Click(chromedp.ID("signin-submit")), chromedp.WaitVisible(chromedp.CSS(".view > *")))

	// Delete, after confirmation: gone from the list and from the user's API.
	must("open it again", chromedp.Navigate(ts.URL+"/console#/webhooks/user/"+userID+"/"+hookID), chromedp.WaitVisible(chromedp.ID("hook-delete")),
		chromedp.Click(chromedp.ID("hook-delete")), chromedp.WaitVisible(chromedp.CSS("dialog[open] button[type=submit]")))
	wantText(t, ctx, "dialog[open]", "This cannot be undone")
	must("delete", chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS(`[data-webhook="`+pullID+`"]`)))
	if n := eval[int](t, ctx, `document.querySelectorAll('`+row+`').length`); n != 0 {
		t.Fatal("the deleted webhook is still listed")
	}
	httpJSON(t, "GET", ts.URL+"/v1/webhooks/"+hookID, dataKey, "", 404, nil)

	// Every action the console took is in the audit log, no secret in it.
	var actions string
	if err := env.db.QueryRow(`SELECT string_agg(DISTINCT action, ' ' ORDER BY action) FROM syncgate.audit_logs WHERE target_type = 'webhook'
		AND details::text NOT LIKE '%whsec_%'`).Scan(&actions); err != nil {
		t.Fatal(err)
	}
	if want := "webhook.deleted webhook.deliveries_viewed webhook.disabled webhook.items_viewed webhook.listed webhook.redelivered webhook.secret_rolled webhook.tested webhook.viewed"; actions != want {
		t.Fatalf("audited %q\nwant    %q", actions, want)
	}
}

// hookReceiver records the pushes a webhook receiver gets.
type hookReceiver struct {
	mu   sync.Mutex
	reqs []receivedPush
}

type receivedPush struct {
	path   string
	header http.Header
	body   []byte
}

func (rc *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, receivedPush{path: r.URL.Path, header: r.Header.Clone(), body: b})
	rc.mu.Unlock()
}

// last is the newest push to path (false: none yet).
func (rc *hookReceiver) last(path string) (receivedPush, bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i := len(rc.reqs) - 1; i >= 0; i-- {
		if rc.reqs[i].path == path {
			return rc.reqs[i], true
		}
	}
	return receivedPush{}, false
}

// webhookConsoleServer serves the API and console on the first seeded
// chain with hooks as its webhooks store, authenticating against env.
func webhookConsoleServer(t *testing.T, env *adminEnv, cfg config.Config, hooks *events.Store) *httptest.Server {
	t.Helper()
	chain := seededChains(t)[0]
	fast := cache.NewFastClient(env.redis, cache.FastOptions{})
	authn := auth.New(auth.Options{DB: env.db, Redis: fast, Log: quiet, RetryInterval: time.Second})
	store := admin.NewStore(env.db, admin.Options{BootstrapAdminKey: testBootstrapKey, Invalidator: authn, Log: quiet})
	t.Cleanup(func() { store.Close(); authn.Close(); fast.Close() })
	srv := New(Deps{
		Config:      cfg,
		Networks:    map[string]*dbsync.DB{"mainnet": chain.db},
		Redis:       env.redis,
		Credentials: authn,
		Admin:       store,
		Events:      hooks,
		Limiter:     cache.NewLimiter(fast, time.Now),
		Log:         slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// consoleUserKey makes, through the admin API at url, a partner's admin
// key, its user and the user's mainnet data key.
func consoleUserKey(t *testing.T, url string) (partnerKey, userID, dataKey string) {
	t.Helper()
	var created struct {
		Data struct {
			Key    string `json:"key"`
			ID     string `json:"id"`
			APIKey string `json:"api_key"`
		} `json:"data"`
	}
	httpJSON(t, "POST", url+"/v1/admin/keys", testBootstrapKey, `{"admin_entity_name":"Acme Partners","permissions":["manage_users","manage_credentials"]}`, 201, &created)
	partnerKey = created.Data.Key
	httpJSON(t, "POST", url+"/v1/admin/users", partnerKey, `{"name":"Acme Wallet"}`, 201, &created)
	userID = created.Data.ID
	httpJSON(t, "POST", url+"/v1/admin/credentials", partnerKey, `{"name":"hooks","user_account_id":"`+userID+`","network_id":0}`, 201, &created)
	return partnerKey, userID, created.Data.APIKey
}

// TestConsoleWebhookCreateInBrowser drives the New webhook form in
// headless Chromium: a watch item of another network is refused in the
// dialog (the row marked, nothing created); then a Blockfrost-format
// webhook for block.added and delegation.confirmed watching a pool and a
// DRep, whose secret is shown once and then opened. A real delivery
// service pushes its test event to a local receiver, and the delivery log
// shows the Blockfrost-Signature the receiver got (verified with the shown
// secret); a standard webhook's log shows the Standard Webhooks headers.
// The same watch as TestConsoleInBrowser.
func TestConsoleWebhookCreateInBrowser(t *testing.T) {
	requireServices(t) // and Chromium
	env := newAdminEnv(t)
	// Private targets allowed: the receiver is on this machine.
	cfg := config.Config{StatementTimeout: 10 * time.Second, WebhookSecretKey: make([]byte, 32), WebhooksPerUser: 20, WebhookAllowPrivate: true}
	sealer, err := events.NewSealer(cfg.WebhookSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	hooks := events.NewStore(env.db, events.Options{Sealer: sealer})
	pusher, err := delivery.New(delivery.Options{DB: env.db, Events: hooks, Sealer: sealer, AllowPrivate: true, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	hooks.SetEnqueuer(pusher)
	if err := pusher.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		pusher.Stop(ctx) //nolint:errcheck
	})
	rc := &hookReceiver{}
	receiver := httptest.NewServer(rc)
	t.Cleanup(receiver.Close)
	ts := webhookConsoleServer(t, env, cfg, hooks)
	partnerKey, userID, dataKey := consoleUserKey(t, ts.URL)

	ctx, must, finish := startBrowser(t, ts.URL)
	defer finish()
	shots := newScreenshots(t, ctx)
	waitJS := func(what, js string) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, 40*time.Second)
		defer cancel()
		if _, err := chromedp.Run(step, chromedp.Poll[bool](js)); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash + "\n" + document.body.innerText`))
			t.Fatalf("%s: %v\npage: %s", what, err, page)
		}
	}
	must("sign in", chromedp.Navigate(ts.URL+"/console"), chromedp.WaitVisible(chromedp.ID("signin-key")),
		chromedp.SendKeys(chromedp.ID("signin-key"), partnerKey), chromedp.Click(chromedp.ID("signin-submit")), chromedp.WaitVisible(chromedp.ID("new-user")))
	must("the user's webhooks", chromedp.Navigate(ts.URL+"/console#/webhooks/user/"+userID), chromedp.WaitVisible(chromedp.ID("new-webhook")))
	wantText(t, ctx, ".view", "This user has no webhooks.")

	// The form: every event type and item kind the API takes, the
	// defaults checked; the first try names an address of another network.
	must("open the form", chromedp.Click(chromedp.ID("new-webhook")), chromedp.WaitVisible(chromedp.CSS("dialog[open] #f-network")))
	types := eval[[]string](t, ctx, `[...document.querySelectorAll('dialog[open] #f-event-types input')].map(i => i.name.slice(5) + (i.checked ? '*' : ''))`)
	if strings.Join(types, " ") != "tx.confirmed* tx.rolled_back* block.added block.rolled_back epoch.started epoch.rolled_back delegation.confirmed delegation.rolled_back" {
		t.Fatalf("event types offered %q", types)
	}
	kinds := eval[[]string](t, ctx, `[...document.querySelectorAll('dialog[open] [data-item-kind] option')].map(o => o.value)`)
	if strings.Join(kinds, " ") != strings.Join(events.Kinds, " ") {
		t.Fatalf("item kinds offered %q", kinds)
	}
	if f := eval[string](t, ctx, `[...document.querySelectorAll('dialog[open] #f-format option')].map(o => o.value).join(' ')`); f != "standard blockfrost" {
		t.Fatalf("formats offered %q", f)
	}
	bfURL := receiver.URL + "/bf"
	must("fill the form", chromedp.SendKeys(chromedp.CSS("dialog[open] #f-url"), bfURL),
		chromedp.SendKeys(chromedp.CSS("dialog[open] #f-description"), "pool watch"),
		chromedp.SetValue(chromedp.CSS("dialog[open] #f-depth"), "1"),
		chromedp.SetValue(chromedp.CSS("dialog[open] #f-format"), "blockfrost"),
		chromedp.Click(chromedp.CSS(`dialog[open] [id="f-type-tx.confirmed"]`)), chromedp.Click(chromedp.CSS(`dialog[open] [id="f-type-tx.rolled_back"]`)),
		chromedp.Click(chromedp.CSS(`dialog[open] [id="f-type-block.added"]`)), chromedp.Click(chromedp.CSS(`dialog[open] [id="f-type-delegation.confirmed"]`)),
		chromedp.SetValue(chromedp.CSS(`dialog[open] [name="item-kind-0"]`), "pool"),
		chromedp.SendKeys(chromedp.CSS(`dialog[open] [name="item-value-0"]`), hookPoolHex),
		chromedp.Click(chromedp.ID("add-item")), chromedp.WaitVisible(chromedp.CSS(`dialog[open] [name="item-value-1"]`)),
		chromedp.SetValue(chromedp.CSS(`dialog[open] [name="item-kind-1"]`), "address"),
		chromedp.SendKeys(chromedp.CSS(`dialog[open] [name="item-value-1"]`), hookTestnet),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.CSS("dialog[open] .alert")))
	wantText(t, ctx, "dialog[open] .alert", "Invalid items[1]: not a payment address (bech32 or Byron base58) of the webhook's network")
	if bad := eval[string](t, ctx, `[...document.querySelectorAll('dialog[open] .item-row')].map(r => r.getAttribute('aria-invalid') || '-').join(' ')`); bad != "- true" {
		t.Fatalf("rows marked %q", bad)
	}
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	httpJSON(t, "GET", ts.URL+"/v1/admin/users/"+userID+"/webhooks", partnerKey, "", 200, &list)
	if len(list.Data) != 0 {
		t.Fatalf("a refused form created %d webhooks", len(list.Data))
	}
	shots.take("webhook-new", "")

	// Fixed: the second row becomes a DRep; created, the secret shown once.
	must("fix the item and create", chromedp.SetValue(chromedp.CSS(`dialog[open] [name="item-kind-1"]`), "drep"),
		chromedp.SetValue(chromedp.CSS(`dialog[open] [name="item-value-1"]`), hookDRep),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("new-secret")))
	secret := value(t, ctx, "#new-secret")
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q", secret)
	}
	wantText(t, ctx, "dialog[open] .warn", "only time the full secret is shown")
	wantText(t, ctx, "dialog[open]", "Blockfrost-Signature")
	must("close the secret", chromedp.Click(chromedp.CSS("dialog[open] .btn.primary")), chromedp.WaitVisible(chromedp.ID("hook-test")))
	waitJS("the webhook opened with its note", `document.querySelector('#hook-note')?.textContent === 'Webhook created.' && location.hash.split('/').length === 5`)
	hookID := strings.Split(eval[string](t, ctx, `location.hash`), "/")[4]
	if n := eval[int](t, ctx, `[...document.querySelectorAll('input')].filter(i => i.value.startsWith('whsec_')).length + (document.body.innerText.includes('whsec_') ? 1 : 0)`); n != 0 {
		t.Fatal("the secret is still in the page after its dialog closed")
	}
	wantText(t, ctx, ".facts", "Blockfrost (Blockfrost-Signature)")

	// What was created, through the user's API: every field as filled.
	var hook struct {
		Data struct {
			Network     string   `json:"network"`
			URL         string   `json:"url"`
			Description string   `json:"description"`
			Depth       int      `json:"depth"`
			EventTypes  []string `json:"event_types"`
			Format      string   `json:"format"`
			Items       int      `json:"items"`
			Secret      string   `json:"secret"`
		} `json:"data"`
	}
	httpJSON(t, "GET", ts.URL+"/v1/webhooks/"+hookID, dataKey, "", 200, &hook)
	if d := hook.Data; d.Network != "mainnet" || d.URL != bfURL || d.Description != "pool watch" || d.Depth != 1 || d.Format != "blockfrost" ||
		strings.Join(d.EventTypes, ",") != "block.added,delegation.confirmed" || d.Items != 2 || d.Secret != "" {
		t.Fatalf("created %+v", d)
	}
	var items struct {
		Data struct {
			Items []struct{ Kind, Value string } `json:"items"`
		} `json:"data"`
	}
	httpJSON(t, "GET", ts.URL+"/v1/webhooks/"+hookID+"/items", dataKey, "", 200, &items)
	if got := fmt.Sprint(items.Data.Items); got != "[{drep "+hookDRep+"} {pool "+hookPool+"}]" {
		t.Fatalf("items %s", got)
	}

	// A test event, pushed by the delivery service: the log shows the
	// header the receiver got, which the shown secret verifies.
	must("send a test event", chromedp.Click(chromedp.ID("hook-test")), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Deliveries"] [data-delivery]`)))
	var push receivedPush
	deadline := time.Now().Add(40 * time.Second)
	for ok := false; !ok; push, ok = rc.last("/bf") {
		if time.Now().After(deadline) {
			t.Fatal("no push reached the receiver")
		}
		time.Sleep(50 * time.Millisecond)
	}
	sig := push.header.Get("Blockfrost-Signature")
	if !blockfrostVerified(sig, push.body, secret) || push.header.Get("webhook-signature") != "" {
		t.Fatalf("push headers %v do not verify with the shown secret", push.header)
	}
	reloadUntil := func(what, js string) {
		t.Helper()
		deadline := time.Now().Add(40 * time.Second)
		for {
			must("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("hook-test")))
			step, cancel := context.WithTimeout(ctx, 3*time.Second)
			_, err := chromedp.Run(step, chromedp.Poll[bool](js))
			cancel()
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
				t.Fatalf("%s: %v\npage: %s", what, err, page)
			}
		}
	}
	reloadUntil("the delivery succeeded with its header", `!!document.querySelector('table[aria-label="Deliveries"] .badge.succeeded') && !!document.querySelector('[data-sent-headers]')`)
	shown := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-sent-headers] code')].map(c => c.textContent)`)
	if len(shown) != 1 || shown[0] != "Blockfrost-Signature: "+sig {
		t.Fatalf("the log shows %q, the receiver got Blockfrost-Signature %q", shown, sig)
	}
	shots.take("webhook-headers", "")

	// A standard webhook's log shows the Standard Webhooks headers as sent.
	var std struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	httpJSON(t, "POST", ts.URL+"/v1/admin/users/"+userID+"/webhooks", partnerKey, `{"network":"mainnet","url":"`+receiver.URL+`/std"}`, 201, &std)
	httpJSON(t, "POST", ts.URL+"/v1/webhooks/"+std.Data.ID+"/test", dataKey, "", 201, nil)
	must("open the standard webhook", chromedp.Navigate(ts.URL+"/console#/webhooks/user/"+userID+"/"+std.Data.ID), chromedp.WaitVisible(chromedp.ID("hook-test")))
	reloadUntil("the standard delivery's headers", `document.querySelectorAll('[data-sent-headers] code').length === 3`)
	push, ok := rc.last("/std")
	if !ok {
		t.Fatal("no push to the standard webhook")
	}
	shown = eval[[]string](t, ctx, `[...document.querySelectorAll('[data-sent-headers] code')].map(c => c.textContent)`)
	want := []string{"webhook-id: " + push.header.Get("webhook-id"), "webhook-timestamp: " + push.header.Get("webhook-timestamp"),
		"webhook-signature: " + push.header.Get("webhook-signature")}
	if strings.Join(shown, "\n") != strings.Join(want, "\n") || !strings.HasPrefix(push.header.Get("webhook-signature"), "v1,") {
		t.Fatalf("the log shows %q, the receiver got %q", shown, want)
	}

	// Both creations audited, with no secret and no URL.
	var n int
	if err := env.db.QueryRow(`SELECT count(*) FROM syncgate.audit_logs WHERE action = 'webhook.created' AND details::text NOT LIKE '%whsec_%'
		AND details::text NOT LIKE '%127.0.0.1%'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("webhook.created entries %d %v", n, err)
	}
}

// blockfrostVerified checks a Blockfrost-Signature as blockfrost-js does:
// one v1 is the hex HMAC-SHA256 of "<t>.<body>" under the secret as shown.
func blockfrostVerified(header string, body []byte, secret string) bool {
	parts := strings.Split(header, ",")
	if len(parts) < 2 || !strings.HasPrefix(parts[0], "t=") {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strings.TrimPrefix(parts[0], "t=") + "."))
	mac.Write(body)
	want := hex.EncodeToString(mac.Sum(nil))
	for _, p := range parts[1:] {
		if strings.TrimPrefix(p, "v1=") == want {
			return true
		}
	}
	return false
}
