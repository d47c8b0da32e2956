package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
)

// Watch items valid on mainnet (the test credentials' network).
const (
	hookAddr    = "addr1q9s5ws6xufe74h5vqyhxsd0n2hr4fdg895k9ztut2fjqz93z3znzpvegug3chp4dx556lp38h8ptu3smtj20q83rmdtqcjup2u"
	hookStake   = "stake1uy3g3f3qkv5wyguts6kn22d0scnmns47gcd4e98src3ak4skkxyvj"
	hookTestnet = "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae"
	hookPolicy  = "1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209"
)

// hookEnv is an admin environment whose server serves webhooks over a
// seeded chain (as mainnet), with one partner, user and data key.
type hookEnv struct {
	*adminEnv
	in       *instance
	store    *events.Store
	chain    *dbsync.DB
	adminKey string
	userID   string
	apiKey   string
}

var (
	hookChainOnce sync.Once
	hookChainDSN  string
	hookChainErr  error
)

func newHookEnv(t *testing.T, mutate func(e *adminEnv)) *hookEnv {
	t.Helper()
	e := newAdminEnv(t)
	e.cfg.WebhookSecretKey = make([]byte, 32)
	e.cfg.WebhooksPerUser = 20
	if mutate != nil {
		mutate(e)
	}
	hookChainOnce.Do(func() {
		var drop func()
		// The smallest chain the generator makes: only its tip is read.
		hookChainDSN, _, drop, hookChainErr = testdb.DBSync(chaingen.ModeCore, 2500)
		if hookChainErr == nil {
			chainsDone = append(chainsDone, drop)
		}
	})
	if hookChainErr != nil {
		t.Fatal(hookChainErr)
	}
	chain := testdb.MustOpenDBSync(t, hookChainDSN)
	in := e.instance()
	var store *events.Store
	if len(e.cfg.WebhookSecretKey) > 0 {
		sealer, err := events.NewSealer(e.cfg.WebhookSecretKey)
		if err != nil {
			t.Fatal(err)
		}
		store = events.NewStore(e.db, events.Options{Sealer: sealer, Now: e.clock.Now})
	}
	fast := cache.NewFastClient(e.redis, cache.FastOptions{Now: e.clock.Now})
	t.Cleanup(func() { fast.Close() })
	in.srv = New(Deps{Config: e.cfg, Credentials: in.auth, Admin: in.store, Limiter: cache.NewLimiter(fast, e.clock.Now),
		Networks: map[string]*dbsync.DB{"mainnet": chain}, Events: store, Now: e.clock.Now, Log: quiet})
	h := &hookEnv{adminEnv: e, in: in, store: store, chain: chain}
	_, h.adminKey = e.adminKey(in, "P", allPerms...)
	h.userID = e.user(in, h.adminKey, "u")
	_, h.apiKey = e.credential(in, h.adminKey, h.userID, "")
	return h
}

