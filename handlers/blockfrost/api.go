// Package blockfrost is the Blockfrost dialect (spec/blockfrost.md):
// Blockfrost's routes under /api/v0, their parameters and their answers,
// over the same answers, caches, credentials, limits and quotas as /v1.
// It is a skin: each handler parses a request, asks internal/answer/bf for
// the answer's bytes and writes them. Errors go through httpx.Fail, which
// writes them in Blockfrost's shape for every path under /api/v0. Each
// family's routes, with the plan route group each belongs to, are a table
// in the family's file (Routes gathers them); package handlers mounts them
// behind authentication, usage and rate limiting.
package blockfrost

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

// Deps is what the dialect's handlers need from the server.
type Deps struct {
	// ChainDB is the db-sync of the caller's network (or the error to answer).
	ChainDB func(*gin.Context) (*dbsync.DB, error)
	// Answers makes the dialect's answers.
	Answers *bf.Answers
	// Now is the clock (/health/clock).
	Now func() time.Time
	// Submit submits a transaction's raw CBOR for the caller's network
	// as /v1/tx/submit does (one submission whichever dialect sends it)
	// and returns its hash; errors are httpx's.
	Submit func(c *gin.Context, cbor []byte) (hash string, err error)
}

// API is the dialect's handlers.
type API struct{ deps Deps }

// New returns the dialect's handlers.
func New(deps Deps) *API {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	return &API{deps: deps}
}

// Route is one route of the dialect: its method and gin path under
// /api/v0, its plan route group (admin.RouteGroups), whether it reads the
// chain (readAt: pinned to one db-sync server, tip headers), the facts a
// db-sync layout must keep for it (501 otherwise) and its handler.
type Route struct {
	Method string
	Path   string
	Group  string
	Chain  bool
	Needs  []dbsync.Facts
	Handle func(*gin.Context) error
}

// Routes is every route of the dialect.
func (a *API) Routes() []Route {
	var all []Route
	for _, family := range [][]Route{
		a.healthRoutes(), a.networkRoutes(), a.epochRoutes(), a.blockRoutes(),
		a.txRoutes(), a.submitRoutes(), a.addressRoutes(), a.scriptRoutes(),
		a.mempoolRoutes(), a.utilRoutes(), a.poolRoutes(), a.accountRoutes(), a.assetRoutes(), a.metadataRoutes(), a.governanceRoutes(),
	} {
		all = append(all, family...)
	}
	return all
}

// ok writes an answer's bytes, or returns its error for httpx.H to write.
func ok(c *gin.Context) func([]byte, error) error {
	return func(b []byte, err error) error {
		if err != nil {
			return err
		}
		c.Data(http.StatusOK, httpx.ContentType, b)
		return nil
	}
}
