package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// APIVersion is the version of Blockfrost's API this dialect follows
// (the @blockfrost/openapi release its answers are validated against).
const APIVersion = "0.1.93"

func (a *API) healthRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/", Group: admin.GroupChain, Handle: a.root},
		{Method: http.MethodGet, Path: "/health", Group: admin.GroupChain, Handle: a.health},
		{Method: http.MethodGet, Path: "/health/clock", Group: admin.GroupChain, Handle: a.clock},
	}
}

// root: GET / (where the documentation is, and the API version).
func (a *API) root(c *gin.Context) error {
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	httpx.WriteJSON(c, http.StatusOK, gin.H{"url": scheme + "://" + c.Request.Host + "/docs", "version": APIVersion})
	return nil
}

// health: GET /health. Healthy while the caller's network's db-sync serves
// reads (a server in rotation); the answer is 200 either way, as
// Blockfrost's.
func (a *API) health(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	httpx.WriteJSON(c, http.StatusOK, gin.H{"is_healthy": db.Serving()})
	return nil
}

// clock: GET /health/clock (server time in unix milliseconds).
func (a *API) clock(c *gin.Context) error {
	httpx.WriteJSON(c, http.StatusOK, gin.H{"server_time": a.deps.Now().UnixMilli()})
	return nil
}
