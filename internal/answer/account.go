package answer

import (
	"context"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/account"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

// accountCacheTTL bounds how long an account answer is kept under the tip
// it was read at. It stays true for that tip; the cache is what lets a busy
// account (a DEX batcher's thousands of withdrawals) be asked many times a
// block without summing its history each time.
const accountCacheTTL = 10 * time.Minute

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

// Account answers GET /v1/accounts/:stakeAddress.
func (s *Service) Account(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) ([]byte, error) {
	return s.byTipEnvelope(ctx, s.caches.account, db, []string{"summary", key.Bech32()}, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		a, err := account.Read(ctx, db, key)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		return ok(accountJSON{
			StakeAddress: a.StakeAddress, Active: a.Active, ActiveEpoch: a.ActiveEpoch,
			ActiveStake: a.ActiveStake, RewardsSum: a.RewardsSum, WithdrawnRewards: a.WithdrawnRewards,
			AvailableRewards: a.AvailableRewards, PoolID: a.PoolID, DRepID: a.DRepID,
		}), accountCacheTTL, nil
	})
}

// accountList answers one account list: read a page, convert each item.
// route (the list's route template) names the list in its cache keys, as
// it always has: the keys are shared with other instances.
func accountList[T, J any](s *Service, ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery, route string,
	read func(context.Context, *dbsync.DB) (dbsync.AccountPage[T], error), item func(T) J) ([]byte, error) {
	params := []string{route, key.Bech32(), strconv.Itoa(q.Limit), strconv.Itoa(q.Offset), strconv.FormatBool(q.Ascending)}
	return s.byTipEnvelope(ctx, s.caches.account, db, params, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		page, err := read(ctx, db)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		items := make([]J, len(page.Items))
		for i, it := range page.Items {
			items[i] = item(it)
		}
		p, lu := wire.NewPagination(q.Limit, q.Offset, len(items), page.Total), lastUpdatedOf(page.Tip)
		return wire.Envelope{Success: true, Data: items, Pagination: &p, LastUpdated: &lu}, accountCacheTTL, nil
	})
}

// AccountRewards answers GET /v1/accounts/:stakeAddress/rewards.
func (s *Service) AccountRewards(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) ([]byte, error) {
	return accountList(s, ctx, db, key, q, "/v1/accounts/:stakeAddress/rewards",
		func(ctx context.Context, db *dbsync.DB) (dbsync.AccountPage[account.Reward], error) {
			return account.Rewards(ctx, db, key, q)
		},
		func(r account.Reward) accountRewardJSON {
			return accountRewardJSON{Epoch: r.Epoch, Amount: r.Amount, PoolID: r.PoolID, RewardType: r.Type}
		})
}

// AccountDelegations answers GET /v1/accounts/:stakeAddress/delegations.
func (s *Service) AccountDelegations(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) ([]byte, error) {
	return accountList(s, ctx, db, key, q, "/v1/accounts/:stakeAddress/delegations",
		func(ctx context.Context, db *dbsync.DB) (dbsync.AccountPage[account.Delegation], error) {
			return account.Delegations(ctx, db, key, q)
		},
		func(d account.Delegation) accountDelegationJSON {
			return accountDelegationJSON{ActiveEpoch: d.ActiveEpoch, PoolID: d.PoolID, TxHash: d.TxHash, CertIndex: d.CertIndex}
		})
}

// AccountRegistrations answers GET /v1/accounts/:stakeAddress/registrations.
func (s *Service) AccountRegistrations(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) ([]byte, error) {
	return accountList(s, ctx, db, key, q, "/v1/accounts/:stakeAddress/registrations",
		func(ctx context.Context, db *dbsync.DB) (dbsync.AccountPage[account.Registration], error) {
			return account.Registrations(ctx, db, key, q)
		},
		func(r account.Registration) accountRegistrationJSON {
			return accountRegistrationJSON{TxHash: r.TxHash, Action: r.Action, Epoch: r.Epoch}
		})
}

// AccountWithdrawals answers GET /v1/accounts/:stakeAddress/withdrawals.
func (s *Service) AccountWithdrawals(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) ([]byte, error) {
	return accountList(s, ctx, db, key, q, "/v1/accounts/:stakeAddress/withdrawals",
		func(ctx context.Context, db *dbsync.DB) (dbsync.AccountPage[account.Withdrawal], error) {
			return account.Withdrawals(ctx, db, key, q)
		},
		func(w account.Withdrawal) accountWithdrawalJSON {
			return accountWithdrawalJSON{TxHash: w.TxHash, Amount: w.Amount, BlockTime: wire.BlockTime(w.BlockTime)}
		})
}

// AccountAddresses answers GET /v1/accounts/:stakeAddress/addresses.
func (s *Service) AccountAddresses(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) ([]byte, error) {
	return accountList(s, ctx, db, key, q, "/v1/accounts/:stakeAddress/addresses",
		func(ctx context.Context, db *dbsync.DB) (dbsync.AccountPage[string], error) {
			return account.Addresses(ctx, db, key, q)
		},
		func(a string) accountAddressJSON { return accountAddressJSON{Address: a} })
}

// AccountAssets answers GET /v1/accounts/:stakeAddress/assets.
func (s *Service) AccountAssets(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) ([]byte, error) {
	return accountList(s, ctx, db, key, q, "/v1/accounts/:stakeAddress/assets",
		func(ctx context.Context, db *dbsync.DB) (dbsync.AccountPage[account.Asset], error) {
			return account.Assets(ctx, db, key, q)
		},
		func(a account.Asset) accountAssetJSON {
			return accountAssetJSON{Unit: a.Unit, Quantity: a.Quantity}
		})
}
