package events

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlLockUser    = sqlfiles.Must("admin/webhook_lock_user.sql")
	sqlUserLimit   = sqlfiles.Must("admin/webhook_user_limit.sql")
	sqlInsertHook  = sqlfiles.Compose("admin/webhook_insert.sql")
	sqlGetHook     = sqlfiles.Compose("admin/webhook_get.sql")
	sqlLockHook    = sqlfiles.Compose("admin/webhook_lock.sql")
	sqlListHooks   = sqlfiles.Compose("admin/webhook_list.sql")
	sqlUpdateHook  = sqlfiles.Compose("admin/webhook_update.sql")
	sqlDeleteHook  = sqlfiles.Must("admin/webhook_delete.sql")
	sqlDisableHook = sqlfiles.Compose("admin/webhook_disable.sql")
	sqlRollSecret  = sqlfiles.Compose("admin/webhook_roll_secret.sql")
)

var (
	errNoSealer     = errors.New("events: no secret key (webhooks are off)")
	errBadOverlap   = errors.New("events: overlap out of range")
	errNoEventTypes = errors.New("events: no event types")
)

// Secret roll overlap: the default and the longest a roll may ask for.
const (
	DefaultOverlap = time.Hour
	MaxOverlap     = 24 * time.Hour
)

// Store errors the handlers turn into messages.
var (
	// ErrNotFound: no such webhook (or event) for this owner; someone
	// else's and a deleted one look the same.
	ErrNotFound = errors.New("events: not found")
	// ErrTooManyWebhooks: the user holds its limit of webhooks
	// (WebhookLimitError says which).
	ErrTooManyWebhooks = errors.New("events: too many webhooks")
	// ErrTooManyItems: the watch set would exceed MaxItems.
	ErrTooManyItems = errors.New("events: too many watch items")
	// ErrWebhooksOff: the server has no secret key.
	ErrWebhooksOff = errNoSealer
)

// WebhookLimitError is ErrTooManyWebhooks with the limit that applied:
// the user's plan's max_webhooks_per_user, or NewWebhook.Limit.
type WebhookLimitError struct{ Max int }

func (e *WebhookLimitError) Error() string { return ErrTooManyWebhooks.Error() }
func (e *WebhookLimitError) Unwrap() error { return ErrTooManyWebhooks }

// Owner scopes a webhook operation: the user's webhooks, on Network
// ("" = any network, for the admin API).
type Owner struct {
	UserID  uuid.UUID
	Network string
}

// Audit writes an admin action's audit entry inside the store's
// transaction (admin.Store.WebhookAudit makes one for an admin key); nil
// for the data API, whose changes are not audited.
type Audit func(ctx context.Context, tx *sqlx.Tx, action string, webhookID *uuid.UUID, details map[string]any) error

// Audit actions of the admin webhook routes.
const (
	AuditWebhookCreated  = "webhook.created"
	AuditWebhookListed   = "webhook.listed"
	AuditWebhookViewed   = "webhook.viewed"
	AuditWebhookDisabled = "webhook.disabled"
	AuditWebhookDeleted  = "webhook.deleted"
	// The console's webhook page: reads and actions on one webhook.
	AuditWebhookDeliveriesViewed = "webhook.deliveries_viewed"
	AuditWebhookItemsViewed      = "webhook.items_viewed"
	AuditWebhookRedelivered      = "webhook.redelivered"
	AuditWebhookTested           = "webhook.tested"
	AuditWebhookSecretRolled     = "webhook.secret_rolled"
)

// webhookRow scans a webhook_columns row.
type webhookRow struct {
	Webhook
	Types pq.StringArray `db:"event_types"`
}

func (r webhookRow) webhook() Webhook {
	w := r.Webhook
	w.EventTypes = []string(r.Types)
	if w.EventTypes == nil {
		w.EventTypes = []string{}
	}
	return w
}

// SecretRollingUntil is when the previous secret stops signing, while it
// still does at now (nil otherwise).
func (w Webhook) SecretRollingUntil(now time.Time) *time.Time {
	if w.PreviousSecretExpiresAt == nil || !w.PreviousSecretExpiresAt.After(now) {
		return nil
	}
	return w.PreviousSecretExpiresAt
}

// NewWebhook is a webhook to create; the handler has validated every field.
type NewWebhook struct {
	Owner       Owner // Network must be set
	URL         *string
	Description string
	Depth       int
	EventTypes  []string // empty: DefaultTypes
	Format      string   // "": FormatStandard
	Items       []Item   // canonical (CanonicalItem), at most MaxItemsPerBatch
	// StartHeight is where the webhook starts: the db-sync tip height minus
	// Depth when it is created, so its first events are about new blocks.
	StartHeight int64
	// Limit is the most webhooks one user may hold (0: no limit) unless
	// the user's plan sets max_webhooks_per_user, which then applies.
	Limit int
	// Audit: the admin API's entry, written with the webhook (nil for the
	// data API).
	Audit Audit
}

