// Package handlers is syncgate's HTTP layer: the gin router, middleware,
// the response envelope and one file per endpoint group. Handlers are
// func(*gin.Context) error adapted by h; fail (errors.go) is the only code
// that writes an error envelope, for handlers and middleware alike, and
// errors.go holds every message a client can read. The route table is
// routes.go (the console's two static paths are registered from there by
// consoleRoutes, console.go); handlers/openapi/openapi.json documents every
// route and a test keeps the two in step.
package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/platform/spool"
	"github.com/syncgate/syncgate/internal/service/poolstats"
	"github.com/syncgate/syncgate/internal/service/registry"
)

// CredentialAuthenticator resolves a data API key to its caller, or to one
// of auth.ErrInvalidKey, ErrKeyRevoked, ErrKeyExpired, ErrUserInactive.
// auth.Authenticator implements it, and credentialConfirmer (auth.go).
type CredentialAuthenticator interface {
	Authenticate(ctx context.Context, apiKey string) (auth.Caller, error)
}

// Deps is everything the handlers need. Nil optional parts degrade
// gracefully (no Redis: no shared cache, local rate limiter).
type Deps struct {
	Config      config.Config
	Networks    map[string]*dbsync.DB // served networks by name
	Redis       *cache.Client         // optional
	Credentials CredentialAuthenticator
	// Admin serves the administration endpoints and authenticates their
	// admin keys.
	Admin *admin.Store
	// AdminReady reports whether the admin schema is migrated (serve starts
	// without the admin database); until it is, admin routes answer 503.
	// nil: always ready.
	AdminReady func() bool
	// Limiter rate-limits data requests per credential (cache.NewLimiter
	// over the Redis hot-path client); nil means a per-instance limiter.
	Limiter *cache.Limiter
	// AuthFailures counts failed authentications per client IP (a
	// cache.Limiter over the hot-path Redis client); nil means per instance.
	AuthFailures *cache.Limiter
	// Spool keeps this instance's copies of long UTxO lists on disk
	// (internal/platform/spool); nil: every repeat of one is read from Redis.
	Spool *spool.Spool
	// Usage counts authenticated data requests (admin.UsageRecorder); optional.
	Usage UsageRecorder
	// Submitter sends transactions to cardano-node; nil answers 503 on
	// POST /v1/tx/submit.
	Submitter TxSubmitter
	// Registry is the CIP-26 token registry (optional: no registry metadata).
	Registry *registry.Registry
	// PoolStats is the stored live stake distribution (optional: live stake
	// is then computed per pool on demand).
	PoolStats *poolstats.Stats
	Log       *slog.Logger
	// Now is the clock (tests pin it); nil means time.Now.
	Now func() time.Time
	// Draining reports whether the instance is shutting down: /readyz
	// answers 503 and every response closes its connection. Nil: never.
	Draining func() bool
	// AdminCheck checks, for /readyz, that the admin database answers now
	// and carries every migration. Nil: not checked.
	AdminCheck func(ctx context.Context) error
}

// Server is the HTTP application.
type Server struct {
	deps   Deps
	log    *slog.Logger
	engine *gin.Engine
	guard  *authGuard
	caches caches
	txJSON txJSONMemo
	// hotPages: history pages asked for lately (tx.go).
	hotPages hotPages
	// epochAnswers: each network's last /v1/epochs/latest answer (epoch.go).
	epochAnswers sync.Map
}

// New builds the server and its routes.
func New(deps Deps) *Server {
	if deps.Log == nil {
		deps.Log = slog.Default()
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Limiter == nil {
		deps.Limiter = cache.NewLimiter(nil, deps.Now)
	}
	gin.SetMode(gin.ReleaseMode)
	s := &Server{deps: deps, log: deps.Log, engine: gin.New(),
		guard: newAuthGuard(deps.Config.AuthFailuresPerMinute, deps.AuthFailures, deps.Now), caches: newCaches(deps.Redis, deps.Spool), txJSON: newTxJSONMemo(), hotPages: newHotPages()}
	s.engine.HandleMethodNotAllowed = true
	s.engine.RedirectTrailingSlash = false
	s.engine.RedirectFixedPath = false
	// Only configured proxies may set the client IP (audit ip_address);
	// the list was validated by config.Load.
	_ = s.engine.SetTrustedProxies(deps.Config.TrustedProxies)
	s.routes()
	return s
}

// Handler returns the http.Handler to serve.
func (s *Server) Handler() http.Handler { return s.engine }

// h adapts an error-returning handler: the error becomes the envelope.
func h(fn func(*gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := fn(c); err != nil {
			fail(c, err)
		}
	}
}

// requestDeadline is a little above the statement timeout, so a slow query
// is reported by PostgreSQL (504 Query timed out) before the request dies.
func (s *Server) requestDeadline() time.Duration {
	d := s.deps.Config.StatementTimeout
	if d <= 0 {
		d = 10 * time.Second
	}
	return d + 2*time.Second
}
