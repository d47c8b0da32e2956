package blockfrost

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

func (a *API) utilRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/utils/addresses/xpub/:xpub/:role/:index", Group: admin.GroupChain, Handle: a.deriveAddress},
		{Method: http.MethodPost, Path: "/utils/txs/evaluate", Group: admin.GroupSubmit, Handle: a.evaluateTx},
		{Method: http.MethodPost, Path: "/utils/txs/evaluate/utxos", Group: admin.GroupSubmit, Handle: a.evaluateTxUTxOs},
	}
}

// XpubAddress is Blockfrost's utils_addresses_xpub.
type XpubAddress struct {
	Xpub    string `json:"xpub"`
	Role    uint32 `json:"role"`
	Index   uint32 `json:"index"`
	Address string `json:"address"`
}

// deriveAddress: GET /utils/addresses/xpub/{xpub}/{role}/{index}, the
// address at role/index below an account key on the caller's network
// (cardano.DeriveAddress: role 2 is a stake address). Pure: no database.
// The xpub is echoed as sent, as Blockfrost does.
func (a *API) deriveAddress(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	xpub := c.Param("xpub")
	account, err := cardano.ParseAccountXpub(xpub)
	if err != nil {
		return errXpub
	}
	role, valid := derivationIndex(c.Param("role"))
	if !valid {
		return errXpubRole
	}
	index, valid := derivationIndex(c.Param("index"))
	if !valid {
		return errXpubIndex
	}
	addr, err := cardano.DeriveAddress(account, role, index, db.Network)
	if err != nil {
		return err // cannot happen: the key and both indexes were checked
	}
	httpx.WriteJSON(c, http.StatusOK, XpubAddress{Xpub: xpub, Role: role, Index: index, Address: addr})
	return nil
}

// derivationIndex reads a role or index: decimal digits for a soft index
// (0 to 2^31-1; a public key cannot derive a hardened one).
func derivationIndex(s string) (uint32, bool) {
	if s == "" {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n > uint64(cardano.MaxSoftIndex) {
		return 0, false
	}
	return uint32(n), true
}
