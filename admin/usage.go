package admin

import (
	"context"
	"math"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// Usage reads (the /v1/admin/usage routes). The UsageRecorder writes hourly UTC
// buckets; every read here sums whole buckets, so the numbers are exact
// integers and two windows that meet never count a request twice.

var (
	sqlUsageCredentials     = sqlfiles.Must("admin/usage_credentials.sql")
	sqlUsageCredentialDaily = sqlfiles.Compose("admin/usage_credential_daily.sql")
	sqlUsageUser            = sqlfiles.Compose("admin/usage_user.sql")
	sqlUsageUsers           = sqlfiles.Compose("admin/usage_users.sql")
)

// Audit details of usage.viewed name the report that was read.
const (
	usageReportCredentials = "credentials"
	usageReportCredential  = "credential"
	usageReportUser        = "user"
	usageReportUsers       = "users"
	usageReportQuota       = "quota"
)

// UsageWindow selects the hourly buckets whose hour start lies in
// [Start, End); a nil bound is open. A bound inside an hour is rounded up
// to the next full hour first (CeilHour): a bucket is either wholly in a
// window or wholly out of it.
type UsageWindow struct {
	Start, End *time.Time
}

// aligned returns the window with both bounds rounded up to the hour.
func (w UsageWindow) aligned() UsageWindow {
	var out UsageWindow
	if w.Start != nil {
		t := CeilHour(*w.Start)
		out.Start = &t
	}
	if w.End != nil {
		t := CeilHour(*w.End)
		out.End = &t
	}
	return out
}

// details is the window for the audit entry (null when open).
func (w UsageWindow) details(report string) map[string]any {
	return map[string]any{"report": report, "start": utcPtr(w.Start), "end": utcPtr(w.End)}
}

// CeilHour rounds t up to the next full UTC hour (a full hour stays).
func CeilHour(t time.Time) time.Time {
	f := t.Truncate(time.Hour)
	if f.Before(t) {
		f = f.Add(time.Hour)
	}
	return f.UTC()
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// UsageCounts are request counts: every authenticated data request is
// one, successful (2xx, 3xx) or failed (4xx, 5xx, 429 included).
type UsageCounts struct {
	Total      int64 `db:"total_requests"`
	Successful int64 `db:"successful_requests"`
	Failed     int64 `db:"failed_requests"`
}

func (u *UsageCounts) add(o UsageCounts) {
	u.Total += o.Total
	u.Successful += o.Successful
	u.Failed += o.Failed
}

// CredentialUsage is one credential's usage row (OpenAPI schema CredentialUsage).
type CredentialUsage struct {
	CredentialID    uuid.UUID `db:"credential_id"`
	CredentialName  string    `db:"credential_name"`
	APIKeyPrefix    string    `db:"api_key_prefix"`
	UserAccountID   uuid.UUID `db:"user_account_id"`
	UserAccountName string    `db:"user_account_name"`
	UsageCounts
	LastUsedAt *time.Time `db:"last_used_at"`
}

// DailyUsage is one UTC day of a credential's usage; Date is YYYY-MM-DD.
type DailyUsage struct {
	Date string
	UsageCounts
}

// CredentialUsageReport is one credential's usage in a period, in total
// and by UTC day (days without traffic left out, oldest first).
type CredentialUsageReport struct {
	CredentialUsage
	// PeriodStart and PeriodEnd bound the counted buckets: [start, end),
	// whole hours. See UsageCredential for open windows.
	PeriodStart, PeriodEnd time.Time
	Daily                  []DailyUsage
}

// UserUsage is one user account's usage over all its credentials.
type UserUsage struct {
	UserAccountID uuid.UUID `db:"user_account_id"`
	UserName      string    `db:"user_name"`
	ExternalID    string    `db:"external_id"`
	UsageCounts
	ResponseTimeMsSum float64 `db:"response_time_ms_sum"`
	// CredentialCount is the number of active keys: not revoked, not expired.
	CredentialCount        int64 `db:"credential_count"`
	PeriodStart, PeriodEnd time.Time
}

// AvgResponseTimeMs is the mean response time in milliseconds, rounded to
// the microsecond; 0 without requests.
func (u UserUsage) AvgResponseTimeMs() float64 {
	if u.Total == 0 {
		return 0
	}
	return math.Round(u.ResponseTimeMsSum/float64(u.Total)*1000) / 1000
}

// UsageCredentials lists every credential a owns, revoked ones and ones
// without traffic included (with zeros), with its counts in w, ordered by
// total requests descending then credential id; total is the number of
// a's credentials. The read is audited (usage.viewed).
func (s *Store) UsageCredentials(ctx context.Context, a Admin, w UsageWindow, p Page) (rows []CredentialUsage, total int64, err error) {
	w = w.aligned()
	err = s.inSnapshotTx(ctx, "UsageCredentials", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountCredentials, a.PartnerID, true); err != nil {
			return err
		}
		rows = []CredentialUsage{}
		if err := tx.SelectContext(ctx, &rows, sqlUsageCredentials, a.PartnerID, w.Start, w.End, p.Limit, p.Offset); err != nil {
			return err
		}
		details := w.details(usageReportCredentials)
		details["limit"], details["offset"] = p.Limit, p.Offset
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetCredential, nil, details)
	})
	return rows, total, err
}

