package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

func (a *API) poolRoutes() []Route {
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupChain, Chain: true, Handle: h}
	}
	// Live stake computed on demand (before poolstats' first refresh)
	// reads unspent outputs.
	live := func(r Route) Route { r.Needs = []dbsync.Facts{dbsync.FactsUnspent}; return r }
	return []Route{
		get("/pools", a.list(a.deps.Answers.PoolIDs)),
		get("/pools/extended", a.list(a.deps.Answers.PoolsExtended)),
		get("/pools/retired", a.list(func(ctx ctxT, db *dbsync.DB, p bf.Paging) ([]byte, error) {
			return a.deps.Answers.PoolsRetiring(ctx, db, true, p)
		})),
		get("/pools/retiring", a.list(func(ctx ctxT, db *dbsync.DB, p bf.Paging) ([]byte, error) {
			return a.deps.Answers.PoolsRetiring(ctx, db, false, p)
		})),
		live(get("/pools/:pool_id", one(a, poolID, a.deps.Answers.PoolByID))),
		get("/pools/:pool_id/history", paged(a, poolID, a.deps.Answers.PoolHistory)),
		get("/pools/:pool_id/metadata", one(a, poolID, a.deps.Answers.PoolMetadataAnswer)),
		get("/pools/:pool_id/relays", one(a, poolID, a.deps.Answers.PoolRelays)),
		live(get("/pools/:pool_id/delegators", paged(a, poolID, a.deps.Answers.PoolDelegators))),
		get("/pools/:pool_id/blocks", paged(a, poolID, a.deps.Answers.PoolBlocks)),
		get("/pools/:pool_id/updates", paged(a, poolID, a.deps.Answers.PoolUpdates)),
		get("/pools/:pool_id/votes", paged(a, poolID, a.deps.Answers.PoolVotes)),
	}
}
