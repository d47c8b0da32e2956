package dbsync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/internal/cardano"
)

var sqlTxBlock = layoutStatement("dbsync/tx_block.sql", alwaysGeneric, nil)

// TxBlock is the block holding a transaction.
type TxBlock struct {
	Hash    string // 64 hex characters
	BlockNo int64
	Slot    int64
}

// txBlockRow is a row of tx_block.sql.
type txBlockRow struct {
	SlotNo      int64     `db:"slot_no"`
	BlockHash   string    `db:"block_hash"`
	BlockNo     *int64    `db:"block_no"`
	EpochNo     *int64    `db:"epoch_no"`
	BlockTime   time.Time `db:"block_time"`
	TxBlockHash *string   `db:"tx_block_hash"`
	TxBlockNo   int64     `db:"tx_block_no"`
	TxSlotNo    int64     `db:"tx_slot_no"`
}

// TxInChain reads, in one statement (one snapshot), the chain tip and the
// block holding the transaction (nil when no block holds it), so that a
// status decided from them (confirmations, expiry) is one consistent view
// of the chain. An empty chain is ErrNotFound.
func (db *DB) TxInChain(ctx context.Context, hash cardano.TxHash) (Tip, *TxBlock, error) {
	var r txBlockRow
	if err := db.get(ctx, &r, db.sql(sqlTxBlock), hash[:]); err != nil {
		err = classify(err)
		if errors.Is(err, ErrNotFound) {
			return Tip{}, nil, ErrNotFound
		}
		return Tip{}, nil, fmt.Errorf("dbsync.TxInChain(%s): %w", hash, err)
	}
	tip := Tip{SlotNo: r.SlotNo, BlockHash: r.BlockHash, BlockNo: r.BlockNo, EpochNo: r.EpochNo, BlockTime: AsUTC(r.BlockTime)}
	if r.TxBlockHash == nil {
		return tip, nil, nil
	}
	return tip, &TxBlock{Hash: *r.TxBlockHash, BlockNo: r.TxBlockNo, Slot: r.TxSlotNo}, nil
}