// CreateWebhook creates a webhook with a fresh signing secret and its
// initial watch set, and returns it with the secret as shown to the user
// (only here and on a roll). A *WebhookLimitError when the user is at its
// plan's max_webhooks_per_user or, when the plan sets none, at Limit.
func (s *Store) CreateWebhook(ctx context.Context, in NewWebhook) (w Webhook, secret string, err error) {
	if s.opts.Sealer == nil {
		return Webhook{}, "", errNoSealer
	}
	if len(in.Items) > MaxItemsPerBatch {
		return Webhook{}, "", ErrTooManyItems
	}
	types := in.EventTypes
	if len(types) == 0 {
		types = DefaultTypes
	}
	format := in.Format
	if format == "" {
		format = FormatStandard
	}
	key, shown, err := NewSecret()
	if err != nil {
		return Webhook{}, "", err
	}
	sealed, err := s.opts.Sealer.Seal(key)
	if err != nil {
		return Webhook{}, "", err
	}
	now := s.now().UTC()
	err = s.inTx(ctx, "CreateWebhook", func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, sqlLockUser, in.Owner.UserID); err != nil {
			return err
		}
		// Under the user's lock: concurrent creations count one another.
		var lim struct {
			Held    int  `db:"held"`
			PlanMax *int `db:"plan_max"`
		}
		if err := tx.GetContext(ctx, &lim, sqlUserLimit, in.Owner.UserID); err != nil {
			return err
		}
		limit, bounded := in.Limit, in.Limit > 0
		if lim.PlanMax != nil {
			limit, bounded = *lim.PlanMax, true
		}
		if bounded && lim.Held >= limit {
			return &WebhookLimitError{Max: limit}
		}
		var row webhookRow
		if err := tx.GetContext(ctx, &row, sqlInsertHook, in.Owner.UserID, in.Owner.Network, in.URL, in.Description,
			in.Depth, pq.StringArray(types), sealed, max(in.StartHeight, 0), now, format); err != nil {
			return err
		}
		w = row.webhook()
		if len(in.Items) > 0 {
			n, err := addItems(ctx, tx, w, in.Items, now)
			if err != nil {
				return err
			}
			w.Items = n
		}
		if in.Audit == nil {
			return nil
		}
		// What was asked, never the URL (it may carry the receiver's token)
		// nor the secret.
		return in.Audit(ctx, tx, AuditWebhookCreated, &w.ID, map[string]any{"user_account_id": in.Owner.UserID,
			"network": w.Network, "format": w.Format, "event_types": w.EventTypes, "items": w.Items, "pushes": w.URL != nil})
	})
	if err != nil {
		return Webhook{}, "", err
	}
	return w, shown, nil
}

