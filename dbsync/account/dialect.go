package account

import (
	"context"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

// The Blockfrost dialect's account reads (sql/dbsync/accounts_*.sql): the
// summary, and lists cut by a page of an order. Unlike /v1's lists they
// count nothing (Blockfrost sends no totals) and read transactions, blocks
// and pools for the page's rows only. An unknown stake address is
// dbsync.ErrNotFound (Blockfrost's 404).

var (
	sqlAccountsSummary = engine.Template("dbsync/accounts_summary.sql", engine.AlwaysGeneric, nil)
	sqlAccountsLists   = map[string][2]*dbsync.Statement{}
)

// both registers a list statement in each order: [ascending, descending].
func both(name string) [2]*dbsync.Statement {
	file := "dbsync/accounts_" + name + ".sql"
	return [2]*dbsync.Statement{
		engine.Template(file, engine.AlwaysGeneric, map[string]any{"Order": "ASC"}),
		engine.Template(file, engine.AlwaysGeneric, map[string]any{"Order": "DESC"}),
	}
}

func init() {
	for _, name := range []string{"rewards", "history", "delegations", "registrations", "withdrawals", "mirs", "addresses"} {
		sqlAccountsLists[name] = both(name)
	}
}

// Summary is Blockfrost's account_content as read (amounts lovelace text).
type Summary struct {
	StakeAddress       string
	Registered         bool    `db:"registered"`
	ActiveEpoch        *int64  `db:"active_epoch"`
	ControlledAmount   string  `db:"controlled_amount"`
	RewardsSum         string  `db:"rewards_sum"`
	WithdrawalsSum     string  `db:"withdrawals_sum"`
	ReservesSum        string  `db:"reserves_sum"`
	TreasurySum        string  `db:"treasury_sum"`
	WithdrawableAmount string  `db:"withdrawable_amount"`
	PoolID             *string `db:"pool_id"`
	// The DRep of its vote delegation: raw hash hex (nil for the
	// predefined ones), db-sync's view and whether it is a script.
	DRepRaw       *string `db:"drep_raw"`
	DRepView      *string `db:"drep_view"`
	DRepHasScript *bool   `db:"drep_has_script"`
}

// ReadSummary returns the account's summary at the tip.
func ReadSummary(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) (Summary, error) {
	var s Summary
	err := read(ctx, db, key, func(tx *dbsync.Snapshot, h head) error {
		if h.AddrID == nil {
			return dbsync.ErrNotFound
		}
		s.StakeAddress = *h.StakeAddress
		return tx.GetContext(ctx, &s, db.Engine().For(sqlAccountsSummary), *h.AddrID, h.epoch())
	})
	if err != nil {
		return Summary{}, fmt.Errorf("account.ReadSummary: %w", err)
	}
	return s, nil
}

// PageQuery is a page of a list: Limit items after Offset, oldest first
// unless Desc.
type PageQuery struct {
	Limit, Offset int
	Desc          bool
}

// DialectReward is one reward row (type leader, member or
// pool_deposit_refund).
type DialectReward struct {
	Epoch  int64  `db:"epoch" json:"epoch"`
	Amount string `db:"amount" json:"amount"`
	PoolID string `db:"pool_id" json:"pool_id"`
	Type   string `db:"type" json:"type"`
}

// StakeEpoch is the account's stake in one epoch's snapshot.
type StakeEpoch struct {
	ActiveEpoch int64  `db:"active_epoch" json:"active_epoch"`
	Amount      string `db:"amount" json:"amount"`
	PoolID      string `db:"pool_id" json:"pool_id"`
}

// TxPlace is where a certificate's or withdrawal's transaction is.
type TxPlace struct {
	TxSlot      int64 `db:"tx_slot" json:"tx_slot"`
	BlockTime   int64 `db:"block_time" json:"block_time"`
	BlockHeight int64 `db:"block_height" json:"block_height"`
}

// DialectDelegation is one delegation certificate.
type DialectDelegation struct {
	ActiveEpoch int64  `db:"active_epoch" json:"active_epoch"`
	TxHash      string `db:"tx_hash" json:"tx_hash"`
	Amount      string `db:"amount" json:"amount"`
	PoolID      string `db:"pool_id" json:"pool_id"`
	TxPlace
}

// DialectRegistration is one registration or deregistration certificate.
type DialectRegistration struct {
	TxHash  string  `db:"tx_hash" json:"tx_hash"`
	Action  string  `db:"action" json:"action"`
	Deposit *string `db:"deposit" json:"deposit"`
	TxPlace
}

// Movement is one withdrawal or MIR: its transaction and lovelace.
type Movement struct {
	TxHash string `db:"tx_hash" json:"tx_hash"`
	Amount string `db:"amount" json:"amount"`
	TxPlace
}

// listPage reads one page of the named list, each row into a T.
func listPage[T any](ctx context.Context, db *dbsync.DB, key cardano.StakeKey, name string, q PageQuery, withEpoch bool) ([]T, error) {
	s := sqlAccountsLists[name][0]
	if q.Desc {
		s = sqlAccountsLists[name][1]
	}
	rows := []T{}
	err := read(ctx, db, key, func(tx *dbsync.Snapshot, h head) error {
		if h.AddrID == nil {
			return dbsync.ErrNotFound
		}
		args := []any{*h.AddrID}
		if withEpoch {
			args = append(args, h.epoch())
		}
		return tx.SelectContext(ctx, &rows, db.Engine().For(s), append(args, q.Limit, q.Offset)...)
	})
	if err != nil {
		return nil, fmt.Errorf("account.%s: %w", name, err)
	}
	return rows, nil
}

// RewardsPage: the account's reward rows spendable by the current epoch,
// by earned epoch.
func RewardsPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]DialectReward, error) {
	return listPage[DialectReward](ctx, db, key, "rewards", q, true)
}

// HistoryPage: the account's stake in each epoch's snapshot, by epoch.
func HistoryPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]StakeEpoch, error) {
	return listPage[StakeEpoch](ctx, db, key, "history", q, false)
}

// DelegationsPage: the account's delegation certificates in chain order.
func DelegationsPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]DialectDelegation, error) {
	return listPage[DialectDelegation](ctx, db, key, "delegations", q, false)
}

// RegistrationsPage: the account's (de)registration certificates in chain
// order.
func RegistrationsPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]DialectRegistration, error) {
	return listPage[DialectRegistration](ctx, db, key, "registrations", q, false)
}

// WithdrawalsPage: the account's withdrawals in valid transactions, in
// chain order.
func WithdrawalsPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]Movement, error) {
	return listPage[Movement](ctx, db, key, "withdrawals", q, false)
}

// MIRsPage: the MIR certificates paying the account, in chain order.
func MIRsPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]Movement, error) {
	return listPage[Movement](ctx, db, key, "mirs", q, false)
}

// AddressesPage: the account's addresses by first appearance.
func AddressesPage(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q PageQuery) ([]string, error) {
	return listPage[string](ctx, db, key, "addresses", q, false)
}

// Known reports whether the stake address is in db-sync's stake_address
// (Blockfrost's 404 rule: an address some output or certificate named).
func Known(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) (bool, error) {
	var known bool
	err := read(ctx, db, key, func(_ *dbsync.Snapshot, h head) error {
		known = h.AddrID != nil
		return nil
	})
	return known, err
}
