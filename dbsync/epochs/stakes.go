package epochs

import (
	"context"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlStakeExtent = engine.Fixed("dbsync/epoch_stake_extent.sql")
	sqlStakes      = engine.Fixed("dbsync/epoch_stakes.sql")
	sqlPoolStakes  = engine.Fixed("dbsync/epoch_pool_stakes.sql")
)

// StakeExtent is where an epoch's active stake distribution lies in
// epoch_stake: its first and last row ids and its number of rows.
type StakeExtent struct {
	FirstID int64 `db:"first_id" json:"first_id"`
	LastID  int64 `db:"last_id" json:"last_id"`
	Rows    int64 `db:"rows" json:"rows"`
}

// gapless says the rows' ids run without a gap, so that a page is an
// id range.
func (x StakeExtent) gapless() bool { return x.LastID-x.FirstID+1 == x.Rows }

// Extent reads the epoch's StakeExtent: a pass over the epoch's rows
// (over a million on mainnet), the same for every page of the epoch
// and final once the epoch has begun, so callers keep it per epoch.
func Extent(ctx context.Context, db *dbsync.DB, epoch int64) (StakeExtent, error) {
	var x StakeExtent
	err := db.Reader().Get(ctx, &x, sqlStakeExtent, epoch)
	return x, epochsErr("Extent", engine.Classify(err))
}

// Stake is one stake address's active stake in an epoch.
type Stake struct {
	StakeAddress string `db:"stake_address" json:"stake_address"`
	PoolID       string `db:"pool_id" json:"pool_id"` // bech32
	Amount       string `db:"amount" json:"amount"`   // lovelace
}

// Stakes returns a page (offset, count) of the epoch's active stake
// distribution in row order, x being the epoch's Extent. An epoch
// without blocks is dbsync.ErrNotFound.
func Stakes(ctx context.Context, db *dbsync.DB, epoch int64, x StakeExtent, offset, count int) ([]Stake, error) {
	out := []Stake{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := exists(ctx, tx, epoch); err != nil {
			return err
		}
		from, skip := x.FirstID, int64(offset)
		if x.gapless() {
			from, skip = x.FirstID+int64(offset), 0
		}
		return tx.SelectContext(ctx, &out, sqlStakes, epoch, from, x.LastID, count, skip)
	})
	return out, epochsErr("Stakes", err)
}

// PoolStake is one stake address's active stake with a pool in an epoch.
type PoolStake struct {
	StakeAddress string `db:"stake_address" json:"stake_address"`
	Amount       string `db:"amount" json:"amount"` // lovelace
}

// PoolStakes returns a page of the pool's part (pool: its key hash) of
// the epoch's active stake distribution, in row order. An epoch without
// blocks is dbsync.ErrNotFound.
func PoolStakes(ctx context.Context, db *dbsync.DB, epoch int64, pool []byte, offset, count int) ([]PoolStake, error) {
	out := []PoolStake{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := exists(ctx, tx, epoch); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &out, sqlPoolStakes, epoch, pool, count, offset)
	})
	return out, epochsErr("PoolStakes", err)
}
