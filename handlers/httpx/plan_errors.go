package httpx

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/admin"
)

// Messages of plans and quotas (docs/DECISIONS.md "Plans and quotas").
var (
	ErrPlanNotFound     = NewAPIError(http.StatusNotFound, "Plan not found")
	ErrPlanNameRequired = NewAPIError(http.StatusBadRequest, "Name is required and must be a non-empty string")
	ErrPlanRateRequired = NewAPIError(http.StatusBadRequest, "rate_limit_per_minute is required and must be an integer from 1 to 10000")
	ErrPlanBurst        = NewAPIError(http.StatusBadRequest, "burst must be an integer from 1 to 10000, or null")
	ErrPlanDailyQuota   = NewAPIError(http.StatusBadRequest, "daily_quota must be an integer from 1 to 1000000000000, or null")
	ErrPlanMonthlyQuota = NewAPIError(http.StatusBadRequest, "monthly_quota must be an integer from 1 to 1000000000000, or null")
	ErrPlanMaxCreds     = NewAPIError(http.StatusBadRequest, "max_credentials_per_user must be an integer from 1 to 1000000, or null")
	ErrPlanMaxWebhooks  = NewAPIError(http.StatusBadRequest, "max_webhooks_per_user must be an integer from 0 to 1000000, or null")
	ErrPlanRouteGroups  = NewAPIError(http.StatusBadRequest, "route_groups must be a non-empty array of: "+strings.Join(admin.RouteGroups, ", "))
	ErrPlanPatchNone    = NewAPIError(http.StatusBadRequest, "At least one plan field must be provided")
	ErrPlanInUse        = NewAPIError(http.StatusConflict, "Plan cannot be deleted while users are on it")
	ErrPlanIDInvalid    = NewAPIError(http.StatusBadRequest, "plan_id must be the id of one of your plans, or null")
	ErrBootstrapPlans   = NewAPIError(http.StatusBadRequest, "Bootstrap key cannot manage plans. Create an admin key first.")
	ErrDailyQuotaOver   = "Daily request quota exceeded"
	ErrMonthlyQuotaOver = "Monthly request quota exceeded"
)

// ErrPlanNameTaken is the 409 for a name the partner's plans already use.
func ErrPlanNameTaken(name string) *APIError {
	return NewAPIError(http.StatusConflict, "A plan named "+strconv.Quote(name)+" already exists")
}

// ErrPlanCredentialLimit is the 409 for a user holding as many live keys
// as its plan allows.
func ErrPlanCredentialLimit(limit int) *APIError {
	return NewAPIError(http.StatusConflict, "User already holds "+strconv.Itoa(limit)+" active credentials, the most its plan allows")
}

// ErrRouteGroup is the 403 for a route its caller's plan leaves out.
func ErrRouteGroup(group string) *APIError {
	return NewAPIError(http.StatusForbidden, "Your plan does not include this route (route group "+group+")")
}

// PolicyDetails is the error details of a refusal by a rate-limit policy:
// which policy (minute, daily, monthly), its limit and window.
type PolicyDetails struct {
	Policy string `json:"policy"`
	Limit  int64  `json:"limit"`
	Window int64  `json:"window_seconds"`
}

// ErrQuotaExceeded is the 402 for a user over its plan's daily or monthly
// quota, with Retry-After at the quota's reset.
func ErrQuotaExceeded(policy string, limit int64, window, reset time.Duration) *APIError {
	msg := ErrDailyQuotaOver
	if policy == "monthly" {
		msg = ErrMonthlyQuotaOver
	}
	return &APIError{status: http.StatusPaymentRequired, msg: msg, retryAfter: max(reset, time.Second),
		details: PolicyDetails{Policy: policy, Limit: limit, Window: int64(window / time.Second)}}
}

// ErrRateLimitedPolicy is ErrRateLimited (the spec's message, unchanged)
// naming the policy that refused in its details.
func ErrRateLimitedPolicy(perMinute int) *APIError {
	e := ErrRateLimited(perMinute)
	e.details = PolicyDetails{Policy: "minute", Limit: int64(perMinute), Window: 60}
	return e
}
