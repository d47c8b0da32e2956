package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// userQuota is GET /v1/admin/users/:id/quota's data.
type userQuota struct {
	UserAccountID string `json:"user_account_id"`
	Plan          *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"plan"`
	Daily, Monthly *struct {
		Quota       int64  `json:"quota"`
		Used        int64  `json:"used"`
		Remaining   int64  `json:"remaining"`
		PeriodStart string `json:"period_start"`
		ResetsAt    string `json:"resets_at"`
	}
}

// TestUserQuotaEndpoint: GET /v1/admin/users/:id/quota reports the
// counters the data requests are checked against: it goes up with each
// authenticated request, agrees with the RateLimit field and the 402,
// counts nothing itself, survives Redis losing the counters (read from
// usage_hourly without recreating them), and answers only the user's
// partner with view_usage.
func TestUserQuotaEndpoint(t *testing.T) {
	e := newAdminEnv(t)
	own := testdb.NewRedisServer(t) // flushed below
	rc, err := cache.New(own.URL(), "sgq:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	e.redis = rc
	e.fastTimeout = 2 * time.Second // no local fallback under CPU load
	e.clock.t = time.Date(2030, 1, 15, 12, 0, 0, 0, time.UTC)
	rec := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed by the test
	in := e.usageInstance(rec)
	_, a := e.adminKey(in, "Partner", allPerms...)
	_, b := e.adminKey(in, "Other partner", allPerms...)
	_, usersOnly := e.adminKey(in, "Users only", admin.PermManageUsers)
	plan := e.createPlan(in, a, `{"name":"Metered","rate_limit_per_minute":1000,"daily_quota":5,"monthly_quota":8}`)
	r := in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	_, key := e.credential(in, a, u.ID, "")
	path := "/v1/admin/users/" + u.ID + "/quota"

	get := func(daily, monthly int64) userQuota {
		t.Helper()
		var q userQuota
		in.call(t, "GET", path, a, "").want(t, 200, "").into(t, &q)
		if q.UserAccountID != u.ID || q.Plan == nil || q.Plan.ID != plan || q.Plan.Name != "Metered" || q.Daily == nil || q.Monthly == nil {
			t.Fatalf("quota %+v", q)
		}
		if q.Daily.Used != daily || q.Monthly.Used != monthly || q.Daily.Remaining != max(0, 5-daily) || q.Monthly.Remaining != max(0, 8-monthly) {
			t.Fatalf("used %d/%d remaining %d/%d, want used %d/%d", q.Daily.Used, q.Monthly.Used, q.Daily.Remaining, q.Monthly.Remaining, daily, monthly)
		}
		if q.Daily.Quota != 5 || q.Daily.PeriodStart != "2030-01-15T00:00:00.000Z" || q.Daily.ResetsAt != "2030-01-16T00:00:00.000Z" ||
			q.Monthly.Quota != 8 || q.Monthly.PeriodStart != "2030-01-01T00:00:00.000Z" || q.Monthly.ResetsAt != "2030-02-01T00:00:00.000Z" {
			t.Fatalf("periods %+v %+v", *q.Daily, *q.Monthly)
		}
		return q
	}
	get(0, 0)
	for range 3 {
		in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
	}
	get(3, 3)
	get(3, 3) // reading counts nothing
	// The next request is checked against the same count.
	r = in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
	if _, lim := parseRateLimitHeaders(t, r.Header); lim.name != "daily" || lim.r != 1 {
		t.Fatalf("after the gauge showed 3 of 5: RateLimit %+v", lim)
	}
	in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
	get(5, 5) // spent: the next one is refused
	in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 402, "Daily request quota exceeded")
	get(6, 6)

	// Redis loses the counters: the report reads usage_hourly and leaves
	// the rebuild to the next data request.
	if err := rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := rc.Redis().FlushAll(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	get(6, 6)
	if keys, err := rc.Redis().Keys(context.Background(), "*quota*").Result(); err != nil || len(keys) != 0 {
		t.Fatalf("the report created counters %v (%v)", keys, err)
	}
	in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 402, "Daily request quota exceeded")
	get(7, 7)
	// The next day starts over; the month goes on.
	e.clock.Add(12 * time.Hour)
	var q userQuota
	in.call(t, "GET", path, a, "").want(t, 200, "").into(t, &q)
	if q.Daily.Used != 0 || q.Daily.ResetsAt != "2030-01-17T00:00:00.000Z" || q.Monthly.Used != 7 || q.Monthly.Remaining != 1 {
		t.Fatalf("next day %+v %+v", *q.Daily, *q.Monthly)
	}

	// A plan without a monthly quota, and a user without a plan.
	in.call(t, "PATCH", "/v1/admin/plans/"+plan, a, `{"monthly_quota":null}`).want(t, 200, "")
	r = in.call(t, "GET", path, a, "").want(t, 200, "")
	if !strings.Contains(r.Raw, `"monthly":null`) || strings.Contains(r.Raw, `"daily":null`) {
		t.Fatalf("daily only: %s", r.Raw)
	}
	free := e.user(in, a, "free")
	r = in.call(t, "GET", "/v1/admin/users/"+free+"/quota", a, "").want(t, 200, "")
	if !strings.Contains(r.Raw, `"plan":null,"daily":null,"monthly":null`) {
		t.Fatalf("no plan: %s", r.Raw)
	}

	// Tenancy and permission: 404 like a missing user, 403 without
	// view_usage; nothing written.
	e.unchanged(t, func() {
		in.call(t, "GET", path, b, "").want(t, 404, "User account not found")
		in.call(t, "GET", "/v1/admin/users/not-a-uuid/quota", a, "").want(t, 404, "User account not found")
		in.call(t, "GET", "/v1/admin/users/"+newUUID()+"/quota", a, "").want(t, 404, "User account not found")
		in.call(t, "GET", path, testBootstrapKey, "").want(t, 404, "User account not found")
		in.call(t, "GET", path, usersOnly, "").want(t, 403, "Permission denied: view_usage required")
		in.call(t, "GET", path, "", "").want(t, 401, "Missing or malformed Authorization header")
	})

	// Each report is audited as a usage read of the user.
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'usage.viewed' AND target_id = $1
		AND details->>'report' = 'quota'`, u.ID); err != nil || n != 9 {
		t.Fatalf("%d quota reports audited (%v)", n, err)
	}
}
