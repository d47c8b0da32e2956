package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
)

// Who may call which admin route is decided here and in routes.go, never
// inside a handler: requireAdmin authenticates, rate-limits and checks a
// permission; requireBootstrap then narrows a route to the bootstrap key.

// defaultAdminRateLimit applies when ADMIN_RATE_LIMIT_PER_MINUTE is unset.
const defaultAdminRateLimit = 600

// requireBootstrap lets only the bootstrap key through (after requireAdmin).
func (s *Server) requireBootstrap(c *gin.Context) {
	a := adminOf(c)
	if !a.Bootstrap {
		s.denyAdmin(c, errBootstrapOnly, &a)
		return
	}
	c.Next()
}

// adminRateLimit counts the request against the admin key's per-minute
// budget (one limiter for data and admin, keys in their own namespace)
// and answers like the data rate limit: X-RateLimit-* headers, 429 with
// Retry-After. It reports whether the request may go on.
func (s *Server) adminRateLimit(c *gin.Context, a admin.Admin) bool {
	limit := s.deps.Config.AdminRateLimitPerMinute
	if limit <= 0 {
		limit = defaultAdminRateLimit
	}
	d := s.deps.Limiter.Allow(c.Request.Context(), "admin:"+a.ID.String(), limit, "")
	return writeRateLimit(c, d)
}

// denyAdmin answers a refused admin request and records it as a security
// event when it is a 401 or 403. a is the authenticated key of a 403
// (nil for a 401). Nothing of the presented key is recorded.
func (s *Server) denyAdmin(c *gin.Context, err error, a *admin.Admin) {
	// An unknown key also counts against the client's failed-authentication
	// budget; over it the answer is 429 (authguard.go), not recorded again.
	if errors.Is(err, auth.ErrInvalidKey) || errors.Is(err, errInvalidKey) {
		if wait, limited := s.guard.failed(c.Request.Context(), c.ClientIP()); limited {
			c.Header("Retry-After", strconv.Itoa(max(1, ceilSeconds(wait))))
			fail(c, errAuthFailures)
			return
		}
	}
	err = authError(err)
	var ae *apiError
	if s.deps.Admin != nil && errors.As(err, &ae) && (ae.status == http.StatusUnauthorized || ae.status == http.StatusForbidden) {
		ip := c.ClientIP()
		path := c.FullPath() // the route, not whatever the client sent
		if path == "" {
			path = c.Request.URL.Path
		}
		if len(path) > 200 {
			path = path[:200]
		}
		ev := admin.SecurityEvent{
			IPAddress: &ip, Method: c.Request.Method, Path: path, Status: ae.status,
			Reason: ae.msg, RequestID: requestID(c),
		}
		if a != nil && a.ID != uuid.Nil {
			id := a.ID
			ev.AdminKeyID = &id
		}
		s.deps.Admin.RecordSecurityEvent(ev)
	}
	fail(c, err)
}

// securityEventJSON is one denied admin request.
type securityEventJSON struct {
	ID         int64      `json:"id"`
	CreatedAt  string     `json:"created_at"`
	IPAddress  *string    `json:"ip_address"`
	Method     string     `json:"method"`
	Path       string     `json:"path"`
	Status     int        `json:"status"`
	Reason     string     `json:"reason"`
	AdminKeyID *uuid.UUID `json:"admin_key_id"`
	RequestID  string     `json:"request_id"`
}

// listSecurityEvents: GET /v1/admin/security-events (bootstrap key only),
// newest first.
func (s *Server) listSecurityEvents(c *gin.Context) error {
	p, err := adminPage(c, 20)
	if err != nil {
		return err
	}
	events, total, err := s.deps.Admin.SecurityEvents(c.Request.Context(), adminOf(c), p)
	if err != nil {
		return err
	}
	out := make([]securityEventJSON, len(events))
	for i, e := range events {
		out[i] = securityEventJSON{
			ID: e.ID, CreatedAt: isoTime(e.CreatedAt), IPAddress: e.IPAddress, Method: e.Method, Path: e.Path,
			Status: e.Status, Reason: e.Reason, AdminKeyID: e.AdminKeyID, RequestID: e.RequestID,
		}
	}
	okPage(c, out, NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// writeRateLimit sets the X-RateLimit-* headers of decision d and, when d
// refuses the request, answers 429 with Retry-After. It reports whether
// the request may go on.
func writeRateLimit(c *gin.Context, d cache.Decision) bool {
	setRateLimitHeaders(c, d)
	if !d.Allowed {
		fail(c, errRateLimited(d.Limit))
		return false
	}
	return true
}
