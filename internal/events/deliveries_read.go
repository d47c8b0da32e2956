package events

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlDeliveries      = sqlfiles.Must("admin/webhook_deliveries.sql")
	sqlCountDeliveries = sqlfiles.Must("admin/webhook_deliveries_count.sql")
	sqlEventGet        = sqlfiles.Must("admin/webhook_event_get.sql")
	sqlResetDelivery   = sqlfiles.Must("admin/webhook_delivery_reset.sql")
)

// Delivery is one push delivery of an event, as the deliveries list shows it.
type Delivery struct {
	EventID       uuid.UUID  `db:"event_id"`
	Seq           int64      `db:"seq"`
	Type          string     `db:"type"`
	Status        string     `db:"status"`
	Attempts      int        `db:"attempts"`
	LastCode      *int       `db:"last_code"`
	LastLatencyMS *int       `db:"last_latency_ms"`
	LastError     *string    `db:"last_error"`
	LastAttemptAt *time.Time `db:"last_attempt_at"`
	// LastHeaders are the signature headers the last attempt sent.
	LastHeaders SentHeaders `db:"last_signature_headers"`
	DeliveredAt *time.Time  `db:"delivered_at"`
	CreatedAt   time.Time   `db:"created_at"`
}

// ErrEventNotFound: the webhook has no such event (or it was purged).
var ErrEventNotFound = errors.New("events: event not found")

// Deliveries returns a page of one of the owner's webhook's push
// deliveries, newest first, and how many there are (audit: the admin API's
// entry, nil for the data API).
func (s *Store) Deliveries(ctx context.Context, o Owner, id uuid.UUID, limit, offset int, audit Audit) (out []Delivery, total int64, err error) {
	err = s.inTx(ctx, "Deliveries", func(tx *sqlx.Tx) error {
		if _, err := getWebhook(ctx, tx, sqlGetHook, o, id); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &total, sqlCountDeliveries, id); err != nil {
			return err
		}
		out = []Delivery{}
		if err := tx.SelectContext(ctx, &out, sqlDeliveries, id, limit, offset); err != nil {
			return err
		}
		if audit != nil {
			return audit(ctx, tx, AuditWebhookDeliveriesViewed, &id, map[string]any{"user_account_id": o.UserID})
		}
		return nil
	})
	return out, total, err
}

// Redeliver makes an event's push delivery pending again (creating it if
// the event never had one) and, when an Enqueuer is installed, schedules
// it in the same transaction. Without an Enqueuer the delivery stays
// pending until the delivery service picks pending rows up. A webhook
// without a URL, or disabled, cannot be pushed to: ErrNotPushable. audit:
// the admin API's entry, nil for the data API.
func (s *Store) Redeliver(ctx context.Context, o Owner, id, eventID uuid.UUID, audit Audit) (d Delivery, err error) {
	err = s.inTx(ctx, "Redeliver", func(tx *sqlx.Tx) error {
		w, err := getWebhook(ctx, tx, sqlLockHook, o, id)
		if err != nil {
			return err
		}
		if w.URL == nil || w.Status != StatusActive {
			return ErrNotPushable
		}
		var ev struct {
			ID   uuid.UUID `db:"id"`
			Seq  int64     `db:"seq"`
			Type string    `db:"type"`
		}
		if err := tx.GetContext(ctx, &ev, sqlEventGet, eventID, id); errors.Is(err, sqlNoRows) {
			return ErrEventNotFound
		} else if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &d, sqlResetDelivery, eventID, id, s.now().UTC()); err != nil {
			return err
		}
		d.Seq, d.Type = ev.Seq, ev.Type
		if audit != nil {
			if err := audit(ctx, tx, AuditWebhookRedelivered, &id, map[string]any{"user_account_id": o.UserID,
				"event_id": ev.ID, "seq": ev.Seq}); err != nil {
				return err
			}
		}
		if s.opts.Enqueuer != nil {
			return s.opts.Enqueuer.EnqueueTx(ctx, tx.Tx, []Decided{{ID: ev.ID, WebhookID: id, Seq: ev.Seq, Push: true}})
		}
		return nil
	})
	return d, err
}

// ErrNotPushable: the webhook has no URL or is disabled.
var ErrNotPushable = errors.New("events: webhook does not push")
