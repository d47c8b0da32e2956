package adminapi

import (
	"errors"
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
	Hour               string `json:"hour"`
	TotalRequests      int64  `json:"total_requests"`
	SuccessfulRequests int64  `json:"successful_requests"`
	FailedRequests     int64  `json:"failed_requests"`
}

// CredentialUsageHourly: GET /v1/admin/usage/:id/hourly.
func (s *API) CredentialUsageHourly(c *gin.Context) error {
	id, err := credentialID(c)
	if err != nil {
		return err
	}
	w, err := usageWindow(c)
	if err != nil {
		return err
	}
	end := s.deps.Now()
	if w.End != nil {
		end = *w.End
	}
	start := end.Add(-defaultHourlyWindow)
	if w.Start != nil {
		start = *w.Start
	}
	if !start.Before(end) {
		return httpx.ErrUsageDateOrder
	}
	if end.Sub(start) > admin.MaxHourlyWindow {
		return errHourlyWindowTooWide
	}
	r, err := s.deps.Admin.UsageCredentialHourly(c.Request.Context(), adminOf(c), id, start, end)
	if errors.Is(err, admin.ErrNotFound) {
		return httpx.ErrCredentialNotFound
	}
	if err != nil {
		return err
	}
	hourly := make([]hourlyUsageJSON, len(r.Hourly))
	for i, h := range r.Hourly {
		hourly[i] = hourlyUsageJSON{Hour: isoTime(h.Hour), TotalRequests: h.Total, SuccessfulRequests: h.Successful, FailedRequests: h.Failed}
	}
	httpx.OK(c, struct {
		CredentialID uuid.UUID         `json:"credential_id"`
		PeriodStart  string            `json:"period_start"`
		PeriodEnd    string            `json:"period_end"`
		Hourly       []hourlyUsageJSON `json:"hourly"`
	}{r.CredentialID, isoTime(r.PeriodStart), isoTime(r.PeriodEnd), hourly})
	return nil
}
