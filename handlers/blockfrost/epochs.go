package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
)

func (a *API) epochRoutes() []Route {
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupChain, Chain: true, Handle: h}
	}
	return []Route{
		get("/epochs/latest", a.latestEpoch),
		get("/epochs/latest/parameters", a.latestEpochParameters),
		get("/epochs/:number", a.epoch),
		get("/epochs/:number/parameters", a.epochParameters),
		get("/epochs/:number/next", a.epochNeighbours(true)),
		get("/epochs/:number/previous", a.epochNeighbours(false)),
		get("/epochs/:number/stakes", a.epochStakes),
		get("/epochs/:number/stakes/:pool_id", a.epochPoolStakes),
		get("/epochs/:number/blocks", a.epochBlocks),
		get("/epochs/:number/blocks/:pool_id", a.epochPoolBlocks),
	}
}

// latestEpoch: GET /epochs/latest.
func (a *API) latestEpoch(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.LatestEpoch(c.Request.Context(), db))
}

// latestEpochParameters: GET /epochs/latest/parameters.
func (a *API) latestEpochParameters(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochParameters(c.Request.Context(), db, 0, true))
}

// epoch: GET /epochs/{number}.
func (a *API) epoch(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	n, err := epochNumber(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochByNumber(c.Request.Context(), db, n))
}

// epochParameters: GET /epochs/{number}/parameters.
func (a *API) epochParameters(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	n, err := epochNumber(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochParameters(c.Request.Context(), db, n, false))
}

// epochNeighbours: GET /epochs/{number}/next (next) and /previous.
func (a *API) epochNeighbours(next bool) func(*gin.Context) error {
	return func(c *gin.Context) error {
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		n, err := epochNumber(c)
		if err != nil {
			return err
		}
		p, err := unordered(c)
		if err != nil {
			return err
		}
		return ok(c)(a.deps.Answers.EpochNeighbours(c.Request.Context(), db, n, next, p))
	}
}

// epochStakes: GET /epochs/{number}/stakes.
func (a *API) epochStakes(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	n, err := epochNumber(c)
	if err != nil {
		return err
	}
	p, err := unordered(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochStakes(c.Request.Context(), db, n, p))
}

// epochPoolStakes: GET /epochs/{number}/stakes/{pool_id}.
func (a *API) epochPoolStakes(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	n, err := epochNumber(c)
	if err != nil {
		return err
	}
	pool, err := poolID(c)
	if err != nil {
		return err
	}
	p, err := unordered(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochPoolStakes(c.Request.Context(), db, n, pool, p))
}

// epochBlocks: GET /epochs/{number}/blocks.
func (a *API) epochBlocks(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	n, err := epochNumber(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochBlocks(c.Request.Context(), db, n, p))
}

// epochPoolBlocks: GET /epochs/{number}/blocks/{pool_id}.
func (a *API) epochPoolBlocks(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	n, err := epochNumber(c)
	if err != nil {
		return err
	}
	pool, err := poolID(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.EpochPoolBlocks(c.Request.Context(), db, n, pool, p))
}
