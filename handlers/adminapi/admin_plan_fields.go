package adminapi

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

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
