package blockfrost

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

// txRoutes: a transaction and what it holds. Its head and its inputs and
// outputs read spent outputs (its utxo_count, its inputs' values and its
// outputs' spenders), which a pruned db-sync no longer has: 501 there.
func (a *API) txRoutes() []Route {
	spent := []dbsync.Facts{dbsync.FactsSpent}
	route := func(path string, needs []dbsync.Facts, answer txAnswer) Route {
		return Route{Method: http.MethodGet, Path: "/txs/:hash" + path, Group: admin.GroupChain, Chain: true, Needs: needs,
			Handle: a.txHandler(answer)}
	}
	ans := a.deps.Answers
	return []Route{
		route("", spent, ans.Tx),
		route("/utxos", spent, ans.TxUTxOs),
		route("/stakes", nil, ans.TxStakes),
		route("/delegations", nil, ans.TxDelegations),
		route("/withdrawals", nil, ans.TxWithdrawals),
		route("/mirs", nil, ans.TxMIRs),
		route("/pool_updates", nil, ans.TxPoolUpdates),
		route("/pool_retires", nil, ans.TxPoolRetires),
		route("/metadata", nil, ans.TxMetadata),
		route("/metadata/cbor", nil, ans.TxMetadataCBOR),
		route("/redeemers", nil, ans.TxRedeemers),
		route("/required_signers", nil, ans.TxRequiredSigners),
		route("/cbor", nil, ans.TxCBOR),
	}
}

// txAnswer is one of internal/answer/bf's answers about a transaction.
type txAnswer func(context.Context, *dbsync.DB, cardano.TxHash) ([]byte, error)

// txHandler: GET /txs/{hash}… — the hash (64 hex digits), then the answer.
func (a *API) txHandler(answer txAnswer) func(*gin.Context) error {
	return func(c *gin.Context) error {
		hash, err := cardano.ParseTxHash(c.Param("hash"))
		if err != nil {
			return httpx.ErrInvalidTxHash
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, hash))
	}
}
