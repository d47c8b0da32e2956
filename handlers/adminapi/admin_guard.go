package adminapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// Who may call which admin route is decided here and in routes.go, never
// inside a handler: requireAdmin authenticates, rate-limits and checks a
// permission; requireBootstrap then narrows a route to the bootstrap key.

// defaultAdminRateLimit applies when ADMIN_RATE_LIMIT_PER_MINUTE is unset.
const defaultAdminRateLimit = 600

// RequireBootstrap lets only the bootstrap key through (after requireAdmin).
func (s *API) RequireBootstrap(c *gin.Context) {
	a := adminOf(c)
	if !a.Bootstrap {
		s.denyAdmin(c, httpx.ErrBootstrapOnly, &a)
		return
	}
	c.Next()
}

// adminRateLimit counts the request against the admin key's per-minute
// budget (one limiter for data and admin, keys in their own namespace)
// and answers like the data rate limit: X-RateLimit-* headers, 429 with
// Retry-After and the same details. It reports whether the request may go on.
func (s *API) adminRateLimit(c *gin.Context, a admin.Admin) bool {
	limit := s.deps.Config.AdminRateLimitPerMinute
	if limit <= 0 {
		limit = defaultAdminRateLimit
	}
	d := s.deps.Limiter.Allow(c.Request.Context(), "admin:"+a.ID.String(), limit, "")
	return httpx.WriteRateLimit(c, d)
}

// denyAdmin answers a refused admin request and records it as a security
// event when it is a 401 or 403. a is the authenticated key of a 403
// (nil for a 401). Nothing of the presented key is recorded.
func (s *API) denyAdmin(c *gin.Context, err error, a *admin.Admin) {
	// An unknown key also counts against the client's failed-authentication
	// budget; over it the answer is 429 (httpx.AuthGuard), not recorded again.
	if errors.Is(err, auth.ErrInvalidKey) || errors.Is(err, httpx.ErrInvalidKey) {
		if wait, limited := s.guard.Failed(c.Request.Context(), c.ClientIP()); limited {
			c.Header("Retry-After", strconv.Itoa(max(1, httpx.CeilSeconds(wait))))
			httpx.Fail(c, httpx.ErrAuthFailures)
			return
		}
	}
	err = httpx.AuthError(err)
	var ae *httpx.APIError
	if s.deps.Admin != nil && errors.As(err, &ae) && (ae.Status() == http.StatusUnauthorized || ae.Status() == http.StatusForbidden) {
		ip := c.ClientIP()
		path := c.FullPath() // the route, not whatever the client sent
		if path == "" {
			path = c.Request.URL.Path
		}
		if len(path) > 200 {
			path = path[:200]
		}
		ev := admin.SecurityEvent{
			IPAddress: &ip, Method: c.Request.Method, Path: path, Status: ae.Status(),
			Reason: ae.Message(), RequestID: httpx.RequestID(c),
		}
		if a != nil && a.ID != uuid.Nil {
			id := a.ID
			ev.AdminKeyID = &id
		}
		s.deps.Admin.RecordSecurityEvent(ev)
	}
	httpx.Fail(c, err)
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

// ListSecurityEvents: GET /v1/admin/security-events (bootstrap key only),
// newest first.
func (s *API) ListSecurityEvents(c *gin.Context) error {
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
	httpx.OKPage(c, out, httpx.NewPagination(p.Limit, p.Offset, len(out), total))
	return nil
}

// RequireAdmin authenticates an admin key (or the bootstrap key), counts
// the request against the key's admin rate limit and checks perm ("" = any
// admin key; requireBootstrap narrows further in the route table). A
// credential, an unknown, revoked or expired admin key: 401 Invalid API
// key. Missing permission: 403. Both are recorded as security events.
func (s *API) RequireAdmin(perm string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.guard.Refused(c) {
			return
		}
		if s.deps.AdminReady != nil && !s.deps.AdminReady() {
			// Started without the admin database: nothing here can work
			// (not even recording a denial) until it is migrated.
			httpx.Fail(c, httpx.ErrAdminUnavailable)
			return
		}
		key, ok := httpx.BearerKey(c)
		if !ok {
			s.denyAdmin(c, httpx.ErrMissingAuth, nil)
			return
		}
		if s.deps.Admin == nil {
			s.guard.FailAuth(c, httpx.ErrInvalidKey)
			return
		}
		a, err := s.deps.Admin.AuthenticateAdmin(c.Request.Context(), key)
		if err != nil {
			s.denyAdmin(c, err, nil)
			return
		}
		c.Set(httpx.CtxAuthLog, slog.String("admin_key_id", a.ID.String())) // the bootstrap key: its fixed row id
		if !s.adminRateLimit(c, a) {
			return
		}
		if perm != "" && !a.Can(perm) {
			s.denyAdmin(c, httpx.ErrPermissionDenied(perm), &a)
			return
		}
		a.IP = c.ClientIP()
		c.Set(ctxAdmin, a)
		c.Next()
	}
}

// adminOf returns the authenticated admin key (requireAdmin ran before).
func adminOf(c *gin.Context) admin.Admin {
	a, _ := c.Get(ctxAdmin)
	v, _ := a.(admin.Admin)
	return v
}

// AdminOf returns the admin key RequireAdmin authenticated, for handlers
// of other packages behind it (the admin webhook routes).
func AdminOf(c *gin.Context) admin.Admin { return adminOf(c) }
