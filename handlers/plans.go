package handlers

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// ctxQuota holds the request's quota.Result (a caller on a plan with quotas).
const ctxQuota = "sg.quota"

// localQuota is the quota service of an instance given none: counters of
// its own, rebuilt from the admin database (tests, one-instance setups).
func localQuota(deps Deps) *quota.Service {
	o := quota.Options{Now: deps.Now, Log: deps.Log}
	if deps.Admin != nil {
		o.Usage = deps.Admin
	}
	if u, ok := deps.Usage.(quota.Unflushed); ok {
		o.Recorder = u
	}
	return quota.New(o)
}

// countQuota counts the request against the caller's plan quotas (every
// authenticated request counts, as in the usage statistics) and keeps the
// result for planLimits. False: answered (503: a lost counter could not be
// rebuilt).
func (s *Server) countQuota(c *gin.Context, caller auth.Caller) bool {
	p := caller.Plan
	if p == nil || (p.DailyQuota == 0 && p.MonthlyQuota == 0) {
		return true
	}
	r, err := s.deps.Quota.Check(c.Request.Context(), caller.UserAccountID, caller.CredentialID,
		quota.Limits{Daily: p.DailyQuota, Monthly: p.MonthlyQuota})
	if err != nil {
		if errors.Is(err, quota.ErrUnavailable) {
			err = httpx.ErrAdminUnavailable
		}
		httpx.Fail(c, err)
		return false
	}
	c.Set(ctxQuota, r)
	return true
}

// quotaDone tells the quota service the request is recorded in usage.
func (s *Server) quotaDone(c *gin.Context) {
	if v, ok := c.Get(ctxQuota); ok {
		s.deps.Quota.Done(v.(quota.Result))
	}
}

// planLimits answers what the caller's key and plan refuse, in order: its
// access filters (403), a route group the plan leaves out (403), a spent quota (402), the per-minute limit
// (429). Every answer carries the X-RateLimit-* headers of the minute and
// the RateLimit-Policy / RateLimit fields of every policy. False: refused.
func (s *Server) planLimits(c *gin.Context, caller auth.Caller, d answer.Decision) bool {
	var q quota.Result
	if v, ok := c.Get(ctxQuota); ok {
		q = v.(quota.Result)
	}
	httpx.SetRateLimitHeaders(c, d)
	setRateLimitFields(c, d, q)
	if !s.accessFilters(c, caller) {
		return false
	}
	if p := caller.Plan; p != nil {
		if g := s.groups[c.FullPath()]; g != "" && !p.Allows(g) {
			httpx.Fail(c, httpx.ErrRouteGroup(g))
			return false
		}
	}
	if r := q.Refused; r != nil {
		httpx.Fail(c, httpx.ErrQuotaExceeded(r.Name, r.Quota, r.Window, r.Reset))
		return false
	}
	if !d.Allowed {
		httpx.Fail(c, httpx.ErrRateLimitedPolicy(d.Limit))
		return false
	}
	return true
}

// setRateLimitFields writes the IETF RateLimit header fields
// (draft-ietf-httpapi-ratelimit-headers: Structured Field lists):
// RateLimit-Policy names every policy with its quota q and window w
// (seconds), RateLimit the one closest to its limit (the refusing one when
// a quota refuses) with r remaining and t seconds to its reset.
func setRateLimitFields(c *gin.Context, d answer.Decision, q quota.Result) {
	type state struct {
		name    string
		q, w, r int64
		t       int64
	}
	remaining := int64(d.Remaining)
	if !d.Allowed {
		remaining = 0
	}
	minuteReset := d.ResetAfter
	if !d.Allowed {
		minuteReset = d.RetryAfter
	}
	all := []state{{name: "minute", q: int64(d.Limit), w: 60, r: remaining, t: int64(httpx.CeilSeconds(minuteReset))}}
	for _, p := range q.Policies {
		all = append(all, state{name: p.Name, q: p.Quota, w: int64(p.Window.Seconds()), r: p.Remaining(), t: int64(httpx.CeilSeconds(p.Reset))})
	}
	var pol strings.Builder
	closest := 0
	for i, st := range all {
		if i > 0 {
			pol.WriteString(", ")
		}
		pol.WriteString(`"` + st.name + `";q=` + strconv.FormatInt(st.q, 10) + ";w=" + strconv.FormatInt(st.w, 10))
		// Closest to its limit: the smallest share left (r/q), compared
		// without division.
		if c := all[closest]; st.r*c.q < c.r*st.q {
			closest = i
		}
	}
	if r := q.Refused; r != nil {
		for i, st := range all {
			if st.name == r.Name {
				closest = i
			}
		}
	}
	st := all[closest]
	c.Header("RateLimit-Policy", pol.String())
	c.Header("RateLimit", `"`+st.name+`";r=`+strconv.FormatInt(st.r, 10)+";t="+strconv.FormatInt(st.t, 10))
}
