package blockfrost

import (
	"encoding/hex"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
)

func (a *API) assetRoutes() []Route {
	unspent := []dbsync.Facts{dbsync.FactsUnspent}
	ans := a.deps.Answers
	route := func(path, group string, needs []dbsync.Facts, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: group, Chain: true, Needs: needs, Handle: h}
	}
	return []Route{
		route("/assets", admin.GroupChain, nil, a.list(ans.Assets)),
		route("/assets/policy/:policy_id", admin.GroupChain, nil, paged(a, policyParam, ans.PolicyAssets)),
		route("/assets/:asset", admin.GroupChain, nil, one(a, assetParam, ans.Asset)),
		route("/assets/:asset/history", admin.GroupHistory, nil, paged(a, assetParam, ans.AssetHistory)),
		route("/assets/:asset/txs", admin.GroupHistory, nil, paged(a, assetParam, ans.AssetTxs)),
		route("/assets/:asset/transactions", admin.GroupHistory, nil, a.assetTransactions),
		route("/assets/:asset/addresses", admin.GroupChain, unspent, paged(a, assetParam, ans.AssetAddresses)),
		route("/assets/:asset/utxos", admin.GroupChain, unspent, paged(a, assetParam, ans.AssetUTxOs)),
	}
}

func (a *API) metadataRoutes() []Route {
	ans := a.deps.Answers
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupHistory, Chain: true, Handle: h}
	}
	return []Route{
		get("/metadata/txs/labels", a.list(ans.MetadataLabels)),
		get("/metadata/txs/labels/:label", paged(a, labelParam, ans.MetadataLabel)),
		get("/metadata/txs/labels/:label/cbor", paged(a, labelParam, ans.MetadataLabelCBOR)),
	}
}

// assetParam parses {asset}: a policy id and an asset name in hex.
func assetParam(c *gin.Context) (cardano.AssetID, error) {
	id, valid := parseUnit(c.Param("asset"))
	if !valid {
		return id, errAsset
	}
	return id, nil
}

// policyParam parses {policy_id}: 56 hex digits.
func policyParam(c *gin.Context) ([28]byte, error) {
	var policy [28]byte
	if s := c.Param("policy_id"); len(s) != 56 {
		return policy, errPolicy
	} else if _, err := hex.Decode(policy[:], []byte(s)); err != nil {
		return policy, errPolicy
	}
	return policy, nil
}

// assetTransactions: GET /assets/{asset}/transactions, with from/to as
// /addresses/{address}/transactions takes them.
func (a *API) assetTransactions(c *gin.Context) error {
	id, err := assetParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	r, err := txRange(c)
	if err != nil {
		return err
	}
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AssetTransactions(c.Request.Context(), db, id, p, r))
}

// labelParam parses {label}: a decimal integer from 0 to 2^63-1
// (Blockfrost's bound), digits only, answered without leading zeros.
func labelParam(c *gin.Context) (string, error) {
	s := c.Param("label")
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil || s[0] == '+' {
		return "", errLabel
	}
	return strconv.FormatUint(n, 10), nil
}
