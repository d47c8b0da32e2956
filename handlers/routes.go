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
//     see 429s, and rate limiting needs the credential; then, on chain-data
//     routes (all but submit), readAt: a refused request waits for nothing;
//   - on /v1/webhooks routes, the webhook gate first (503 while webhooks
//     are not configured), then the data chain without readAt;
//   - on admin routes, requireAdmin (authentication, admin rate limit, the
//     route's permission), then requireBootstrap where only the bootstrap
//     key may call: who may call what is decided here, not in handlers.
//
// dataRouteGroups is the plan route group of every data route (a plan
// allows some groups; a test fails for a data route missing here). The
// names are admin.RouteGroups.
func dataRouteGroups() map[string]string {
	return map[string]string{
		"/v1/tx/submit":       admin.GroupSubmit,
		"/v1/tx/status/:hash": admin.GroupSubmit,
		"/v1/mempool":         admin.GroupMempool,
		"/v1/mempool/:hash":   admin.GroupMempool,

		"/v1/utxos/address/:address":                admin.GroupChain,
		"/v1/utxos/stake/:stakeKey":                 admin.GroupChain,
		"/v1/assets/balance/address/:address":       admin.GroupChain,
		"/v1/assets/balance/stake/:stakeKey":        admin.GroupChain,
		"/v1/utxos/credential/:credential":          admin.GroupChain,
		"/v1/assets/balance/credential/:credential": admin.GroupChain,
		"/v1/tx/hash/:hash":                         admin.GroupChain,
		"/v1/epochs/latest":                         admin.GroupChain,
		"/v1/epochs/latest/parameters":              admin.GroupChain,
		"/v1/epochs/:epoch/parameters":              admin.GroupChain,
		"/v1/assets/:asset":                         admin.GroupChain,
		"/v1/assets/:asset/holders":                 admin.GroupChain,
		"/v1/pools/:poolId":                         admin.GroupChain,
		"/v1/pools/:poolId/delegators/list":         admin.GroupChain,
		"/v1/pools/:poolId/delegators":              admin.GroupChain,
		"/v1/pools/:poolId/metadata":                admin.GroupChain,
		"/v1/pools/:poolId/blocks":                  admin.GroupChain,
		"/v1/accounts/:stakeAddress":                admin.GroupChain,
		"/v1/accounts/:stakeAddress/assets":         admin.GroupChain,

		"/v1/tx/address/:address":                  admin.GroupHistory,
		"/v1/tx/history/:address":                  admin.GroupHistory,
		"/v1/accounts/:stakeAddress/rewards":       admin.GroupHistory,
		"/v1/accounts/:stakeAddress/delegations":   admin.GroupHistory,
		"/v1/accounts/:stakeAddress/registrations": admin.GroupHistory,
		"/v1/accounts/:stakeAddress/withdrawals":   admin.GroupHistory,
		"/v1/accounts/:stakeAddress/addresses":     admin.GroupHistory,

		"/v1/webhooks":                               admin.GroupWebhooks,
		"/v1/webhooks/:id":                           admin.GroupWebhooks,
		"/v1/webhooks/:id/items":                     admin.GroupWebhooks,
		"/v1/webhooks/:id/items/delete":              admin.GroupWebhooks,
		"/v1/webhooks/:id/events":                    admin.GroupWebhooks,
		"/v1/webhooks/:id/events/:eventId/redeliver": admin.GroupWebhooks,
		"/v1/webhooks/:id/deliveries":                admin.GroupWebhooks,
		"/v1/webhooks/:id/test":                      admin.GroupWebhooks,
		"/v1/webhooks/:id/secret/roll":               admin.GroupWebhooks,
	}
}

