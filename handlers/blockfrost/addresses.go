package blockfrost

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

func (a *API) addressRoutes() []Route {
	unspent, spent := []dbsync.Facts{dbsync.FactsUnspent}, []dbsync.Facts{dbsync.FactsSpent}
	return []Route{
		{Method: http.MethodGet, Path: "/addresses/:address", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.address},
		{Method: http.MethodGet, Path: "/addresses/:address/extended", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.addressExtended},
		{Method: http.MethodGet, Path: "/addresses/:address/total", Group: admin.GroupHistory, Chain: true, Needs: spent, Handle: a.addressTotal},
		{Method: http.MethodGet, Path: "/addresses/:address/utxos", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.addressUTxOs},
		{Method: http.MethodGet, Path: "/addresses/:address/utxos/:asset", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.addressUTxOs},
		{Method: http.MethodGet, Path: "/addresses/:address/transactions", Group: admin.GroupHistory, Chain: true, Needs: spent, Handle: a.addressTransactions},
		{Method: http.MethodGet, Path: "/addresses/:address/txs", Group: admin.GroupHistory, Chain: true, Needs: spent, Handle: a.addressTxs},
	}
}

// addressRef resolves the caller's network and parses {address} for it:
// an address, or a payment credential (addr_vkh1…, script1…).
func (a *API) addressRef(c *gin.Context) (*dbsync.DB, bf.AddressRef, error) {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return nil, bf.AddressRef{}, err
	}
	ref, ok := bf.ParseAddressRef(c.Param("address"), db.Network.Mainnet)
	if !ok {
		return nil, bf.AddressRef{}, errAddress
	}
	return db, ref, nil
}

// address: GET /addresses/{address}.
func (a *API) address(c *gin.Context) error {
	db, ref, err := a.addressRef(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Address(c.Request.Context(), db, ref))
}

// addressExtended: GET /addresses/{address}/extended.
func (a *API) addressExtended(c *gin.Context) error {
	db, ref, err := a.addressRef(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AddressExtended(c.Request.Context(), db, ref))
}

// addressTotal: GET /addresses/{address}/total.
func (a *API) addressTotal(c *gin.Context) error {
	db, ref, err := a.addressRef(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AddressTotal(c.Request.Context(), db, ref))
}

// addressUTxOs: GET /addresses/{address}/utxos and
// /addresses/{address}/utxos/{asset}.
func (a *API) addressUTxOs(c *gin.Context) error {
	db, ref, err := a.addressRef(c)
	if err != nil {
		return err
	}
	var asset *cardano.AssetID
	if unit, given := c.Params.Get("asset"); given {
		id, valid := parseUnit(unit)
		if !valid {
			return errAsset
		}
		asset = &id
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AddressUTxOs(c.Request.Context(), db, ref, asset, p))
}

// addressTransactions: GET /addresses/{address}/transactions.
func (a *API) addressTransactions(c *gin.Context) error {
	db, ref, p, err := a.historyParams(c)
	if err != nil {
		return err
	}
	r, err := txRange(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AddressTransactions(c.Request.Context(), db, ref, p, r))
}

// txRange parses a transaction list's from and to (each optional; from
// after to is a 400).
func txRange(c *gin.Context) (r bf.TxRange, err error) {
	if r.From, err = blockPos(c, "from"); err != nil {
		return r, err
	}
	if r.To, err = blockPos(c, "to"); err != nil {
		return r, err
	}
	if r.From != nil && r.To != nil && (r.From.Block > r.To.Block ||
		r.From.Block == r.To.Block && r.From.HasIndex && r.To.HasIndex && r.From.Index > r.To.Index) {
		return r, errFromAfterTo
	}
	return r, nil
}

// addressTxs: GET /addresses/{address}/txs (deprecated by Blockfrost).
func (a *API) addressTxs(c *gin.Context) error {
	db, ref, p, err := a.historyParams(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AddressTxs(c.Request.Context(), db, ref, p))
}

// historyParams parses a history route's {address} (an address: the
// history engine walks one address's outputs) and its paging.
func (a *API) historyParams(c *gin.Context) (*dbsync.DB, bf.AddressRef, bf.Paging, error) {
	db, ref, err := a.addressRef(c)
	if err != nil {
		return nil, ref, bf.Paging{}, err
	}
	if ref.Credential != nil {
		return nil, ref, bf.Paging{}, errCredentialHistory
	}
	p, err := paging(c)
	return db, ref, p, err
}

// maxBlockPos bounds a from/to's numbers (Blockfrost's: a signed 32-bit
// integer).
const maxBlockPos = 2147483647

// blockPos parses from or to: a block number, optionally followed by a
// colon and a transaction's index in that block; nil when not given.
func blockPos(c *gin.Context, name string) (*bf.BlockPos, error) {
	vs, given := c.Request.URL.Query()[name]
	if !given {
		return nil, nil
	}
	fail := httpx.ErrInvalidParam(name, "must be a block number, or a block number and a transaction index joined by a colon (0 to 2147483647 each)")
	if len(vs) > 1 {
		return nil, fail
	}
	block, index, hasIndex := strings.Cut(vs[0], ":")
	p := &bf.BlockPos{HasIndex: hasIndex}
	var valid bool
	if p.Block, valid = boundedInt(block); !valid {
		return nil, fail
	}
	if hasIndex {
		n, valid := boundedInt(index)
		if !valid {
			return nil, fail
		}
		p.Index = int(n)
	}
	return p, nil
}

// boundedInt reads a decimal integer from 0 to maxBlockPos (digits only).
func boundedInt(s string) (int64, bool) {
	if s == "" || len(s) > 10 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n <= maxBlockPos
}

// parseUnit reads Blockfrost's asset unit: a policy id (56 hex) followed
// by an asset name (0 to 64 hex).
func parseUnit(unit string) (cardano.AssetID, bool) {
	if len(unit) < 56 {
		return cardano.AssetID{}, false
	}
	id, err := cardano.ParseAssetID(unit[:56] + "." + unit[56:])
	return id, err == nil
}
