package adminapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

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

// jsonInt64In decodes a JSON integer literal from lo to hi.
func jsonInt64In(raw json.RawMessage, lo, hi int64) (int64, bool) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return n, err == nil && n >= lo && n <= hi
}

// nullableInt reads an optional integer field from lo to hi: set says it
// was supplied, v nil that it was null.
func nullableInt(obj map[string]json.RawMessage, field string, lo, hi int64, bad *httpx.APIError) (set bool, v *int64, err error) {
	raw, present := obj[field]
	if !present {
		return false, nil, nil
	}
	if isNull(raw) {
		return true, nil, nil
	}
	n, ok := jsonInt64In(raw, lo, hi)
	if !ok {
		return false, nil, bad
	}
	return true, &n, nil
}

func intPtr(v *int64) *int {
	if v == nil {
		return nil
	}
	n := int(*v)
	return &n
}

// routeGroups reads a non-empty array of known route groups (duplicates
// dropped, order kept).
func routeGroups(raw json.RawMessage) ([]string, error) {
	var in []string
	if err := json.Unmarshal(raw, &in); err != nil || len(in) == 0 {
		return nil, httpx.ErrPlanRouteGroups
	}
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, g := range in {
		if !admin.ValidRouteGroup(g) {
			return nil, httpx.ErrPlanRouteGroups
		}
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out, nil
}

// planSettings reads the fields create and PATCH share (all but name).
func planSettings(obj map[string]json.RawMessage) (p admin.PlanPatch, err error) {
	if raw, present := obj["rate_limit_per_minute"]; present && !isNull(raw) {
		n, ok := jsonInt64In(raw, 1, 10000)
		if !ok {
			return p, httpx.ErrRateLimitRange
		}
		v := int(n)
		p.RateLimitPerMinute = &v
	}
	var v *int64
	if p.SetBurst, v, err = nullableInt(obj, "burst", 1, 10000, httpx.ErrPlanBurst); err != nil {
		return p, err
	}
	p.Burst = intPtr(v)
	if p.SetDailyQuota, p.DailyQuota, err = nullableInt(obj, "daily_quota", 1, 1e12, httpx.ErrPlanDailyQuota); err != nil {
		return p, err
	}
	if p.SetMonthlyQuota, p.MonthlyQuota, err = nullableInt(obj, "monthly_quota", 1, 1e12, httpx.ErrPlanMonthlyQuota); err != nil {
		return p, err
	}
	if p.SetMaxCredentials, v, err = nullableInt(obj, "max_credentials_per_user", 1, 1e6, httpx.ErrPlanMaxCreds); err != nil {
		return p, err
	}
	p.MaxCredentials = intPtr(v)
	if p.SetMaxWebhooks, v, err = nullableInt(obj, "max_webhooks_per_user", 0, 1e6, httpx.ErrPlanMaxWebhooks); err != nil {
		return p, err
	}
	p.MaxWebhooks = intPtr(v)
	if raw, present := obj["route_groups"]; present && !isNull(raw) {
		if p.RouteGroups, err = routeGroups(raw); err != nil {
			return p, err
		}
	}
	return p, nil
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

// optionalPlanID reads a user's plan_id: absent gives set false; null
// takes the user off its plan; else it must be a UUID (an unknown one is
// the same 400, from the store).
func optionalPlanID(obj map[string]json.RawMessage) (set bool, id *uuid.UUID, err error) {
	raw, present := obj["plan_id"]
	if !present {
		return false, nil, nil
	}
	if isNull(raw) {
		return true, nil, nil
	}
	s, ok := jsonString(raw)
	if !ok {
		return false, nil, httpx.ErrPlanIDInvalid
	}
	u, perr := uuid.Parse(s)
	if perr != nil {
		return false, nil, httpx.ErrPlanIDInvalid
	}
	return true, &u, nil
}
