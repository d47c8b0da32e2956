package assets

import (
	"context"
	"slices"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/keyset"
)

// A policy's assets and every asset are lists in multi_asset id order
// (db-sync adds an asset at its first mint, so ids only grow): a deep page
// starts at a keyset anchor (dbsync/keyset) and skips fewer than two
// strides, so page 1,000 of a 100,000-asset policy costs what page 1 does
// once the policy's anchors exist.

var (
	sqlPolicyAnchors = engine.Template("dbsync/assets_policy_anchors.sql", engine.AlwaysGeneric, nil)
	sqlPolicyCount   = engine.Template("dbsync/assets_policy_count.sql", engine.AlwaysGeneric, nil)
	sqlListAnchors   = engine.Template("dbsync/assets_list_anchors.sql", engine.AlwaysGeneric, nil)
	sqlListCount     = engine.Template("dbsync/assets_list_count.sql", engine.AlwaysGeneric, nil)
	sqlAssetIs       = engine.Template("dbsync/assets_is.sql", engine.AlwaysGeneric, nil)
)

const (
	// anchorStride: anchors are about this many assets apart.
	anchorStride = 256
	// anchorBudget bounds each family's anchors of every network (about
	// 80 bytes each); the least recently used key goes first.
	anchorBudget = 100_000
)

var (
	policyAnchors = keyset.NewFamily[string](anchorStride, anchorBudget)
	listAnchors   = keyset.NewFamily[struct{}](anchorStride, anchorBudget)
)

// SetAnchorStride replaces db's anchor stride for policy and asset lists
// and forgets their anchors (tests: a small stride makes short lists use
// anchors).
func SetAnchorStride(db *dbsync.DB, stride int64) {
	policyAnchors.SetStride(db, stride)
	listAnchors.SetStride(db, stride)
}

// quantityRow is a page's row: the item and what its anchor keeps.
type quantityRow struct {
	Quantity
	ID   int64  `db:"id"`
	Unit []byte `db:"unit"`
}

// readPage reads the page p of a list with store's anchors under key:
// read(cut's first id, its order, limit, skip) reads the rows.
func readPage[K comparable](ctx context.Context, store *keyset.Store[K], key K, seq keyset.Sequence, p Page,
	read func(fromID int64, desc bool, limit, skip int64) ([]quantityRow, error)) ([]Quantity, error) {
	c, err := store.Cut(ctx, key, seq, int64(p.Offset), int64(p.Limit), p.Desc)
	if err != nil {
		return nil, err
	}
	rows, err := read(c.FromID, c.Desc, c.Limit, c.Skip)
	if err != nil {
		return nil, err
	}
	if n := len(rows); n > 0 {
		store.Served(key, c, n, func(i int) int64 { return rows[i].ID }, rows[n-1].Unit)
	}
	if c.Reverse {
		slices.Reverse(rows)
	}
	items := make([]Quantity, len(rows))
	for i, r := range rows {
		items[i] = r.Quantity
	}
	return items, nil
}

// policyPage reads a page of the policy's assets in tx's snapshot.
func policyPage(ctx context.Context, db *dbsync.DB, tx *dbsync.Snapshot, policy []byte, p Page) ([]Quantity, error) {
	seq := keyset.Statements{Tx: tx, IsQ: db.SQL(sqlAssetIs), HarvestQ: db.SQL(sqlPolicyAnchors), CountQ: db.SQL(sqlPolicyCount), Args: []any{policy}}
	return readPage(ctx, policyAnchors.For(db), string(policy), seq, p, func(fromID int64, desc bool, limit, skip int64) ([]quantityRow, error) {
		rows := []quantityRow{}
		err := tx.SelectContext(ctx, &rows, ordered(db, desc, sqlPolicyAsc, sqlPolicyDesc), policy, fromID, limit, skip)
		return rows, err
	})
}

// listPage reads a page of every asset in tx's snapshot.
func listPage(ctx context.Context, db *dbsync.DB, tx *dbsync.Snapshot, p Page) ([]Quantity, error) {
	seq := keyset.Statements{Tx: tx, IsQ: db.SQL(sqlAssetIs), HarvestQ: db.SQL(sqlListAnchors), CountQ: db.SQL(sqlListCount)}
	return readPage(ctx, listAnchors.For(db), struct{}{}, seq, p, func(fromID int64, desc bool, limit, skip int64) ([]quantityRow, error) {
		rows := []quantityRow{}
		err := tx.SelectContext(ctx, &rows, ordered(db, desc, sqlListAsc, sqlListDesc), fromID, limit, skip)
		return rows, err
	})
}

// AnchorCount is how many anchors db's policy and asset lists hold
// (tests).
func AnchorCount(db *dbsync.DB) int {
	return policyAnchors.For(db).Len() + listAnchors.For(db).Len()
}
