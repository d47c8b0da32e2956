package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// routes is the one table of every path the service answers.
//
// Middleware order matters:
//   - request id first, so every later log line and response carries it;
//   - Connection: close while draining, before anything can answer;
//   - recover next, so a panic anywhere below still gets an id and a JSON 500;
//   - access log and metrics after recover, so they see the final status of a recovered panic;
//   - security headers and CORS before anything can answer (preflights
//     are answered there, before auth);
//   - the in-flight bound before the deadline starts, so a refused request
//     costs nothing; probes (/livez, /readyz, /v1/health) are never refused;
//   - deadline and body limit before any handler reads the body or the database;
//   - on data routes, auth → usage → rate limit (dataMiddleware): usage must
//     see 429s, and rate limiting needs the credential;
//   - on admin routes, requireAdmin (authentication, admin rate limit, the
//     route's permission), then requireBootstrap where only the bootstrap
//     key may call: who may call what is decided here, not in handlers.
func (s *Server) routes() {
	r := s.engine
	r.Use(withRequestID(s.log), s.closeWhileDraining(), recoverPanics(), accessLog(), observeMetrics(), limitHeaders(),
		securityHeaders(), cors(s.deps.Config.CORSAllowedOrigins), limitInFlight(s.deps.Config.MaxInFlight),
		withDeadline(s.requestDeadline()), limitBody())
	r.NoRoute(func(c *gin.Context) { httpx.Fail(c, httpx.ErrNotFoundRoute) })
	r.NoMethod(func(c *gin.Context) { httpx.Fail(c, httpx.ErrMethodNotAllowed) })

	r.GET("/livez", httpx.H(s.livez))
	r.GET("/readyz", httpx.H(s.readyz))
	r.GET("/openapi.json", openAPIDocument)
	r.GET("/docs", httpx.H(apiDocs))
	s.consoleRoutes(r)

	v1 := r.Group("/v1")
	v1.GET("/health", httpx.H(s.health))

	data := v1.Group("", s.dataMiddleware()...)
	data.GET("/utxos/address/:address", s.needs(dbsync.FactsUnspent), httpx.H(s.utxosByAddress))
	data.GET("/utxos/stake/:stakeKey", s.needs(dbsync.FactsUnspent), httpx.H(s.utxosByStake))
	data.GET("/assets/balance/address/:address", s.needs(dbsync.FactsUnspent), httpx.H(s.balanceByAddress))
	data.GET("/assets/balance/stake/:stakeKey", s.needs(dbsync.FactsUnspent), httpx.H(s.balanceByStake))
	data.GET("/utxos/credential/:credential", s.needs(dbsync.FactsUnspent), httpx.H(s.utxosByCredential))
	data.GET("/assets/balance/credential/:credential", s.needs(dbsync.FactsUnspent), httpx.H(s.balanceByCredential))
	data.GET("/tx/address/:address", s.needs(dbsync.FactsSpent), httpx.H(s.txsByAddress))
	data.GET("/tx/history/:address", s.needs(dbsync.FactsSpent), httpx.H(s.txHistory))
	data.GET("/tx/hash/:hash", s.needs(dbsync.FactsSpent), httpx.H(s.txByHash))
	data.GET("/epochs/latest", httpx.H(s.epochsLatest))

	data.POST("/tx/submit", httpx.H(s.submitTx))
	data.GET("/tx/status/:hash", httpx.H(s.txStatus))

	data.GET("/assets/:asset", httpx.H(s.assetInfo))
	data.GET("/pools/:poolId", s.needs(dbsync.FactsUnspent), httpx.H(s.poolInfo))
	data.GET("/pools/:poolId/delegators/list", s.needs(dbsync.FactsUnspent), httpx.H(s.poolDelegators))
	data.GET("/pools/:poolId/delegators", httpx.H(s.poolDelegatorCount))
	data.GET("/pools/:poolId/metadata", httpx.H(s.poolMetadata))
	data.GET("/pools/:poolId/blocks", httpx.H(s.poolBlocks))

	data.GET("/accounts/:stakeAddress", httpx.H(s.account))
	data.GET("/accounts/:stakeAddress/rewards", httpx.H(s.accountRewards))
	data.GET("/accounts/:stakeAddress/delegations", httpx.H(s.accountDelegations))
	data.GET("/accounts/:stakeAddress/registrations", httpx.H(s.accountRegistrations))
	data.GET("/accounts/:stakeAddress/withdrawals", httpx.H(s.accountWithdrawals))
	data.GET("/accounts/:stakeAddress/addresses", s.needs(dbsync.FactsSpent), httpx.H(s.accountAddresses))
	data.GET("/accounts/:stakeAddress/assets", s.needs(dbsync.FactsUnspent), httpx.H(s.accountAssets))

	adm := v1.Group("/admin")
	adm.GET("/me", s.adm.RequireAdmin(""), httpx.H(s.adm.AdminMe))
	keys := adm.Group("/keys", s.adm.RequireAdmin(""), s.adm.RequireBootstrap)
	keys.POST("", httpx.H(s.adm.CreateAdminKey))
	keys.GET("", httpx.H(s.adm.ListAdminKeys))
	keys.DELETE("/:id", httpx.H(s.adm.RevokeAdminKey))
	keys.POST("/:id/roll", httpx.H(s.adm.RollAdminKey))
	adm.GET("/security-events", s.adm.RequireAdmin(""), s.adm.RequireBootstrap, httpx.H(s.adm.ListSecurityEvents))

	adm.POST("/users", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.CreateUser))
	adm.GET("/users", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.ListUsers))
	adm.GET("/users/:id", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.GetUser))
	adm.PATCH("/users/:id", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.UpdateUser))
	adm.POST("/users/:id/suspend", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.SuspendUser))
	adm.POST("/users/:id/reactivate", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.ReactivateUser))

	adm.POST("/credentials", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.CreateCredential))
	adm.GET("/credentials", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.ListCredentials))
	adm.GET("/credentials/:id", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.GetCredential))
	adm.PATCH("/credentials/:id", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.UpdateCredential))
	adm.DELETE("/credentials/:id", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.RevokeCredential))
	adm.POST("/credentials/:id/roll", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.RollCredential))

	adm.GET("/usage", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.ListUsage))
	adm.GET("/usage/:id", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.CredentialUsage))
	adm.GET("/usage/:id/hourly", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.CredentialUsageHourly))
	adm.GET("/users/:id/usage", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.UserUsage))
	adm.GET("/users/usage/summary", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.UsersUsageSummary))

	adm.GET("/audit-logs", s.adm.RequireAdmin(admin.PermViewAuditLogs), httpx.H(s.adm.ListAuditLogs))
}
