package handlers

import (
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// logLines returns the JSON log lines in logs with the given message.
func logLines(t *testing.T, logs *testdb.LogBuffer, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// callFromIP sends a request with a bearer key from the given client IP.
func (in *instance) callFromIP(t *testing.T, ip, method, path, key string) int {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	req.RemoteAddr = ip + ":1234"
	w := httptest.NewRecorder()
	in.srv.Handler().ServeHTTP(w, req)
	return w.Code
}

// TestSecurityEvents: denied admin requests are logged and stored within
// per-IP and per-minute caps and a row cap; the bootstrap key reads them
// paginated; nothing of a presented key is kept anywhere.
func TestSecurityEvents(t *testing.T) {
	e := newAdminEnv(t)
	logs := &testdb.LogBuffer{}
	e.log = slog.New(slog.NewJSONHandler(logs, nil))
	e.secOpts = admin.SecurityEventOptions{PerIPPerMinute: 3, PerMinute: 5, MaxRows: 4, FlushInterval: 10 * time.Millisecond}
	in := e.instance()
	keyID, usersOnly := e.adminKey(in, "users only", admin.PermManageUsers)
	const secret = "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e7"
	unknown := "sga1_" + secret

	// IP A floods: 3 recorded. IP B is denied a permission: 1, with its key id.
	// IP C: the instance's minute budget (5) leaves room for one more.
	for range 6 {
		if code := in.callFromIP(t, "198.51.100.1", "GET", "/v1/admin/users", unknown); code != 401 {
			t.Fatalf("unknown key: %d", code)
		}
	}
	if code := in.callFromIP(t, "198.51.100.2", "GET", "/v1/admin/audit-logs", usersOnly); code != 403 {
		t.Fatalf("missing permission: %d", code)
	}
	for range 2 {
		if code := in.callFromIP(t, "198.51.100.3", "DELETE", "/v1/admin/keys/"+keyID, usersOnly); code != 403 {
			t.Fatalf("not bootstrap: %d", code)
		}
	}
	// 5 rows were written, the oldest pruned down to the cap of 4.
	waitRows := func(maxID, count int) {
		t.Helper()
		var got struct {
			MaxID int `db:"max_id"`
			Count int `db:"count"`
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if err := e.db.Get(&got, `SELECT coalesce(max(id), 0) AS max_id, count(*) AS count FROM syncgate.security_events`); err != nil {
				t.Fatal(err)
			}
			if got.MaxID == maxID && got.Count == count {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("security_events: max id %d, %d rows; want %d, %d", got.MaxID, got.Count, maxID, count)
			}
		}
	}
	waitRows(5, 4)
	if n := len(logLines(t, logs, "security event")); n != 5 {
		t.Fatalf("%d security event log lines, want 5", n)
	}

	r := in.call(t, "GET", "/v1/admin/security-events?limit=2", testBootstrapKey, "").want(t, 200, "")
	var events []map[string]any
	r.into(t, &events)
	if limit, offset, total, more := r.page(t); limit != 2 || offset != 0 || total != 4 || more == nil || !*more || len(events) != 2 {
		t.Fatalf("page: %s", r.Raw)
	}
	ev := events[0]
	if ev["ip_address"] != "198.51.100.3" || ev["method"] != "DELETE" || ev["path"] != "/v1/admin/keys/:id" ||
		ev["status"] != float64(403) || ev["reason"] != "Permission denied: bootstrap key required" || ev["admin_key_id"] != keyID {
		t.Fatalf("newest event: %v", ev)
	}
	r = in.call(t, "GET", "/v1/admin/security-events?limit=2&offset=2", testBootstrapKey, "").want(t, 200, "")
	r.into(t, &events)
	if len(events) != 2 || events[1]["ip_address"] != "198.51.100.1" || events[1]["status"] != float64(401) ||
		events[1]["reason"] != "Invalid API key" || events[1]["admin_key_id"] != nil {
		t.Fatalf("oldest kept events: %s", r.Raw)
	}

	// A new minute: the caps start again, and the suppressed ones are counted in one line.
	e.clock.Add(time.Minute)
	in.callFromIP(t, "198.51.100.1", "GET", "/v1/admin/users", unknown)
	waitRows(6, 4)
	sup := logLines(t, logs, "security events not recorded (per-minute caps)")
	if len(sup) != 1 || sup[0]["suppressed"] != float64(4) {
		t.Fatalf("suppression lines: %v", sup)
	}

	// Nothing of the presented key is stored or logged with the events.
	var dump string
	if err := e.db.Get(&dump, `SELECT coalesce(string_agg(e::text, '|'), '') FROM syncgate.security_events e`); err != nil {
		t.Fatal(err)
	}
	evLines, _ := json.Marshal(logLines(t, logs, "security event"))
	for _, part := range []string{secret[:8], usersOnly[5:13], testBootstrapKey[10:24]} {
		if strings.Contains(dump, part) || strings.Contains(string(evLines), part) {
			t.Fatalf("key material %q stored or logged", part)
		}
	}
	// Reading them is audited; other keys are refused by the middleware.
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'security_event.viewed'`); err != nil || n != 2 {
		t.Fatalf("security_event.viewed entries: %d, %v", n, err)
	}
	in.call(t, "GET", "/v1/admin/security-events", usersOnly, "").want(t, 403, "Permission denied: bootstrap key required")
	in.call(t, "GET", "/v1/admin/security-events?limit=101", testBootstrapKey, "").want(t, 400, "Invalid limit: must be an integer from 1 to 100")
}
