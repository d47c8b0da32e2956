package adminapi

import (
	"errors"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// quotaPolicyJSON is one quota's state (OpenAPI schema QuotaPolicy).
type quotaPolicyJSON struct {
	Quota       int64  `json:"quota"`
	Used        int64  `json:"used"`
	Remaining   int64  `json:"remaining"`
	PeriodStart string `json:"period_start"`
	ResetsAt    string `json:"resets_at"`
}

// planRefJSON names a plan.
type planRefJSON struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// userQuotaJSON is GET /v1/admin/users/:id/quota (OpenAPI schema UserQuota).
type userQuotaJSON struct {
	UserAccountID uuid.UUID        `json:"user_account_id"`
	Plan          *planRefJSON     `json:"plan"`
	Daily         *quotaPolicyJSON `json:"daily"`
	Monthly       *quotaPolicyJSON `json:"monthly"`
}

// UserQuota: GET /v1/admin/users/:id/quota, how much of its plan's daily
// and monthly quotas a user has used, read from the counters the data
// requests are checked against (nothing is counted). A quota the plan
// lacks, or no plan: null. A non-UUID or another partner's id is 404.
func (s *API) UserQuota(c *gin.Context) error {
	id, err := userID(c, httpx.ErrUserNotFound)
	if err != nil {
		return err
	}
	u, p, err := s.deps.Admin.UserQuotaPlan(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrUserNotFound)
	}
	out := userQuotaJSON{UserAccountID: u.ID}
	if p != nil {
		out.Plan = &planRefJSON{ID: p.ID, Name: p.Name}
		var lim quota.Limits
		if p.DailyQuota != nil {
			lim.Daily = *p.DailyQuota
		}
		if p.MonthlyQuota != nil {
			lim.Monthly = *p.MonthlyQuota
		}
		pols, err := s.deps.Quota.Current(c.Request.Context(), u.ID, lim)
		if errors.Is(err, quota.ErrUnavailable) {
			return httpx.ErrAdminUnavailable
		}
		if err != nil {
			return err
		}
		for _, pol := range pols {
			v := &quotaPolicyJSON{Quota: pol.Quota, Used: pol.Used, Remaining: pol.Remaining(),
				PeriodStart: isoTime(pol.Start), ResetsAt: isoTime(pol.End)}
			if pol.Name == quota.Daily {
				out.Daily = v
			} else {
				out.Monthly = v
			}
		}
	}
	httpx.OK(c, out)
	return nil
}
