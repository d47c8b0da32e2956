// Package metadata reads transaction metadata as Blockfrost's metadata
// routes describe it: the transactions carrying one label (a page cut in
// an index alone), and the labels' entry counts over a range of
// transactions, from which the answer layer keeps the labels list
// incrementally (a count over the whole table is a full scan on mainnet).
package metadata

import (
	"context"
	"fmt"
	"slices"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/keyset"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlPageAsc  = engine.Template("dbsync/metadata_label_page.sql", engine.AlwaysGeneric, map[string]any{"Order": "ASC"})
	sqlPageDesc = engine.Template("dbsync/metadata_label_page.sql", engine.AlwaysGeneric, map[string]any{"Order": "DESC"})
	sqlAnchors  = engine.Template("dbsync/metadata_label_anchors.sql", engine.AlwaysGeneric, nil)
	sqlCount    = engine.Template("dbsync/metadata_label_count.sql", engine.AlwaysGeneric, nil)
	sqlTxIs     = engine.Prepared(sqlfiles.Load("dbsync/tx_is.sql"))
	sqlKnown    = engine.Fixed("dbsync/metadata_label_known.sql")
	sqlCounts   = engine.Fixed("dbsync/metadata_label_counts.sql")
	sqlBounds   = engine.Fixed("dbsync/metadata_tx_bounds.sql")
)

// labelAnchors: about one anchor every 256 entries, 100,000 (about 80
// bytes each) for every label of every network, the least recently used
// label forgotten first.
var labelAnchors = keyset.NewFamily[string](256, 100_000)

// Page selects Limit items after Offset, oldest first unless Desc (then
// counted from the newest).
type Page struct {
	Offset, Limit int
	Desc          bool
}

// Entry is one transaction's value under a label.
type Entry struct {
	TxHash string  `db:"tx_hash"`
	JSON   *string `db:"json"` // db-sync's JSON rendering; nil when it had none
	CBOR   string  `db:"cbor"` // hex of the CBOR map {label: value}
}

// Label returns a page of the transactions carrying label (decimal) in
// chain order, or dbsync.ErrNotFound when no transaction carries it; a
// page past the end of a label in use is empty. A deep page starts at a
// keyset anchor (dbsync/keyset: a label's entries in transaction id
// order, ids only growing) and skips fewer than two strides.
func Label(ctx context.Context, db *dbsync.DB, label string, p Page) ([]Entry, error) {
	var items []Entry
	err := db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		var err error
		if items, err = labelPage(ctx, db, tx, label, p); err != nil || len(items) > 0 {
			return err
		}
		var known bool
		if err := tx.GetContext(ctx, &known, sqlKnown, label); err != nil {
			return err
		}
		if !known {
			return dbsync.ErrNotFound
		}
		return nil
	})
	if err != nil && err != dbsync.ErrNotFound {
		err = fmt.Errorf("metadata.Label: %w", err)
	}
	return items, err
}

// labelPage reads a page of label's entries in tx's snapshot.
func labelPage(ctx context.Context, db *dbsync.DB, tx *dbsync.Snapshot, label string, p Page) ([]Entry, error) {
	store := labelAnchors.For(db)
	seq := keyset.Statements{Tx: tx, IsQ: sqlTxIs, HarvestQ: db.SQL(sqlAnchors), CountQ: db.SQL(sqlCount), Args: []any{label}}
	c, err := store.Cut(ctx, label, seq, int64(p.Offset), int64(p.Limit), p.Desc)
	if err != nil {
		return nil, err
	}
	q := db.SQL(sqlPageAsc)
	if c.Desc {
		q = db.SQL(sqlPageDesc)
	}
	var rows []struct {
		Entry
		ID   int64  `db:"id"`
		Hash []byte `db:"hash"`
	}
	if err := tx.SelectContext(ctx, &rows, q, label, c.FromID, c.Limit, c.Skip); err != nil {
		return nil, err
	}
	if n := len(rows); n > 0 {
		store.Served(label, c, n, func(i int) int64 { return rows[i].ID }, rows[n-1].Hash)
	}
	if c.Reverse {
		slices.Reverse(rows)
	}
	items := make([]Entry, len(rows))
	for i, r := range rows {
		items[i] = r.Entry
	}
	return items, nil
}

// SetAnchorStride replaces db's label anchor stride and forgets its
// anchors (tests: a small stride makes short labels use anchors).
func SetAnchorStride(db *dbsync.DB, stride int64) { labelAnchors.SetStride(db, stride) }

// Bounds are the transaction ids the labels' counts are taken up to: the
// newest (Tip) and the newest Depth blocks below the tip (Final).
type Bounds struct {
	Tip   int64 `db:"tip_tx_id"`
	Final int64 `db:"final_tx_id"`
}

// Counts is how many entries each label (decimal) has.
type Counts map[string]int64

// CountsAt reads the bounds at depth and, in the same snapshot, the
// labels' counts over (from, Final] (nil when from is not before Final)
// and over (max(from, Final), Tip]: what a keeper of the counts up to from
// needs to move to Final and answer at the tip.
func CountsAt(ctx context.Context, db *dbsync.DB, depth int64, from int64) (b Bounds, toFinal, toTip Counts, err error) {
	err = db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := tx.GetContext(ctx, &b, sqlBounds, depth); err != nil {
			return err
		}
		start := from
		if from < b.Final {
			if toFinal, err = counts(ctx, tx, from, b.Final); err != nil {
				return err
			}
			start = b.Final
		}
		toTip, err = counts(ctx, tx, start, b.Tip)
		return err
	})
	if err != nil {
		err = fmt.Errorf("metadata.CountsAt: %w", err)
	}
	return b, toFinal, toTip, err
}

func counts(ctx context.Context, tx *dbsync.Snapshot, after, upTo int64) (Counts, error) {
	out := Counts{}
	if upTo <= after {
		return out, nil
	}
	var rows []struct {
		Label string `db:"label"`
		Count int64  `db:"count"`
	}
	if err := tx.SelectContext(ctx, &rows, sqlCounts, after, upTo); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.Label] = r.Count
	}
	return out, nil
}
