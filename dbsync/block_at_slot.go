package dbsync

import (
	"context"
	"errors"
	"fmt"
)

var sqlBlockAtSlot = load("dbsync/block_at_slot.sql")

// BlockHashAt returns the hash (64 hex characters) of the block at slot,
// or ErrNotFound when db-sync holds none there.
func (db *DB) BlockHashAt(ctx context.Context, slot int64) (string, error) {
	var hash string
	if err := classify(db.get(ctx, &hash, sqlBlockAtSlot, slot)); err != nil {
		if errors.Is(err, ErrNotFound) {
			return "", ErrNotFound
		}
		return "", fmt.Errorf("dbsync.BlockHashAt(%d): %w", slot, err)
	}
	return hash, nil
}
