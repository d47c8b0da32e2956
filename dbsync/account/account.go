// Package account reads stake accounts from a db-sync database: an
// account's state at the tip (Read) and its lists (rewards, delegations,
// registrations, withdrawals, addresses, assets), each answer with its
// tip in one snapshot of a dbsync.DB. Its SQL lives in sql/dbsync/account_*.sql.
package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

var (
	sqlAccountHead          = engine.Fixed("dbsync/account_head.sql")
	sqlAccountSummary       = engine.Fixed("dbsync/account_summary.sql")
	sqlAccountRewards       = engine.Template("dbsync/account_rewards.sql", engine.AlwaysGeneric, nil)
	sqlAccountDelegations   = engine.Template("dbsync/account_delegations.sql", engine.AlwaysGeneric, nil)
	sqlAccountRegistrations = engine.Template("dbsync/account_registrations.sql", engine.AlwaysGeneric, nil)
	sqlAccountWithdrawals   = engine.Template("dbsync/account_withdrawals.sql", engine.AlwaysGeneric, nil)
	sqlAccountAddresses     = engine.Template("dbsync/account_addresses.sql", engine.AlwaysGeneric, nil)
	sqlAccountAssets        = engine.Template("dbsync/account_assets.sql", engine.AlwaysGeneric, nil)
)

// State is a stake account's state at the tip (docs/DECISIONS.md "Stake
// accounts"). Amounts are lovelace as decimal text.
type State struct {
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

// Reward is one reward row spendable by the current epoch.
type Reward struct {
	Epoch  int64   // earned
	Amount string  // lovelace
	PoolID *string // bech32; nil for reserves, treasury and proposal refunds
	Type   string  // leader, member, reserves, treasury or refund
}

// Delegation is one pool delegation certificate.
type Delegation struct {
	ActiveEpoch int64
	PoolID      string // bech32
	TxHash      string
	CertIndex   int
}

// Registration is one registration or deregistration certificate.
type Registration struct {
	TxHash string
	Action string // registered or deregistered
	Epoch  int64
}

// Withdrawal is one reward withdrawal of a valid transaction.
type Withdrawal struct {
	TxHash    string
	Amount    string // lovelace
	BlockTime time.Time
}

// Asset is one native asset held by the account's unspent outputs.
type Asset struct {
	Unit     string // policy hex followed by asset name hex
	Quantity string
}

// head is account_head.sql's row: the tip and the stake address
// (nil fields: never seen on chain).
type head struct {
	dbsync.Tip
	AddrID       *int64  `db:"addr_id"`
	StakeAddress *string `db:"stake_address"`
}

// epoch is the current epoch: the tip's.
func (h head) epoch() int64 {
	if h.EpochNo == nil {
		return 0
	}
	return *h.EpochNo
}

// read runs fn in one snapshot after reading the tip and resolving the
// stake address in it, so every figure of an answer and its last_updated
// agree.
func read(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, fn func(tx *dbsync.Snapshot, h head) error) error {
	return db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		var h head
		switch err := tx.GetContext(ctx, &h, sqlAccountHead, pq.ByteaArray(key.Candidates())); {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: db-sync holds no blocks yet", dbsync.ErrUnavailable)
		case err != nil:
			return err
		}
		h.BlockTime = dbsync.AsUTC(h.BlockTime)
		return fn(tx, h)
	})
}

