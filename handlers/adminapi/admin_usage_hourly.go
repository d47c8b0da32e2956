package adminapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// GET /v1/admin/usage/:id/hourly: our addition to the spec's usage reports
// (docs/DECISIONS.md "Hourly usage"), the hourly buckets the console draws.

// defaultHourlyWindow is the window without start_date: the 48 hours
// before the end (the current, unfinished hour included).
const defaultHourlyWindow = 48 * time.Hour

var errHourlyWindowTooWide = httpx.NewAPIError(http.StatusBadRequest, "Hourly usage covers at most 31 days: narrow start_date and end_date")

type hourlyUsageJSON struct {
	Hour string `json:"hour"`
	usageCountsJSON
}

// CredentialUsageHourly: GET /v1/admin/usage/:id/hourly.
func (s *API) CredentialUsageHourly(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	start, end, err := s.closedWindow(c, func(end time.Time) time.Time { return end.Add(-defaultHourlyWindow) })
	if err != nil {
		return err
	}
	if end.Sub(start) > admin.MaxHourlyWindow {
		return errHourlyWindowTooWide
	}
	r, err := s.deps.Admin.UsageCredentialHourly(c.Request.Context(), adminOf(c), id, start, end)
	if err != nil {
		return notFoundAs(err, httpx.ErrCredentialNotFound)
	}
	hourly := make([]hourlyUsageJSON, len(r.Hourly))
	for i, h := range r.Hourly {
		hourly[i] = hourlyUsageJSON{isoTime(h.Hour), usageCountsView(h.UsageCounts)}
	}
	httpx.OK(c, struct {
		CredentialID uuid.UUID         `json:"credential_id"`
		PeriodStart  string            `json:"period_start"`
		PeriodEnd    string            `json:"period_end"`
		Hourly       []hourlyUsageJSON `json:"hourly"`
	}{r.CredentialID, isoTime(r.PeriodStart), isoTime(r.PeriodEnd), hourly})
	return nil
}
