package blockfrost

import (
	"context"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

func (a *API) accountRoutes() []Route {
	unspent, spent := []dbsync.Facts{dbsync.FactsUnspent}, []dbsync.Facts{dbsync.FactsSpent}
	list := func(read func(context.Context, *dbsync.DB, cardano.StakeKey, bf.Paging) ([]byte, error)) func(*gin.Context) error {
		return func(c *gin.Context) error { return a.accountList(c, read) }
	}
	ans := a.deps.Answers
	return []Route{
		{Method: http.MethodGet, Path: "/accounts/:stake_address", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: a.account},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/rewards", Group: admin.GroupHistory, Chain: true, Handle: list(ans.AccountRewards)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/history", Group: admin.GroupHistory, Chain: true, Handle: list(ans.AccountHistory)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/delegations", Group: admin.GroupHistory, Chain: true, Handle: list(ans.AccountDelegations)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/registrations", Group: admin.GroupHistory, Chain: true, Handle: list(ans.AccountRegistrations)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/withdrawals", Group: admin.GroupHistory, Chain: true, Handle: list(ans.AccountWithdrawals)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/mirs", Group: admin.GroupHistory, Chain: true, Handle: list(ans.AccountMIRs)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/addresses", Group: admin.GroupHistory, Chain: true, Needs: spent, Handle: list(ans.AccountAddresses)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/addresses/assets", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: list(ans.AccountAssets)},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/addresses/total", Group: admin.GroupHistory, Chain: true, Needs: spent, Handle: a.accountTotal},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/transactions", Group: admin.GroupHistory, Chain: true, Needs: spent, Handle: a.accountTransactions},
		{Method: http.MethodGet, Path: "/accounts/:stake_address/utxos", Group: admin.GroupChain, Chain: true, Needs: unspent, Handle: list(ans.AccountUTxOs)},
	}
}

// stakeRef resolves the caller's network and parses {stake_address}: a
// bech32 stake address of that network, as Blockfrost takes it.
func (a *API) stakeRef(c *gin.Context) (*dbsync.DB, cardano.StakeKey, error) {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return nil, cardano.StakeKey{}, err
	}
	s := c.Param("stake_address")
	if !strings.HasPrefix(strings.ToLower(s), "stake") {
		return nil, cardano.StakeKey{}, errStakeAddress
	}
	key, err := cardano.ParseStakeKey(s, db.Network.Mainnet)
	if err != nil {
		return nil, cardano.StakeKey{}, errStakeAddress
	}
	return db, key, nil
}

// account: GET /accounts/{stake_address}.
func (a *API) account(c *gin.Context) error {
	db, key, err := a.stakeRef(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Account(c.Request.Context(), db, key))
}

// accountTotal: GET /accounts/{stake_address}/addresses/total.
func (a *API) accountTotal(c *gin.Context) error {
	db, key, err := a.stakeRef(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.AccountTotal(c.Request.Context(), db, key))
}

// accountList: a paged list of /accounts/{stake_address}/….
func (a *API) accountList(c *gin.Context, read func(context.Context, *dbsync.DB, cardano.StakeKey, bf.Paging) ([]byte, error)) error {
	db, key, err := a.stakeRef(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(read(c.Request.Context(), db, key, p))
}

// accountTransactions: GET /accounts/{stake_address}/transactions.
func (a *API) accountTransactions(c *gin.Context) error {
	db, key, err := a.stakeRef(c)
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
	return ok(c)(a.deps.Answers.AccountTransactions(c.Request.Context(), db, key, p, r))
}