// hooksSnapshot fingerprints the webhook tables (and the audit log).
func (h *hookEnv) hooksSnapshot() string {
	h.t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t.id)), '') FROM syncgate.webhooks t`,
		`SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t.webhook_id, t.kind, t.value)), '') FROM syncgate.webhook_items t`,
		`SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t.id)), '') FROM syncgate.webhook_events t`,
		`SELECT count(*)::text FROM syncgate.audit_logs`,
	} {
		var s string
		if err := h.db.Get(&s, q); err != nil {
			h.t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// refused sends a request that must be refused with status and message
// and change nothing.
func (h *hookEnv) refused(t *testing.T, method, path, key, body string, status int, msg string) {
	t.Helper()
	before := h.hooksSnapshot()
	h.in.call(t, method, path, key, body).want(t, status, msg)
	if after := h.hooksSnapshot(); after != before {
		t.Fatalf("%s %s changed the database:\nbefore %s\nafter  %s", method, path, before, after)
	}
}

type hookJSON struct {
	ID                 string   `json:"id"`
	Network            string   `json:"network"`
	URL                *string  `json:"url"`
	Depth              int      `json:"depth"`
	EventTypes         []string `json:"event_types"`
	Status             string   `json:"status"`
	Items              int      `json:"items"`
	LastSeq            int64    `json:"last_seq"`
	Secret             string   `json:"secret"`
	SecretRollingUntil *string  `json:"secret_rolling_until"`
}

func (h *hookEnv) create(t *testing.T, body string) hookJSON {
	t.Helper()
	var w hookJSON
	h.in.call(t, "POST", "/v1/webhooks", h.apiKey, body).want(t, 201, "").into(t, &w)
	return w
}

func txItems(from, n int) string {
	var b strings.Builder
	b.WriteString(`[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"kind":"tx","value":"%064x"}`, from+i)
	}
	b.WriteString(`]`)
	return b.String()
}

func TestWebhookCRUD(t *testing.T) {
	h := newHookEnv(t, nil)
	tip, err := h.chain.Tip(context.Background())
	if err != nil || tip.BlockNo == nil {
		t.Fatalf("tip %+v %v", tip, err)
	}
	w := h.create(t, `{"url":"https://example.com/hook","description":"d","depth":3,"items":[{"kind":"address","value":"`+strings.ToUpper(hookAddr)+`"},{"kind":"policy","value":"`+hookPolicy+`"},{"kind":"address","value":"`+hookAddr+`"}]}`)
	if !strings.HasPrefix(w.Secret, "whsec_") || w.Network != "mainnet" || w.Depth != 3 || w.Items != 2 || w.Status != "active" ||
		len(w.EventTypes) != 2 || w.URL == nil {
		t.Fatalf("created %+v", w)
	}
	var through int64
	if err := h.db.Get(&through, `SELECT scanned_through FROM syncgate.webhooks WHERE id = $1`, w.ID); err != nil || through != *tip.BlockNo-3 {
		t.Fatalf("scanned_through %d (tip %d) %v", through, *tip.BlockNo, err)
	}
	pull := h.create(t, `{}`)
	if pull.URL != nil || pull.Depth != 0 {
		t.Fatalf("pull-only %+v", pull)
	}

	// List and get: the secret is never shown again.
	r := h.in.call(t, "GET", "/v1/webhooks", h.apiKey, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 2 || strings.Contains(r.Raw, "whsec_") {
		t.Fatalf("list %s", r.Raw)
	}
	r = h.in.call(t, "GET", "/v1/webhooks/"+w.ID, h.apiKey, "").want(t, 200, "")
	if strings.Contains(r.Raw, "whsec_") {
		t.Fatalf("get shows the secret: %s", r.Raw)
	}

	// Items: canonical forms, keyset pages, removal.
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/items", h.apiKey, `{"items":[{"kind":"stake_address","value":"`+hookStake+`"},{"kind":"asset","value":"`+hookPolicy+`.4E4654"},{"kind":"policy","value":"`+hookPolicy+`"}]}`).want(t, 200, "")
	var page struct {
		Items      []events.Item `json:"items"`
		NextCursor *string       `json:"next_cursor"`
	}
	var all []events.Item
	cursor := ""
	for {
		h.in.call(t, "GET", "/v1/webhooks/"+w.ID+"/items?limit=2"+cursor, h.apiKey, "").want(t, 200, "").into(t, &page)
		all = append(all, page.Items...)
		if page.NextCursor == nil {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	want := []events.Item{{Kind: "address", Value: hookAddr}, {Kind: "asset", Value: hookPolicy + "4e4654"}, {Kind: "policy", Value: hookPolicy}, {Kind: "stake_address", Value: hookStake}}
	if fmt.Sprint(all) != fmt.Sprint(want) {
		t.Fatalf("items %v\nwant %v", all, want)
	}
	var count struct{ Removed, Items int }
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/items/delete", h.apiKey, `{"items":[{"kind":"policy","value":"`+hookPolicy+`"},{"kind":"tx","value":"`+strings.Repeat("0", 64)+`"}]}`).want(t, 200, "").into(t, &count)
	if count.Removed != 1 || count.Items != 3 {
		t.Fatalf("removed %+v", count)
	}

	// PATCH: url null makes it pull only; status active re-enables.
	var p hookJSON
	h.in.call(t, "PATCH", "/v1/webhooks/"+w.ID, h.apiKey, `{"url":null,"depth":5,"event_types":["tx.confirmed"]}`).want(t, 200, "").into(t, &p)
	if p.URL != nil || p.Depth != 5 || fmt.Sprint(p.EventTypes) != "[tx.confirmed]" {
		t.Fatalf("patched %+v", p)
	}
	if _, err := h.db.Exec(`UPDATE syncgate.webhooks SET status = 'disabled', disabled_reason = 'x', disabled_at = now(), failing_since = now() WHERE id = $1`, w.ID); err != nil {
		t.Fatal(err)
	}
	h.in.call(t, "PATCH", "/v1/webhooks/"+w.ID, h.apiKey, `{"status":"active"}`).want(t, 200, "").into(t, &p)
	var marks int
	if err := h.db.Get(&marks, `SELECT count(*) FROM syncgate.webhooks WHERE id = $1 AND status = 'active' AND disabled_reason IS NULL AND disabled_at IS NULL AND failing_since IS NULL`, w.ID); err != nil || marks != 1 {
		t.Fatalf("re-enabled marks %d %v", marks, err)
	}

	// Roll: a new secret; the previous one signs for the overlap.
	var roll struct {
		Secret             string  `json:"secret"`
		SecretRollingUntil *string `json:"secret_rolling_until"`
	}
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/secret/roll", h.apiKey, `{"overlap_seconds":600}`).want(t, 200, "").into(t, &roll)
	if !strings.HasPrefix(roll.Secret, "whsec_") || roll.Secret == w.Secret || roll.SecretRollingUntil == nil {
		t.Fatalf("roll %+v", roll)
	}
	var overlap float64
	if err := h.db.Get(&overlap, `SELECT extract(epoch FROM previous_secret_expires_at - updated_at) FROM syncgate.webhooks WHERE id = $1 AND previous_secret_sealed IS NOT NULL AND previous_secret_sealed <> secret_sealed`, w.ID); err != nil || overlap != 600 {
		t.Fatalf("overlap %v %v", overlap, err)
	}
	h.in.call(t, "GET", "/v1/webhooks/"+w.ID, h.apiKey, "").want(t, 200, "").into(t, &p)
	if p.SecretRollingUntil == nil || *p.SecretRollingUntil != *roll.SecretRollingUntil {
		t.Fatalf("rolling until %v, roll said %v", p.SecretRollingUntil, *roll.SecretRollingUntil)
	}

	// Delete: gone from every route.
	h.in.call(t, "DELETE", "/v1/webhooks/"+pull.ID, h.apiKey, "").want(t, 200, "")
	h.in.call(t, "GET", "/v1/webhooks/"+pull.ID, h.apiKey, "").want(t, 404, "Webhook not found")
	h.in.call(t, "DELETE", "/v1/webhooks/"+pull.ID, h.apiKey, "").want(t, 404, "Webhook not found")
	r = h.in.call(t, "GET", "/v1/webhooks", h.apiKey, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 1 {
		t.Fatalf("after delete %s", r.Raw)
	}
}

func TestWebhookBadInput(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"url":"https://example.com/hook"}`)
	item := func(kind, value string) string {
		return `{"items":[{"kind":"tx","value":"` + strings.Repeat("a", 64) + `"},{"kind":"` + kind + `","value":"` + value + `"}]}`
	}
	cases := []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"unknown kind", "POST", "/v1/webhooks", item("utxo", "x"), 400, "Invalid items[1]: kind must be one of: address, stake_address, payment_credential, policy, asset, tx, pool, drep"},
		{"bad pool", "POST", "/v1/webhooks", item("pool", "pool1xyz"), 400, "Invalid items[1]: not a pool id (pool1… or 56 hex characters)"},
		{"stake as pool", "POST", "/v1/webhooks/" + w.ID + "/items", item("pool", hookStake), 400, "Invalid items[1]: not a pool id (pool1… or 56 hex characters)"},
		{"bad drep", "POST", "/v1/webhooks", item("drep", "drep1qqqq"), 400, "Invalid items[1]: not a DRep id (drep1… as CIP-129 or CIP-105, drep_script1…, drep_always_abstain or drep_always_no_confidence)"},
		{"pool as drep", "POST", "/v1/webhooks", item("drep", strings.Repeat("ab", 28)), 400, "Invalid items[1]: not a DRep id (drep1… as CIP-129 or CIP-105, drep_script1…, drep_always_abstain or drep_always_no_confidence)"},
		{"unknown format", "POST", "/v1/webhooks", `{"format":"koios"}`, 400, "Invalid format: must be one of: standard, blockfrost"},
		{"format type", "POST", "/v1/webhooks", `{"format":1}`, 400, "Invalid format: must be one of: standard, blockfrost"},
		{"unknown event kind", "POST", "/v1/webhooks", `{"event_types":["block.added","block.removed"]}`, 400, "Invalid event_types: must be a non-empty array of: tx.confirmed, tx.rolled_back, block.added, block.rolled_back, epoch.started, epoch.rolled_back, delegation.confirmed, delegation.rolled_back"},
		{"malformed address", "POST", "/v1/webhooks/" + w.ID + "/items", item("address", hookAddr[:len(hookAddr)-1]+"x"), 400, "Invalid items[1]: not a payment address (bech32 or Byron base58) of the webhook's network"},
		{"wrong-network address", "POST", "/v1/webhooks/" + w.ID + "/items", item("address", hookTestnet), 400, "Invalid items[1]: not a payment address (bech32 or Byron base58) of the webhook's network"},
		{"stake as address", "POST", "/v1/webhooks", item("address", hookStake), 400, "Invalid items[1]: not a payment address (bech32 or Byron base58) of the webhook's network"},
		{"bad policy", "POST", "/v1/webhooks", item("policy", hookPolicy[:50]), 400, "Invalid items[1]: not a policy id (56 hex characters)"},
		{"bad tx", "POST", "/v1/webhooks", item("tx", "zz"), 400, "Invalid items[1]: not a transaction hash (64 hex characters)"},
		{"item not object", "POST", "/v1/webhooks", `{"items":["x"]}`, 400, "Invalid items[0]: must be an object with string fields kind and value"},
		{"items empty", "POST", "/v1/webhooks/" + w.ID + "/items", `{"items":[]}`, 400, "Invalid items: must be a non-empty array of at most 10000 {kind, value} objects"},
		{"10001 items", "POST", "/v1/webhooks/" + w.ID + "/items", `{"items":` + txItems(1, 10001) + `}`, 400, "Invalid items: must be a non-empty array of at most 10000 {kind, value} objects"},
		{"bad url", "POST", "/v1/webhooks", `{"url":"not a url"}`, 400, "Invalid url: must be an absolute URL such as https://example.com/hook"},
		{"http url", "POST", "/v1/webhooks", `{"url":"http://example.com/hook"}`, 400, "Invalid url: the scheme must be https"},
		{"loopback url", "POST", "/v1/webhooks", `{"url":"https://127.0.0.1/hook"}`, 400, "Invalid url: the host must not be a private, loopback, link-local or metadata address"},
		{"metadata url", "PATCH", "/v1/webhooks/" + w.ID, `{"url":"https://169.254.169.254/"}`, 400, "Invalid url: the host must not be a private, loopback, link-local or metadata address"},
		{"userinfo url", "PATCH", "/v1/webhooks/" + w.ID, `{"url":"https://a:b@example.com/"}`, 400, "Invalid url: must not contain a user name or password"},
		{"url type", "POST", "/v1/webhooks", `{"url":5}`, 400, "Invalid url: must be a string or null"},
		{"depth -1", "POST", "/v1/webhooks", `{"depth":-1}`, 400, "Invalid depth: must be an integer from 0 to 2160"},
		{"depth 2161", "PATCH", "/v1/webhooks/" + w.ID, `{"depth":2161}`, 400, "Invalid depth: must be an integer from 0 to 2160"},
		{"depth 1.5", "POST", "/v1/webhooks", `{"depth":1.5}`, 400, "Invalid depth: must be an integer from 0 to 2160"},
		{"event types", "POST", "/v1/webhooks", `{"event_types":["webhook.test"]}`, 400, "Invalid event_types: must be a non-empty array of: tx.confirmed, tx.rolled_back, block.added, block.rolled_back, epoch.started, epoch.rolled_back, delegation.confirmed, delegation.rolled_back"},
		{"description", "POST", "/v1/webhooks", `{"description":"` + strings.Repeat("x", 256) + `"}`, 400, "Invalid description: must be a string of 255 characters or less"},
		{"unknown create field", "POST", "/v1/webhooks", `{"urll":"https://example.com"}`, 400, "Unknown field: urll. Allowed: url, description, depth, event_types, format, items"},
		{"unknown patch fields", "PATCH", "/v1/webhooks/" + w.ID, `{"depth":1,"zeta":1,"alpha":2}`, 400, "Unknown fields: alpha, zeta. Allowed: url, description, depth, event_types, status"},
		{"empty patch", "PATCH", "/v1/webhooks/" + w.ID, `{}`, 400, "At least one field (url, description, depth, event_types, status) must be provided"},
		{"status disabled", "PATCH", "/v1/webhooks/" + w.ID, `{"status":"disabled"}`, 400, `Invalid status: only "active" may be set (it re-enables a disabled webhook)`},
		{"overlap", "POST", "/v1/webhooks/" + w.ID + "/secret/roll", `{"overlap_seconds":86401}`, 400, "Invalid overlap_seconds: must be an integer from 0 to 86400"},
		{"not json", "POST", "/v1/webhooks", `[`, 400, "Invalid JSON body"},
		{"feed after", "GET", "/v1/webhooks/" + w.ID + "/events?after=-1", "", 400, "Invalid after: must be a non-negative integer (an event sequence number)"},
		{"feed wait", "GET", "/v1/webhooks/" + w.ID + "/events?wait=31", "", 400, "Invalid wait: must be an integer from 0 to 30"},
		{"feed limit", "GET", "/v1/webhooks/" + w.ID + "/events?limit=1001", "", 400, "Invalid limit: must be an integer from 1 to 1000"},
		{"items cursor", "GET", "/v1/webhooks/" + w.ID + "/items?cursor=!!", "", 400, "Invalid cursor: must be the next_cursor of a previous page"},
		{"not a uuid", "GET", "/v1/webhooks/nope", "", 404, "Webhook not found"},
		{"no such webhook", "GET", "/v1/webhooks/" + uuid.NewString(), "", 404, "Webhook not found"},
		{"redeliver unknown event", "POST", "/v1/webhooks/" + w.ID + "/events/" + uuid.NewString() + "/redeliver", "", 404, "Event not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { h.refused(t, c.method, c.path, h.apiKey, c.body, c.status, c.msg) })
	}
}

