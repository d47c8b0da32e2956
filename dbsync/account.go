package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"time"

	"github.com/lib/pq"
)

var (
	sqlAccountHead          = load("dbsync/account_head.sql")
	sqlAccountSummary       = load("dbsync/account_summary.sql")
	sqlAccountRewards       = layoutStatement("dbsync/account_rewards.sql", alwaysGeneric, nil)
	sqlAccountDelegations   = layoutStatement("dbsync/account_delegations.sql", alwaysGeneric, nil)
	sqlAccountRegistrations = layoutStatement("dbsync/account_registrations.sql", alwaysGeneric, nil)
	sqlAccountWithdrawals   = layoutStatement("dbsync/account_withdrawals.sql", alwaysGeneric, nil)
	sqlAccountAddresses     = layoutStatement("dbsync/account_addresses.sql", alwaysGeneric, nil)
	sqlAccountAssets        = layoutStatement("dbsync/account_assets.sql", alwaysGeneric, nil)
)

// Account is a stake account's state at the tip (docs/DECISIONS.md "Stake
// accounts"). Amounts are lovelace as decimal text.
type Account struct {
	StakeAddress     string
	Active           bool
	ActiveEpoch      *int64 // epoch of the registration that made it active; nil when not active
	ActiveStake      string // its stake in the current epoch's snapshot
	RewardsSum       string // rewards spendable by the current epoch
	WithdrawnRewards string // withdrawals in valid transactions
	AvailableRewards string // RewardsSum - WithdrawnRewards, never negative
	PoolID           *string
	DRepID           *string
}

// AccountQuery selects one page of an account list.
type AccountQuery struct {
	Limit     int  // page size (at least 1)
	Offset    int  // items skipped
	Ascending bool // chain order (ignored by the lists that have one order)
}

// AccountPage is one page of an account list in the snapshot of Tip.
// Total counts the whole list.
type AccountPage[T any] struct {
	Items []T
	Total int64
	Tip   Tip
}

// AccountReward is one reward row spendable by the current epoch.
type AccountReward struct {
	Epoch  int64   // earned
	Amount string  // lovelace
	PoolID *string // bech32; nil for reserves, treasury and proposal refunds
	Type   string  // leader, member, reserves, treasury or refund
}

// AccountDelegation is one pool delegation certificate.
type AccountDelegation struct {
	ActiveEpoch int64
	PoolID      string // bech32
	TxHash      string
	CertIndex   int
}

// AccountRegistration is one registration or deregistration certificate.
type AccountRegistration struct {
	TxHash string
	Action string // registered or deregistered
	Epoch  int64
}

// AccountWithdrawal is one reward withdrawal of a valid transaction.
type AccountWithdrawal struct {
	TxHash    string
	Amount    string // lovelace
	BlockTime time.Time
}

// AccountAsset is one native asset held by the account's unspent outputs.
type AccountAsset struct {
	Unit     string // policy hex followed by asset name hex
	Quantity string
}

// accountHead is account_head.sql's row: the tip and the stake address
// (nil fields: never seen on chain).
type accountHead struct {
	Tip
	AddrID       *int64  `db:"addr_id"`
	StakeAddress *string `db:"stake_address"`
}

// epoch is the current epoch: the tip's.
func (h accountHead) epoch() int64 {
	if h.EpochNo == nil {
		return 0
	}
	return *h.EpochNo
}

// accountRead runs fn in one snapshot after reading the tip and resolving
// the stake address in it, so every figure of an answer and its
// last_updated agree.
func (db *DB) accountRead(ctx context.Context, key cardano.StakeKey, fn func(tx *Snapshot, h accountHead) error) error {
	return db.ReadTx(ctx, func(tx *Snapshot) error {
		var h accountHead
		switch err := tx.GetContext(ctx, &h, sqlAccountHead, pq.ByteaArray(key.Candidates())); {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: db-sync holds no blocks yet", ErrUnavailable)
		case err != nil:
			return err
		}
		h.BlockTime = AsUTC(h.BlockTime)
		return fn(tx, h)
	})
}

// Account returns the stake account's state. A stake address never seen
// on chain is the empty account (not active, zeros, no pool, no DRep).
func (db *DB) Account(ctx context.Context, key cardano.StakeKey) (Account, error) {
	a := Account{StakeAddress: key.Bech32(), ActiveStake: "0", RewardsSum: "0", WithdrawnRewards: "0", AvailableRewards: "0"}
	err := db.accountRead(ctx, key, func(tx *Snapshot, h accountHead) error {
		if h.AddrID == nil {
			return nil
		}
		a.StakeAddress = *h.StakeAddress
		var row struct {
			Active           bool    `db:"active"`
			ActiveEpoch      *int64  `db:"active_epoch"`
			ActiveStake      string  `db:"active_stake"`
			RewardsSum       string  `db:"rewards_sum"`
			WithdrawnRewards string  `db:"withdrawn_rewards"`
			AvailableRewards string  `db:"available_rewards"`
			PoolID           *string `db:"pool_id"`
			DRepID           *string `db:"drep_id"`
		}
		if err := tx.GetContext(ctx, &row, sqlAccountSummary, *h.AddrID, h.epoch()); err != nil {
			return err
		}
		a.Active, a.ActiveEpoch, a.ActiveStake = row.Active, row.ActiveEpoch, row.ActiveStake
		a.RewardsSum, a.WithdrawnRewards, a.AvailableRewards = row.RewardsSum, row.WithdrawnRewards, row.AvailableRewards
		a.PoolID, a.DRepID = row.PoolID, row.DRepID
		return nil
	})
	if err != nil {
		return Account{}, fmt.Errorf("dbsync.Account: %w", err)
	}
	return a, nil
}

