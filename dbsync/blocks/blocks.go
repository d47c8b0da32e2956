// Package blocks reads blocks as Blockfrost's block routes describe them:
// one block (by hash, number, slot or epoch slot, or the latest), the
// blocks before and after one (order.go), and a block's transactions and
// the addresses they touched (txs.go).
package blocks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var sqlBlockBy = engine.Fixed("dbsync/block_by.sql")

// Block is one block with what Blockfrost says of it.
type Block struct {
	ID            int64     `db:"id"`
	Time          time.Time `db:"time"`
	Height        *int64    `db:"block_no"`
	Hash          string    `db:"hash"`
	Slot          *int64    `db:"slot_no"`
	Epoch         *int64    `db:"epoch_no"`
	EpochSlot     *int64    `db:"epoch_slot_no"`
	SlotLeader    string    `db:"slot_leader"`
	Size          int64     `db:"size"`
	TxCount       int64     `db:"tx_count"`
	Output        *string   `db:"output"` // lovelace, NULL for a block without transactions
	Fees          *string   `db:"fees"`
	VRFKey        *string   `db:"vrf_key"`
	OpCert        *string   `db:"op_cert"`
	OpCertCounter *string   `db:"op_cert_counter"`
	Previous      *string   `db:"previous_block"`
	Next          *string   `db:"next_block"`
	// BaseHeight is the height the block counts its confirmations from:
	// its own, else (a block without one) its parent's, else 0.
	BaseHeight int64 `db:"base_no"`
	TipHeight  int64 `db:"tip_block_no"`
}

// Confirmations is how many blocks were added on top of the block (0 for
// the tip), as Blockfrost counts them: a block without a height (a Byron
// epoch boundary) has its parent's.
func (b Block) Confirmations() int64 {
	return max(b.TipHeight-b.BaseHeight, 0)
}

// ByHash returns the block with the hash, or dbsync.ErrNotFound.
func ByHash(ctx context.Context, db *dbsync.DB, hash []byte) (Block, error) {
	return blockBy(ctx, db, hash, nil, nil, nil)
}

// ByNumber returns the block of that height, or dbsync.ErrNotFound.
func ByNumber(ctx context.Context, db *dbsync.DB, n int64) (Block, error) {
	return blockBy(ctx, db, nil, &n, nil, nil)
}

// BySlot returns the block in the absolute slot, or dbsync.ErrNotFound.
func BySlot(ctx context.Context, db *dbsync.DB, slot int64) (Block, error) {
	return blockBy(ctx, db, nil, nil, &slot, nil)
}

// ByEpochSlot returns the block in the slot of the epoch, or
// dbsync.ErrNotFound.
func ByEpochSlot(ctx context.Context, db *dbsync.DB, epoch, slot int64) (Block, error) {
	return blockBy(ctx, db, nil, nil, &slot, &epoch)
}

// Latest returns the newest block, or dbsync.ErrNotFound on an empty chain.
func Latest(ctx context.Context, db *dbsync.DB) (Block, error) {
	return blockBy(ctx, db, nil, nil, nil, nil)
}

func blockBy(ctx context.Context, db *dbsync.DB, hash []byte, number, slot, epoch *int64) (Block, error) {
	var b Block
	err := db.Reader().Get(ctx, &b, sqlBlockBy, hash, number, slot, epoch)
	if err != nil {
		err = engine.Classify(err)
		if errors.Is(err, dbsync.ErrNotFound) {
			return Block{}, dbsync.ErrNotFound
		}
		return Block{}, fmt.Errorf("blocks: %w", err)
	}
	b.Time = dbsync.AsUTC(b.Time)
	return b, nil
}
