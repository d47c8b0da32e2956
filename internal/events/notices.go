package events

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

var sqlUserLiveWebhooks = sqlfiles.Must("admin/webhook_user_live.sql")

// Account event types: about the user's account, not the chain. Like the
// webhook.* events every webhook of the user gets them, whatever its
// event_types (pushed when it pushes).
const (
	TypeQuotaWarning  = "quota.warning"
	TypeQuotaExceeded = "quota.exceeded"
)

// QuotaNotice is the data of quota.warning (80 % of a quota used) and
// quota.exceeded (the first request refused) events.
type QuotaNotice struct {
	Policy   string    `json:"policy"` // daily or monthly
	Quota    int64     `json:"quota"`
	Used     int64     `json:"used"`
	ResetsAt time.Time `json:"resets_at"`
}

// UserNotice decides an account event for every live webhook of a user,
// in one transaction; it returns how many were decided (0: the user has no
// webhook, so no feed to tell).
func (s *Store) UserNotice(ctx context.Context, user uuid.UUID, typ string, data any) (int, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("events: notice: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	var hooks []struct {
		ID      uuid.UUID `db:"id"`
		Network string    `db:"network"`
	}
	if err := sqlx.SelectContext(ctx, tx, &hooks, sqlUserLiveWebhooks, user); err != nil {
		return 0, fmt.Errorf("events: notice: %w", err)
	}
	byNetwork := map[string][]NewEvent{}
	for _, h := range hooks {
		byNetwork[h.Network] = append(byNetwork[h.Network], NewEvent{WebhookID: h.ID, Type: typ, Data: data})
	}
	n := 0
	for network, evs := range byNetwork {
		d, err := s.AppendEvents(ctx, tx, network, evs)
		if err != nil {
			return 0, err
		}
		n += len(d)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("events: notice: %w", err)
	}
	return n, nil
}
