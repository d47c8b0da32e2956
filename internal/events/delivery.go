package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlDeliveryTarget        = sqlfiles.Must("admin/delivery_target.sql")
	sqlDeliveryRecord        = sqlfiles.Must("admin/delivery_record.sql")
	sqlDeliveryCancel        = sqlfiles.Must("admin/delivery_cancel.sql")
	sqlDeliveryCancelWebhook = sqlfiles.Must("admin/delivery_cancel_webhook.sql")
	sqlDeliveryDisable       = sqlfiles.Must("admin/delivery_disable_webhook.sql")
	sqlDeliveryDisableAudit  = sqlfiles.Must("admin/delivery_disable_audit.sql")
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
	// Format is the webhook's body format: a Blockfrost-format body is
	// signed as Blockfrost signs (Blockfrost-Signature).
	Format string `db:"format"`
}

// Owed reports whether the delivery still has to be made.
func (p *PushTarget) Owed() bool {
	return p.Status == DeliveryPending || p.Status == DeliveryFailed
}

// Pushes reports whether the webhook still takes pushes.
func (p *PushTarget) Pushes() bool {
	return p.WebhookStatus == StatusActive && !p.Deleted && p.URL != nil
}

// PushTargets loads the deliveries of events ids (one statement for a
// batch of pushes); an event missing from the map is gone (it expired or
// its webhook was removed).
func (s *Store) PushTargets(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*PushTarget, error) {
	var rows []*PushTarget
	if err := s.db.SelectContext(ctx, &rows, sqlDeliveryTarget, pq.Array(uuidStrings(ids))); err != nil {
		return nil, fmt.Errorf("events: delivery targets: %w", err)
	}
	out := make(map[uuid.UUID]*PushTarget, len(rows))
	for _, p := range rows {
		out[p.EventID] = p
	}
	return out, nil
}

// Attempt is the outcome of one push.
type Attempt struct {
	EventID uuid.UUID
	Status  string // DeliverySucceeded, DeliveryFailed or DeliveryGone
	Code    int    // HTTP status; 0: no answer
	Latency time.Duration
	Error   string // "": none
	At      time.Time
	// Headers are the signature headers the request carried, in the
	// order sent (none when no request was made).
	Headers SentHeaders
}

// SentHeader is one header of a push as sent.
type SentHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SentHeaders are a push's signature headers; stored as a JSON array
// (webhook_deliveries.last_signature_headers), nil for none.
type SentHeaders []SentHeader

// Scan reads the jsonb column (NULL: nil).
func (h *SentHeaders) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*h = nil
		return nil
	case []byte:
		return json.Unmarshal(v, h)
	case string:
		return json.Unmarshal([]byte(v), h)
	}
	return fmt.Errorf("events: sent headers from %T", src)
}

// text is the array parameter's element: "" for none.
func (h SentHeaders) text() (string, error) {
	if len(h) == 0 {
		return "", nil
	}
	b, err := json.Marshal(h)
	return string(b), err
}

// RecordAttempts writes attempts' outcomes to their deliveries (one
// statement for a batch) and keeps their webhooks' failing_since (cleared
// by a success, set by the first failure). It returns the events whose
// deliveries were still owed, hence recorded.
func (s *Store) RecordAttempts(ctx context.Context, as []Attempt) (map[uuid.UUID]bool, error) {
	ids, statuses, errs := make([]string, len(as)), make([]string, len(as)), make([]string, len(as))
	codes, latencies := make([]int64, len(as)), make([]int64, len(as))
	ats, headers := make([]time.Time, len(as)), make([]string, len(as))
	for i, a := range as {
		ids[i], statuses[i], errs[i] = a.EventID.String(), a.Status, a.Error
		codes[i], latencies[i], ats[i] = int64(a.Code), a.Latency.Milliseconds(), a.At.UTC()
		var err error
		if headers[i], err = a.Headers.text(); err != nil {
			return nil, err
		}
	}
	var recorded []uuid.UUID
	if err := s.db.SelectContext(ctx, &recorded, sqlDeliveryRecord, pq.Array(ids), pq.Array(statuses),
		pq.Array(codes), pq.Array(latencies), pq.Array(errs), pq.Array(ats), pq.Array(headers)); err != nil {
		return nil, fmt.Errorf("events: record attempts: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(recorded))
	for _, id := range recorded {
		out[id] = true
	}
	return out, nil
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
