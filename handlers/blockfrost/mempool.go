package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

// The mempool routes read the node's mempool (the snapshot /v1's mempool
// routes share), not the chain: no readAt. Without a node for the
// caller's network they answer 503.
func (a *API) mempoolRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/mempool", Group: admin.GroupMempool, Handle: a.mempool},
		{Method: http.MethodGet, Path: "/mempool/addresses/:address", Group: admin.GroupMempool, Handle: a.mempoolByAddress},
		{Method: http.MethodGet, Path: "/mempool/:hash", Group: admin.GroupMempool, Handle: a.mempoolTx},
	}
}

// mempool: GET /mempool.
func (a *API) mempool(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	b, err := a.deps.Answers.Mempool(c.Request.Context(), db, p)
	return ok(c)(b, mempoolFailure(db, err))
}

// mempoolByAddress: GET /mempool/addresses/{address}.
func (a *API) mempoolByAddress(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	addr, err := cardano.ParseAddress(c.Param("address"), db.Network.Mainnet)
	if err != nil {
		return httpx.ErrInvalidAddress
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	b, err := a.deps.Answers.MempoolByAddress(c.Request.Context(), db, addr, p)
	return ok(c)(b, mempoolFailure(db, err))
}

// mempoolTx: GET /mempool/{hash}.
func (a *API) mempoolTx(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	hash, err := cardano.ParseTxHash(c.Param("hash"))
	if err != nil {
		return httpx.ErrInvalidTxHash
	}
	b, err := a.deps.Answers.MempoolTx(c.Request.Context(), db, hash)
	return ok(c)(b, mempoolFailure(db, err))
}

// mempoolFailure maps a failed mempool read (no node, node down or slow)
// to its client error, as /v1's mempool routes do.
func mempoolFailure(db *dbsync.DB, err error) error {
	if err == nil {
		return nil
	}
	return httpx.MempoolFailure(db.Network.Name, err)
}
