package admin

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// The billing export (GET /v1/admin/usage/export): a partner's usage per
// user × credential × period × route group, read through a server-side cursor a page at
// a time, so neither PostgreSQL's client nor ours holds the whole export.

var (
	sqlUsageExport      = sqlfiles.Must("admin/usage_export.sql")
	sqlUsageExportFetch = sqlfiles.Must("admin/usage_export_fetch.sql")
)

const usageReportExport = "export"

// Export granularities: the date_trunc unit of a row's period.
const (
	GranularityDay   = "day"
	GranularityMonth = "month"
)

// RouteGroupUnrecorded is the export's route group for requests that
// usage_hourly counts and usage_route_hourly does not (counted before
// migration 0014, or by an older instance during an upgrade): their
// status classes and bytes are unknown.
const RouteGroupUnrecorded = "unrecorded"

// UsageExportRow is one user × credential × period × route group with
// traffic. The status classes and bytes are null (not Valid) only for
// RouteGroupUnrecorded.
type UsageExportRow struct {
	UserID       uuid.UUID `db:"user_id"`
	ExternalID   string    `db:"external_id"`
	CredentialID uuid.UUID `db:"credential_id"`
	PeriodStart  time.Time `db:"period_start"`
	RouteGroup   string    `db:"route_group"`
	UsageCounts
	Requests2xx sql.NullInt64 `db:"requests_2xx"`
	Requests3xx sql.NullInt64 `db:"requests_3xx"`
	Requests4xx sql.NullInt64 `db:"requests_4xx"`
	Requests5xx sql.NullInt64 `db:"requests_5xx"`
	BytesSent   sql.NullInt64 `db:"bytes_sent"`
}

// UsageExport calls each for every row of a's usage in [start, end) (both
// rounded up to the hour), ordered by user id, credential id, period
// start, route group; granularity is GranularityDay or GranularityMonth. The rows come
// from one snapshot. The read is audited (usage.viewed, report "export")
// before the first row. An error of each stops the export and is returned.
func (s *Store) UsageExport(ctx context.Context, a Admin, start, end time.Time, granularity string, each func(UsageExportRow) error) error {
	if granularity != GranularityDay && granularity != GranularityMonth {
		return fmt.Errorf("usage export: granularity %q", granularity)
	}
	w := UsageWindow{Start: &start, End: &end}.aligned()
	details := w.details(usageReportExport)
	details["granularity"] = granularity
	if err := s.inTx(ctx, "UsageExport audit", func(tx *sqlx.Tx) error {
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetUserAccount, nil, details)
	}); err != nil {
		return err
	}
	// Read only: no serialization failure can refuse it, so it is never
	// retried (rows already handed to each cannot be taken back).
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, sqlUsageExport, a.PartnerID, *w.Start, *w.End, granularity); err != nil {
		return err
	}
	var r UsageExportRow
	for {
		rows, err := tx.QueryxContext(ctx, sqlUsageExportFetch)
		if err != nil {
			return err
		}
		n := 0
		for rows.Next() {
			if err := rows.StructScan(&r); err != nil {
				rows.Close()
				return err
			}
			r.PeriodStart = r.PeriodStart.UTC()
			n++
			if err := each(r); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		if n == 0 {
			return tx.Commit()
		}
	}
}
