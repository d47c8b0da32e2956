package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
)

func (a *API) networkRoutes() []Route {
	return []Route{
		// locked counts unspent outputs: a layout that stores none has no figure.
		{Method: http.MethodGet, Path: "/network", Group: admin.GroupChain, Chain: true, Needs: []dbsync.Facts{dbsync.FactsUnspent}, Handle: a.network},
		{Method: http.MethodGet, Path: "/network/eras", Group: admin.GroupChain, Chain: true, Handle: a.eras},
		{Method: http.MethodGet, Path: "/genesis", Group: admin.GroupChain, Chain: true, Handle: a.genesis},
	}
}

// network: GET /network.
func (a *API) network(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.NetworkAnswer(c.Request.Context(), db))
}

// eras: GET /network/eras.
func (a *API) eras(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Eras(c.Request.Context(), db))
}

// genesis: GET /genesis.
func (a *API) genesis(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.GenesisAnswer(c.Request.Context(), db))
}
