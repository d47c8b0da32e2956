package handlers

import (
	"context"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
)

const (
	ctxCaller    = "sg.caller"
	ctxRateLimit = "sg.rate_limit"
)

// credentialConfirmer is the second half of authentication that
// auth.Authenticator offers: after the rate limiter has read the
// credential's version key in its own Redis round trip (or not: a leased
// slice asks Redis nothing), the cached entry is confirmed (or reloaded).
type credentialConfirmer interface {
	Confirm(ctx context.Context, apiKey, version string, ok bool) (auth.Caller, error)
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
	if s.guard.Refused(c) {
		return
	}
	key, ok := dataKey(c)
	if !ok {
		httpx.Fail(c, httpx.ErrMissingAuth)
		return
	}
	if s.deps.Credentials == nil {
		s.guard.FailAuth(c, httpx.ErrInvalidKey)
		return
	}
	ctx := c.Request.Context()
	caller, err := s.deps.Credentials.Authenticate(ctx, key)
	if err != nil {
		s.guard.FailAuth(c, err)
		return
	}
	burst := 0
	if caller.Plan != nil && caller.Plan.RateFromPlan {
		burst = caller.Plan.Burst
	}
	d := s.deps.Limiter.AllowBurst(ctx, caller.CredentialID.String(), caller.RateLimitPerMinute, burst, caller.VersionKey)
	if cf, ok := s.deps.Credentials.(credentialConfirmer); ok {
		if caller, err = cf.Confirm(ctx, key, d.Peeked, d.PeekOK); err != nil {
			s.guard.FailAuth(c, err)
			return
		}
	}
	if !s.countQuota(c, caller) {
		return
	}
	c.Set(ctxCaller, caller)
	c.Set(httpx.CtxAuthLog, slog.String("credential_id", caller.CredentialID.String()))
	c.Set(ctxRateLimit, d)
	c.Next()
}

// dataKey is the request's data API key: Blockfrost's project_id header
// in that dialect (a key path prefix arrives as that header), else the
// Bearer token.
func dataKey(c *gin.Context) (string, bool) {
	if httpx.IsBlockfrost(c) {
		return httpx.ProjectKey(c)
	}
	return httpx.BearerKey(c)
}

// rateLimit applies the decisions requireCredential took: the X-RateLimit-*
// headers and RateLimit fields on every authenticated data response, then
// the caller's plan (route groups, quotas: planLimits) and 429 with
// Retry-After once the credential's per-minute budget is spent.
func (s *Server) rateLimit(c *gin.Context) {
	v, ok := c.Get(ctxRateLimit)
	caller, known := callerOf(c)
	if !ok || !known {
		c.Next()
		return
	}
	if s.planLimits(c, caller, v.(answer.Decision)) {
		c.Next()
	}
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
		return nil, httpx.ErrInvalidKey
	}
	n, known := cardano.NetworkByID(caller.NetworkID)
	if !known {
		return nil, httpx.ErrInvalidKey
	}
	db, served := s.deps.Networks[n.Name]
	if !served {
		return nil, httpx.ErrNetworkNotServed(n.Name)
	}
	return db, nil
}
