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
	return []Route{
		{Method: http.MethodGet, Path: "/assets", Group: admin.GroupChain, Chain: true, Handle: a.assets},
		{Method: http.MethodGet, Path: "/assets/policy/:policy_id", Group: admin.GroupChain, Chain: true, Handle: a.policyAssets},
		{Method: http.MethodGet, Path: "/assets/:asset", Group: admin.GroupChain, Chain: true, Handle: a.asset},
		{Method: http.MethodGet, Path: "/assets/:asset/history", Group: admin.GroupHistory, Chain: true, Handle: a.assetHistory},
		{Method: http.MethodGet, Path: "/assets/:asset/txs", Group: admin.GroupHistory, Chain: true, Handle: a.assetTxs},
		{Method: http.MethodGet, Path: "/assets/:asset/transactions", Group: admin.GroupHistory, Chain: true, Handle: a.assetTransactions},
		{Method: http.MethodGet, Path: "/assets/:asset/addresses", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.assetAddresses},
		{Method: http.MethodGet, Path: "/assets/:asset/utxos", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.assetUTxOs},
	}
}

func (a *API) metadataRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/metadata/txs/labels", Group: admin.GroupHistory, Chain: true, Handle: a.metadataLabels},
		{Method: http.MethodGet, Path: "/metadata/txs/labels/:label", Group: admin.GroupHistory, Chain: true, Handle: a.metadataLabel},
		{Method: http.MethodGet, Path: "/metadata/txs/labels/:label/cbor", Group: admin.GroupHistory, Chain: true, Handle: a.metadataLabelCBOR},
	}
}

// assetParam resolves the caller's network and parses {asset}.
func (a *API) assetParam(c *gin.Context) (*dbsync.DB, cardano.AssetID, error) {
	id, valid := parseUnit(c.Param("asset"))
	if !valid {
		return nil, id, errAsset
	}
	db, err := a.deps.ChainDB(c)
	return db, id, err
}

// asset: GET /assets/{asset}.
func (a *API) asset(c *gin.Context) error {
	db, id, err := a.assetParam(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Asset(c.Request.Context(), db, id))
}

// assets: GET /assets.
func (a *API) assets(c *gin.Context) error {
	p, err := paging(c)
	if err != nil {
		return err
	}
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Assets(c.Request.Context(), db, p))
}

// policyAssets: GET /assets/policy/{policy_id}.
func (a *API) policyAssets(c *gin.Context) error {
	var policy [28]byte
	if s := c.Param("policy_id"); len(s) != 56 {
		return errPolicy
	} else if _, err := hex.Decode(policy[:], []byte(s)); err != nil {
		return errPolicy
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.PolicyAssets(c.Request.Context(), db, policy, p))
}

// assetHistory: GET /assets/{asset}/history.
func (a *API) assetHistory(c *gin.Context) error {
	db, id, err := a.assetParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AssetHistory(c.Request.Context(), db, id, p))
}

// assetTxs: GET /assets/{asset}/txs (deprecated by Blockfrost).
func (a *API) assetTxs(c *gin.Context) error {
	db, id, err := a.assetParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AssetTxs(c.Request.Context(), db, id, p))
}

// assetTransactions: GET /assets/{asset}/transactions, with from/to as
// /addresses/{address}/transactions takes them.
func (a *API) assetTransactions(c *gin.Context) error {
	db, id, err := a.assetParam(c)
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
	return ok(c)(a.deps.Answers.AssetTransactions(c.Request.Context(), db, id, p, r))
}

// assetAddresses: GET /assets/{asset}/addresses.
func (a *API) assetAddresses(c *gin.Context) error {
	db, id, err := a.assetParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AssetAddresses(c.Request.Context(), db, id, p))
}

// assetUTxOs: GET /assets/{asset}/utxos.
func (a *API) assetUTxOs(c *gin.Context) error {
	db, id, err := a.assetParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AssetUTxOs(c.Request.Context(), db, id, p))
}

// labelParam parses {label}: a decimal integer from 0 to 2^63-1
// (Blockfrost's bound), digits only, answered without leading zeros.
func (a *API) labelParam(c *gin.Context) (*dbsync.DB, string, error) {
	s := c.Param("label")
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil || s[0] == '+' {
		return nil, "", errLabel
	}
	db, err := a.deps.ChainDB(c)
	return db, strconv.FormatUint(n, 10), err
}

// metadataLabels: GET /metadata/txs/labels.
func (a *API) metadataLabels(c *gin.Context) error {
	p, err := paging(c)
	if err != nil {
		return err
	}
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.MetadataLabels(c.Request.Context(), db, p))
}

// metadataLabel: GET /metadata/txs/labels/{label}.
func (a *API) metadataLabel(c *gin.Context) error {
	db, label, err := a.labelParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.MetadataLabel(c.Request.Context(), db, label, p))
}

// metadataLabelCBOR: GET /metadata/txs/labels/{label}/cbor.
func (a *API) metadataLabelCBOR(c *gin.Context) error {
	db, label, err := a.labelParam(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.MetadataLabelCBOR(c.Request.Context(), db, label, p))
}
