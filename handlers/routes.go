package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
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
	r.NoRoute(func(c *gin.Context) { fail(c, errNotFoundRoute) })
	r.NoMethod(func(c *gin.Context) { fail(c, errMethodNotAllowed) })

	r.GET("/livez", h(s.livez))
	r.GET("/readyz", h(s.readyz))
	r.GET("/openapi.json", openAPIDocument)
	r.GET("/docs", h(apiDocs))
	s.consoleRoutes(r)

	v1 := r.Group("/v1")
	v1.GET("/health", h(s.health))

	data := v1.Group("", s.dataMiddleware()...)
	data.GET("/utxos/address/:address", s.needs(dbsync.FactsUnspent), h(s.utxosByAddress))
	data.GET("/utxos/stake/:stakeKey", s.needs(dbsync.FactsUnspent), h(s.utxosByStake))
	data.GET("/assets/balance/address/:address", s.needs(dbsync.FactsUnspent), h(s.balanceByAddress))
	data.GET("/assets/balance/stake/:stakeKey", s.needs(dbsync.FactsUnspent), h(s.balanceByStake))
	data.GET("/utxos/credential/:credential", s.needs(dbsync.FactsUnspent), h(s.utxosByCredential))
	data.GET("/assets/balance/credential/:credential", s.needs(dbsync.FactsUnspent), h(s.balanceByCredential))
	data.GET("/tx/address/:address", s.needs(dbsync.FactsSpent), h(s.txsByAddress))
	data.GET("/tx/history/:address", s.needs(dbsync.FactsSpent), h(s.txHistory))
	data.GET("/tx/hash/:hash", s.needs(dbsync.FactsSpent), h(s.txByHash))
	data.GET("/epochs/latest", h(s.epochsLatest))

	data.POST("/tx/submit", h(s.submitTx))

	data.GET("/assets/:asset", h(s.assetInfo))
	data.GET("/pools/:poolId", s.needs(dbsync.FactsUnspent), h(s.poolInfo))
	data.GET("/pools/:poolId/delegators/list", s.needs(dbsync.FactsUnspent), h(s.poolDelegators))
	data.GET("/pools/:poolId/delegators", h(s.poolDelegatorCount))
	data.GET("/pools/:poolId/metadata", h(s.poolMetadata))
	data.GET("/pools/:poolId/blocks", h(s.poolBlocks))

	data.GET("/accounts/:stakeAddress", h(s.account))
	data.GET("/accounts/:stakeAddress/rewards", h(s.accountRewards))
	data.GET("/accounts/:stakeAddress/delegations", h(s.accountDelegations))
	data.GET("/accounts/:stakeAddress/registrations", h(s.accountRegistrations))
	data.GET("/accounts/:stakeAddress/withdrawals", h(s.accountWithdrawals))
	data.GET("/accounts/:stakeAddress/addresses", s.needs(dbsync.FactsSpent), h(s.accountAddresses))
	data.GET("/accounts/:stakeAddress/assets", s.needs(dbsync.FactsUnspent), h(s.accountAssets))

	adm := v1.Group("/admin")
	adm.GET("/me", s.requireAdmin(""), h(s.adminMe))
	keys := adm.Group("/keys", s.requireAdmin(""), s.requireBootstrap)
	keys.POST("", h(s.createAdminKey))
	keys.GET("", h(s.listAdminKeys))
	keys.DELETE("/:id", h(s.revokeAdminKey))
	keys.POST("/:id/roll", h(s.rollAdminKey))
	adm.GET("/security-events", s.requireAdmin(""), s.requireBootstrap, h(s.listSecurityEvents))

	adm.POST("/users", s.requireAdmin(admin.PermManageUsers), h(s.createUser))
	adm.GET("/users", s.requireAdmin(admin.PermManageUsers), h(s.listUsers))
	adm.GET("/users/:id", s.requireAdmin(admin.PermManageUsers), h(s.getUser))
	adm.PATCH("/users/:id", s.requireAdmin(admin.PermManageUsers), h(s.updateUser))
	adm.POST("/users/:id/suspend", s.requireAdmin(admin.PermManageUsers), h(s.suspendUser))
	adm.POST("/users/:id/reactivate", s.requireAdmin(admin.PermManageUsers), h(s.reactivateUser))

	adm.POST("/credentials", s.requireAdmin(admin.PermManageCredentials), h(s.createCredential))
	adm.GET("/credentials", s.requireAdmin(admin.PermManageCredentials), h(s.listCredentials))
	adm.GET("/credentials/:id", s.requireAdmin(admin.PermManageCredentials), h(s.getCredential))
	adm.PATCH("/credentials/:id", s.requireAdmin(admin.PermManageCredentials), h(s.updateCredential))
	adm.DELETE("/credentials/:id", s.requireAdmin(admin.PermManageCredentials), h(s.revokeCredential))
	adm.POST("/credentials/:id/roll", s.requireAdmin(admin.PermManageCredentials), h(s.rollCredential))

	adm.GET("/usage", s.requireAdmin(admin.PermViewUsage), h(s.listUsage))
	adm.GET("/usage/:id", s.requireAdmin(admin.PermViewUsage), h(s.credentialUsage))
	adm.GET("/usage/:id/hourly", s.requireAdmin(admin.PermViewUsage), h(s.credentialUsageHourly))
	adm.GET("/users/:id/usage", s.requireAdmin(admin.PermViewUsage), h(s.userUsage))
	adm.GET("/users/usage/summary", s.requireAdmin(admin.PermViewUsage), h(s.usersUsageSummary))

	adm.GET("/audit-logs", s.requireAdmin(admin.PermViewAuditLogs), h(s.listAuditLogs))
}