func TestWebhookLimits(t *testing.T) {
	h := newHookEnv(t, nil)
	first := h.create(t, `{"items":`+txItems(1, events.MaxItemsPerBatch)+`}`) // a full batch passes the body limit
	if first.Items != events.MaxItemsPerBatch {
		t.Fatalf("items %d", first.Items)
	}
	for range 19 {
		h.create(t, `{}`)
	}
	h.refused(t, "POST", "/v1/webhooks", h.apiKey, `{}`, 409, "Webhook limit reached: a user may hold at most 20 webhooks")

	// The watch-set bound: at 99 999, two more are refused whole, one fits.
	if _, err := h.db.Exec(`UPDATE syncgate.webhooks SET items = $2 WHERE id = $1`, first.ID, events.MaxItems-1); err != nil {
		t.Fatal(err)
	}
	h.refused(t, "POST", "/v1/webhooks/"+first.ID+"/items", h.apiKey, `{"items":`+txItems(20001, 2)+`}`, 409, "Watch set limit reached: a webhook may hold at most 100000 items")
	var count struct{ Added, Items int }
	h.in.call(t, "POST", "/v1/webhooks/"+first.ID+"/items", h.apiKey, `{"items":`+txItems(20001, 1)+`}`).want(t, 200, "").into(t, &count)
	if count.Added != 1 || count.Items != events.MaxItems {
		t.Fatalf("to the limit: %+v", count)
	}
	// Items already held cost nothing.
	h.in.call(t, "POST", "/v1/webhooks/"+first.ID+"/items", h.apiKey, `{"items":`+txItems(1, 5)+`}`).want(t, 200, "").into(t, &count)
	if count.Added != 0 || count.Items != events.MaxItems {
		t.Fatalf("re-added: %+v", count)
	}
}

