package handlers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
)

// auditOf returns the details of the newest audit entry with action for
// webhook id (fails when there is none).
func (h *hookEnv) auditOf(t *testing.T, action, id string) map[string]any {
	t.Helper()
	var raw json.RawMessage
	if err := h.db.Get(&raw, `SELECT details FROM syncgate.audit_logs WHERE action = $1 AND target_type = 'webhook' AND target_id = $2
		ORDER BY created_at DESC LIMIT 1`, action, id); err != nil {
		t.Fatalf("audit %s for %s: %v", action, id, err)
	}
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The console's admin routes on one webhook: the same answers as the
// user's routes, each audited in the action's transaction.
func TestWebhookAdminConsoleRoutes(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"url":"https://example.com/hook","items":`+txItems(1, 3)+`}`)
	base := "/v1/admin/users/" + h.userID + "/webhooks/" + w.ID

	// Test event: decided and, the webhook pushing, a pending delivery.
	var test struct {
		EventID string `json:"event_id"`
		Seq     int64  `json:"seq"`
		Pushed  bool   `json:"pushed"`
	}
	h.in.call(t, "POST", base+"/test", h.adminKey, "").want(t, 201, "").into(t, &test)
	if test.Seq != 1 || !test.Pushed {
		t.Fatalf("test %+v", test)
	}
	if d := h.auditOf(t, "webhook.tested", w.ID); d["event_id"] != test.EventID || d["seq"] != float64(1) || d["user_account_id"] != h.userID {
		t.Fatalf("tested audit %v", d)
	}
	evs, _ := h.feed(t, w.ID, "")
	if len(evs) != 1 || evs[0].ID.String() != test.EventID || evs[0].Type != "webhook.test" {
		t.Fatalf("feed %+v", evs)
	}
	h.in.call(t, "POST", base+"/test", h.adminKey, "").want(t, 201, "")

	// Deliveries: the same page as the user's route.
	type delivery struct {
		EventID  string `json:"event_id"`
		EventSeq int64  `json:"event_seq"`
		Status   string `json:"status"`
		Attempts int    `json:"attempts"`
	}
	var ds, userDs []delivery
	r := h.in.call(t, "GET", base+"/deliveries?limit=1&offset=1", h.adminKey, "").want(t, 200, "")
	r.into(t, &ds)
	if _, _, total, _ := r.page(t); total != 2 || len(ds) != 1 || ds[0].EventID != test.EventID || ds[0].Status != "pending" {
		t.Fatalf("admin deliveries %s", r.Raw)
	}
	h.in.call(t, "GET", "/v1/webhooks/"+w.ID+"/deliveries?limit=1&offset=1", h.apiKey, "").want(t, 200, "").into(t, &userDs)
	if len(userDs) != 1 || userDs[0] != ds[0] {
		t.Fatalf("user deliveries %+v, admin %+v", userDs, ds)
	}
	h.auditOf(t, "webhook.deliveries_viewed", w.ID)

	// Redeliver a failed delivery: pending again, attempts kept.
	if _, err := h.db.Exec(`UPDATE syncgate.webhook_deliveries SET status = 'failed', attempts = 4 WHERE event_id = $1`, test.EventID); err != nil {
		t.Fatal(err)
	}
	var d delivery
	h.in.call(t, "POST", base+"/events/"+test.EventID+"/redeliver", h.adminKey, "").want(t, 202, "").into(t, &d)
	if d.Status != "pending" || d.Attempts != 4 || d.EventSeq != 1 {
		t.Fatalf("redelivered %+v", d)
	}
	if a := h.auditOf(t, "webhook.redelivered", w.ID); a["event_id"] != test.EventID {
		t.Fatalf("redelivered audit %v", a)
	}

	// Items: keyset pages, as the user's route.
	var page struct {
		Items []struct {
			Kind  string `json:"kind"`
			Value string `json:"value"`
		} `json:"items"`
		NextCursor *string `json:"next_cursor"`
	}
	var values []string
	cursor := ""
	for range 5 {
		h.in.call(t, "GET", base+"/items?limit=2"+cursor, h.adminKey, "").want(t, 200, "").into(t, &page)
		for _, it := range page.Items {
			values = append(values, it.Kind+":"+it.Value[60:])
		}
		if page.NextCursor == nil {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	if strings.Join(values, " ") != "tx:0001 tx:0002 tx:0003" {
		t.Fatalf("items %v", values)
	}
	h.auditOf(t, "webhook.items_viewed", w.ID)

	// Roll: the new secret in the answer only, the overlap in the audit.
	var roll struct {
		Secret             string  `json:"secret"`
		SecretRollingUntil *string `json:"secret_rolling_until"`
	}
	h.in.call(t, "POST", base+"/secret/roll", h.adminKey, `{"overlap_seconds":120}`).want(t, 200, "").into(t, &roll)
	if !strings.HasPrefix(roll.Secret, "whsec_") || roll.Secret == w.Secret || roll.SecretRollingUntil == nil {
		t.Fatalf("roll %+v", roll)
	}
	a := h.auditOf(t, "webhook.secret_rolled", w.ID)
	if a["overlap_seconds"] != float64(120) {
		t.Fatalf("roll audit %v", a)
	}
	var leaked int
	if err := h.db.Get(&leaked, `SELECT count(*) FROM syncgate.audit_logs WHERE details::text LIKE '%whsec_%'`); err != nil || leaked != 0 {
		t.Fatalf("a secret in the audit log: %d %v", leaked, err)
	}
	var got hookJSON
	h.in.call(t, "GET", "/v1/webhooks/"+w.ID, h.apiKey, "").want(t, 200, "").into(t, &got)
	if got.SecretRollingUntil == nil || *got.SecretRollingUntil != *roll.SecretRollingUntil {
		t.Fatalf("user sees rolling until %v, roll said %s", got.SecretRollingUntil, *roll.SecretRollingUntil)
	}
	// An empty body takes the default overlap.
	h.in.call(t, "POST", base+"/secret/roll", h.adminKey, "").want(t, 200, "")
	if a := h.auditOf(t, "webhook.secret_rolled", w.ID); a["overlap_seconds"] != float64(3600) {
		t.Fatalf("default roll audit %v", a)
	}

	// Failing deliveries show as failing_since (the console's "failing since").
	if _, err := h.db.Exec(`UPDATE syncgate.webhooks SET failing_since = '2026-01-02T03:04:05.678Z' WHERE id = $1`, w.ID); err != nil {
		t.Fatal(err)
	}
	var failing struct {
		FailingSince *string `json:"failing_since"`
	}
	h.in.call(t, "GET", base, h.adminKey, "").want(t, 200, "").into(t, &failing)
	if failing.FailingSince == nil || *failing.FailingSince != "2026-01-02T03:04:05.678Z" {
		t.Fatalf("failing_since %v", failing.FailingSince)
	}

	// A disabled webhook cannot be pushed to; its test event is decided
	// for the feed only.
	h.in.call(t, "POST", base+"/disable", h.adminKey, "").want(t, 200, "")
	h.refused(t, "POST", base+"/events/"+test.EventID+"/redeliver", h.adminKey, "", 409, "Webhook does not push events: it has no url or is disabled")
	h.in.call(t, "POST", base+"/test", h.adminKey, "").want(t, 201, "").into(t, &test)
	if test.Pushed {
		t.Fatalf("a disabled webhook's test was pushed: %+v", test)
	}
}

// Every refusal of the console's admin routes: tenancy, permission, bad
// ids and parameters; none changes anything or writes an audit entry.
func TestWebhookAdminConsoleRefusals(t *testing.T) {
	h := newHookEnv(t, nil)
	w := h.create(t, `{"url":"https://example.com/hook","items":`+txItems(1, 1)+`}`)
	base := "/v1/admin/users/" + h.userID + "/webhooks/" + w.ID
	var test struct {
		EventID string `json:"event_id"`
	}
	h.in.call(t, "POST", "/v1/webhooks/"+w.ID+"/test", h.apiKey, "").want(t, 201, "").into(t, &test)
	otherUser := h.user(h.in, h.adminKey, "u2")
	_, stranger := h.adminEnv.adminKey(h.in, "Q", admin.PermManageUsers)
	strangerUser := h.user(h.in, stranger, "theirs")
	_, viewer := h.adminEnv.adminKey(h.in, "R", admin.PermViewUsage)

	routes := []struct{ method, suffix, body string }{
		{"GET", "/items", ""},
		{"GET", "/deliveries", ""},
		{"POST", "/events/" + test.EventID + "/redeliver", ""},
		{"POST", "/test", ""},
		{"POST", "/secret/roll", `{"overlap_seconds":60}`},
	}
	for _, rt := range routes {
		t.Run(rt.method+rt.suffix, func(t *testing.T) {
			// Another partner's key: the user is not theirs.
			h.refused(t, rt.method, base+rt.suffix, stranger, rt.body, 404, "User account not found")
			// Another partner's key naming its own user: not that user's webhook.
			h.refused(t, rt.method, "/v1/admin/users/"+strangerUser+"/webhooks/"+w.ID+rt.suffix, stranger, rt.body, 404, "Webhook not found")
			// The owning partner, another of its users.
			h.refused(t, rt.method, "/v1/admin/users/"+otherUser+"/webhooks/"+w.ID+rt.suffix, h.adminKey, rt.body, 404, "Webhook not found")
			// Ids that are not UUIDs name nothing (as every admin route).
			h.refused(t, rt.method, "/v1/admin/users/nope/webhooks/"+w.ID+rt.suffix, h.adminKey, rt.body, 404, "User account not found")
			h.refused(t, rt.method, "/v1/admin/users/"+h.userID+"/webhooks/nope"+rt.suffix, h.adminKey, rt.body, 404, "Webhook not found")
			h.refused(t, rt.method, "/v1/admin/users/"+h.userID+"/webhooks/"+uuid.NewString()+rt.suffix, h.adminKey, rt.body, 404, "Webhook not found")
			// No manage_users; no key.
			h.refused(t, rt.method, base+rt.suffix, viewer, rt.body, 403, "Permission denied: manage_users required")
			h.refused(t, rt.method, base+rt.suffix, "", rt.body, 401, "Missing or malformed Authorization header")
		})
	}

	cases := []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"deliveries limit 0", "GET", base + "/deliveries?limit=0", "", 400, "Invalid limit: must be an integer from 1 to 100"},
		{"deliveries limit 101", "GET", base + "/deliveries?limit=101", "", 400, "Invalid limit: must be an integer from 1 to 100"},
		{"deliveries offset", "GET", base + "/deliveries?offset=-1", "", 400, "Invalid offset: must be an integer from 0 to 1000000"},
		{"items limit", "GET", base + "/items?limit=1001", "", 400, "Invalid limit: must be an integer from 1 to 1000"},
		{"items cursor", "GET", base + "/items?cursor=!!", "", 400, "Invalid cursor: must be the next_cursor of a previous page"},
		{"roll overlap", "POST", base + "/secret/roll", `{"overlap_seconds":86401}`, 400, "Invalid overlap_seconds: must be an integer from 0 to 86400"},
		{"roll overlap type", "POST", base + "/secret/roll", `{"overlap_seconds":"60"}`, 400, "Invalid overlap_seconds: must be an integer from 0 to 86400"},
		{"roll unknown field", "POST", base + "/secret/roll", `{"overlap":60}`, 400, "Unknown field: overlap. Allowed: overlap_seconds"},
		{"roll not json", "POST", base + "/secret/roll", `[`, 400, "Invalid JSON body"},
		{"redeliver bad event id", "POST", base + "/events/nope/redeliver", "", 404, "Event not found"},
		{"redeliver unknown event", "POST", base + "/events/" + uuid.NewString() + "/redeliver", "", 404, "Event not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { h.refused(t, c.method, c.path, h.adminKey, c.body, c.status, c.msg) })
	}

	// A pull-only webhook has nothing to redeliver to.
	h.in.call(t, "PATCH", "/v1/webhooks/"+w.ID, h.apiKey, `{"url":null}`).want(t, 200, "")
	h.refused(t, "POST", base+"/events/"+test.EventID+"/redeliver", h.adminKey, "", 409, "Webhook does not push events: it has no url or is disabled")
	// A deleted webhook is gone from these routes too.
	h.in.call(t, "DELETE", "/v1/webhooks/"+w.ID, h.apiKey, "").want(t, 200, "")
	for _, rt := range routes {
		h.refused(t, rt.method, base+rt.suffix, h.adminKey, rt.body, 404, "Webhook not found")
	}
}