// UsageCredential reports one of a's credentials (revoked or not) in w;
// ErrNotFound when missing or not a's. An open start reports PeriodStart
// as the hour the credential was created (no bucket can be older); an open
// end reports PeriodEnd as the end of the current hour. Either widens to
// take in any bucket outside it, so the period always holds every count.
func (s *Store) UsageCredential(ctx context.Context, a Admin, id uuid.UUID, w UsageWindow) (r CredentialUsageReport, err error) {
	w = w.aligned()
	now := s.now()
	err = s.inSnapshotTx(ctx, "UsageCredential", func(tx *sqlx.Tx) error {
		var c Credential
		if err := getOne(ctx, tx, &c, sqlCredential, id, a.PartnerID); err != nil {
			return err
		}
		var days []struct {
			Day string `db:"day"`
			UsageCounts
			FirstHour time.Time `db:"first_hour"`
			LastHour  time.Time `db:"last_hour"`
		}
		if err := tx.SelectContext(ctx, &days, sqlUsageCredentialDaily, id, w.Start, w.End); err != nil {
			return err
		}
		r = CredentialUsageReport{
			CredentialUsage: CredentialUsage{
				CredentialID: c.ID, CredentialName: c.Name, APIKeyPrefix: c.APIKeyPrefix,
				UserAccountID: c.UserAccountID, UserAccountName: c.UserAccountName, LastUsedAt: c.LastUsedAt,
			},
			Daily: make([]DailyUsage, len(days)),
		}
		if w.Start != nil {
			r.PeriodStart = *w.Start
		} else {
			r.PeriodStart = c.CreatedAt.Truncate(time.Hour).UTC()
		}
		if w.End != nil {
			r.PeriodEnd = *w.End
		} else {
			r.PeriodEnd = CeilHour(now)
		}
		for i, d := range days {
			r.Daily[i] = DailyUsage{Date: d.Day, UsageCounts: d.UsageCounts}
			r.add(d.UsageCounts)
			if w.Start == nil && d.FirstHour.Before(r.PeriodStart) {
				r.PeriodStart = d.FirstHour.UTC()
			}
			if end := d.LastHour.Add(time.Hour); w.End == nil && end.After(r.PeriodEnd) {
				r.PeriodEnd = end.UTC()
			}
		}
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetCredential, &c.ID, w.details(usageReportCredential))
	})
	return r, err
}

// UsageUser reports one of a's user accounts (any status) over all its
// credentials in [start, end), both rounded up to the hour; ErrNotFound
// when missing or not a's.
func (s *Store) UsageUser(ctx context.Context, a Admin, id uuid.UUID, start, end time.Time) (u UserUsage, err error) {
	w := UsageWindow{Start: &start, End: &end}.aligned()
	now := s.now()
	err = s.inSnapshotTx(ctx, "UsageUser", func(tx *sqlx.Tx) error {
		if err := getOne(ctx, tx, &u, sqlUsageUser, a.PartnerID, *w.Start, *w.End, now, id); err != nil {
			return err
		}
		u.PeriodStart, u.PeriodEnd = *w.Start, *w.End
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetUserAccount, &u.UserAccountID, w.details(usageReportUser))
	})
	return u, err
}

// UserQuotaPlan reads one of a's user accounts (any status) and its plan
// (nil: none) in one snapshot, for the user's quota report, audited as a
// usage read; ErrNotFound when missing or not a's.
func (s *Store) UserQuotaPlan(ctx context.Context, a Admin, id uuid.UUID) (u User, p *Plan, err error) {
	err = s.inSnapshotTx(ctx, "UserQuotaPlan", func(tx *sqlx.Tx) error {
		p = nil
		if err := getOne(ctx, tx, &u, sqlUser, id, a.PartnerID); err != nil {
			return err
		}
		if u.PlanID != nil {
			var pl Plan
			if err := getOne(ctx, tx, &pl, sqlPlan, *u.PlanID, a.PartnerID); err != nil {
				return err
			}
			p = &pl
		}
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetUserAccount, &u.ID, map[string]any{"report": usageReportQuota})
	})
	return u, p, err
}

// UsageUsers lists a's active user accounts (suspended and pending ones
// left out, ones without traffic included) with their counts over all
// their credentials in [start, end), both rounded up to the hour, ordered
// by total requests descending then user id; total is the number of a's
// active users.
func (s *Store) UsageUsers(ctx context.Context, a Admin, start, end time.Time, p Page) (users []UserUsage, total int64, err error) {
	w := UsageWindow{Start: &start, End: &end}.aligned()
	now := s.now()
	active := StatusActive
	err = s.inSnapshotTx(ctx, "UsageUsers", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountUsers, a.PartnerID, &active); err != nil {
			return err
		}
		users = []UserUsage{}
		if err := tx.SelectContext(ctx, &users, sqlUsageUsers, a.PartnerID, *w.Start, *w.End, now, p.Limit, p.Offset); err != nil {
			return err
		}
		for i := range users {
			users[i].PeriodStart, users[i].PeriodEnd = *w.Start, *w.End
		}
		details := w.details(usageReportUsers)
		details["limit"], details["offset"] = p.Limit, p.Offset
		return s.audit(ctx, tx, a, ActionUsageViewed, TargetUserAccount, nil, details)
	})
	return users, total, err
}