// pageRow is the part every account list row shares: the list's total,
// and n, the item's place in the list (nil on the one row of an empty page).
type pageRow struct {
	Total int64  `db:"total"`
	N     *int64 `db:"n"`
}

func (r pageRow) page() pageRow { return r }

type pagedRow interface{ page() pageRow }

// accountPage reads one page of an account list: query's arguments come
// from args (given the resolved account), each item from item.
func accountPage[R pagedRow, T any](ctx context.Context, db *DB, key cardano.StakeKey, name string, query Query, args func(h accountHead) []any, item func(R) T) (AccountPage[T], error) {
	page := AccountPage[T]{Items: []T{}}
	err := db.accountRead(ctx, key, func(tx *Snapshot, h accountHead) error {
		page.Tip = h.Tip
		if h.AddrID == nil {
			return nil
		}
		var rows []R
		if err := tx.SelectContext(ctx, &rows, query, args(h)...); err != nil {
			return err
		}
		for _, r := range rows {
			p := r.page()
			page.Total = p.Total
			if p.N != nil {
				page.Items = append(page.Items, item(r))
			}
		}
		return nil
	})
	if err != nil {
		return AccountPage[T]{}, fmt.Errorf("dbsync.%s: %w", name, err)
	}
	return page, nil
}

// AccountRewards returns one page of the account's rewards spendable by
// the current epoch, by earned epoch, type, pool.
func (db *DB) AccountRewards(ctx context.Context, key cardano.StakeKey, q AccountQuery) (AccountPage[AccountReward], error) {
	type row struct {
		pageRow
		Epoch  *int64  `db:"epoch"`
		Amount *string `db:"amount"`
		PoolID *string `db:"pool_id"`
		Type   *string `db:"reward_type"`
	}
	return accountPage(ctx, db, key, "AccountRewards", db.sql(sqlAccountRewards),
		func(h accountHead) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset, h.epoch()} },
		func(r row) AccountReward {
			return AccountReward{Epoch: *r.Epoch, Amount: *r.Amount, PoolID: r.PoolID, Type: *r.Type}
		})
}

// AccountDelegations returns one page of the account's pool delegations
// in chain order.
func (db *DB) AccountDelegations(ctx context.Context, key cardano.StakeKey, q AccountQuery) (AccountPage[AccountDelegation], error) {
	type row struct {
		pageRow
		ActiveEpoch *int64  `db:"active_epoch"`
		PoolID      *string `db:"pool_id"`
		TxHash      *string `db:"tx_hash"`
		CertIndex   *int    `db:"cert_index"`
	}
	return accountPage(ctx, db, key, "AccountDelegations", db.sql(sqlAccountDelegations),
		func(h accountHead) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset} },
		func(r row) AccountDelegation {
			return AccountDelegation{ActiveEpoch: *r.ActiveEpoch, PoolID: *r.PoolID, TxHash: *r.TxHash, CertIndex: *r.CertIndex}
		})
}

// AccountRegistrations returns one page of the account's registrations
// and deregistrations, merged in chain order.
func (db *DB) AccountRegistrations(ctx context.Context, key cardano.StakeKey, q AccountQuery) (AccountPage[AccountRegistration], error) {
	type row struct {
		pageRow
		TxHash *string `db:"tx_hash"`
		Action *string `db:"action"`
		Epoch  *int64  `db:"epoch"`
	}
	return accountPage(ctx, db, key, "AccountRegistrations", db.sql(sqlAccountRegistrations),
		func(h accountHead) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset} },
		func(r row) AccountRegistration {
			return AccountRegistration{TxHash: *r.TxHash, Action: *r.Action, Epoch: *r.Epoch}
		})
}

// AccountWithdrawals returns one page of the account's withdrawals in
// valid transactions, in chain order.
func (db *DB) AccountWithdrawals(ctx context.Context, key cardano.StakeKey, q AccountQuery) (AccountPage[AccountWithdrawal], error) {
	type row struct {
		pageRow
		TxHash    *string    `db:"tx_hash"`
		Amount    *string    `db:"amount"`
		BlockTime *time.Time `db:"block_time"`
	}
	return accountPage(ctx, db, key, "AccountWithdrawals", db.sql(sqlAccountWithdrawals),
		func(h accountHead) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset} },
		func(r row) AccountWithdrawal {
			return AccountWithdrawal{TxHash: *r.TxHash, Amount: *r.Amount, BlockTime: AsUTC(*r.BlockTime)}
		})
}

// AccountAddresses returns one page of the distinct addresses that ever
// received an output carrying the stake credential, by first appearance.
func (db *DB) AccountAddresses(ctx context.Context, key cardano.StakeKey, q AccountQuery) (AccountPage[string], error) {
	type row struct {
		pageRow
		Address *string `db:"address"`
	}
	return accountPage(ctx, db, key, "AccountAddresses", db.sql(sqlAccountAddresses),
		func(h accountHead) []any { return []any{*h.AddrID, q.Limit, q.Offset} },
		func(r row) string { return *r.Address })
}

// AccountAssets returns one page of the native assets held by the
// account's unspent outputs, by unit.
func (db *DB) AccountAssets(ctx context.Context, key cardano.StakeKey, q AccountQuery) (AccountPage[AccountAsset], error) {
	type row struct {
		pageRow
		Unit     *string `db:"unit"`
		Quantity *string `db:"quantity"`
	}
	return accountPage(ctx, db, key, "AccountAssets", db.sql(sqlAccountAssets),
		func(h accountHead) []any { return []any{*h.AddrID, q.Limit, q.Offset} },
		func(r row) AccountAsset { return AccountAsset{Unit: *r.Unit, Quantity: *r.Quantity} })
}
