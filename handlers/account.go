package handlers

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Limits of the stake-account lists (the client SDK's paging: OpenAPI "Pagination").
const (
	accountListDefaultLimit = 100
	accountListMaxLimit     = 100
)

// chainAccount resolves the caller's network and parses :stakeAddress for it.
func (s *Server) chainAccount(c *gin.Context) (*dbsync.DB, cardano.StakeKey, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, cardano.StakeKey{}, err
	}
	key, err := cardano.ParseStakeKey(c.Param("stakeAddress"), db.Network.Mainnet)
	if err != nil {
		return nil, cardano.StakeKey{}, httpx.ErrInvalidStakeKey
	}
	return db, key, nil
}

// accountQuery reads limit (1..100, default 100), offset and, for the
// lists in chain order, order (default asc).
func accountQuery(c *gin.Context, ordered bool) (dbsync.AccountQuery, error) {
	limit, err := httpx.QueryInt(c, "limit", accountListDefaultLimit, 1, accountListMaxLimit)
	if err != nil {
		return dbsync.AccountQuery{}, err
	}
	offset, err := httpx.QueryOffset(c)
	if err != nil {
		return dbsync.AccountQuery{}, err
	}
	asc := true
	if ordered {
		if asc, err = queryOrder(c, true); err != nil {
			return dbsync.AccountQuery{}, err
		}
	}
	return dbsync.AccountQuery{Limit: limit, Offset: offset, Ascending: asc}, nil
}

// account: GET /v1/accounts/:stakeAddress.
func (s *Server) account(c *gin.Context) error {
	db, key, err := s.chainAccount(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.Account(c.Request.Context(), db, key))
}

// accountList answers one account list: parse, then read the page.
func (s *Server) accountList(c *gin.Context, ordered bool,
	read func(context.Context, *dbsync.DB, cardano.StakeKey, dbsync.AccountQuery) ([]byte, error)) error {
	db, key, err := s.chainAccount(c)
	if err != nil {
		return err
	}
	q, err := accountQuery(c, ordered)
	if err != nil {
		return err
	}
	return answered(c)(read(c.Request.Context(), db, key, q))
}

// accountRewards: GET /v1/accounts/:stakeAddress/rewards.
func (s *Server) accountRewards(c *gin.Context) error {
	return s.accountList(c, true, s.answers.AccountRewards)
}

// accountDelegations: GET /v1/accounts/:stakeAddress/delegations.
func (s *Server) accountDelegations(c *gin.Context) error {
	return s.accountList(c, true, s.answers.AccountDelegations)
}

// accountRegistrations: GET /v1/accounts/:stakeAddress/registrations.
func (s *Server) accountRegistrations(c *gin.Context) error {
	return s.accountList(c, true, s.answers.AccountRegistrations)
}

// accountWithdrawals: GET /v1/accounts/:stakeAddress/withdrawals.
func (s *Server) accountWithdrawals(c *gin.Context) error {
	return s.accountList(c, true, s.answers.AccountWithdrawals)
}

// accountAddresses: GET /v1/accounts/:stakeAddress/addresses (one order:
// first appearance).
func (s *Server) accountAddresses(c *gin.Context) error {
	return s.accountList(c, false, s.answers.AccountAddresses)
}

// accountAssets: GET /v1/accounts/:stakeAddress/assets (one order: unit).
func (s *Server) accountAssets(c *gin.Context) error {
	return s.accountList(c, false, s.answers.AccountAssets)
}
