package handlers

import (
	"context"
	"github.com/syncgate/syncgate/internal/cardano"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// accountCacheTTL bounds how long an account answer is kept under the tip
// it was read at. It stays true for that tip; the cache is what lets a busy
// account (a DEX batcher's thousands of withdrawals) be asked many times a
// block without summing its history each time.
const accountCacheTTL = 10 * time.Minute

// Limits of the stake-account lists (docs/DECISIONS.md "Stake accounts").
const (
	accountListDefaultLimit = 100
	accountListMaxLimit     = 100
)

// accountJSON is GET /v1/accounts/:stakeAddress's data.
type accountJSON struct {
	StakeAddress     string  `json:"stake_address"`
	Active           bool    `json:"active"`
	ActiveEpoch      *int64  `json:"active_epoch"`
	ActiveStake      string  `json:"active_stake"`
	RewardsSum       string  `json:"rewards_sum"`
	WithdrawnRewards string  `json:"withdrawn_rewards"`
	AvailableRewards string  `json:"available_rewards"`
	PoolID           *string `json:"pool_id"`
	DRepID           *string `json:"drep_id"`
}

type accountRewardJSON struct {
	Epoch      int64   `json:"epoch"`
	Amount     string  `json:"amount"`
	PoolID     *string `json:"pool_id"`
	RewardType string  `json:"reward_type"`
}

type accountDelegationJSON struct {
	ActiveEpoch int64  `json:"active_epoch"`
	PoolID      string `json:"pool_id"`
	TxHash      string `json:"tx_hash"`
	CertIndex   int    `json:"cert_index"`
}

type accountRegistrationJSON struct {
	TxHash string `json:"tx_hash"`
	Action string `json:"action"`
	Epoch  int64  `json:"epoch"`
}

type accountWithdrawalJSON struct {
	TxHash    string `json:"tx_hash"`
	Amount    string `json:"amount"`
	BlockTime string `json:"block_time"`
}

type accountAddressJSON struct {
	Address string `json:"address"`
}

type accountAssetJSON struct {
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
}

// chainAccount resolves the caller's network and parses :stakeAddress for it.
func (s *Server) chainAccount(c *gin.Context) (*dbsync.DB, cardano.StakeKey, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return nil, cardano.StakeKey{}, err
	}
	key, err := cardano.ParseStakeKey(c.Param("stakeAddress"), db.Network.Mainnet)
	if err != nil {
		return nil, cardano.StakeKey{}, errInvalidStakeKey
	}
	return db, key, nil
}

// accountQuery reads limit (1..100, default 100), offset and, for the
// lists in chain order, order (default asc).
func accountQuery(c *gin.Context, ordered bool) (dbsync.AccountQuery, error) {
	limit, err := queryInt(c, "limit", accountListDefaultLimit, 1, accountListMaxLimit)
	if err != nil {
		return dbsync.AccountQuery{}, err
	}
	offset, err := queryOffset(c)
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
	return s.servedByTip(c, s.caches.account, db, []string{"summary", key.Bech32()}, func(ctx context.Context) (envelope, time.Duration, error) {
		a, err := db.Account(ctx, key)
		if err != nil {
			return envelope{}, 0, err
		}
		return envelope{Success: true, Data: accountJSON{
			StakeAddress: a.StakeAddress, Active: a.Active, ActiveEpoch: a.ActiveEpoch,
			ActiveStake: a.ActiveStake, RewardsSum: a.RewardsSum, WithdrawnRewards: a.WithdrawnRewards,
			AvailableRewards: a.AvailableRewards, PoolID: a.PoolID, DRepID: a.DRepID,
		}}, accountCacheTTL, nil
	})
}

// accountList answers one account list: parse, read, convert each item.
func accountList[T, J any](s *Server, c *gin.Context, ordered bool,
	read func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[T], error),
	item func(T) J) error {
	db, key, err := s.chainAccount(c)
	if err != nil {
		return err
	}
	q, err := accountQuery(c, ordered)
	if err != nil {
		return err
	}
	params := []string{c.FullPath(), key.Bech32(), strconv.Itoa(q.Limit), strconv.Itoa(q.Offset), strconv.FormatBool(q.Ascending)}
	return s.servedByTip(c, s.caches.account, db, params, func(ctx context.Context) (envelope, time.Duration, error) {
		page, err := read(ctx, db, key, q)
		if err != nil {
			return envelope{}, 0, err
		}
		items := make([]J, len(page.Items))
		for i, it := range page.Items {
			items[i] = item(it)
		}
		p, lu := NewPagination(q.Limit, q.Offset, len(items), page.Total), lastUpdatedOf(page.Tip)
		return envelope{Success: true, Data: items, Pagination: &p, LastUpdated: &lu}, accountCacheTTL, nil
	})
}

// accountRewards: GET /v1/accounts/:stakeAddress/rewards.
func (s *Server) accountRewards(c *gin.Context) error {
	return accountList(s, c, true,
		func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[dbsync.AccountReward], error) {
			return db.AccountRewards(ctx, key, q)
		},
		func(r dbsync.AccountReward) accountRewardJSON {
			return accountRewardJSON{Epoch: r.Epoch, Amount: r.Amount, PoolID: r.PoolID, RewardType: r.Type}
		})
}

// accountDelegations: GET /v1/accounts/:stakeAddress/delegations.
func (s *Server) accountDelegations(c *gin.Context) error {
	return accountList(s, c, true,
		func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[dbsync.AccountDelegation], error) {
			return db.AccountDelegations(ctx, key, q)
		},
		func(d dbsync.AccountDelegation) accountDelegationJSON {
			return accountDelegationJSON{ActiveEpoch: d.ActiveEpoch, PoolID: d.PoolID, TxHash: d.TxHash, CertIndex: d.CertIndex}
		})
}

// accountRegistrations: GET /v1/accounts/:stakeAddress/registrations.
func (s *Server) accountRegistrations(c *gin.Context) error {
	return accountList(s, c, true,
		func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[dbsync.AccountRegistration], error) {
			return db.AccountRegistrations(ctx, key, q)
		},
		func(r dbsync.AccountRegistration) accountRegistrationJSON {
			return accountRegistrationJSON{TxHash: r.TxHash, Action: r.Action, Epoch: r.Epoch}
		})
}

// accountWithdrawals: GET /v1/accounts/:stakeAddress/withdrawals.
func (s *Server) accountWithdrawals(c *gin.Context) error {
	return accountList(s, c, true,
		func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[dbsync.AccountWithdrawal], error) {
			return db.AccountWithdrawals(ctx, key, q)
		},
		func(w dbsync.AccountWithdrawal) accountWithdrawalJSON {
			return accountWithdrawalJSON{TxHash: w.TxHash, Amount: w.Amount, BlockTime: blockTime(w.BlockTime)}
		})
}

// accountAddresses: GET /v1/accounts/:stakeAddress/addresses (one order:
// first appearance).
func (s *Server) accountAddresses(c *gin.Context) error {
	return accountList(s, c, false,
		func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[string], error) {
			return db.AccountAddresses(ctx, key, q)
		},
		func(a string) accountAddressJSON { return accountAddressJSON{Address: a} })
}

// accountAssets: GET /v1/accounts/:stakeAddress/assets (one order: unit).
func (s *Server) accountAssets(c *gin.Context) error {
	return accountList(s, c, false,
		func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[dbsync.AccountAsset], error) {
			return db.AccountAssets(ctx, key, q)
		},
		func(a dbsync.AccountAsset) accountAssetJSON {
			return accountAssetJSON{Unit: a.Unit, Quantity: a.Quantity}
		})
}
