// Package pools reads stake pools as Blockfrost's pool routes describe
// them: every registered pool with its current parameters and status
// (for /pools, /pools/extended, /pools/retired and /pools/retiring), the
// per-pool figures of an epoch (active stake, blocks), and one pool's
// lists (history, blocks, certificates, votes). One pool's record,
// metadata and live stake are /v1's store calls (dbsync.PoolInfo,
// PoolMetadata, PoolLivePledge) and poolstats.
package pools

import (
	"context"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlAll         = engine.Fixed("dbsync/pools_all.sql")
	sqlEpochStakes = engine.Fixed("dbsync/pools_epoch_stakes.sql")
	sqlBlockCounts = engine.Fixed("dbsync/pools_block_counts.sql")
	sqlHistory     = engine.Fixed("dbsync/pool_history.sql")
	sqlBlocks      = engine.Fixed("dbsync/pool_blocks.sql")
	sqlUpdates     = engine.Fixed("dbsync/pool_updates.sql")
	sqlVotes       = engine.Fixed("dbsync/pool_votes.sql")
)

// Pool is one registered pool: its latest registration's parameters and
// metadata, and its latest retirement certificate.
type Pool struct {
	HashID       int64   `db:"pool_hash_id" json:"i"`
	ID           string  `db:"pool_id" json:"id"`
	Hex          string  `db:"hex" json:"x"`
	Pledge       string  `db:"pledge" json:"p"`
	Margin       float64 `db:"margin" json:"m"`
	FixedCost    string  `db:"fixed_cost" json:"f"`
	MetadataURL  *string `db:"metadata_url" json:"u,omitempty"`
	MetadataHash *string `db:"metadata_hash" json:"h,omitempty"`
	Ticker       *string `db:"ticker" json:"t,omitempty"`
	Name         *string `db:"name" json:"n,omitempty"`
	Description  *string `db:"description" json:"d,omitempty"`
	Homepage     *string `db:"homepage" json:"w,omitempty"`
	// RetiringEpoch and RetireTxID are the latest retirement certificate's
	// (nil without one); RetirementNewer says it came after the latest
	// registration, so the pool is retiring or retired.
	RetiringEpoch   *int64 `db:"retiring_epoch" json:"r,omitempty"`
	RetireTxID      *int64 `db:"retire_tx_id" json:"rt,omitempty"`
	RetirementNewer bool   `db:"retirement_newer" json:"rn,omitempty"`
	// OptimalPoolCount and Reserves are the current epoch's (the same on
	// every row; nil when db-sync has none).
	OptimalPoolCount *int64  `db:"optimal_pool_count" json:"-"`
	Reserves         *string `db:"reserves" json:"-"`
}

// Retiring is whether the pool announced a retirement that has not taken
// effect by epoch current.
func (p Pool) Retiring(current int64) bool {
	return p.RetirementNewer && p.RetiringEpoch != nil && *p.RetiringEpoch > current
}

// Retired is whether the pool's announced retirement has taken effect by
// epoch current.
func (p Pool) Retired(current int64) bool {
	return p.RetirementNewer && p.RetiringEpoch != nil && *p.RetiringEpoch <= current
}

// All returns every registered pool in pool_hash order.
func All(ctx context.Context, db *dbsync.DB) ([]Pool, error) {
	out := []Pool{}
	if err := db.Reader().Select(ctx, &out, sqlAll); err != nil {
		return nil, fmt.Errorf("pools.All: %w", engine.Classify(err))
	}
	return out, nil
}

// Stake is one pool's part of an epoch's active stake distribution.
type Stake struct {
	HashID      int64  `db:"pool_hash_id" json:"i"`
	ActiveStake string `db:"active_stake" json:"s"`
	Delegators  int64  `db:"delegators" json:"d"`
}

// EpochStakes returns every pool's active stake in the epoch.
func EpochStakes(ctx context.Context, db *dbsync.DB, epoch int64) ([]Stake, error) {
	out := []Stake{}
	if err := db.Reader().Select(ctx, &out, sqlEpochStakes, epoch); err != nil {
		return nil, fmt.Errorf("pools.EpochStakes(%d): %w", epoch, engine.Classify(err))
	}
	return out, nil
}

// BlockCount is the blocks one pool made in a range of epochs.
type BlockCount struct {
	HashID int64 `db:"pool_hash_id" json:"i"`
	Blocks int64 `db:"blocks" json:"b"`
}

// BlockCounts returns the blocks each pool made in the epochs from..to.
func BlockCounts(ctx context.Context, db *dbsync.DB, from, to int64) ([]BlockCount, error) {
	out := []BlockCount{}
	if err := db.Reader().Select(ctx, &out, sqlBlockCounts, from, to); err != nil {
		return nil, fmt.Errorf("pools.BlockCounts(%d, %d): %w", from, to, engine.Classify(err))
	}
	return out, nil
}

// Epoch is one pool's figures in one epoch; Margin and FixedCost are
// those of the registration in force then.
type Epoch struct {
	Epoch       int64   `db:"epoch" json:"epoch"`
	Blocks      int64   `db:"blocks" json:"blocks"`
	ActiveStake string  `db:"active_stake" json:"active_stake"`
	Delegators  int64   `db:"delegators" json:"delegators"`
	Rewards     string  `db:"rewards" json:"rewards"`
	Margin      float64 `db:"margin" json:"margin"`
	FixedCost   string  `db:"fixed_cost" json:"fixed_cost"`
}

// History returns the pool's figures in the epochs from..to in which it
// had active stake, oldest first.
func History(ctx context.Context, db *dbsync.DB, pool []byte, from, to int64) ([]Epoch, error) {
	out := []Epoch{}
	if err := db.Reader().Select(ctx, &out, sqlHistory, pool, from, to); err != nil {
		return nil, fmt.Errorf("pools.History: %w", engine.Classify(err))
	}
	return out, nil
}

// Blocks returns the hashes of every block the pool made, in chain order.
func Blocks(ctx context.Context, db *dbsync.DB, pool []byte) ([]string, error) {
	out := []string{}
	if err := db.Reader().Select(ctx, &out, sqlBlocks, pool); err != nil {
		return nil, fmt.Errorf("pools.Blocks: %w", engine.Classify(err))
	}
	return out, nil
}

// Update is one of a pool's certificates.
type Update struct {
	TxHash    string `db:"tx_hash" json:"tx_hash"`
	CertIndex int64  `db:"cert_index" json:"cert_index"`
	Action    string `db:"action" json:"action"`
}

// Updates returns the pool's registration, update and retirement
// certificates in chain order.
func Updates(ctx context.Context, db *dbsync.DB, pool []byte) ([]Update, error) {
	out := []Update{}
	if err := db.Reader().Select(ctx, &out, sqlUpdates, pool); err != nil {
		return nil, fmt.Errorf("pools.Updates: %w", engine.Classify(err))
	}
	return out, nil
}

// Vote is one vote the pool cast.
type Vote struct {
	TxHash    string `db:"tx_hash" json:"tx_hash"`
	CertIndex int64  `db:"cert_index" json:"cert_index"`
	Vote      string `db:"vote" json:"vote"`
}

// Votes returns the pool's votes in chain order.
func Votes(ctx context.Context, db *dbsync.DB, pool []byte) ([]Vote, error) {
	out := []Vote{}
	if err := db.Reader().Select(ctx, &out, sqlVotes, pool); err != nil {
		return nil, fmt.Errorf("pools.Votes: %w", engine.Classify(err))
	}
	return out, nil
}