// blockfrostRoutes mounts the Blockfrost dialect under /api/v0: every
// route behind the data chain (its key from project_id, usage, rate limit,
// plan route group, quotas), chain reads behind readAt too, and the layout
// guard where a route needs facts a db-sync layout may lack. Its errors
// are Blockfrost-shaped (httpx.Fail, by path).
func (s *Server) blockfrostRoutes(r *gin.Engine) {
	g := r.Group(httpx.BlockfrostPrefix, s.dataMiddleware()...)
	for _, rt := range s.bf.Routes() {
		chain := []gin.HandlerFunc{}
		if rt.Chain {
			chain = append(chain, s.readAt)
		}
		for _, f := range rt.Needs {
			chain = append(chain, s.needs(f))
		}
		for _, p := range ginPaths(rt.Path) {
			g.Handle(rt.Method, p, append(chain, httpx.H(rt.Handle))...)
		}
	}
}

// ginPaths are the gin paths a dialect path is mounted at: "/" is the
// group itself, with and without the trailing slash (Blockfrost's root is
// …/api/v0/, which blockfrost-js requests; gin redirects neither to the
// other here).
func ginPaths(p string) []string {
	if p == "/" {
		return []string{"", "/"}
	}
	return []string{p}
}

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
	data.POST("/tx/submit", httpx.H(s.submitTx))
	data.GET("/tx/status/:hash", httpx.H(s.txStatus))
	data.GET("/mempool", httpx.H(s.mempoolStatus))
	data.GET("/mempool/:hash", httpx.H(s.mempoolTx))

	// Webhooks: the user's webhooks on the key's network (not chain reads:
	// no readAt). 503 at once while webhooks are not configured.
	hooks := v1.Group("/webhooks", s.hooks.Available)
	hooks.Use(s.dataMiddleware()...)
	hooks.POST("", httpx.H(s.hooks.Create))
	hooks.GET("", httpx.H(s.hooks.List))
	hooks.GET("/:id", httpx.H(s.hooks.Get))
	hooks.PATCH("/:id", httpx.H(s.hooks.Update))
	hooks.DELETE("/:id", httpx.H(s.hooks.Delete))
	hooks.POST("/:id/items", httpx.H(s.hooks.AddItems))
	hooks.POST("/:id/items/delete", httpx.H(s.hooks.RemoveItems))
	hooks.GET("/:id/items", httpx.H(s.hooks.ListItems))
	hooks.GET("/:id/events", httpx.H(s.hooks.Events))
	hooks.GET("/:id/deliveries", httpx.H(s.hooks.Deliveries))
	hooks.POST("/:id/events/:eventId/redeliver", httpx.H(s.hooks.Redeliver))
	hooks.POST("/:id/test", httpx.H(s.hooks.Test))
	hooks.POST("/:id/secret/roll", httpx.H(s.hooks.RollSecret))

	// Chain data: every answer names the tip it was read at and honours
	// min_slot (readAt).
	chain := data.Group("", s.readAt)
	chain.GET("/utxos/address/:address", s.needs(dbsync.FactsUnspent), httpx.H(s.utxosByAddress))
	chain.GET("/utxos/stake/:stakeKey", s.needs(dbsync.FactsUnspent), httpx.H(s.utxosByStake))
	chain.GET("/assets/balance/address/:address", s.needs(dbsync.FactsUnspent), httpx.H(s.balanceByAddress))
	chain.GET("/assets/balance/stake/:stakeKey", s.needs(dbsync.FactsUnspent), httpx.H(s.balanceByStake))
	chain.GET("/utxos/credential/:credential", s.needs(dbsync.FactsUnspent), httpx.H(s.utxosByCredential))
	chain.GET("/assets/balance/credential/:credential", s.needs(dbsync.FactsUnspent), httpx.H(s.balanceByCredential))
	chain.GET("/tx/address/:address", s.needs(dbsync.FactsSpent), httpx.H(s.txsByAddress))
	chain.GET("/tx/history/:address", s.needs(dbsync.FactsSpent), httpx.H(s.txHistory))
	chain.GET("/tx/hash/:hash", s.needs(dbsync.FactsSpent), httpx.H(s.txByHash))
	chain.GET("/epochs/latest", httpx.H(s.epochsLatest))
	chain.GET("/epochs/latest/parameters", httpx.H(s.epochParamsLatest))
	chain.GET("/epochs/:epoch/parameters", httpx.H(s.epochParams))

	chain.GET("/assets/:asset", httpx.H(s.assetInfo))
	chain.GET("/assets/:asset/holders", s.needs(dbsync.FactsUnspent), httpx.H(s.assetHolders))
	chain.GET("/pools/:poolId", s.needs(dbsync.FactsUnspent), httpx.H(s.poolInfo))
	chain.GET("/pools/:poolId/delegators/list", s.needs(dbsync.FactsUnspent), httpx.H(s.poolDelegators))
	chain.GET("/pools/:poolId/delegators", httpx.H(s.poolDelegatorCount))
	chain.GET("/pools/:poolId/metadata", httpx.H(s.poolMetadata))
	chain.GET("/pools/:poolId/blocks", httpx.H(s.poolBlocks))

	chain.GET("/accounts/:stakeAddress", httpx.H(s.account))
	chain.GET("/accounts/:stakeAddress/rewards", httpx.H(s.accountRewards))
	chain.GET("/accounts/:stakeAddress/delegations", httpx.H(s.accountDelegations))
	chain.GET("/accounts/:stakeAddress/registrations", httpx.H(s.accountRegistrations))
	chain.GET("/accounts/:stakeAddress/withdrawals", httpx.H(s.accountWithdrawals))
	chain.GET("/accounts/:stakeAddress/addresses", s.needs(dbsync.FactsSpent), httpx.H(s.accountAddresses))
	chain.GET("/accounts/:stakeAddress/assets", s.needs(dbsync.FactsUnspent), httpx.H(s.accountAssets))

	s.blockfrostRoutes(r)

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

	userHooks := adm.Group("/users/:id/webhooks", s.adm.RequireAdmin(admin.PermManageUsers), s.hooks.Available)
	userHooks.POST("", httpx.H(s.hooks.AdminCreate))
	userHooks.GET("", httpx.H(s.hooks.AdminList))
	userHooks.GET("/:webhookId", httpx.H(s.hooks.AdminGet))
	userHooks.POST("/:webhookId/disable", httpx.H(s.hooks.AdminDisable))
	userHooks.DELETE("/:webhookId", httpx.H(s.hooks.AdminDelete))
	userHooks.GET("/:webhookId/items", httpx.H(s.hooks.AdminItems))
	userHooks.GET("/:webhookId/deliveries", httpx.H(s.hooks.AdminDeliveries))
	userHooks.POST("/:webhookId/events/:eventId/redeliver", httpx.H(s.hooks.AdminRedeliver))
	userHooks.POST("/:webhookId/test", httpx.H(s.hooks.AdminTest))
	userHooks.POST("/:webhookId/secret/roll", httpx.H(s.hooks.AdminRollSecret))

	adm.POST("/plans", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.CreatePlan))
	adm.GET("/plans", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.ListPlans))
	adm.GET("/plans/:id", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.GetPlan))
	adm.PATCH("/plans/:id", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.UpdatePlan))
	adm.DELETE("/plans/:id", s.adm.RequireAdmin(admin.PermManageUsers), httpx.H(s.adm.DeletePlan))

	adm.POST("/credentials", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.CreateCredential))
	adm.GET("/credentials", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.ListCredentials))
	adm.GET("/credentials/:id", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.GetCredential))
	adm.PATCH("/credentials/:id", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.UpdateCredential))
	adm.DELETE("/credentials/:id", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.RevokeCredential))
	adm.POST("/credentials/:id/roll", s.adm.RequireAdmin(admin.PermManageCredentials), httpx.H(s.adm.RollCredential))

	adm.GET("/usage", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.ListUsage))
	adm.GET("/usage/export", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.UsageExport))
	adm.GET("/usage/:id", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.CredentialUsage))
	adm.GET("/usage/:id/hourly", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.CredentialUsageHourly))
	adm.GET("/users/:id/usage", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.UserUsage))
	adm.GET("/users/:id/quota", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.UserQuota))
	adm.GET("/users/usage/summary", s.adm.RequireAdmin(admin.PermViewUsage), httpx.H(s.adm.UsersUsageSummary))

	adm.GET("/audit-logs", s.adm.RequireAdmin(admin.PermViewAuditLogs), httpx.H(s.adm.ListAuditLogs))
}
