package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/platform/pgdb"
)

// auditBench (--audit-rows N --admin-db URL): gives one admin key N audit
// entries (created once; a rerun reuses them) and times the audit-log list
// as GET /v1/admin/audit-logs runs it (store method: total and page in one
// snapshot, plus the list's own audit entry), unfiltered and filtered by
// action, at offsets 0 to 1000.
func auditBench(ctx context.Context, dbURL string, rows, calls int) error {
	if dbURL == "" {
		return fmt.Errorf("--audit-rows needs --admin-db")
	}
	if err := pgdb.EnsureDatabase(ctx, dbURL); err != nil {
		return err
	}
	db, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := admin.Migrate(ctx, db); err != nil {
		return err
	}
	s := admin.NewStore(db, admin.Options{})
	defer s.Close()
	const name = "bench audit partner"
	var id string
	if err := db.GetContext(ctx, &id, `SELECT COALESCE((SELECT id::text FROM syncgate.admin_keys WHERE admin_entity_name = $1 AND NOT revoked LIMIT 1), '')`, name); err != nil {
		return err
	}
	if id == "" {
		k, _, err := s.CreateAdminKey(ctx, admin.Bootstrap(""), name, admin.Permissions)
		if err != nil {
			return err
		}
		id = k.ID.String()
	}
	var have int64
	if err := db.GetContext(ctx, &have, `SELECT count(*) FROM syncgate.audit_logs WHERE admin_key_id = $1`, id); err != nil {
		return err
	}
	if missing := int64(rows) - have; missing > 0 {
		start := time.Now()
		if _, err := db.ExecContext(ctx, `INSERT INTO syncgate.audit_logs (admin_key_id, action, target_type, target_id, created_at)
			SELECT $1, (ARRAY['usage.viewed','user.created','credential.created','audit_log.viewed'])[1 + g % 4], 'user_account',
			       CASE WHEN g % 10 = 0 THEN gen_random_uuid() END, now() - (g * interval '1 second')
			FROM generate_series(1, $2::bigint) g`, id, missing); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `VACUUM ANALYZE syncgate.audit_logs`); err != nil {
			return err
		}
		fmt.Printf("inserted %d audit entries in %s\n", missing, time.Since(start).Round(time.Millisecond))
	}
	var a admin.Admin
	if err := db.GetContext(ctx, &a.ID, `SELECT id FROM syncgate.admin_keys WHERE id = $1`, id); err != nil {
		return err
	}
	a.Permissions = admin.Permissions
	for _, f := range []struct {
		name   string
		filter admin.AuditFilter
	}{{"unfiltered", admin.AuditFilter{}}, {"action=user.created", admin.AuditFilter{Action: "user.created"}}} {
		var lat []time.Duration
		var total int64
		for range calls {
			off := rand.IntN(51) * 20 // offsets 0..1000
			t0 := time.Now()
			_, n, err := s.AuditLogs(ctx, a, f.filter, admin.Page{Limit: 20, Offset: off})
			if err != nil {
				return err
			}
			lat = append(lat, time.Since(t0))
			total = n
		}
		slices.Sort(lat)
		pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
		fmt.Printf("audit list %-20s total %d: %d calls, p50 %s p99 %s max %s\n", f.name, total, calls,
			pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
	}
	return nil
}
