package admin

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestAuditLogsLarge: totals from the trigger-kept counters equal an
// independent count, through inserts and retention pruning; every list
// statement is index-backed.
func TestAuditLogsLarge(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Now()}
	s := newTestStore(t, db, nil, clk)
	ctx := context.Background()
	a, _, _ := fixture(t, s)
	k2, _, err := s.CreateAdminKey(ctx, Bootstrap(""), "other", Permissions)
	if err != nil {
		t.Fatal(err)
	}
	// 20 000 old entries of a (two actions), 5 000 of the other key.
	if _, err := db.Exec(`INSERT INTO syncgate.audit_logs (admin_key_id, action, target_type, created_at)
		SELECT $1, CASE WHEN g % 4 = 0 THEN 'user.created' ELSE 'usage.viewed' END, 'user_account',
		       now() - interval '400 days' + g * interval '1 second'
		FROM generate_series(1, 20000) g`, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO syncgate.audit_logs (admin_key_id, action, target_type)
		SELECT $1, 'user.created', 'user_account' FROM generate_series(1, 5000)`, k2.ID); err != nil {
		t.Fatal(err)
	}
	check := func(name string, who Admin, f AuditFilter, where string, args ...any) {
		t.Helper()
		var want int64
		if err := db.Get(&want, `SELECT count(*) FROM syncgate.audit_logs WHERE `+where, args...); err != nil {
			t.Fatal(err)
		}
		// The list's own audit entry is written after the total is taken.
		_, total, err := s.AuditLogs(ctx, who, f, Page{Limit: 5})
		if err != nil || total != want {
			t.Fatalf("%s: total %d, want %d (%v)", name, total, want, err)
		}
	}
	boot := Bootstrap("")
	created := "user.created"
	check("own", a, AuditFilter{}, `admin_key_id = $1`, a.ID)
	check("own by filter", a, AuditFilter{AdminKeyID: &a.ID}, `admin_key_id = $1`, a.ID)
	check("another's by filter", a, AuditFilter{AdminKeyID: &k2.ID}, `false`)
	check("own action", a, AuditFilter{Action: created}, `admin_key_id = $1 AND action = $2`, a.ID, created)
	check("bootstrap all", boot, AuditFilter{}, `true`)
	check("bootstrap one key", boot, AuditFilter{AdminKeyID: &k2.ID}, `admin_key_id = $1`, k2.ID)
	check("bootstrap action", boot, AuditFilter{Action: created}, `action = $1`, created)
	check("own action and target", a, AuditFilter{Action: created, TargetID: &a.ID}, `false`)

	// Retention: a year keeps the 5 000 recent entries and the fixture's.
	n, err := s.PruneAuditLogs(ctx, 365*24*time.Hour)
	if err != nil || n != 20000 {
		t.Fatalf("pruned %d (%v), want 20000", n, err)
	}
	check("own after pruning", a, AuditFilter{}, `admin_key_id = $1`, a.ID)
	check("bootstrap after pruning", boot, AuditFilter{}, `true`)

	if _, err := db.Exec(`ANALYZE syncgate.audit_logs`); err != nil {
		t.Fatal(err)
	}
	id := uuid.New()
	for _, q := range []struct {
		name string
		sql  string
		args []any
	}{
		// (the bootstrap key sums the counters of every key: one small row per admin key)
		{"count all (key)", sqlCountAuditAll, []any{a.ID, nil}},
		{"count all (key, action)", sqlCountAuditAll, []any{a.ID, created}},
		{"count action (key)", sqlCountAuditLogs, []any{a.ID, created, nil, nil}},
		{"count target (key)", sqlCountAuditLogs, []any{a.ID, nil, nil, id}},
		{"page (key)", sqlAuditLogs, []any{a.ID, nil, nil, nil, 20, 0}},
		{"page action (key)", sqlAuditLogs, []any{a.ID, created, nil, nil, 20, 0}},
		{"prune", sqlPruneAuditLogs, []any{time.Now(), 10}},
	} {
		tx, err := db.Beginx()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
			t.Fatal(err)
		}
		var plan []string
		if err := tx.Select(&plan, "EXPLAIN "+q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
		_ = tx.Rollback()
		if text := strings.Join(plan, "\n"); strings.Contains(text, "Seq Scan") {
			t.Errorf("%s: sequential scan:\n%s", q.name, text)
		}
	}
}
