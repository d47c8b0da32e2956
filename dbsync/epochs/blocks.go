package epochs

import (
	"context"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlBlockExtent = engine.Fixed("dbsync/epoch_block_extent.sql")
	sqlBlockHashes = engine.Fixed("dbsync/epoch_block_hashes.sql")
	sqlPoolBlocks  = engine.Fixed("dbsync/epoch_pool_blocks.sql")
)

// blockExtent is where an epoch's blocks lie (epoch_block_extent.sql):
// heights First..Last, after the blocks without one (Unnumbered).
type blockExtent struct {
	First      *int64        `db:"first_no"`
	Last       *int64        `db:"last_no"`
	Unnumbered pq.Int64Array `db:"unnumbered"`
}

// page returns the heights lo..hi (none when lo > hi) and the ids of the
// blocks without one at the positions offset..offset+count-1 of the
// epoch's blocks in chain order, counted from its last block when desc.
func (x blockExtent) page(offset, count int, desc bool) (lo, hi int64, ids []int64) {
	u := int64(len(x.Unnumbered))
	numbered := int64(0)
	if x.First != nil && x.Last != nil {
		numbered = *x.Last - *x.First + 1
	}
	from, to := int64(offset), int64(offset+count-1)
	if desc {
		total := u + numbered
		from, to = total-1-to, total-1-from
	}
	ids = []int64{}
	for i, id := range x.Unnumbered {
		if int64(i) >= from && int64(i) <= to {
			ids = append(ids, id)
		}
	}
	lo, hi = 1, 0
	if numbered > 0 {
		lo, hi = *x.First+max(from-u, 0), *x.First+min(to-u, numbered-1)
	}
	return lo, hi, ids
}

// Blocks returns the hashes of a page of the epoch's blocks in chain
// order (newest first when desc); every page costs what the first does.
// An epoch without blocks is dbsync.ErrNotFound.
func Blocks(ctx context.Context, db *dbsync.DB, epoch int64, offset, count int, desc bool) ([]string, error) {
	out := []string{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := exists(ctx, tx, epoch); err != nil {
			return err
		}
		var x blockExtent
		if err := tx.GetContext(ctx, &x, sqlBlockExtent, epoch); err != nil {
			return err
		}
		lo, hi, ids := x.page(offset, count, desc)
		return tx.SelectContext(ctx, &out, sqlBlockHashes, lo, hi, pq.Array(ids), desc)
	})
	return out, epochsErr("Blocks", err)
}

// PoolBlocks returns the hashes of a page of the blocks the pool (its key
// hash) made in the epoch, in chain order (newest first when desc). An
// epoch without blocks is dbsync.ErrNotFound.
func PoolBlocks(ctx context.Context, db *dbsync.DB, epoch int64, pool []byte, offset, count int, desc bool) ([]string, error) {
	out := []string{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := exists(ctx, tx, epoch); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &out, sqlPoolBlocks, epoch, pool, desc, count, offset)
	})
	return out, epochsErr("PoolBlocks", err)
}
