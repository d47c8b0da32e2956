package admin

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlInsertAuditLog = sqlfiles.Must("admin/insert_audit_log.sql")
	sqlAuditLogs      = sqlfiles.Must("admin/audit_logs.sql")
	sqlCountAuditLogs = sqlfiles.Must("admin/count_audit_logs.sql")
	sqlCountAuditAll  = sqlfiles.Must("admin/count_audit_logs_all.sql")
	sqlPruneAuditLogs = sqlfiles.Must("admin/prune_audit_logs.sql")
)

// AuditEntry is one audit log row (OpenAPI schema AuditEntry).
type AuditEntry struct {
	ID         uuid.UUID  `db:"id"`
	Action     string     `db:"action"`
	AdminKeyID uuid.UUID  `db:"admin_key_id"`
	EntityName string     `db:"admin_entity_name"`
	TargetID   *uuid.UUID `db:"target_id"`
	TargetType string     `db:"target_type"`
	IPAddress  *string    `db:"ip_address"`
	Details    []byte     `db:"details"` // a JSON object
	CreatedAt  time.Time  `db:"created_at"`
}

// AuditFilter narrows the audit log list; zero fields do not filter.
type AuditFilter struct {
	Action     string
	AdminKeyID *uuid.UUID
	TargetID   *uuid.UUID
}

// auditEntry is one audit record waiting to be written.
type auditEntry struct {
	a          Admin
	action     string
	targetType string
	targetID   *uuid.UUID
	details    map[string]any
}

// audit writes one entry inside the action's transaction (for a snapshot
// read, right after it: inSnapshotTx). details must never hold a key
// (prefixes are fine).
func (s *Store) audit(ctx context.Context, tx *sqlx.Tx, a Admin, action, targetType string, targetID *uuid.UUID, details map[string]any) error {
	e := auditEntry{a: a, action: action, targetType: targetType, targetID: targetID, details: details}
	s.deferredMu.Lock()
	q := s.deferred[tx]
	s.deferredMu.Unlock()
	if q != nil {
		*q = append(*q, e)
		return nil
	}
	return s.writeAudit(ctx, tx, e)
}

func (s *Store) writeAudit(ctx context.Context, tx *sqlx.Tx, e auditEntry) error {
	details := e.details
	if details == nil {
		details = map[string]any{}
	}
	d, err := json.Marshal(details)
	if err != nil {
		return err
	}
	var ip *string
	if parsed := net.ParseIP(e.a.IP); parsed != nil {
		v := parsed.String()
		ip = &v
	}
	_, err = tx.ExecContext(ctx, sqlInsertAuditLog, newID(), e.a.ID, e.action, e.targetID, e.targetType, ip, string(d))
	return err
}

// AuditLogs lists audit entries newest first with the total. An admin key
// sees only its own entries; the bootstrap key sees all. The read itself
// is recorded (audit_log.viewed) after the page is taken.
func (s *Store) AuditLogs(ctx context.Context, a Admin, f AuditFilter, p Page) (entries []AuditEntry, total int64, err error) {
	var visible *uuid.UUID
	if !a.Bootstrap {
		visible = &a.ID
	}
	var action *string
	if f.Action != "" {
		action = &f.Action
	}
	err = s.inSnapshotTx(ctx, "AuditLogs", func(tx *sqlx.Tx) error {
		if err := s.countAudit(ctx, tx, visible, action, f, &total); err != nil {
			return err
		}
		entries = []AuditEntry{}
		if err := tx.SelectContext(ctx, &entries, sqlAuditLogs, visible, action, f.AdminKeyID, f.TargetID, p.Limit, p.Offset); err != nil {
			return err
		}
		details := map[string]any{"limit": p.Limit, "offset": p.Offset}
		if f.Action != "" {
			details["action"] = f.Action
		}
		if f.AdminKeyID != nil {
			details["admin_key_id"] = f.AdminKeyID.String()
		}
		if f.TargetID != nil {
			details["target_id"] = f.TargetID.String()
		}
		return s.audit(ctx, tx, a, ActionAuditLogViewed, TargetAuditLog, nil, details)
	})
	return entries, total, err
}

// countAudit counts the entries a list matches: without a target filter
// from the trigger-kept counters (a row per key and action, however large
// the log), otherwise over the target index.
func (s *Store) countAudit(ctx context.Context, tx *sqlx.Tx, visible *uuid.UUID, action *string, f AuditFilter, total *int64) error {
	if f.TargetID == nil {
		key := visible
		switch {
		case f.AdminKeyID == nil:
		case visible == nil:
			key = f.AdminKeyID
		case *f.AdminKeyID != *visible:
			*total = 0 // another key's entries: none visible
			return nil
		}
		return tx.GetContext(ctx, total, sqlCountAuditAll, key, action)
	}
	return tx.GetContext(ctx, total, sqlCountAuditLogs, visible, action, f.AdminKeyID, f.TargetID)
}

// pruneBatch is how many audit entries one pruning statement deletes.
const pruneBatch = 10_000

// PruneAuditLogs deletes audit entries older than retention, in short
// batches, and returns how many went.
func (s *Store) PruneAuditLogs(ctx context.Context, retention time.Duration) (int64, error) {
	cutoff := s.now().Add(-retention)
	var total int64
	for {
		res, err := s.db.ExecContext(ctx, sqlPruneAuditLogs, cutoff, pruneBatch)
		if err != nil {
			return total, wrap("PruneAuditLogs", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < pruneBatch {
			return total, nil
		}
	}
}

// RunAuditRetention prunes entries older than retention now and every
// hour until ctx ends (AUDIT_RETENTION; any number of instances may run
// it, the deletes are idempotent).
func (s *Store) RunAuditRetention(ctx context.Context, retention time.Duration) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		n, err := s.PruneAuditLogs(ctx, retention)
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.Warn("audit retention failed; will retry", slog.String("error", err.Error()))
		case n > 0:
			s.log.Info("audit entries pruned", slog.Int64("deleted", n), slog.Duration("retention", retention))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
