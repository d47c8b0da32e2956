package adminapi

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// planJSON is a plan (OpenAPI schema Plan).
type planJSON struct {
	ID                    uuid.UUID `json:"id"`
	Name                  string    `json:"name"`
	RateLimitPerMinute    int       `json:"rate_limit_per_minute"`
	Burst                 *int      `json:"burst"`
	DailyQuota            *int64    `json:"daily_quota"`
	MonthlyQuota          *int64    `json:"monthly_quota"`
	RouteGroups           []string  `json:"route_groups"`
	MaxCredentialsPerUser *int      `json:"max_credentials_per_user"`
	MaxWebhooksPerUser    *int      `json:"max_webhooks_per_user"`
	Users                 int64     `json:"users"`
	AdminKeyID            uuid.UUID `json:"admin_key_id"`
	CreatedAt             string    `json:"created_at"`
	UpdatedAt             *string   `json:"updated_at"`
}

func planView(p admin.Plan) planJSON {
	groups := []string(p.RouteGroups)
	if groups == nil {
		groups = []string{}
	}
	return planJSON{
		ID: p.ID, Name: p.Name, RateLimitPerMinute: p.RateLimitPerMinute, Burst: p.Burst, DailyQuota: p.DailyQuota,
		MonthlyQuota: p.MonthlyQuota, RouteGroups: groups, MaxCredentialsPerUser: p.MaxCredentialsPerUser,
		MaxWebhooksPerUser: p.MaxWebhooksPerUser, Users: p.Users, AdminKeyID: p.AdminKeyID, CreatedAt: isoTime(p.CreatedAt),
		UpdatedAt: isoTimePtr(p.UpdatedAt),
	}
}

// planError turns the store's plan errors into their messages (nil: not
// one of them).
func planError(err error) error {
	var limit *admin.CredentialLimitError
	switch {
	case errors.As(err, &limit):
		return httpx.ErrPlanCredentialLimit(limit.Max)
	case errors.Is(err, admin.ErrPlanUnknown):
		return httpx.ErrPlanIDInvalid
	case errors.Is(err, admin.ErrPlanInUse):
		return httpx.ErrPlanInUse
	}
	return nil
}

// planID reads :id; anything but a UUID names no plan.
func planID(c *gin.Context) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return uuid.UUID{}, httpx.ErrPlanNotFound
	}
	return id, nil
}

// CreatePlan: POST /v1/admin/plans.
func (s *API) CreatePlan(c *gin.Context) error {
	a := adminOf(c)
	if a.Bootstrap {
		return httpx.ErrBootstrapPlans
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	var in admin.NewPlan
	if in.Name, err = requiredName(obj["name"], httpx.ErrPlanNameRequired); err != nil {
		return err
	}
	if raw, present := obj["rate_limit_per_minute"]; !present || isNull(raw) {
		return httpx.ErrPlanRateRequired
	}
	p, err := planSettings(obj)
	if err != nil {
		return err
	}
	in.RateLimitPerMinute = *p.RateLimitPerMinute
	in.Burst, in.DailyQuota, in.MonthlyQuota = p.Burst, p.DailyQuota, p.MonthlyQuota
	in.MaxCredentialsPerUser, in.MaxWebhooksPerUser = p.MaxCredentials, p.MaxWebhooks
	in.RouteGroups = p.RouteGroups
	if in.RouteGroups == nil {
		in.RouteGroups = admin.RouteGroups // every group unless narrowed
	}
	plan, err := s.deps.Admin.CreatePlan(c.Request.Context(), a, in)
	switch {
	case errors.Is(err, admin.ErrPlanNameTaken):
		return httpx.ErrPlanNameTaken(in.Name)
	case errors.Is(err, admin.ErrBootstrapUsers):
		return httpx.ErrBootstrapPlans
	case err != nil:
		return err
	}
	httpx.OKMessage(c, http.StatusCreated, planView(plan), "Plan created successfully")
	return nil
}

// ListPlans: GET /v1/admin/plans, the partner's plans by name.
func (s *API) ListPlans(c *gin.Context) error {
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	plans, total, err := s.deps.Admin.Plans(c.Request.Context(), adminOf(c), p)
	if err != nil {
		return err
	}
	out := make([]planJSON, len(plans))
	for i, pl := range plans {
		out[i] = planView(pl)
	}
	httpx.OKPage(c, out, httpx.NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// GetPlan: GET /v1/admin/plans/:id.
func (s *API) GetPlan(c *gin.Context) error {
	id, err := planID(c)
	if err != nil {
		return err
	}
	p, err := s.deps.Admin.Plan(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrPlanNotFound)
	}
	httpx.OK(c, planView(p))
	return nil
}

// UpdatePlan: PATCH /v1/admin/plans/:id. Supplied fields change; null
// clears burst, quotas and the per-user maxima (null name, limit or
// route_groups: not supplied).
func (s *API) UpdatePlan(c *gin.Context) error {
	id, err := planID(c)
	if err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	var name *string
	if raw, present := obj["name"]; present && !isNull(raw) {
		n, err := requiredName(raw, httpx.ErrNameNotEmpty)
		if err != nil {
			return err
		}
		name = &n
	}
	p, err := planSettings(obj)
	if err != nil {
		return err
	}
	p.Name = name
	if p.Empty() {
		return httpx.ErrPlanPatchNone
	}
	plan, err := s.deps.Admin.UpdatePlan(c.Request.Context(), adminOf(c), id, p)
	if errors.Is(err, admin.ErrPlanNameTaken) {
		return httpx.ErrPlanNameTaken(*name)
	}
	if err != nil {
		return notFoundAs(err, httpx.ErrPlanNotFound)
	}
	httpx.OKMessage(c, http.StatusOK, planView(plan), "Plan updated successfully")
	return nil
}

// DeletePlan: DELETE /v1/admin/plans/:id; 409 while users are on it.
func (s *API) DeletePlan(c *gin.Context) error {
	id, err := planID(c)
	if err != nil {
		return err
	}
	p, err := s.deps.Admin.DeletePlan(c.Request.Context(), adminOf(c), id)
	if err != nil {
		return notFoundAs(err, httpx.ErrPlanNotFound)
	}
	httpx.OKMessage(c, http.StatusOK, gin.H{"id": p.ID, "name": p.Name}, "Plan deleted successfully")
	return nil
}
