package admin

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"
)

func TestCeilHour(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	india := time.FixedZone("IST", 5*3600+1800)
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), "2026-11-20T10:00:00Z"},
		{time.Date(2026, 11, 20, 10, 0, 0, 1, time.UTC), "2026-11-20T11:00:00Z"},
		{time.Date(2026, 11, 20, 23, 59, 59, 0, time.UTC), "2026-11-21T00:00:00Z"},
		{time.Date(2026, 11, 20, 11, 0, 0, 0, paris), "2026-11-20T10:00:00Z"},
		{time.Date(2026, 11, 20, 11, 0, 0, 0, india), "2026-11-20T06:00:00Z"}, // 05:30 UTC
	} {
		if got := CeilHour(tc.in).Format(time.RFC3339); got != tc.want {
			t.Errorf("CeilHour(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestUsageCredentialPeriod: an open window reports the creation hour and
// the end of the current hour, widened to take in any bucket outside them,
// so the period always holds every count; a given window is reported as
// its whole hours.
func TestUsageCredentialPeriod(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Date(2026, 11, 20, 12, 34, 0, 0, time.UTC)}
	s := newTestStore(t, db, nil, clk)
	ctx := context.Background()
	a, c, _ := fixture(t, s)
	if _, err := db.Exec(`UPDATE syncgate.credentials SET created_at = '2026-11-10T08:15:00Z' WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	period := func(w UsageWindow) string {
		t.Helper()
		r, err := s.UsageCredential(ctx, a, c.ID, w)
		if err != nil {
			t.Fatal(err)
		}
		return r.PeriodStart.Format(time.RFC3339) + " " + r.PeriodEnd.Format(time.RFC3339)
	}
	if got := period(UsageWindow{}); got != "2026-11-10T08:00:00Z 2026-11-20T13:00:00Z" {
		t.Errorf("open window without traffic: %s", got)
	}
	// Buckets older than the creation hour (clock skew between instances)
	// and newer than now.
	for _, h := range []string{"2026-11-10T06:00:00Z", "2026-11-20T15:00:00Z"} {
		if _, err := db.Exec(`INSERT INTO syncgate.usage_hourly VALUES ($1, $2, 1, 1, 0, 1)`, c.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	if got := period(UsageWindow{}); got != "2026-11-10T06:00:00Z 2026-11-20T16:00:00Z" {
		t.Errorf("open window with outlying buckets: %s", got)
	}
	start, end := time.Date(2026, 11, 10, 6, 30, 0, 0, time.UTC), time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	r, err := s.UsageCredential(ctx, a, c.ID, UsageWindow{Start: &start, End: &end})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.PeriodStart.Format(time.RFC3339) + " " + r.PeriodEnd.Format(time.RFC3339); got != "2026-11-10T07:00:00Z 2026-11-20T15:00:00Z" || r.Total != 0 || len(r.Daily) != 0 {
		t.Errorf("window between the buckets: %s, %+v", got, r)
	}
	if _, err := s.UsageCredential(ctx, Bootstrap(""), c.ID, UsageWindow{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("bootstrap: %v", err)
	}
}

// TestUsageCredentialCount: a key counts as active until the instant it
// expires, never once revoked.
func TestUsageCredentialCount(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	s := newTestStore(t, db, nil, clk)
	ctx := context.Background()
	a, c, _ := fixture(t, s)
	exp := clk.now().Add(time.Minute)
	if _, _, err := s.CreateCredential(ctx, a, NewCredential{Name: "expiring", UserAccountID: c.UserAccountID, ExpiresAt: &exp}); err != nil {
		t.Fatal(err)
	}
	revoked, _, err := s.CreateCredential(ctx, a, NewCredential{Name: "revoked", UserAccountID: c.UserAccountID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RevokeCredential(ctx, a, revoked.ID); err != nil {
		t.Fatal(err)
	}
	count := func() (int64, int64) {
		t.Helper()
		start, end := clk.now().Add(-time.Hour), clk.now()
		u, err := s.UsageUser(ctx, a, c.UserAccountID, start, end)
		if err != nil {
			t.Fatal(err)
		}
		us, _, err := s.UsageUsers(ctx, a, start, end, Page{Limit: 10})
		if err != nil || len(us) != 1 {
			t.Fatalf("%+v %v", us, err)
		}
		return u.CredentialCount, us[0].CredentialCount
	}
	if one, all := count(); one != 2 || all != 2 {
		t.Errorf("before expiry: %d, %d active keys, want 2", one, all)
	}
	clk.add(time.Minute) // now == expires_at: expired, as authentication judges it
	if one, all := count(); one != 1 || all != 1 {
		t.Errorf("at expiry: %d, %d active keys, want 1", one, all)
	}
}

// TestUsageQueriesUseIndexes: with sequential scans priced out, every usage
// query reads usage_hourly only through index-only scans of its covering
// primary key (migration 0004), and the other tables through indexes.
func TestUsageQueriesUseIndexes(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, nil, clk)
	a, c, _ := fixture(t, s)
	if _, err := db.Exec(`INSERT INTO syncgate.usage_hourly
		SELECT $1, timestamptz '2026-11-01' + h * interval '1 hour', 3, 2, 1, 9 FROM generate_series(0, 500) h`, c.ID); err != nil {
		t.Fatal(err)
	}
	// Index-only scans are only chosen once the visibility map says the
	// pages are all-visible. VACUUM cannot say so while a snapshot older
	// than the insert is open in the database (another connection of this
	// test, a concurrent package's test under load), so retry briefly
	// rather than let the plan depend on timing.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := db.Exec(`VACUUM ANALYZE syncgate.usage_hourly`); err != nil {
			t.Fatal(err)
		}
		var allVisible bool
		if err := db.Get(&allVisible, `SELECT relallvisible >= relpages FROM pg_class WHERE oid = 'syncgate.usage_hourly'::regclass`); err != nil {
			t.Fatal(err)
		}
		if allVisible {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("usage_hourly never became all-visible: a long transaction holds the database's horizon back")
		}
		time.Sleep(100 * time.Millisecond)
	}
	start, end, now := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC), time.Now()
	for _, q := range []struct {
		name string
		sql  string
		args []any
	}{
		{"usage_credentials", sqlUsageCredentials, []any{a.ID, start, end, 20, 0}},
		{"usage_credentials open", sqlUsageCredentials, []any{a.ID, nil, nil, 20, 0}},
		{"usage_credential_daily", sqlUsageCredentialDaily, []any{c.ID, start, end}},
		{"usage_credential_daily open", sqlUsageCredentialDaily, []any{c.ID, nil, nil}},
		{"usage_credential_hourly", sqlUsageCredentialHourly, []any{c.ID, start, end}},
		{"usage_user", sqlUsageUser, []any{a.ID, start, end, now, c.UserAccountID}},
		{"usage_users", sqlUsageUsers, []any{a.ID, start, end, now, 20, 0}},
	} {
		t.Run(q.name, func(t *testing.T) {
			tx, err := db.BeginTxx(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback() //nolint:errcheck
			if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
				t.Fatal(err)
			}
			var plan []string
			if err := tx.Select(&plan, "EXPLAIN "+q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
			text := strings.Join(plan, "\n")
			if strings.Contains(text, "Seq Scan") {
				t.Errorf("sequential scan:\n%s", text)
			}
			if !strings.Contains(text, "Index Only Scan using usage_hourly_pkey on usage_hourly") ||
				regexp.MustCompile(`(Index|Bitmap Heap) Scan (using \S+ )?on usage_hourly`).MatchString(text) {
				t.Errorf("usage_hourly not read index-only:\n%s", text)
			}
		})
	}
}

// TestUsageWindowAligned: bounds round up to whole hours; nil stays open.
func TestUsageWindowAligned(t *testing.T) {
	s := time.Date(2026, 11, 1, 10, 30, 0, 0, time.UTC)
	w := UsageWindow{Start: &s}.aligned()
	if w.End != nil || !w.Start.Equal(time.Date(2026, 11, 1, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("%v %v", w.Start, w.End)
	}
	if !s.Equal(time.Date(2026, 11, 1, 10, 30, 0, 0, time.UTC)) {
		t.Fatal("aligned changed its input")
	}
}

// TestUsageRouteFlushPlan: the recorder's per-route-group upsert finds its
// conflicting rows through usage_route_hourly's primary key (the counts
// in its INCLUDE keep the export index-only) and reads no other table.
func TestUsageRouteFlushPlan(t *testing.T) {
	db := migrated(t)
	var plan []string
	if err := db.Select(&plan, "EXPLAIN "+sqlUsageRouteFlush, pq.Array([]string{uuid.NewString()}),
		pq.Array([]time.Time{time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}), pq.Array([]string{GroupChain}),
		pq.Array([]int64{1}), pq.Array([]int64{0}), pq.Array([]int64{0}), pq.Array([]int64{0}), pq.Array([]int64{512})); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "Insert on usage_route_hourly") || !strings.Contains(text, "Conflict Arbiter Indexes: usage_route_hourly_pkey") ||
		regexp.MustCompile(`(Seq|Index|Index Only|Bitmap Heap) Scan`).MatchString(text) {
		t.Errorf("route flush plan:\n%s", text)
	}
}
