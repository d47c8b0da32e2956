package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
)

const ctxCaller = "sg.caller"

// Authentication errors (DECISIONS.md "Authentication").
var (
	errMissingAuth  = newAPIError(http.StatusUnauthorized, "Missing or malformed Authorization header")
	errInvalidKey   = newAPIError(http.StatusUnauthorized, "Invalid API key")
	errKeyRevoked   = newAPIError(http.StatusUnauthorized, "API key has been revoked")
	errKeyExpired   = newAPIError(http.StatusUnauthorized, "API key has expired")
	errUserInactive = newAPIError(http.StatusUnauthorized, "User account is not active")
)

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

// keyPrefix is the part of a key that may be logged (DECISIONS: first 12).
func keyPrefix(key string) string {
	if len(key) > 12 {
		return key[:12]
	}
	return key
}

// dataMiddleware is the chain in front of every data endpoint.
func (s *Server) dataMiddleware() []gin.HandlerFunc {
	return []gin.HandlerFunc{s.requireCredential, s.recordUsage}
}

// requireCredential authenticates a data API key and stores its caller.
func (s *Server) requireCredential(c *gin.Context) {
	key, ok := bearerKey(c)
	if !ok {
		fail(c, errMissingAuth)
		return
	}
	c.Set(ctxKeyPrefix, keyPrefix(key))
	if s.deps.Credentials == nil {
		fail(c, errInvalidKey)
		return
	}
	caller, err := s.deps.Credentials.AuthenticateCredential(c.Request.Context(), key)
	switch {
	case err == nil:
	case errors.Is(err, admin.ErrInvalidKey):
		fail(c, errInvalidKey)
		return
	case errors.Is(err, admin.ErrKeyRevoked):
		fail(c, errKeyRevoked)
		return
	case errors.Is(err, admin.ErrKeyExpired):
		fail(c, errKeyExpired)
		return
	case errors.Is(err, admin.ErrUserInactive):
		fail(c, errUserInactive)
		return
	default:
		fail(c, err)
		return
	}
	c.Set(ctxCaller, caller)
	c.Next()
}

// callerOf returns the authenticated data caller.
func callerOf(c *gin.Context) (admin.Caller, bool) {
	v, ok := c.Get(ctxCaller)
	if !ok {
		return admin.Caller{}, false
	}
	caller, ok := v.(admin.Caller)
	return caller, ok
}

// chainDB returns the db-sync of the caller's network, or the DECISIONS
// 503 when this deployment does not serve it.
func (s *Server) chainDB(c *gin.Context) (*dbsync.DB, error) {
	caller, ok := callerOf(c)
	if !ok {
		return nil, errInvalidKey
	}
	n, known := config.NetworkByID(caller.NetworkID)
	if !known {
		return nil, errInvalidKey
	}
	db, served := s.deps.Networks[n.Name]
	if !served {
		return nil, errNetworkNotServed(n.Name)
	}
	return db, nil
}

// requireAdmin authenticates an admin key holding perm ("" = any admin key).
// Placeholder until the administration issue lands: every admin key is refused.
func (s *Server) requireAdmin(perm string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if _, ok := bearerKey(c); !ok {
			fail(c, errMissingAuth)
			return
		}
		fail(c, errInvalidKey)
	}
}
