package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

func (a *API) epochRoutes() []Route {
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupChain, Chain: true, Handle: h}
	}
	ans := a.deps.Answers
	return []Route{
		get("/epochs/latest", a.whole(ans.LatestEpoch)),
		get("/epochs/latest/parameters", a.whole(func(ctx ctxT, db *dbsync.DB) ([]byte, error) {
			return ans.EpochParameters(ctx, db, 0, true)
		})),
		get("/epochs/:number", one(a, epochNumber, ans.EpochByNumber)),
		get("/epochs/:number/parameters", one(a, epochNumber, func(ctx ctxT, db *dbsync.DB, n int64) ([]byte, error) {
			return ans.EpochParameters(ctx, db, n, false)
		})),
		get("/epochs/:number/next", pagedBy(a, epochNumber, unordered, func(ctx ctxT, db *dbsync.DB, n int64, p bf.Paging) ([]byte, error) {
			return ans.EpochNeighbours(ctx, db, n, true, p)
		})),
		get("/epochs/:number/previous", pagedBy(a, epochNumber, unordered, func(ctx ctxT, db *dbsync.DB, n int64, p bf.Paging) ([]byte, error) {
			return ans.EpochNeighbours(ctx, db, n, false, p)
		})),
		get("/epochs/:number/stakes", pagedBy(a, epochNumber, unordered, ans.EpochStakes)),
		get("/epochs/:number/stakes/:pool_id", pagedBy(a, epochPool, unordered, func(ctx ctxT, db *dbsync.DB, e epochAndPool, p bf.Paging) ([]byte, error) {
			return ans.EpochPoolStakes(ctx, db, e.epoch, e.pool, p)
		})),
		get("/epochs/:number/blocks", paged(a, epochNumber, ans.EpochBlocks)),
		get("/epochs/:number/blocks/:pool_id", paged(a, epochPool, func(ctx ctxT, db *dbsync.DB, e epochAndPool, p bf.Paging) ([]byte, error) {
			return ans.EpochPoolBlocks(ctx, db, e.epoch, e.pool, p)
		})),
	}
}

// epochAndPool is the {number} and {pool_id} of an epoch's per-pool route.
type epochAndPool struct {
	epoch int64
	pool  cardano.PoolID
}

func epochPool(c *gin.Context) (epochAndPool, error) {
	n, err := epochNumber(c)
	if err != nil {
		return epochAndPool{}, err
	}
	pool, err := poolID(c)
	return epochAndPool{n, pool}, err
}
