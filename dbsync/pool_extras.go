package dbsync

import (
	"context"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
)

var (
	sqlPoolMetadata     = load("dbsync/pool_metadata.sql")
	sqlPoolLivePledge   = layoutStatement("dbsync/pool_live_pledge.sql", alwaysGeneric, nil)
	sqlEpochActiveStake = load("dbsync/epoch_active_stake.sql")
)

// PoolOffChain is the off-chain metadata db-sync fetched for a pool's
// current registration; every field is nil when it was not fetched.
type PoolOffChain struct {
	Name        *string `db:"name"`
	Ticker      *string `db:"ticker"`
	Description *string `db:"description"`
	Homepage    *string `db:"homepage"`
	Extended    *string `db:"extended"`
}

// PoolMetadata returns the pool's fetched off-chain metadata. A pool never
// registered is ErrNotFound.
func (db *DB) PoolMetadata(ctx context.Context, id cardano.PoolID) (PoolOffChain, error) {
	var m PoolOffChain
	if err := db.get(ctx, &m, sqlPoolMetadata, id[:]); err != nil {
		return PoolOffChain{}, fmt.Errorf("dbsync.PoolMetadata(%s): %w", id, classify(err))
	}
	return m, nil
}

// PoolLivePledge is the current stake of the owners' accounts of the
// pool's latest registration: their unspent outputs plus spendable rewards
// minus withdrawals. A pool never registered is ErrNotFound.
func (db *DB) PoolLivePledge(ctx context.Context, id cardano.PoolID) (*big.Int, error) {
	var s string
	if err := db.get(ctx, &s, db.sql(sqlPoolLivePledge), id[:]); err != nil {
		return nil, fmt.Errorf("dbsync.PoolLivePledge(%s): %w", id, classify(err))
	}
	return parseQuantity(s)
}

// EpochActiveStake is the total stake of the epoch's active distribution
// (epoch_stake). Fixed once the epoch has begun: callers cache it per epoch.
func (db *DB) EpochActiveStake(ctx context.Context, epoch int64) (*big.Int, error) {
	var s string
	if err := db.get(ctx, &s, sqlEpochActiveStake, epoch); err != nil {
		return nil, fmt.Errorf("dbsync.EpochActiveStake(%d): %w", epoch, classify(err))
	}
	return parseQuantity(s)
}
