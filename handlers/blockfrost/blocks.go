package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

func (a *API) blockRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/blocks/latest", Group: admin.GroupChain, Chain: true, Handle: a.latestBlock},
		{Method: http.MethodGet, Path: "/blocks/:hash_or_number", Group: admin.GroupChain, Chain: true, Handle: a.block},
	}
}

// latestBlock: GET /blocks/latest.
func (a *API) latestBlock(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.LatestBlock(c.Request.Context(), db))
}

// block: GET /blocks/{hash_or_number}.
func (a *API) block(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	ref, valid := bf.ParseBlockRef(c.Param("hash_or_number"))
	if !valid {
		return errBlockRef
	}
	return ok(c)(a.deps.Answers.Block(c.Request.Context(), db, ref))
}
