package admin

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var sqlUserOwned = sqlfiles.Must("admin/user_owned.sql")

// TargetWebhook is the target type of the admin webhook actions (their
// action names are package events' Audit* constants).
const TargetWebhook = "webhook"

// CheckUserOwned returns ErrNotFound unless a's partner owns user id (the
// admin webhook routes' tenancy check; nothing is audited).
func (s *Store) CheckUserOwned(ctx context.Context, a Admin, id uuid.UUID) error {
	var ok bool
	err := s.db.GetContext(ctx, &ok, sqlUserOwned, id, a.PartnerID)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// WebhookAudit returns the function that writes a's audit entry for a
// webhook action inside another store's transaction (package events runs
// the action; the entry commits with it or not at all).
func (s *Store) WebhookAudit(a Admin) func(ctx context.Context, tx *sqlx.Tx, action string, webhookID *uuid.UUID, details map[string]any) error {
	return func(ctx context.Context, tx *sqlx.Tx, action string, webhookID *uuid.UUID, details map[string]any) error {
		return s.writeAudit(ctx, tx, auditEntry{a: a, action: action, targetType: TargetWebhook, targetID: webhookID, details: details})
	}
}
