// Package handlers is syncgate's data API over HTTP: the gin router and
// its middleware, and one file per endpoint group, each handler parsing a
// request, asking internal/answer for the answer and writing it. Handlers
// are func(*gin.Context) error adapted by httpx.H; httpx.Fail is the only
// code that writes an error envelope, for handlers and middleware alike,
// and httpx's errors.go holds every message a client can read. The admin
// API's handlers are package adminapi; the route table, which wires both,
// is routes.go (the console's two static paths are registered from there by
// consoleRoutes, console.go); handlers/openapi/openapi.json documents every
// route and a test keeps the two in step.
package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/adminapi"
	"github.com/syncgate/syncgate/handlers/blockfrost"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/handlers/webhookapi"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/platform/spool"
	"github.com/syncgate/syncgate/internal/service/poolstats"
	"github.com/syncgate/syncgate/internal/service/quota"
	"github.com/syncgate/syncgate/internal/service/registry"
	"github.com/syncgate/syncgate/internal/service/txstatus"
	"github.com/syncgate/syncgate/node"
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
	Redis       *answer.Redis         // optional
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
	Limiter *answer.Limiter
	// AuthFailures counts failed authentications per client IP (a
	// cache.Limiter over the hot-path Redis client); nil means per instance.
	AuthFailures *answer.Limiter
	// Spool keeps this instance's copies of long UTxO lists on disk
	// (internal/platform/spool); nil: every repeat of one is read from Redis.
	Spool *spool.Spool
	// Usage counts authenticated data requests (admin.UsageRecorder); optional.
	Usage UsageRecorder
	// Quota counts requests against plans' daily and monthly quotas
	// (shared through Redis); nil: one of this instance alone over Admin.
	Quota *quota.Service
	// Submitter sends transactions to cardano-node; nil answers 503 on
	// POST /v1/tx/submit.
	Submitter TxSubmitter
	// Mempool reads each network's node mempool (GET /v1/mempool,
	// ?pending=, transaction status, idempotent submission); nil answers
	// 503, and every status says mempool "unavailable".
	Mempool *node.Mempool
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
	// Events stores webhooks and their events (built over the admin
	// database when WEBHOOK_SECRET_KEY is set); nil: the webhook routes
	// answer 503.
	Events *events.Store
	// AnswerTuning sizes the answer caches (internal/answer); zero fields
	// mean the defaults, tests make them small.
	AnswerTuning answer.Tuning
}

// Server is the HTTP application.
type Server struct {
	deps   Deps
	log    *slog.Logger
	engine *gin.Engine
	guard  *httpx.AuthGuard
	// answers makes the data answers and holds their caches.
	answers *answer.Service
	// adm is the admin API's handlers.
	adm *adminapi.API
	// txs submits transactions and tells their status.
	txs *txstatus.Service
	// hooks is the webhook API's handlers.
	hooks *webhookapi.API
	// bf is the Blockfrost dialect's handlers (/api/v0).
	bf *blockfrost.API
	// groups is each data route's plan route group (routes.go).
	groups map[string]string
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
		deps.Limiter = answer.NewLocalLimiter(deps.Now)
	}
	if deps.Quota == nil {
		deps.Quota = localQuota(deps)
	}
	gin.SetMode(gin.ReleaseMode)
	s := &Server{deps: deps, log: deps.Log, engine: gin.New(),
		guard: httpx.NewAuthGuard(deps.Config.AuthFailuresPerMinute, deps.AuthFailures, deps.Now),
		answers: answer.New(answer.Options{Redis: deps.Redis, Spool: deps.Spool, Registry: deps.Registry, PoolStats: deps.PoolStats,
			Mempool: deps.Mempool, Now: deps.Now, MaxTipLag: deps.Config.MaxTipLag, Tuning: deps.AnswerTuning})}
	s.adm = adminapi.New(adminapi.Deps{Config: deps.Config, Admin: deps.Admin, AdminReady: deps.AdminReady,
		Limiter: deps.Limiter, Guard: s.guard, Quota: deps.Quota, Now: deps.Now})
	s.hooks = webhookapi.New(webhookapi.Deps{Config: deps.Config, Events: deps.Events, Admin: deps.Admin,
		AdminReady: deps.AdminReady, Caller: callerOf, ChainDB: s.chainDB, Networks: deps.Networks, AdminOf: adminapi.AdminOf, Now: deps.Now})
	var subLog txstatus.Log
	if deps.Admin != nil {
		subLog = deps.Admin
	}
	var txMempool txstatus.Mempool
	if deps.Mempool != nil {
		txMempool = nodeMempool{deps.Mempool}
	}
	s.txs = txstatus.New(txstatus.Options{Submitter: deps.Submitter, Mempool: txMempool, Log: subLog,
		Redis: deps.Redis, Logger: deps.Log})
	s.bf = blockfrost.New(blockfrost.Deps{ChainDB: s.chainDB, Answers: bf.New(s.answers), Now: deps.Now, Submit: s.submitCBOR})
	s.groups = dataRouteGroups()
	for _, r := range s.bf.Routes() {
		for _, p := range ginPaths(r.Path) {
			s.groups[httpx.BlockfrostPrefix+p] = r.Group
		}
	}
	s.engine.HandleMethodNotAllowed = true
	s.engine.RedirectTrailingSlash = false
	s.engine.RedirectFixedPath = false
	// Only configured proxies may set the client IP (audit ip_address);
	// the list was validated by config.Load.
	_ = s.engine.SetTrustedProxies(deps.Config.TrustedProxies)
	s.routes()
	return s
}

// Handler returns the http.Handler to serve: the router behind the
// Blockfrost key path rewrite (keypath.go).
func (s *Server) Handler() http.Handler { return keyPath(s.engine) }

// answered writes an answer's bytes as the 200 response, or returns its
// error for h to answer: handler code reads
// return answered(c)(s.answers.X(...)).
func answered(c *gin.Context) func([]byte, error) error {
	return func(b []byte, err error) error {
		if err != nil {
			return err
		}
		c.Data(http.StatusOK, httpx.ContentType, b)
		return nil
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
