package handlers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
)

// Pool and DRep items valid on every network (their ids carry no network).
const (
	hookPoolHex  = "0f292fcaa02b8b2f9b3c8f9fd8e0bb21abedb692a6d5058df3ef2735"
	hookPool     = "pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy"
	hookDRep     = "drep1ytf29wgf5llmd22ankjewqrdcjvsx9zvyru2qlpwjyr042gajpq70"
	adminHookURL = "https://example.com/hook?token=t0ps3cret"
)

// withNetwork puts "network": net first in a JSON object body.
func withNetwork(net, body string) string {
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body), "{"))
	if rest == "}" {
		return `{"network":"` + net + `"}`
	}
	return `{"network":"` + net + `",` + rest
}

// The admin creation makes the webhook the user route would (same body,
// same answer) for the chosen user and network, shows the secret once and
// audits what was asked, never the URL or the secret.
func TestWebhookAdminCreate(t *testing.T) {
	h := newHookEnv(t, nil)
	body := `{"url":"` + adminHookURL + `","description":"by the partner","depth":2,"format":"blockfrost",
		"event_types":["block.added","delegation.confirmed","block.added"],
		"items":[{"kind":"pool","value":"` + hookPoolHex + `"},{"kind":"drep","value":"` + hookDRep + `"},{"kind":"address","value":"` + hookAddr + `"}]}`
	path := "/v1/admin/users/" + h.userID + "/webhooks"
	var byAdmin, byUser struct {
		hookJSON
		UserAccountID string `json:"user_account_id"`
		Description   string `json:"description"`
		Format        string `json:"format"`
	}
	r := h.in.call(t, "POST", path, h.adminKey, withNetwork("mainnet", body)).want(t, 201, "")
	r.into(t, &byAdmin)
	h.in.call(t, "POST", "/v1/webhooks", h.apiKey, body).want(t, 201, "").into(t, &byUser)
	if !strings.HasPrefix(byAdmin.Secret, "whsec_") || byAdmin.Secret == byUser.Secret || byAdmin.UserAccountID != h.userID {
		t.Fatalf("created %s", r.Raw)
	}
	var env struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(r.Raw), &env); err != nil || env.Message != "Webhook created successfully; the secret is shown only now" {
		t.Fatalf("message %q %v", env.Message, err)
	}
	// The same webhook but for its id and secret.
	a, u := byAdmin, byUser
	a.ID, a.Secret, u.ID, u.Secret = "", "", "", ""
	if ab, ub := mustJSON(t, a), mustJSON(t, u); ab != ub {
		t.Fatalf("admin created %s\nuser created %s", ab, ub)
	}
	if a.Network != "mainnet" || a.Format != "blockfrost" || strings.Join(a.EventTypes, ",") != "block.added,delegation.confirmed" || a.Items != 3 || a.Depth != 2 {
		t.Fatalf("created %+v", a)
	}
	// The user's key sees it on its network, the secret never again.
	r = h.in.call(t, "GET", "/v1/webhooks/"+byAdmin.ID, h.apiKey, "").want(t, 200, "")
	if strings.Contains(r.Raw, "whsec_") {
		t.Fatalf("secret shown again: %s", r.Raw)
	}
	var page struct {
		Items []struct{ Kind, Value string } `json:"items"`
	}
	h.in.call(t, "GET", "/v1/webhooks/"+byAdmin.ID+"/items", h.apiKey, "").want(t, 200, "").into(t, &page)
	if got := mustJSON(t, page.Items); got != `[{"Kind":"address","Value":"`+hookAddr+`"},{"Kind":"drep","Value":"`+hookDRep+`"},{"Kind":"pool","Value":"`+hookPool+`"}]` {
		t.Fatalf("items %s", got)
	}
	// Its scan starts at the tip minus its depth, as the user route's.
	var through []int64
	if err := h.db.Select(&through, `SELECT scanned_through FROM syncgate.webhooks WHERE id = ANY($1::uuid[]) ORDER BY 1`, "{"+byAdmin.ID+","+byUser.ID+"}"); err != nil || len(through) != 2 || through[0] != through[1] {
		t.Fatalf("scanned_through %v %v", through, err)
	}

	d := h.auditOf(t, "webhook.created", byAdmin.ID)
	if d["user_account_id"] != h.userID || d["network"] != "mainnet" || d["format"] != "blockfrost" || d["items"] != float64(3) || d["pushes"] != true ||
		mustJSON(t, d["event_types"]) != `["block.added","delegation.confirmed"]` {
		t.Fatalf("audit %v", d)
	}
	var leaked int
	if err := h.db.Get(&leaked, `SELECT count(*) FROM syncgate.audit_logs WHERE details::text LIKE '%whsec_%' OR details::text LIKE '%t0ps3cret%'`); err != nil || leaked != 0 {
		t.Fatalf("a secret or the URL in the audit log: %d %v", leaked, err)
	}
	// The user route's creation is not audited (the user's own change).
	var userAudits int
	if err := h.db.Get(&userAudits, `SELECT count(*) FROM syncgate.audit_logs WHERE target_id = $1`, byUser.ID); err != nil || userAudits != 0 {
		t.Fatalf("user creation audited: %d %v", userAudits, err)
	}

	// A pull-only webhook with every default: the user route's defaults.
	var plain hookJSON
	h.in.call(t, "POST", path, h.adminKey, `{"network":"mainnet"}`).want(t, 201, "").into(t, &plain)
	if plain.URL != nil || plain.Depth != 0 || strings.Join(plain.EventTypes, ",") != "tx.confirmed,tx.rolled_back" || plain.Items != 0 || !strings.HasPrefix(plain.Secret, "whsec_") {
		t.Fatalf("defaults %+v", plain)
	}
	if d := h.auditOf(t, "webhook.created", plain.ID); d["pushes"] != false || d["format"] != "standard" {
		t.Fatalf("plain audit %v", d)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every refusal of the admin creation: each bad body the user route
// refuses, with its message; the network; tenancy, permission and the
// per-user limit. None creates anything or writes an audit entry.
func TestWebhookAdminCreateRefusals(t *testing.T) {
	h := newHookEnv(t, func(e *adminEnv) { e.cfg.WebhooksPerUser = 2 })
	path := "/v1/admin/users/" + h.userID + "/webhooks"
	item := func(kind, value string) string {
		return `{"items":[{"kind":"tx","value":"` + strings.Repeat("a", 64) + `"},{"kind":"` + kind + `","value":"` + value + `"}]}`
	}
	// The user route's refusals of a creation body, word for word.
	bodies := map[string]string{
		"unknown kind":      item("utxo", "x"),
		"bad pool":          item("pool", "pool1xyz"),
		"bad drep":          item("drep", "drep1qqqq"),
		"wrong-network":     item("address", hookTestnet),
		"stake as address":  item("address", hookStake),
		"bad stake":         item("stake_address", hookAddr),
		"bad credential":    item("payment_credential", "addr_vkh1"),
		"bad policy":        item("policy", hookPolicy[:50]),
		"bad asset":         item("asset", "zz"),
		"bad tx":            item("tx", "zz"),
		"item not object":   `{"items":["x"]}`,
		"items not array":   `{"items":{}}`,
		"10001 items":       `{"items":` + txItems(1, 10001) + `}`,
		"unknown format":    `{"format":"koios"}`,
		"format type":       `{"format":1}`,
		"event kind":        `{"event_types":["block.added","block.removed"]}`,
		"event types empty": `{"event_types":[]}`,
		"webhook.test":      `{"event_types":["webhook.test"]}`,
		"bad url":           `{"url":"not a url"}`,
		"http url":          `{"url":"http://example.com/hook"}`,
		"loopback url":      `{"url":"https://127.0.0.1/hook"}`,
		"userinfo url":      `{"url":"https://a:b@example.com/"}`,
		"url type":          `{"url":5}`,
		"depth -1":          `{"depth":-1}`,
		"depth 2161":        `{"depth":2161}`,
		"depth 1.5":         `{"depth":1.5}`,
		"description":       `{"description":"` + strings.Repeat("x", 256) + `"}`,
		"description type":  `{"description":7}`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			before := h.hooksSnapshot()
			user := h.in.call(t, "POST", "/v1/webhooks", h.apiKey, body)
			if user.Code != 400 || user.Error == "" {
				t.Fatalf("user route: %d %s", user.Code, user.Raw)
			}
			h.refused(t, "POST", path, h.adminKey, withNetwork("mainnet", body), 400, user.Error)
			if after := h.hooksSnapshot(); after != before {
				t.Fatalf("the user route created something: %s", body)
			}
		})
	}

	served := "Invalid network: required, one of the networks this server serves: mainnet"
	cases := []struct {
		name, path, key, body string
		status                int
		msg                   string
	}{
		{"no network", path, h.adminKey, `{"url":"https://example.com/hook"}`, 400, served},
		{"empty body", path, h.adminKey, `{}`, 400, served},
		{"null network", path, h.adminKey, `{"network":null}`, 400, served},
		{"network id", path, h.adminKey, `{"network":0}`, 400, served},
		{"unknown network", path, h.adminKey, `{"network":"testnet"}`, 400, served},
		{"capitalised network", path, h.adminKey, `{"network":"Mainnet"}`, 400, served},
		{"network not served", path, h.adminKey, `{"network":"preprod"}`, 400, served},
		// Items are checked against the chosen network.
		{"item of another network", path, h.adminKey, withNetwork("mainnet", item("address", hookTestnet)), 400,
			"Invalid items[1]: not a payment address (bech32 or Byron base58) of the webhook's network"},
		{"unknown field", path, h.adminKey, `{"network":"mainnet","urll":"https://example.com"}`, 400,
			"Unknown field: urll. Allowed: network, url, description, depth, event_types, format, items"},
		{"not json", path, h.adminKey, `[`, 400, "Invalid JSON body"},
		{"not an object", path, h.adminKey, `"mainnet"`, 400, "Invalid JSON body"},
		{"unknown user", "/v1/admin/users/" + uuid.NewString() + "/webhooks", h.adminKey, `{"network":"mainnet"}`, 404, "User account not found"},
		{"user not a uuid", "/v1/admin/users/nope/webhooks", h.adminKey, `{"network":"mainnet"}`, 404, "User account not found"},
		// Tenancy before the body: another partner learns nothing from it.
		{"unknown user, bad body", "/v1/admin/users/" + uuid.NewString() + "/webhooks", h.adminKey, `{"depth":-1}`, 404, "User account not found"},
		{"no key", path, "", `{"network":"mainnet"}`, 401, "Missing or malformed Authorization header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { h.refused(t, "POST", c.path, c.key, c.body, c.status, c.msg) })
	}

	t.Run("another partner", func(t *testing.T) {
		_, stranger := h.adminEnv.adminKey(h.in, "Q", admin.PermManageUsers)
		h.refused(t, "POST", path, stranger, `{"network":"mainnet"}`, 404, "User account not found")
	})
	t.Run("no manage_users", func(t *testing.T) {
		_, viewer := h.adminEnv.adminKey(h.in, "R", admin.PermViewUsage, admin.PermManageCredentials)
		h.refused(t, "POST", path, viewer, `{"network":"mainnet"}`, 403, "Permission denied: manage_users required")
	})

	// The per-user limit counts the webhooks made either way.
	h.create(t, `{}`)
	h.in.call(t, "POST", path, h.adminKey, `{"network":"mainnet"}`).want(t, 201, "")
	h.refused(t, "POST", path, h.adminKey, `{"network":"mainnet"}`, 409, "Webhook limit reached: a user may hold at most 2 webhooks")
	h.refused(t, "POST", "/v1/webhooks", h.apiKey, `{}`, 409, "Webhook limit reached: a user may hold at most 2 webhooks")
	// A plan's max_webhooks_per_user applies to it as to the user route.
	plan := h.createPlan(h.in, h.adminKey, `{"name":"Three","rate_limit_per_minute":60,"max_webhooks_per_user":3}`)
	h.in.call(t, "PATCH", "/v1/admin/users/"+h.userID, h.adminKey, `{"plan_id":"`+plan+`"}`).want(t, 200, "")
	h.in.call(t, "POST", path, h.adminKey, `{"network":"mainnet"}`).want(t, 201, "")
	h.refused(t, "POST", path, h.adminKey, `{"network":"mainnet"}`, 409, "Webhook limit reached: a user may hold at most 3 webhooks")
	if n := h.heldHooks(t, h.userID); n != 3 {
		t.Fatalf("%d webhooks held", n)
	}
}

// Without WEBHOOK_SECRET_KEY the admin creation answers 503 as every
// webhook route (after the admin key's checks, as its siblings).
func TestWebhookAdminCreateOff(t *testing.T) {
	h := newHookEnv(t, func(e *adminEnv) { e.cfg.WebhookSecretKey = nil })
	h.in.call(t, "POST", "/v1/admin/users/"+h.userID+"/webhooks", h.adminKey, `{"network":"mainnet"}`).
		want(t, 503, "Webhooks are not configured on this server")
}