// Webhooks lists the owner's webhooks, oldest first (audit: the admin
// API's list entry, nil for the data API).
func (s *Store) Webhooks(ctx context.Context, o Owner, audit Audit) ([]Webhook, error) {
	var rows []webhookRow
	err := s.inTx(ctx, "Webhooks", func(tx *sqlx.Tx) error {
		if err := tx.SelectContext(ctx, &rows, sqlListHooks, o.UserID, o.Network); err != nil {
			return err
		}
		if audit != nil {
			return audit(ctx, tx, AuditWebhookListed, nil, map[string]any{"user_account_id": o.UserID})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Webhook, len(rows))
	for i, r := range rows {
		out[i] = r.webhook()
	}
	return out, nil
}

// Webhook returns one of the owner's webhooks; ErrNotFound otherwise.
func (s *Store) Webhook(ctx context.Context, o Owner, id uuid.UUID, audit Audit) (w Webhook, err error) {
	err = s.inTx(ctx, "Webhook", func(tx *sqlx.Tx) error {
		if w, err = getWebhook(ctx, tx, sqlGetHook, o, id); err != nil {
			return err
		}
		if audit != nil {
			return audit(ctx, tx, AuditWebhookViewed, &w.ID, nil)
		}
		return nil
	})
	return w, err
}

// WebhookPatch is a validated PATCH: nil fields stay.
type WebhookPatch struct {
	SetURL      bool
	URL         *string // with SetURL: nil makes the webhook pull only
	Description *string
	Depth       *int
	EventTypes  []string // nil: keep
	// Enable re-activates a disabled webhook (and forgets its failures).
	Enable bool
}

// UpdateWebhook applies p to one of the owner's webhooks.
func (s *Store) UpdateWebhook(ctx context.Context, o Owner, id uuid.UUID, p WebhookPatch) (w Webhook, err error) {
	var types any
	if p.EventTypes != nil {
		if len(p.EventTypes) == 0 {
			return Webhook{}, errNoEventTypes
		}
		types = pq.StringArray(p.EventTypes)
	}
	err = s.inTx(ctx, "UpdateWebhook", func(tx *sqlx.Tx) error {
		if _, err := getWebhook(ctx, tx, sqlLockHook, o, id); err != nil {
			return err
		}
		var row webhookRow
		if err := tx.GetContext(ctx, &row, sqlUpdateHook, id, p.SetURL, p.URL, p.Description, p.Depth, types,
			s.now().UTC(), p.Enable); err != nil {
			return err
		}
		w = row.webhook()
		return nil
	})
	return w, err
}

// DeleteWebhook soft-deletes one of the owner's webhooks: it disappears
// from every list, nothing more is decided or pushed for it.
func (s *Store) DeleteWebhook(ctx context.Context, o Owner, id uuid.UUID, audit Audit) error {
	return s.inTx(ctx, "DeleteWebhook", func(tx *sqlx.Tx) error {
		w, err := getWebhook(ctx, tx, sqlLockHook, o, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, sqlDeleteHook, id, s.now().UTC()); err != nil {
			return err
		}
		if audit != nil {
			return audit(ctx, tx, AuditWebhookDeleted, &w.ID, map[string]any{"user_account_id": o.UserID})
		}
		return nil
	})
}

// DisableWebhook disables one of the owner's webhooks with reason and
// tells its receiver through the feed (a webhook.disabled event), in one
// transaction with audit's entry. An already disabled webhook is returned
// as it is (no second event, no entry).
func (s *Store) DisableWebhook(ctx context.Context, o Owner, id uuid.UUID, reason string, audit Audit) (w Webhook, err error) {
	err = s.inTx(ctx, "DisableWebhook", func(tx *sqlx.Tx) error {
		if w, err = getWebhook(ctx, tx, sqlLockHook, o, id); err != nil {
			return err
		}
		if w.Status == StatusDisabled {
			return nil
		}
		var row webhookRow
		if err := tx.GetContext(ctx, &row, sqlDisableHook, id, reason, s.now().UTC()); err != nil {
			return err
		}
		if _, err := s.AppendEvents(ctx, tx, row.Network, []NewEvent{{WebhookID: id, Type: TypeWebhookDisabled,
			Data: WebhookNote{Message: reason}}}); err != nil {
			return err
		}
		// AppendEvents moved last_seq under the same lock.
		if w, err = getWebhook(ctx, tx, sqlGetHook, o, id); err != nil {
			return err
		}
		if audit != nil {
			return audit(ctx, tx, AuditWebhookDisabled, &w.ID, map[string]any{"user_account_id": o.UserID,
				"previous_status": StatusActive, "status": StatusDisabled, "reason": reason})
		}
		return nil
	})
	return w, err
}

// RollSecret gives one of the owner's webhooks a new signing secret and
// returns it as shown to the user. The previous secret keeps signing (a
// second signature) for overlap (0: it stops at once; at most a day).
// audit: the admin API's entry (never the secret), nil for the data API.
func (s *Store) RollSecret(ctx context.Context, o Owner, id uuid.UUID, overlap time.Duration, audit Audit) (w Webhook, secret string, err error) {
	if s.opts.Sealer == nil {
		return Webhook{}, "", errNoSealer
	}
	if overlap < 0 || overlap > MaxOverlap {
		return Webhook{}, "", errBadOverlap
	}
	key, shown, err := NewSecret()
	if err != nil {
		return Webhook{}, "", err
	}
	sealed, err := s.opts.Sealer.Seal(key)
	if err != nil {
		return Webhook{}, "", err
	}
	now := s.now().UTC()
	var until *time.Time
	if overlap > 0 {
		t := now.Add(overlap)
		until = &t
	}
	err = s.inTx(ctx, "RollSecret", func(tx *sqlx.Tx) error {
		if _, err := getWebhook(ctx, tx, sqlLockHook, o, id); err != nil {
			return err
		}
		var row webhookRow
		if err := tx.GetContext(ctx, &row, sqlRollSecret, id, sealed, until, now); err != nil {
			return err
		}
		w = row.webhook()
		if audit != nil {
			return audit(ctx, tx, AuditWebhookSecretRolled, &w.ID, map[string]any{"user_account_id": o.UserID,
				"overlap_seconds": int64(overlap / time.Second)})
		}
		return nil
	})
	if err != nil {
		return Webhook{}, "", err
	}
	return w, shown, nil
}

func getWebhook(ctx context.Context, tx *sqlx.Tx, query string, o Owner, id uuid.UUID) (Webhook, error) {
	var row webhookRow
	err := tx.GetContext(ctx, &row, query, id, o.UserID, o.Network)
	if errors.Is(err, sql.ErrNoRows) {
		return Webhook{}, ErrNotFound
	}
	if err != nil {
		return Webhook{}, err
	}
	return row.webhook(), nil
}

// inTx runs fn in one transaction.
func (s *Store) inTx(ctx context.Context, name string, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("events.%s: %w", name, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("events.%s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("events.%s: commit: %w", name, err)
	}
	return nil
}