func TestWebhookTenancy(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{}`)
	otherUser := h.user(h.in, h.adminKey, "u2")
	_, otherKey := h.credential(h.in, h.adminKey, otherUser, "")
	for _, c := range [][2]string{{"GET", ""}, {"PATCH", ""}, {"DELETE", ""}, {"GET", "/items"}, {"GET", "/events"}, {"GET", "/deliveries"}, {"POST", "/test"}, {"POST", "/secret/roll"}} {
		body := ""
		if c[0] == "PATCH" {
			body = `{"depth":1}`
		}
		h.refused(t, c[0], "/v1/webhooks/"+w.ID+c[1], otherKey, body, 404, "Webhook not found")
	}
	r := h.in.call(t, "GET", "/v1/webhooks", otherKey, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 0 {
		t.Fatalf("other user's list: %s", r.Raw)
	}

	// Admin routes: the owning partner sees it; another partner's key and
	// a key without manage_users do not.
	base := "/v1/admin/users/" + h.userID + "/webhooks"
	r = h.in.call(t, "GET", base, h.adminKey, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 1 {
		t.Fatalf("admin list %s", r.Raw)
	}
	h.in.call(t, "GET", base+"/"+w.ID, h.adminKey, "").want(t, 200, "")
	_, stranger := h.adminEnv.adminKey(h.in, "Q", admin.PermManageUsers)
	h.refused(t, "GET", base, stranger, "", 404, "User account not found")
	h.refused(t, "GET", base+"/"+w.ID, stranger, "", 404, "User account not found")
	h.refused(t, "POST", base+"/"+w.ID+"/disable", stranger, "", 404, "User account not found")
	h.refused(t, "DELETE", base+"/"+w.ID, stranger, "", 404, "User account not found")
	h.in.call(t, "GET", "/v1/admin/users/"+otherUser+"/webhooks/"+w.ID, h.adminKey, "").want(t, 404, "Webhook not found")
	_, viewer := h.adminEnv.adminKey(h.in, "R", admin.PermViewUsage)
	h.in.call(t, "GET", base, viewer, "").want(t, 403, "Permission denied: manage_users required")
}

// feed reads the feed.
func (h *hookEnv) feed(t *testing.T, id, query string) (bodies []events.Body, nextAfter int64) {
	t.Helper()
	var f struct {
		Events    []events.Body `json:"events"`
		NextAfter int64         `json:"next_after"`
	}
	h.in.call(t, "GET", "/v1/webhooks/"+id+"/events"+query, h.apiKey, "").want(t, 200, "").into(t, &f)
	return f.Events, f.NextAfter
}

func TestWebhookFeed(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"url":"https://example.com/hook"}`)
	id := uuid.MustParse(w.ID)
	ctx := context.Background()
	for range 5 {
		h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/test", h.apiKey, "").want(t, 201, "")
	}
	all, next := h.feed(t, w.ID, "")
	if len(all) != 5 || next != 5 {
		t.Fatalf("feed %d next %d", len(all), next)
	}
	for i, b := range all {
		if b.Seq != int64(i+1) || b.Type != events.TypeWebhookTest || b.WebhookID != id || b.Network != "mainnet" {
			t.Fatalf("event %d: %+v", i, b)
		}
	}
	page, next := h.feed(t, w.ID, "?after=2&limit=2")
	if len(page) != 2 || page[0].Seq != 3 || page[1].Seq != 4 || next != 4 {
		t.Fatalf("after=2&limit=2: %+v next %d", page, next)
	}
	// An empty answer after the wait, and next_after stays.
	page, next = h.feed(t, w.ID, "?after=5&wait=1")
	if len(page) != 0 || next != 5 {
		t.Fatalf("empty wait: %+v next %d", page, next)
	}
	// A waiting request answers with the event decided meanwhile.
	done := make(chan []events.Body, 1)
	go func() {
		b, _ := h.feed(t, w.ID, "?after=5&wait=30")
		done <- b
	}()
	time.Sleep(300 * time.Millisecond) // most likely waiting by now; either way the event must come back
	tx := h.db.MustBeginTx(ctx, nil)
	if _, err := h.store.AppendEvents(ctx, tx, "mainnet", []events.NewEvent{{WebhookID: id, Type: events.TypeWebhookTest, Data: events.WebhookNote{Message: "late"}}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if b := <-done; len(b) != 1 || b[0].Seq != 6 {
		t.Fatalf("long poll answered %+v", b)
	}

	// Deliveries: one per pushed event, newest first; redelivery resets one.
	r := h.in.call(t, "GET", "/v1/webhooks/"+w.ID+"/deliveries?limit=2", h.apiKey, "").want(t, 200, "")
	var ds []struct {
		EventID  string `json:"event_id"`
		EventSeq int64  `json:"event_seq"`
		Status   string `json:"status"`
	}
	r.into(t, &ds)
	if _, _, total, _ := r.page(t); total != 6 || len(ds) != 2 || ds[0].EventSeq < ds[1].EventSeq {
		t.Fatalf("deliveries %s", r.Raw)
	}
	if _, err := h.db.Exec(`UPDATE syncgate.webhook_deliveries SET status = 'failed', attempts = 3 WHERE event_id = $1`, all[0].ID); err != nil {
		t.Fatal(err)
	}
	var d struct {
		Status   string `json:"status"`
		Attempts int    `json:"attempts"`
	}
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/events/"+all[0].ID.String()+"/redeliver", h.apiKey, "").want(t, 202, "").into(t, &d)
	if d.Status != "pending" || d.Attempts != 3 {
		t.Fatalf("redelivered %+v", d)
	}
	// A pull-only webhook cannot be pushed to.
	h.in.call(t, "PATCH", "/v1/webhooks/"+w.ID, h.apiKey, `{"url":null}`).want(t, 200, "")
	h.refused(t, "POST", "/v1/webhooks/"+w.ID+"/events/"+all[0].ID.String()+"/redeliver", h.apiKey, "", 409, "Webhook does not push events: it has no url or is disabled")
}

func TestWebhookAdminDisable(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"url":"https://example.com/hook"}`)
	base := "/v1/admin/users/" + h.userID + "/webhooks/" + w.ID
	h.refused(t, "POST", base+"/disable", h.adminKey, `{"reason":""}`, 400, "Invalid reason: must be a string of 255 characters or less")
	var got hookJSON
	h.in.call(t, "POST", base+"/disable", h.adminKey, `{"reason":"abuse"}`).want(t, 200, "").into(t, &got)
	if got.Status != "disabled" || got.LastSeq != 1 {
		t.Fatalf("disabled %+v", got)
	}
	evs, _ := h.feed(t, w.ID, "")
	if len(evs) != 1 || evs[0].Type != events.TypeWebhookDisabled || !strings.Contains(string(evs[0].Data), `"abuse"`) {
		t.Fatalf("feed %+v", evs)
	}
	var pushes int
	if err := h.db.Get(&pushes, `SELECT count(*) FROM syncgate.webhook_deliveries`); err != nil || pushes != 0 {
		t.Fatalf("webhook.disabled was pushed: %d %v", pushes, err)
	}
	var audit struct {
		Target  string          `db:"target_id"`
		Type    string          `db:"target_type"`
		Details json.RawMessage `db:"details"`
	}
	if err := h.db.Get(&audit, `SELECT target_id::text, target_type, details FROM syncgate.audit_logs WHERE action = 'webhook.disabled'`); err != nil ||
		audit.Target != w.ID || audit.Type != "webhook" || !strings.Contains(string(audit.Details), `"reason": "abuse"`) {
		t.Fatalf("audit %+v %s %v", audit, audit.Details, err)
	}
	// Disabling again changes nothing.
	h.refused(t, "POST", base+"/disable", h.adminKey, "", 200, "")
	// The user re-enables it; the admin deletes it (audited).
	h.in.call(t, "PATCH", "/v1/webhooks/"+w.ID, h.apiKey, `{"status":"active"}`).want(t, 200, "")
	h.in.call(t, "DELETE", base, h.adminKey, "").want(t, 200, "")
	h.in.call(t, "GET", "/v1/webhooks/"+w.ID, h.apiKey, "").want(t, 404, "Webhook not found")
	var n int
	if err := h.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'webhook.deleted' AND target_id = $1`, w.ID); err != nil || n != 1 {
		t.Fatalf("delete audit %d %v", n, err)
	}
}

// Without WEBHOOK_SECRET_KEY every webhook route answers 503.
func TestWebhooksOff(t *testing.T) {
	h := newHookEnv(t, func(e *adminEnv) { e.cfg.WebhookSecretKey = nil })
	for _, path := range []string{"/v1/webhooks", "/v1/webhooks/" + uuid.NewString() + "/events"} {
		h.in.call(t, "GET", path, h.apiKey, "").want(t, 503, "Webhooks are not configured on this server")
	}
	h.in.call(t, "POST", "/v1/webhooks", "", `{}`).want(t, 503, "Webhooks are not configured on this server")
	h.in.call(t, "GET", "/v1/admin/users/"+h.userID+"/webhooks", h.adminKey, "").want(t, 503, "Webhooks are not configured on this server")
}
