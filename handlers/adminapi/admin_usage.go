package adminapi

import (
	"errors"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// Usage statistics (OpenAPI "UsageRow", "CredentialUsage"; windows and rounding in
// docs/DECISIONS.md "Usage statistics").

// defaultUsageDays is the spec's default window of the user usage
// endpoints: 30 days before now to now.
const defaultUsageDays = 30

// credentialUsageJSON is a row of GET /v1/admin/usage.
type credentialUsageJSON struct {
	CredentialID       uuid.UUID `json:"credential_id"`
	CredentialName     string    `json:"credential_name"`
	APIKeyPrefix       string    `json:"api_key_prefix"`
	UserAccountID      uuid.UUID `json:"user_account_id"`
	UserAccountName    string    `json:"user_account_name"`
	TotalRequests      int64     `json:"total_requests"`
	SuccessfulRequests int64     `json:"successful_requests"`
	FailedRequests     int64     `json:"failed_requests"`
	LastUsedAt         *string   `json:"last_used_at"`
}

// credentialUsageSummaryJSON is the summary of GET /v1/admin/usage/:id.
type credentialUsageSummaryJSON struct {
	CredentialID       uuid.UUID `json:"credential_id"`
	CredentialName     string    `json:"credential_name"`
	APIKeyPrefix       string    `json:"api_key_prefix"`
	UserAccountID      uuid.UUID `json:"user_account_id"`
	UserAccountName    string    `json:"user_account_name"`
	TotalRequests      int64     `json:"total_requests"`
	SuccessfulRequests int64     `json:"successful_requests"`
	FailedRequests     int64     `json:"failed_requests"`
	PeriodStart        string    `json:"period_start"`
	PeriodEnd          string    `json:"period_end"`
}

// dailyUsageJSON is one UTC day of GET /v1/admin/usage/:id.
type dailyUsageJSON struct {
	Date               string `json:"date"`
	TotalRequests      int64  `json:"total_requests"`
	SuccessfulRequests int64  `json:"successful_requests"`
	FailedRequests     int64  `json:"failed_requests"`
}

// userUsageJSON is a per-user usage record (OpenAPI "UserUsage").
type userUsageJSON struct {
	UserAccountID      uuid.UUID `json:"user_account_id"`
	UserName           string    `json:"user_name"`
	ExternalID         string    `json:"external_id"`
	TotalRequests      int64     `json:"total_requests"`
	SuccessfulRequests int64     `json:"successful_requests"`
	FailedRequests     int64     `json:"failed_requests"`
	AvgResponseTimeMs  float64   `json:"avg_response_time_ms"`
	CredentialCount    int64     `json:"credential_count"`
	PeriodStart        string    `json:"period_start"`
	PeriodEnd          string    `json:"period_end"`
}

func userUsageView(u admin.UserUsage) userUsageJSON {
	return userUsageJSON{
		UserAccountID: u.UserAccountID, UserName: u.UserName, ExternalID: u.ExternalID,
		TotalRequests: u.Total, SuccessfulRequests: u.Successful, FailedRequests: u.Failed,
		AvgResponseTimeMs: u.AvgResponseTimeMs(), CredentialCount: u.CredentialCount,
		PeriodStart: isoTime(u.PeriodStart), PeriodEnd: isoTime(u.PeriodEnd),
	}
}

// ListUsage: GET /v1/admin/usage. Every credential of the caller, revoked
// ones and ones without traffic (zeros) included, busiest first; no
// default window (all time); pagination without hasMore (OpenAPI "Pagination").
func (s *API) ListUsage(c *gin.Context) error {
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	w, err := usageWindow(c)
	if err != nil {
		return err
	}
	rows, total, err := s.deps.Admin.UsageCredentials(c.Request.Context(), adminOf(c), w, p)
	if err != nil {
		return err
	}
	out := make([]credentialUsageJSON, len(rows))
	for i, r := range rows {
		out[i] = credentialUsageJSON{
			CredentialID: r.CredentialID, CredentialName: r.CredentialName, APIKeyPrefix: r.APIKeyPrefix,
			UserAccountID: r.UserAccountID, UserAccountName: r.UserAccountName,
			TotalRequests: r.Total, SuccessfulRequests: r.Successful, FailedRequests: r.Failed,
			LastUsedAt: isoTimePtr(r.LastUsedAt),
		}
	}
	httpx.OKPage(c, out, httpx.Pagination{Limit: p.Limit, Offset: p.Offset, Total: total})
	return nil
}

// CredentialUsage: GET /v1/admin/usage/:id, one credential's totals and
// UTC days (no default window).
func (s *API) CredentialUsage(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	w, err := usageWindow(c)
	if err != nil {
		return err
	}
	r, err := s.deps.Admin.UsageCredential(c.Request.Context(), adminOf(c), id, w)
	if errors.Is(err, admin.ErrNotFound) {
		return httpx.ErrCredentialNotFound
	}
	if err != nil {
		return err
	}
	daily := make([]dailyUsageJSON, len(r.Daily))
	for i, d := range r.Daily {
		daily[i] = dailyUsageJSON{Date: d.Date, TotalRequests: d.Total, SuccessfulRequests: d.Successful, FailedRequests: d.Failed}
	}
	httpx.OK(c, struct {
		Summary credentialUsageSummaryJSON `json:"summary"`
		Daily   []dailyUsageJSON           `json:"daily"`
	}{
		Summary: credentialUsageSummaryJSON{
			CredentialID: r.CredentialID, CredentialName: r.CredentialName, APIKeyPrefix: r.APIKeyPrefix,
			UserAccountID: r.UserAccountID, UserAccountName: r.UserAccountName,
			TotalRequests: r.Total, SuccessfulRequests: r.Successful, FailedRequests: r.Failed,
			PeriodStart: isoTime(r.PeriodStart), PeriodEnd: isoTime(r.PeriodEnd),
		},
		Daily: daily,
	})
	return nil
}

// UserUsage: GET /v1/admin/users/:id/usage (default window: the 30 days
// before now). A non-UUID or another key's id is 404 (DECISIONS.md).
func (s *API) UserUsage(c *gin.Context) error {
	id, err := userID(c, httpx.ErrUserNotFound)
	if err != nil {
		return err
	}
	start, end, err := s.usageWindowDefault(c)
	if err != nil {
		return err
	}
	u, err := s.deps.Admin.UsageUser(c.Request.Context(), adminOf(c), id, start, end)
	if errors.Is(err, admin.ErrNotFound) {
		return httpx.ErrUserNotFound
	}
	if err != nil {
		return err
	}
	httpx.OK(c, userUsageView(u))
	return nil
}

// UsersUsageSummary: GET /v1/admin/users/usage/summary, the caller's
// active users busiest first (default window: the 30 days before now).
func (s *API) UsersUsageSummary(c *gin.Context) error {
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	start, end, err := s.usageWindowDefault(c)
	if err != nil {
		return err
	}
	users, total, err := s.deps.Admin.UsageUsers(c.Request.Context(), adminOf(c), start, end, p)
	if err != nil {
		return err
	}
	out := make([]userUsageJSON, len(users))
	for i, u := range users {
		out[i] = userUsageView(u)
	}
	httpx.OKPage(c, out, httpx.NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// usageWindow reads the optional start_date and end_date; absent bounds
// stay open. start_date must be before end_date.
func usageWindow(c *gin.Context) (admin.UsageWindow, error) {
	var w admin.UsageWindow
	if raw, present := c.GetQuery("start_date"); present {
		t, ok := parseUsageDate(raw, false)
		if !ok {
			return w, httpx.ErrInvalidStartDate
		}
		if !usageYearOK(t) {
			return w, httpx.ErrStartDateRange
		}
		w.Start = &t
	}
	if raw, present := c.GetQuery("end_date"); present {
		t, ok := parseUsageDate(raw, true)
		if !ok {
			return w, httpx.ErrInvalidEndDate
		}
		if !usageYearOK(t) {
			return w, httpx.ErrEndDateRange
		}
		w.End = &t
	}
	if w.Start != nil && w.End != nil && !w.Start.Before(*w.End) {
		return w, httpx.ErrUsageDateOrder
	}
	return w, nil
}

// usageWindowDefault reads the window of the user usage endpoints: end
// defaults to now, start to 30 days before the end.
func (s *API) usageWindowDefault(c *gin.Context) (start, end time.Time, err error) {
	w, err := usageWindow(c)
	if err != nil {
		return start, end, err
	}
	end = s.deps.Now()
	if w.End != nil {
		end = *w.End
	}
	start = end.AddDate(0, 0, -defaultUsageDays)
	if w.Start != nil {
		start = *w.Start
	}
	if !start.Before(end) {
		return start, end, httpx.ErrUsageDateOrder
	}
	return start, end, nil
}

// usageYearOK keeps a bound where every time derived from it stays
// encodable: rounded up to the hour it stays below year 10000 (the JSON
// limit), and 30 days back (the default start) at or above year 0.
func usageYearOK(t time.Time) bool {
	return !t.Before(minUsageDate) && !t.After(maxUsageDate)
}

var (
	minUsageDate = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxUsageDate = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC) // a bare end_date=9998-12-31
)

// parseUsageDate reads a start_date or end_date: a date (YYYY-MM-DD, UTC;
// as an end it includes that whole day, so it means the next midnight) or
// an RFC 3339 time (a time without zone is UTC). A "+" of an offset that
// arrived unencoded in the query string (so as a space) is accepted.
func parseUsageDate(raw string, end bool) (time.Time, bool) {
	if t, err := time.Parse(time.DateOnly, raw); err == nil {
		if end {
			t = t.AddDate(0, 0, 1)
		}
		return t, true
	}
	if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
		return t, true
	}
	if t, err := time.Parse("2006-01-02T15:04:05.999999999", raw); err == nil {
		return t, true // no zone: UTC
	}
	if i := strings.LastIndexByte(raw, ' '); i > 0 {
		if t, err := time.Parse(time.RFC3339Nano, raw[:i]+"+"+raw[i+1:]); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