// Read returns the stake account's state. A stake address never seen on
// chain is the empty account (not active, zeros, no pool, no DRep).
func Read(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) (State, error) {
	a := State{StakeAddress: key.Bech32(), ActiveStake: "0", RewardsSum: "0", WithdrawnRewards: "0", AvailableRewards: "0"}
	err := read(ctx, db, key, func(tx *dbsync.Snapshot, h head) error {
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
		return State{}, fmt.Errorf("account.Read: %w", err)
	}
	return a, nil
}

// pageRow is the part every account list row shares (as dbsync's asset
// holders' rows): the list's total, and n, the item's place in the list
// (nil on the one row of an empty page).
type pageRow struct {
	Total int64  `db:"total"`
	N     *int64 `db:"n"`
}

func (r pageRow) page() pageRow { return r }

type pagedRow interface{ page() pageRow }

// list reads one page of an account list: query's arguments come from
// args (given the resolved account), each item from item.
func list[R pagedRow, T any](ctx context.Context, db *dbsync.DB, key cardano.StakeKey, name string, s *dbsync.Statement, args func(h head) []any, item func(R) T) (dbsync.AccountPage[T], error) {
	page := dbsync.AccountPage[T]{Items: []T{}}
	query := db.Engine().For(s)
	err := read(ctx, db, key, func(tx *dbsync.Snapshot, h head) error {
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
		return dbsync.AccountPage[T]{}, fmt.Errorf("account.%s: %w", name, err)
	}
	return page, nil
}

// Rewards returns one page of the account's rewards spendable by
// the current epoch, by earned epoch, type, pool.
func Rewards(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[Reward], error) {
	type row struct {
		pageRow
		Epoch  *int64  `db:"epoch"`
		Amount *string `db:"amount"`
		PoolID *string `db:"pool_id"`
		Type   *string `db:"reward_type"`
	}
	return list(ctx, db, key, "Rewards", sqlAccountRewards,
		func(h head) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset, h.epoch()} },
		func(r row) Reward {
			return Reward{Epoch: *r.Epoch, Amount: *r.Amount, PoolID: r.PoolID, Type: *r.Type}
		})
}

// Delegations returns one page of the account's pool delegations
// in chain order.
func Delegations(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[Delegation], error) {
	type row struct {
		pageRow
		ActiveEpoch *int64  `db:"active_epoch"`
		PoolID      *string `db:"pool_id"`
		TxHash      *string `db:"tx_hash"`
		CertIndex   *int    `db:"cert_index"`
	}
	return list(ctx, db, key, "Delegations", sqlAccountDelegations,
		func(h head) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset} },
		func(r row) Delegation {
			return Delegation{ActiveEpoch: *r.ActiveEpoch, PoolID: *r.PoolID, TxHash: *r.TxHash, CertIndex: *r.CertIndex}
		})
}

// Registrations returns one page of the account's registrations
// and deregistrations, merged in chain order.
func Registrations(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[Registration], error) {
	type row struct {
		pageRow
		TxHash *string `db:"tx_hash"`
		Action *string `db:"action"`
		Epoch  *int64  `db:"epoch"`
	}
	return list(ctx, db, key, "Registrations", sqlAccountRegistrations,
		func(h head) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset} },
		func(r row) Registration {
			return Registration{TxHash: *r.TxHash, Action: *r.Action, Epoch: *r.Epoch}
		})
}

// Withdrawals returns one page of the account's withdrawals in
// valid transactions, in chain order.
func Withdrawals(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[Withdrawal], error) {
	type row struct {
		pageRow
		TxHash    *string    `db:"tx_hash"`
		Amount    *string    `db:"amount"`
		BlockTime *time.Time `db:"block_time"`
	}
	return list(ctx, db, key, "Withdrawals", sqlAccountWithdrawals,
		func(h head) []any { return []any{*h.AddrID, q.Ascending, q.Limit, q.Offset} },
		func(r row) Withdrawal {
			return Withdrawal{TxHash: *r.TxHash, Amount: *r.Amount, BlockTime: dbsync.AsUTC(*r.BlockTime)}
		})
}

// Addresses returns one page of the distinct addresses that ever
// received an output carrying the stake credential, by first appearance.
func Addresses(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[string], error) {
	type row struct {
		pageRow
		Address *string `db:"address"`
	}
	return list(ctx, db, key, "Addresses", sqlAccountAddresses,
		func(h head) []any { return []any{*h.AddrID, q.Limit, q.Offset} },
		func(r row) string { return *r.Address })
}

// Assets returns one page of the native assets held by the
// account's unspent outputs, by unit.
func Assets(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q dbsync.AccountQuery) (dbsync.AccountPage[Asset], error) {
	type row struct {
		pageRow
		Unit     *string `db:"unit"`
		Quantity *string `db:"quantity"`
	}
	return list(ctx, db, key, "Assets", sqlAccountAssets,
		func(h head) []any { return []any{*h.AddrID, q.Limit, q.Offset} },
		func(r row) Asset { return Asset{Unit: *r.Unit, Quantity: *r.Quantity} })
}
