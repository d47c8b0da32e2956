package dbsync

import (
	"context"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"time"

	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlPoolStakeAll      = layoutStatement("dbsync/pool_stake.sql", neverPrepared, map[string]any{"OnePool": false})
	sqlPoolStakeOne      = layoutStatement("dbsync/pool_stake.sql", neverPrepared, map[string]any{"OnePool": true})
	sqlPoolStakeSnapshot = load("dbsync/pool_stake_snapshot.sql")
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
	if !db.Ready() {
		return Tip{}, db.eng.NotReady()
	}
	query := db.sql(sqlPoolStakeAll)
	tx, err := db.Primary().BeginTxx(ctx, &engine.TxOptions)
	if err != nil {
		return Tip{}, err
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if err := engine.SetStatementTimeout(ctx, tx, timeout); err != nil {
		return Tip{}, err
	}
	if err := tx.GetContext(ctx, &tip, engine.SQLTip.Text); err != nil {
		return Tip{}, err
	}
	tip.BlockTime = AsUTC(tip.BlockTime)
	rows, err := tx.QueryxContext(ctx, query.Text)
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
func (db *DB) PoolStakeOne(ctx context.Context, id cardano.PoolID) ([]PoolStake, error) {
	query := db.sql(sqlPoolStakeOne)
	var out []PoolStake
	if err := db.selectAll(ctx, &out, query, id[:]); err != nil {
		return nil, fmt.Errorf("dbsync.PoolStakeOne(%s): %w", id, classify(err))
	}
	return out, nil
}

// PoolStakeSnapshot returns a pool's delegators and stake from the current
// epoch's active stake distribution (epoch_stake), ordered as PoolStakeOne:
// index-backed and cheap, but the snapshot, not live figures.
func (db *DB) PoolStakeSnapshot(ctx context.Context, id cardano.PoolID) ([]PoolStake, error) {
	var out []PoolStake
	if err := db.selectAll(ctx, &out, sqlPoolStakeSnapshot, id[:]); err != nil {
		return nil, fmt.Errorf("dbsync.PoolStakeSnapshot(%s): %w", id, classify(err))
	}
	return out, nil
}

// PoolStakeOnDemand is for requests that arrive before the first
// background refresh: the exact one-pool computation (PoolStakeOne) when it
// finishes within budget, else the active stake snapshot (exact=false).
// A big pool's delegators can own millions of outputs; the budget keeps
// such a request from running into the statement timeout.
func (db *DB) PoolStakeOnDemand(ctx context.Context, id cardano.PoolID, budget time.Duration) (rows []PoolStake, exact bool, err error) {
	query := db.sql(sqlPoolStakeOne)
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		// Custom plans: how to gather a pool's delegators depends on its size.
		if _, err := tx.ExecContext(ctx, `SELECT set_config('statement_timeout', $1, true), set_config('plan_cache_mode', 'force_custom_plan', true)`,
			fmt.Sprintf("%dms", max(budget.Milliseconds(), 1))); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &rows, query, id[:])
	})
	if err == nil {
		return rows, true, nil
	}
	if !errors.Is(err, ErrTimeout) || ctx.Err() != nil {
		return nil, false, fmt.Errorf("dbsync.PoolStakeOnDemand(%s): %w", id, err)
	}
	rows, err = db.PoolStakeSnapshot(ctx, id)
	return rows, false, err
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
