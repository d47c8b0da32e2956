package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
)

// TestUsageHourly sends data requests in three different hours (one of
// them older than the default 48-hour window), flushes, and checks the
// hourly report against the ledger and against the stored buckets read
// with independent SQL; then the errors.
func TestUsageHourly(t *testing.T) {
	e := newAdminEnv(t)
	e.setClock(time.Date(2026, 11, 20, 9, 15, 0, 0, time.UTC))
	rec := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed by the test
	in := e.usageInstance(rec)
	e.addUsageRoutes(in)
	_, p := e.adminKey(in, "P", allPerms...)
	_, q := e.adminKey(in, "Q", allPerms...)
	_, noUsage := e.adminKey(in, "no usage", admin.PermManageCredentials)
	c1, k1 := e.credential(in, p, e.user(in, p, "alice"), "")
	cq, _ := e.credential(in, q, e.user(in, q, "quinn"), "")

	tr := newTraffic(t, e, in)
	send := func(n int, path string) {
		for i := 0; i < n; i++ {
			tr.send(c1, k1, "GET", path)
		}
	}
	send(2, "/v1/test/whoami") // 2026-11-20 09:00, outside the default window at the end
	e.setClock(time.Date(2026, 11, 21, 14, 5, 0, 0, time.UTC))
	send(3, "/v1/test/whoami")
	send(1, "/v1/test/missing")
	e.setClock(time.Date(2026, 11, 22, 10, 40, 0, 0, time.UTC))
	send(4, "/v1/test/whoami")
	send(2, "/v1/test/missing")
	if err := rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}

	type hourly struct {
		CredentialID string `json:"credential_id"`
		PeriodStart  string `json:"period_start"`
		PeriodEnd    string `json:"period_end"`
		Hourly       []struct {
			Hour   string `json:"hour"`
			Total  int64  `json:"total_requests"`
			OK     int64  `json:"successful_requests"`
			Failed int64  `json:"failed_requests"`
		} `json:"hourly"`
	}
	get := func(query string) hourly {
		t.Helper()
		var h hourly
		in.call(t, "GET", "/v1/admin/usage/"+c1+"/hourly"+query, p, "").want(t, 200, "").into(t, &h)
		return h
	}

	// Default window: the 48 hours before now (now at 11-22 10:40, the
	// current hour included): 11-20 11:00 to 11-22 11:00.
	h := get("")
	if h.CredentialID != c1 || h.PeriodStart != "2026-11-20T11:00:00.000Z" || h.PeriodEnd != "2026-11-22T11:00:00.000Z" {
		t.Fatalf("default window: %+v", h)
	}
	if len(h.Hourly) != 2 ||
		h.Hourly[0].Hour != "2026-11-21T14:00:00.000Z" || h.Hourly[0].Total != 4 || h.Hourly[0].OK != 3 || h.Hourly[0].Failed != 1 ||
		h.Hourly[1].Hour != "2026-11-22T10:00:00.000Z" || h.Hourly[1].Total != 6 || h.Hourly[1].OK != 4 || h.Hourly[1].Failed != 2 {
		t.Fatalf("default window buckets: %+v", h.Hourly)
	}

	// An explicit window holding all three hours agrees with the buckets
	// read straight from the table and with what was sent.
	h = get("?start_date=2026-11-20&end_date=2026-11-22")
	var stored []struct {
		Hour   time.Time `db:"hour"`
		Total  int64     `db:"total_requests"`
		OK     int64     `db:"successful_requests"`
		Failed int64     `db:"failed_requests"`
	}
	if err := e.db.Select(&stored, `SELECT hour, total_requests, successful_requests, failed_requests
		FROM syncgate.usage_hourly WHERE credential_id = $1 ORDER BY hour`, c1); err != nil {
		t.Fatal(err)
	}
	if len(h.Hourly) != len(stored) || len(stored) != 3 {
		t.Fatalf("%d hours reported, %d stored, want 3", len(h.Hourly), len(stored))
	}
	var sum int64
	for i, s := range stored {
		got := h.Hourly[i]
		if got.Hour != isoTime(s.Hour) || got.Total != s.Total || got.OK != s.OK || got.Failed != s.Failed {
			t.Errorf("hour %d: reported %+v, stored %+v", i, got, s)
		}
		sum += got.Total
	}
	if want := tr.want([]string{c1}); sum != want.total {
		t.Errorf("hourly sum %d, sent %d", sum, want.total)
	}

	for _, c := range []struct {
		path, key string
		status    int
		msg       string
	}{
		{"/v1/admin/usage/" + cq + "/hourly", p, 404, "Credential not found"},
		{"/v1/admin/usage/00000000-0000-0000-0000-00000000dead/hourly", p, 404, "Credential not found"},
		{"/v1/admin/usage/nope/hourly", p, 400, "Invalid credential ID format"},
		{"/v1/admin/usage/" + c1 + "/hourly", noUsage, 403, "Permission denied: view_usage required"},
		{"/v1/admin/usage/" + c1 + "/hourly", "", 401, "Missing or malformed Authorization header"},
		{"/v1/admin/usage/" + c1 + "/hourly?start_date=2026-10-01", p, 400, "Hourly usage covers at most 31 days: narrow start_date and end_date"},
		{"/v1/admin/usage/" + c1 + "/hourly?start_date=2026-11-23", p, 400, "start_date must be before end_date"},
		{"/v1/admin/usage/" + c1 + "/hourly?end_date=x", p, 400, "Invalid end_date format"},
	} {
		in.call(t, "GET", c.path, c.key, "").want(t, c.status, c.msg)
	}

	// Reads are audited like the other usage reports.
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'usage.viewed'
		AND target_id = $1 AND details->>'report' = 'credential_hourly'`, c1); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d audited hourly reads, want 2", n)
	}
}
