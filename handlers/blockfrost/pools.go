package blockfrost

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

// ctxT is a request's context.
type ctxT = context.Context

func (a *API) poolRoutes() []Route {
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupChain, Chain: true, Handle: h}
	}
	// Live stake computed on demand (before poolstats' first refresh)
	// reads unspent outputs.
	live := func(r Route) Route { r.Needs = []dbsync.Facts{dbsync.FactsUnspent}; return r }
	return []Route{
		get("/pools", a.poolList(a.deps.Answers.PoolIDs)),
		get("/pools/extended", a.poolList(a.deps.Answers.PoolsExtended)),
		get("/pools/retired", a.poolList(func(ctx ctxT, db *dbsync.DB, p bf.Paging) ([]byte, error) {
			return a.deps.Answers.PoolsRetiring(ctx, db, true, p)
		})),
		get("/pools/retiring", a.poolList(func(ctx ctxT, db *dbsync.DB, p bf.Paging) ([]byte, error) {
			return a.deps.Answers.PoolsRetiring(ctx, db, false, p)
		})),
		live(get("/pools/:pool_id", a.onePool(a.deps.Answers.PoolByID))),
		get("/pools/:pool_id/history", a.poolPaged(a.deps.Answers.PoolHistory)),
		get("/pools/:pool_id/metadata", a.onePool(a.deps.Answers.PoolMetadataAnswer)),
		get("/pools/:pool_id/relays", a.onePool(a.deps.Answers.PoolRelays)),
		live(get("/pools/:pool_id/delegators", a.poolPaged(a.deps.Answers.PoolDelegators))),
		get("/pools/:pool_id/blocks", a.poolPaged(a.deps.Answers.PoolBlocks)),
		get("/pools/:pool_id/updates", a.poolPaged(a.deps.Answers.PoolUpdates)),
		get("/pools/:pool_id/votes", a.poolPaged(a.deps.Answers.PoolVotes)),
	}
}

// poolList: a list of pools (count, page, order).
func (a *API) poolList(answer func(ctxT, *dbsync.DB, bf.Paging) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		p, err := paging(c)
		if err != nil {
			return err
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, p))
	}
}

// onePool: a route about the pool {pool_id} (bech32 pool1… or 56 hex).
func (a *API) onePool(answer func(ctxT, *dbsync.DB, cardano.PoolID) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		id, err := poolID(c)
		if err != nil {
			return err
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, id))
	}
}

// poolPaged: a list about the pool {pool_id} (count, page, order).
func (a *API) poolPaged(answer func(ctxT, *dbsync.DB, cardano.PoolID, bf.Paging) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		id, err := poolID(c)
		if err != nil {
			return err
		}
		p, err := paging(c)
		if err != nil {
			return err
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, id, p))
	}
}
