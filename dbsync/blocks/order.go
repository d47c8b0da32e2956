package blocks

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlBlockRef        = engine.Fixed("dbsync/block_ref.sql")
	sqlBlockUnnumbered = engine.Fixed("dbsync/block_unnumbered.sql")
	sqlBlockList       = engine.Fixed("dbsync/block_list.sql")
)

// Ref names a block: by hash, else by number, else (both empty) the
// latest block.
type Ref struct {
	Hash   []byte
	Number *int64
}

// refRow is the block a Ref names (block_ref.sql).
type refRow struct {
	ID        int64  `db:"id"`
	Height    *int64 `db:"block_no"`
	TxCount   int    `db:"tx_count"`
	HasTxCBOR bool   `db:"has_tx_cbor"`
}

// resolve reads the block ref names in the snapshot, or dbsync.ErrNotFound.
func resolve(ctx context.Context, tx *dbsync.Snapshot, ref Ref) (refRow, error) {
	var r refRow
	if err := tx.GetContext(ctx, &r, sqlBlockRef, ref.Hash, ref.Number); err != nil {
		if err = engine.Classify(err); errors.Is(err, dbsync.ErrNotFound) {
			return refRow{}, dbsync.ErrNotFound
		}
		return refRow{}, err
	}
	return r, nil
}

// Neighbours returns the blocks after (after) or before the block ref
// names, in chain order, skipping offset of them (counted from the block
// outward) and taking count: Blockfrost's /blocks/{hash_or_number}/next
// and /previous, whose pages run away from the block and list oldest
// first. An unknown block is dbsync.ErrNotFound.
//
// Every page costs what the first does: the blocks are found by height
// (and the few without one by id) from their positions in the chain,
// which order.go computes from the heights and the blocks without one.
func Neighbours(ctx context.Context, db *dbsync.DB, ref Ref, after bool, offset, count int) ([]Block, error) {
	var out []Block
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		r, err := resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		var rows []unnumbered
		if err := tx.SelectContext(ctx, &rows, sqlBlockUnnumbered); err != nil {
			return err
		}
		o := newChainOrder(rows)
		at, ok := o.position(r.ID, r.Height)
		if !ok {
			return fmt.Errorf("block %d has no height and is not among the blocks without one", r.ID)
		}
		from, to := at+int64(offset)+1, at+int64(offset)+int64(count)
		if !after {
			from, to = at-int64(offset)-int64(count), at-int64(offset)-1
		}
		lo, hi, ids := o.window(from, to)
		return tx.SelectContext(ctx, &out, sqlBlockList, lo, hi, pq.Array(ids))
	})
	if err != nil {
		if errors.Is(err, dbsync.ErrNotFound) {
			return nil, err
		}
		return nil, fmt.Errorf("blocks.Neighbours: %w", err)
	}
	for i := range out {
		out[i].Time = dbsync.AsUTC(out[i].Time)
	}
	return out, nil
}

// unnumbered is a block without a height (block_unnumbered.sql).
type unnumbered struct {
	ID         int64  `db:"id"`
	PreviousID *int64 `db:"previous_id"`
	PreviousNo *int64 `db:"previous_no"`
	FirstNo    *int64 `db:"first_no"`
}

// chainOrder places every block at a position in the chain (1, 2, …
// from the first block, in the order db-sync wrote them) without reading
// them: a block with height n sits at n plus the number of blocks without
// a height before it, and each of those right after the height it
// follows (its base: its parent's height, or the base of a parent
// without one, or just below the lowest height for the first block).
type chainOrder struct {
	ids   []int64 // the blocks without a height, in chain order
	bases []int64 // the height each follows (never decreasing)
}

func newChainOrder(rows []unnumbered) chainOrder {
	o := chainOrder{ids: make([]int64, len(rows)), bases: make([]int64, len(rows))}
	at := make(map[int64]int, len(rows))
	for i, r := range rows {
		base := int64(-1)
		if r.FirstNo != nil {
			base = *r.FirstNo - 1
		}
		switch {
		case r.PreviousNo != nil:
			base = *r.PreviousNo
		case r.PreviousID != nil:
			if j, ok := at[*r.PreviousID]; ok {
				base = o.bases[j]
			}
		}
		o.ids[i], o.bases[i] = r.ID, base
		at[r.ID] = i
	}
	return o
}

// before is how many blocks without a height come before height n.
func (o chainOrder) before(n int64) int64 {
	return int64(sort.Search(len(o.bases), func(i int) bool { return o.bases[i] >= n }))
}

// ofHeight is the position of the block of height n.
func (o chainOrder) ofHeight(n int64) int64 { return n + o.before(n) }

// position is the position of the block id of height (nil: none).
func (o chainOrder) position(id int64, height *int64) (int64, bool) {
	if height != nil {
		return o.ofHeight(*height), true
	}
	for i, u := range o.ids {
		if u == id {
			return o.bases[i] + int64(i) + 1, true
		}
	}
	return 0, false
}

// window returns the blocks at positions from..to: the heights lo..hi
// (none when lo > hi) and the ids of those without a height.
func (o chainOrder) window(from, to int64) (lo, hi int64, ids []int64) {
	n := int64(len(o.ids))
	// ofHeight(h) lies between h and h+n, and grows with h.
	for lo = from - n; o.ofHeight(lo) < from; lo++ {
	}
	for hi = to; hi >= lo && o.ofHeight(hi) > to; hi-- {
	}
	ids = []int64{}
	for i, id := range o.ids {
		if p := o.bases[i] + int64(i) + 1; p >= from && p <= to {
			ids = append(ids, id)
		}
	}
	return lo, hi, ids
}
