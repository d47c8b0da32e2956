package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlDeliveryTarget        = sqlfiles.Must("admin/delivery_target.sql")
	sqlDeliveryRecord        = sqlfiles.Must("admin/delivery_record.sql")
	sqlDeliveryCancel        = sqlfiles.Must("admin/delivery_cancel.sql")
	sqlDeliveryCancelWebhook = sqlfiles.Must("admin/delivery_cancel_webhook.sql")
	sqlDeliveryDisable       = sqlfiles.Must("admin/delivery_disable_webhook.sql")
	sqlDeliveryDisableAudit  = sqlfiles.Must("admin/delivery_disable_audit.sql")
	sqlDeliveryRedeliver     = sqlfiles.Must("admin/delivery_redeliver.sql")
)

// Push delivery statuses (webhook_deliveries.status). Pending and failed
// are still owed; the others are final.
const (
	DeliveryPending   = "pending"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
	DeliveryGone      = "gone"
	DeliveryCancelled = "cancelled"
)

// PushTarget is what one push delivery needs: the delivery's state, the
// exact body and the webhook it goes to (secrets still sealed).
type PushTarget struct {
	EventID       uuid.UUID `db:"event_id"`
	WebhookID     uuid.UUID `db:"webhook_id"`
	Status        string    `db:"status"` // the delivery's
	Attempts      int       `db:"attempts"`
	Body          string    `db:"body"`
	UserAccountID uuid.UUID `db:"user_account_id"`
	URL           *string   `db:"url"`
	WebhookStatus string    `db:"webhook_status"`
	Deleted       bool      `db:"deleted"`
	SecretSealed  []byte    `db:"secret_sealed"`
	// PreviousSecretSealed signs too while PreviousSecretExpiresAt is ahead.
	PreviousSecretSealed    []byte     `db:"previous_secret_sealed"`
	PreviousSecretExpiresAt *time.Time `db:"previous_secret_expires_at"`
	FailingSince            *time.Time `db:"failing_since"`
}

// Owed reports whether the delivery still has to be made.
func (p *PushTarget) Owed() bool {
	return p.Status == DeliveryPending || p.Status == DeliveryFailed
}

// Pushes reports whether the webhook still takes pushes.
func (p *PushTarget) Pushes() bool {
	return p.WebhookStatus == StatusActive && !p.Deleted && p.URL != nil
}

// PushTarget loads the delivery of event id; nil when it is gone (the
// event expired or its webhook was removed).
func (s *Store) PushTarget(ctx context.Context, id uuid.UUID) (*PushTarget, error) {
	var p PushTarget
	err := s.db.GetContext(ctx, &p, sqlDeliveryTarget, id)
	if errors.Is(err, sqlNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("events: delivery target: %w", err)
	}
	return &p, nil
}

// Attempt is the outcome of one push.
type Attempt struct {
	EventID uuid.UUID
	Status  string // DeliverySucceeded, DeliveryFailed or DeliveryGone
	Code    int    // HTTP status; 0: no answer
	Latency time.Duration
	Error   string // "": none
	At      time.Time
}

// RecordAttempt writes an attempt's outcome to its delivery and keeps the
// webhook's failing_since (cleared by a success, set by the first
// failure). It reports false when the delivery was no longer owed.
func (s *Store) RecordAttempt(ctx context.Context, a Attempt) (bool, error) {
	var code *int
	if a.Code != 0 {
		code = &a.Code
	}
	var msg *string
	if a.Error != "" {
		msg = &a.Error
	}
	var id uuid.UUID
	err := s.db.GetContext(ctx, &id, sqlDeliveryRecord, a.EventID, a.Status, code,
		a.Latency.Milliseconds(), msg, a.At.UTC())
	if errors.Is(err, sqlNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("events: record attempt: %w", err)
	}
	return true, nil
}

// CancelDelivery cancels the delivery of event id if it is still owed.
func (s *Store) CancelDelivery(ctx context.Context, id uuid.UUID) error {
	if _, err := s.db.ExecContext(ctx, sqlDeliveryCancel, id); err != nil {
		return fmt.Errorf("events: cancel delivery: %w", err)
	}
	return nil
}

// DisableFailing disables webhook id if it is active and has been failing
// since cutoff or earlier: in one transaction its status becomes disabled
// with reason, every delivery it is still owed is cancelled, a
// webhook.disabled event reaches its feed and the partner's audit log
// records it. It reports whether this call disabled it.
func (s *Store) DisableFailing(ctx context.Context, id uuid.UUID, reason string, at, cutoff time.Time) (bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("events: disable: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	var network string
	err = tx.GetContext(ctx, &network, sqlDeliveryDisable, id, reason, at.UTC(), cutoff.UTC())
	if errors.Is(err, sqlNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("events: disable: %w", err)
	}
	if _, err := tx.ExecContext(ctx, sqlDeliveryCancelWebhook, id); err != nil {
		return false, fmt.Errorf("events: disable: cancel deliveries: %w", err)
	}
	if _, err := s.AppendEvents(ctx, tx, network, []NewEvent{{WebhookID: id, Type: TypeWebhookDisabled,
		Data: WebhookNote{Message: reason}}}); err != nil {
		return false, fmt.Errorf("events: disable: %w", err)
	}
	details, err := json.Marshal(map[string]string{"reason": reason, "by": "delivery"})
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, sqlDeliveryDisableAudit, id, string(details)); err != nil {
		return false, fmt.Errorf("events: disable: audit: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("events: disable: %w", err)
	}
	return true, nil
}

// Redeliver owes event eventID of webhook webhookID again, in tx: its
// delivery goes back to pending (or is created, for an event decided
// before the webhook pushed). The caller passes the result to the
// Enqueuer in the same tx. ok is false when the event is not the
// webhook's or the webhook does not push.
func (s *Store) Redeliver(ctx context.Context, tx *sqlx.Tx, webhookID, eventID uuid.UUID) (d Decided, ok bool, err error) {
	var seq int64
	err = tx.QueryRowContext(ctx, sqlDeliveryRedeliver, eventID, webhookID, s.now().UTC()).Scan(&seq)
	if errors.Is(err, sqlNoRows) {
		return Decided{}, false, nil
	}
	if err != nil {
		return Decided{}, false, fmt.Errorf("events: redeliver: %w", err)
	}
	return Decided{ID: eventID, WebhookID: webhookID, Seq: seq, Push: true}, true, nil
}
