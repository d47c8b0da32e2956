package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

func (a *API) scriptRoutes() []Route {
	ans := a.deps.Answers
	route := func(path, group string, needs []dbsync.Facts, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: group, Chain: true, Needs: needs, Handle: h}
	}
	return []Route{
		route("/scripts", admin.GroupChain, nil, a.list(ans.Scripts)),
		route("/scripts/:script_hash", admin.GroupChain, nil, one(a, scriptHash, ans.Script)),
		route("/scripts/:script_hash/json", admin.GroupChain, nil, one(a, scriptHash, ans.ScriptJSON)),
		route("/scripts/:script_hash/cbor", admin.GroupChain, nil, one(a, scriptHash, ans.ScriptCBOR)),
		route("/scripts/:script_hash/redeemers", admin.GroupHistory, nil, paged(a, scriptHash, ans.ScriptRedeemers)),
		route("/scripts/:script_hash/utxos", admin.GroupChain, []dbsync.Facts{dbsync.FactsUnspent}, paged(a, scriptHash, ans.ScriptUTxOs)),
		route("/scripts/datum/:datum_hash", admin.GroupChain, nil, one(a, datumHash, ans.Datum)),
		route("/scripts/datum/:datum_hash/cbor", admin.GroupChain, nil, one(a, datumHash, ans.DatumCBOR)),
	}
}

// scriptHash parses {script_hash}: 56 hex digits.
func scriptHash(c *gin.Context) (bf.ScriptHash, error) {
	h, valid := bf.ParseScriptHash(c.Param("script_hash"))
	if !valid {
		return h, errScriptHash
	}
	return h, nil
}

// datumHash parses {datum_hash}: 64 hex digits.
func datumHash(c *gin.Context) (bf.DatumHash, error) {
	h, valid := bf.ParseDatumHash(c.Param("datum_hash"))
	if !valid {
		return h, errDatumHash
	}
	return h, nil
}
