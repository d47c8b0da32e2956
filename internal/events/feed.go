package events

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlEventsAfter = sqlfiles.Must("admin/webhook_events_after.sql")
	sqlLastSeq     = sqlfiles.Must("admin/webhook_last_seq.sql")
)

// Feed limits.
const (
	// MaxWait is the longest a feed request may wait for its first event.
	MaxWait = 30 * time.Second
	// MaxFeedLimit bounds a feed page.
	MaxFeedLimit = 1000
	// pollEvery is how often a waiting feed request looks for new events
	// (one primary-key read of the webhook's last_seq).
	pollEvery = 150 * time.Millisecond
)

// Events returns up to limit event bodies of one of the owner's webhooks
// with sequence numbers above after, in order: exactly the bytes pushed.
// When there are none it waits up to wait for one to be decided (polling
// the webhook's last sequence number), and returns what there is then,
// possibly nothing; it never waits past ctx's deadline.
func (s *Store) Events(ctx context.Context, o Owner, id uuid.UUID, after int64, limit int, wait time.Duration) ([]json.RawMessage, error) {
	if _, err := s.Webhook(ctx, o, id, nil); err != nil {
		return nil, err
	}
	bodies, err := s.eventsAfter(ctx, id, after, limit)
	if err != nil || len(bodies) > 0 || wait <= 0 {
		return bodies, err
	}
	deadline := time.Now().Add(wait)
	if d, ok := ctx.Deadline(); ok {
		// Leave time to answer within the request's deadline.
		if d = d.Add(-time.Second); d.Before(deadline) {
			deadline = d
		}
	}
	t := time.NewTimer(pollEvery)
	defer t.Stop()
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return bodies, ctx.Err()
		case <-t.C:
		}
		var last int64
		err := s.db.GetContext(ctx, &last, sqlLastSeq, id)
		if errors.Is(err, sqlNoRows) {
			return nil, ErrNotFound // deleted while waiting
		}
		if err != nil {
			return nil, err
		}
		if last > after {
			return s.eventsAfter(ctx, id, after, limit)
		}
		t.Reset(min(pollEvery, max(time.Until(deadline), time.Millisecond)))
	}
	return bodies, nil
}

func (s *Store) eventsAfter(ctx context.Context, id uuid.UUID, after int64, limit int) ([]json.RawMessage, error) {
	var raw []string
	if err := sqlx.SelectContext(ctx, s.db, &raw, sqlEventsAfter, id, after, limit); err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, len(raw))
	for i, b := range raw {
		out[i] = json.RawMessage(b)
	}
	return out, nil
}

// SendTest decides a webhook.test event for one of the owner's webhooks
// (pushed like any other when the webhook pushes) and returns it (audit:
// the admin API's entry, nil for the data API).
func (s *Store) SendTest(ctx context.Context, o Owner, id uuid.UUID, audit Audit) (d Decided, err error) {
	err = s.inTx(ctx, "SendTest", func(tx *sqlx.Tx) error {
		w, err := getWebhook(ctx, tx, sqlLockHook, o, id)
		if err != nil {
			return err
		}
		ds, err := s.AppendEvents(ctx, tx, w.Network, []NewEvent{{WebhookID: id, Type: TypeWebhookTest,
			Data: WebhookNote{Message: "This is a test event."}}})
		if err != nil {
			return err
		}
		if len(ds) != 1 {
			return ErrNotFound
		}
		d = ds[0]
		if audit != nil {
			return audit(ctx, tx, AuditWebhookTested, &id, map[string]any{"user_account_id": o.UserID,
				"event_id": d.ID, "seq": d.Seq})
		}
		return nil
	})
	return d, err
}
