package handlers

import (
	"context"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
)

const (
	ctxCaller    = "sg.caller"
	ctxRateLimit = "sg.rate_limit"
	ctxAdmin     = "sg.admin"
)

// Authentication errors (DECISIONS.md "Authentication").
var (
	errMissingAuth  = newAPIError(http.StatusUnauthorized, "Missing or malformed Authorization header")
	errInvalidKey   = newAPIError(http.StatusUnauthorized, "Invalid API key")
	errKeyRevoked   = newAPIError(http.StatusUnauthorized, "API key has been revoked")
	errKeyExpired   = newAPIError(http.StatusUnauthorized, "API key has expired")
	errUserInactive = newAPIError(http.StatusUnauthorized, "User account is not active")
)

// errRateLimited is DECISIONS.md's 429 for a credential over its limit.
func errRateLimited(perMinute int) *apiError {
	return newAPIError(http.StatusTooManyRequests, "Rate limit exceeded: "+strconv.Itoa(perMinute)+" requests per minute")
}

// credentialConfirmer is the second half of authentication that
// auth.Authenticator offers: after the rate limiter has read the
// credential's version key in its own Redis round trip (or not: a leased
// slice asks Redis nothing), the cached entry is confirmed (or reloaded).
type credentialConfirmer interface {
	Confirm(ctx context.Context, apiKey, version string, ok bool) (auth.Caller, error)
}

// bearerKey extracts the key from "Authorization: Bearer <key>".
func bearerKey(c *gin.Context) (string, bool) {
	h := c.GetHeader("Authorization")
	scheme, key, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	key = strings.TrimSpace(key)
	return key, key != ""
}

// dataMiddleware is the chain in front of every data endpoint:
// requireCredential (authentication, and the rate-limit decision taken in
// the same Redis round trip), recordUsage (counts the final status, 429s
// included), then rateLimit (headers, 429).
func (s *Server) dataMiddleware() []gin.HandlerFunc {
	return []gin.HandlerFunc{s.requireCredential, s.recordUsage, s.rateLimit}
}

// requireCredential authenticates a data API key and stores its caller and
// rate-limit decision. Cost for a key seen before: no PostgreSQL query, and
// a Redis round trip (rate limit + cache version) only when the limiter
// leases its next slice of the credential's budget; a request answered
// from a slice costs no round trip, and the cached entry then stands on
// Redis' last word if that is under a second old (auth.Confirm).
func (s *Server) requireCredential(c *gin.Context) {
	if s.guard.refused(c) {
		return
	}
	key, ok := bearerKey(c)
	if !ok {
		fail(c, errMissingAuth)
		return
	}
	if s.deps.Credentials == nil {
		s.failAuth(c, errInvalidKey)
		return
	}
	ctx := c.Request.Context()
	caller, err := s.deps.Credentials.Authenticate(ctx, key)
	if err != nil {
		s.failAuth(c, err)
		return
	}
	d := s.deps.Limiter.Allow(ctx, caller.CredentialID.String(), caller.RateLimitPerMinute, caller.VersionKey)
	if cf, ok := s.deps.Credentials.(credentialConfirmer); ok {
		if caller, err = cf.Confirm(ctx, key, d.Peeked, d.PeekOK); err != nil {
			s.failAuth(c, err)
			return
		}
	}
	c.Set(ctxCaller, caller)
	c.Set(ctxAuthLog, slog.String("credential_id", caller.CredentialID.String()))
	c.Set(ctxRateLimit, d)
	c.Next()
}

// authError maps authentication failures to DECISIONS.md messages.
func authError(err error) error {
	switch {
	case errors.Is(err, auth.ErrInvalidKey):
		return errInvalidKey
	case errors.Is(err, auth.ErrKeyRevoked):
		return errKeyRevoked
	case errors.Is(err, auth.ErrKeyExpired):
		return errKeyExpired
	case errors.Is(err, auth.ErrUserInactive):
		return errUserInactive
	case errors.Is(err, auth.ErrUnavailable):
		return errAdminUnavailable
	}
	return err
}

// rateLimit applies the decision requireCredential took: the X-RateLimit-*
// headers on every authenticated data response, and 429 with Retry-After
// once the credential's per-minute budget is spent.
func (s *Server) rateLimit(c *gin.Context) {
	v, ok := c.Get(ctxRateLimit)
	if !ok {
		c.Next()
		return
	}
	if writeRateLimit(c, v.(cache.Decision)) {
		c.Next()
	}
}

// setRateLimitHeaders writes the X-RateLimit-* headers of d, and
// Retry-After when d refuses the request.
func setRateLimitHeaders(c *gin.Context, d cache.Decision) {
	c.Header("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	c.Header("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
	c.Header("X-RateLimit-Reset", strconv.Itoa(ceilSeconds(d.ResetAfter)))
	if !d.Allowed {
		c.Header("Retry-After", strconv.Itoa(max(1, ceilSeconds(d.RetryAfter))))
	}
}

func ceilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}

// callerOf returns the authenticated data caller.
func callerOf(c *gin.Context) (auth.Caller, bool) {
	v, ok := c.Get(ctxCaller)
	if !ok {
		return auth.Caller{}, false
	}
	caller, ok := v.(auth.Caller)
	return caller, ok
}

// chainDB returns the db-sync of the caller's network, or the DECISIONS
// 503 when this deployment does not serve it.
func (s *Server) chainDB(c *gin.Context) (*dbsync.DB, error) {
	caller, ok := callerOf(c)
	if !ok {
		return nil, errInvalidKey
	}
	n, known := cardano.NetworkByID(caller.NetworkID)
	if !known {
		return nil, errInvalidKey
	}
	db, served := s.deps.Networks[n.Name]
	if !served {
		return nil, errNetworkNotServed(n.Name)
	}
	return db, nil
}

// requireAdmin authenticates an admin key (or the bootstrap key), counts
// the request against the key's admin rate limit and checks perm ("" = any
// admin key; requireBootstrap narrows further in the route table). A
// credential, an unknown, revoked or expired admin key: 401 Invalid API
// key. Missing permission: 403. Both are recorded as security events.
func (s *Server) requireAdmin(perm string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.guard.refused(c) {
			return
		}
		if s.deps.AdminReady != nil && !s.deps.AdminReady() {
			// Started without the admin database: nothing here can work
			// (not even recording a denial) until it is migrated.
			fail(c, errAdminUnavailable)
			return
		}
		key, ok := bearerKey(c)
		if !ok {
			s.denyAdmin(c, errMissingAuth, nil)
			return
		}
		if s.deps.Admin == nil {
			s.failAuth(c, errInvalidKey)
			return
		}
		a, err := s.deps.Admin.AuthenticateAdmin(c.Request.Context(), key)
		if err != nil {
			s.denyAdmin(c, err, nil)
			return
		}
		c.Set(ctxAuthLog, slog.String("admin_key_id", a.ID.String())) // the bootstrap key: its fixed row id
		if !s.adminRateLimit(c, a) {
			return
		}
		if perm != "" && !a.Can(perm) {
			s.denyAdmin(c, errPermissionDenied(perm), &a)
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
