package dbsync

import (
	"context"
	"fmt"
	"math/big"
	"time"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var (
	sqlPoolStakeAll         = sqlfiles.Must("dbsync/pool_stake_all.sql")
	sqlPoolStakeAllConsumed = sqlfiles.Must("dbsync/pool_stake_all_consumed.sql")
	sqlPoolStakeOne         = sqlfiles.Must("dbsync/pool_stake_one.sql")
	sqlPoolStakeOneConsumed = sqlfiles.Must("dbsync/pool_stake_one_consumed.sql")
)

// PoolStake is one current delegator of a pool with its live stake
// (unspent outputs + available rewards − withdrawals, lovelace).
type PoolStake struct {
	PoolIDHex     string `db:"pool_id_hex"`
	StakeAddress  string `db:"stake_address"`
	Amount        string `db:"amount"`
	ActiveEpochNo int64  `db:"active_epoch_no"`
}

// PoolStakeAll computes every pool's current delegators and their live
// stake in one REPEATABLE READ snapshot and hands each row to fn as it
// streams in (a mainnet pass is over a million rows; nothing is buffered).
// It runs on the primary, whose queries a replica's recovery cannot
// cancel, with its own statement timeout, and returns the snapshot's tip.
// It is a background full pass, never called on a request.
func (db *DB) PoolStakeAll(ctx context.Context, timeout time.Duration, fn func(PoolStake) error) (tip Tip, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("dbsync.PoolStakeAll(%s): %w", db.Network.Name, classify(err))
		}
	}()
	query := sqlPoolStakeAll
	if db.Caps.UTxOMode == ModeConsumed {
		query = sqlPoolStakeAllConsumed
	}
	tx, err := db.Primary().BeginTxx(ctx, &sqlTxOptions)
	if err != nil {
		return Tip{}, err
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if _, err := tx.ExecContext(ctx, `SELECT set_config('statement_timeout', $1, true)`,
		fmt.Sprintf("%dms", timeout.Milliseconds())); err != nil {
		return Tip{}, err
	}
	if err := tx.GetContext(ctx, &tip, sqlTip); err != nil {
		return Tip{}, err
	}
	tip.BlockTime = AsUTC(tip.BlockTime)
	rows, err := tx.QueryxContext(ctx, query)
	if err != nil {
		return Tip{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var s PoolStake
		if err := rows.StructScan(&s); err != nil {
			return Tip{}, err
		}
		if err := fn(s); err != nil {
			return Tip{}, err
		}
	}
	if err := rows.Err(); err != nil {
		return Tip{}, err
	}
	return tip, tx.Commit()
}

// PoolStakeOne computes one pool's current delegators and their live stake
// (index-backed; used before the first background refresh), ordered by
// amount descending then stake address.
func (db *DB) PoolStakeOne(ctx context.Context, id PoolID) ([]PoolStake, error) {
	query := sqlPoolStakeOne
	if db.Caps.UTxOMode == ModeConsumed {
		query = sqlPoolStakeOneConsumed
	}
	var out []PoolStake
	if err := db.Reader().SelectContext(ctx, &out, query, id[:]); err != nil {
		return nil, fmt.Errorf("dbsync.PoolStakeOne(%s): %w", id, classify(err))
	}
	return out, nil
}

// SumStake adds the amounts of rows exactly.
func SumStake(rows []PoolStake) (*big.Int, error) {
	total := new(big.Int)
	for _, r := range rows {
		v, ok := new(big.Int).SetString(r.Amount, 10)
		if !ok {
			return nil, fmt.Errorf("amount %q is not an integer", r.Amount)
		}
		total.Add(total, v)
	}
	return total, nil
}
