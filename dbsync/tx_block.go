package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/syncgate/syncgate/internal/cardano"
)

var sqlTxBlock = layoutStatement("dbsync/tx_block.sql", alwaysGeneric, nil)

// TxBlock is the block holding a transaction.
type TxBlock struct {
	Hash    string `db:"block_hash"` // 64 hex characters
	BlockNo int64  `db:"block_no"`
	Slot    int64  `db:"slot_no"`
}

// TxInChain reads, in one snapshot, the chain tip and the block holding the
// transaction (nil when no block holds it), so that a status decided from
// them (confirmations, expiry) is one consistent view of the chain. An
// empty chain is ErrNotFound.
func (db *DB) TxInChain(ctx context.Context, hash cardano.TxHash) (Tip, *TxBlock, error) {
	var tip Tip
	var block *TxBlock
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		var err error
		if tip, err = tipIn(ctx, tx); err != nil {
			return err
		}
		var b TxBlock
		switch err := tx.GetContext(ctx, &b, db.sql(sqlTxBlock), hash[:]); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			block = &b
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Tip{}, nil, ErrNotFound
		}
		return Tip{}, nil, fmt.Errorf("dbsync.TxInChain(%s): %w", hash, err)
	}
	return tip, block, nil
}
