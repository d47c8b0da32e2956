// Package metadata reads transaction metadata as Blockfrost's metadata
// routes describe it: the transactions carrying one label (a page cut in
// an index alone), and the labels' entry counts over a range of
// transactions, from which the answer layer keeps the labels list
// incrementally (a count over the whole table is a full scan on mainnet).
package metadata

import (
	"context"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlPageAsc  = engine.Template("dbsync/metadata_label_page.sql", engine.AlwaysGeneric, map[string]any{"Order": "ASC"})
	sqlPageDesc = engine.Template("dbsync/metadata_label_page.sql", engine.AlwaysGeneric, map[string]any{"Order": "DESC"})
	sqlKnown    = engine.Fixed("dbsync/metadata_label_known.sql")
	sqlCounts   = engine.Fixed("dbsync/metadata_label_counts.sql")
	sqlBounds   = engine.Fixed("dbsync/metadata_tx_bounds.sql")
)

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
// page past the end of a label in use is empty.
func Label(ctx context.Context, db *dbsync.DB, label string, p Page) ([]Entry, error) {
	items := []Entry{}
	q := db.SQL(sqlPageAsc)
	if p.Desc {
		q = db.SQL(sqlPageDesc)
	}
	err := db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := tx.SelectContext(ctx, &items, q, label, p.Limit, p.Offset); err != nil || len(items) > 0 {
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
