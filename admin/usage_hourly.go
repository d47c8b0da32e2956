package admin

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// Hourly usage: the buckets the recorder writes, as they are. The console
// draws a credential's last 48 hours from them; the spec's reports only
// give whole days.

var sqlUsageCredentialHourly = sqlfiles.Compose("admin/usage_credential_hourly.sql")

const usageReportCredentialHourly = "credential_hourly"

// MaxHourlyWindow bounds an hourly report (744 buckets at most).
const MaxHourlyWindow = 31 * 24 * time.Hour

// HourlyUsage is one UTC hour of a credential's usage.
type HourlyUsage struct {
	Hour time.Time `db:"hour"`
	UsageCounts
}

// CredentialHourlyReport is one credential's usage by hour in
// [PeriodStart, PeriodEnd) (hours without traffic left out, oldest first).
type CredentialHourlyReport struct {
	CredentialID           uuid.UUID
	PeriodStart, PeriodEnd time.Time
	Hourly                 []HourlyUsage
}

// UsageCredentialHourly reports one of a's credentials (revoked or not) by
// hour in [start, end), both rounded up to the hour; ErrNotFound when
// missing or not a's. The read is audited (usage.viewed).
func (s *Store) UsageCredentialHourly(ctx context.Context, a Admin, id uuid.UUID, start, end time.Time) (r CredentialHourlyReport, err error) {
	w := UsageWindow{Start: &start, End: &end}.aligned()
	err = s.inSnapshotTx(ctx, "UsageCredentialHourly", func(tx *sqlx.Tx) error {
		var c Credential
		if err := getOne(ctx, tx, &c, sqlCredential, id, a.PartnerID); err != nil {
			return err
		}
		r = CredentialHourlyReport{CredentialID: c.ID, PeriodStart: *w.Start, PeriodEnd: *w.End, Hourly: []HourlyUsage{}}
		if err := tx.SelectContext(ctx, &r.Hourly, sqlUsageCredentialHourly, id, *w.Start, *w.End); err != nil {
			return err
		}
		for i := range r.Hourly {
			r.Hourly[i].Hour = r.Hourly[i].Hour.UTC()
		}
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetCredential, &c.ID, w.details(usageReportCredentialHourly))
	})
	return r, err
}
