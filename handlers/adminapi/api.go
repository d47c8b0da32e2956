// Package adminapi is the administration API's HTTP handlers (/v1/admin/…):
// partners' admin keys, users, credentials, usage, audit logs and security
// events, and who may call which of them (RequireAdmin, RequireBootstrap).
// The route table (package handlers) wires them; the envelope, messages
// and parameters are httpx's, shared with the data API.
package adminapi

import (
	"errors"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// Deps is what the admin handlers need.
type Deps struct {
	Config config.Config
	// Admin serves the administration endpoints and authenticates their
	// admin keys.
	Admin *admin.Store
	// AdminReady reports whether the admin schema is migrated; until it
	// is, admin routes answer 503. nil: always ready.
	AdminReady func() bool
	// Limiter rate-limits admin keys (ADMIN_RATE_LIMIT_PER_MINUTE), in a
	// namespace of their own beside the data credentials.
	Limiter *answer.Limiter
	// Guard counts failed authentications per client IP, shared with the
	// data API.
	Guard *httpx.AuthGuard
	// Quota reads users' quota counters (the data requests' own).
	Quota *quota.Service
	Now   func() time.Time
}

// ctxAdmin holds the authenticated admin key (RequireAdmin).
const ctxAdmin = "sg.admin"

// API is the admin handlers over their dependencies.
type API struct {
	deps  Deps
	guard *httpx.AuthGuard
}

// notFoundAs is an error of the admin store with admin.ErrNotFound
// replaced by the route's answer for it.
func notFoundAs(err, answer error) error {
	if pe := planError(err); pe != nil {
		return pe
	}
	if errors.Is(err, admin.ErrNotFound) {
		return answer
	}
	return err
}

// New builds the admin handlers.
func New(deps Deps) *API { return &API{deps: deps, guard: deps.Guard} }
