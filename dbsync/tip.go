package dbsync

import (
	"context"
	"time"
)

// Tip is the newest block db-sync has written.
type Tip struct {
	SlotNo    int64     `db:"slot_no"`
	BlockHash string    `db:"block_hash"`
	BlockNo   *int64    `db:"block_no"`
	EpochNo   *int64    `db:"epoch_no"`
	BlockTime time.Time `db:"block_time"`
}

// Tip returns the chain tip. An empty chain is ErrNotFound. It does not
// wait at the gate: it is the health probe's query (a busy database is not
// a down one) and a one-row index read.
func (db *DB) Tip(ctx context.Context) (Tip, error) {
	var t Tip
	if err := db.Reader().getUngated(ctx, &t, sqlTip); err != nil {
		return Tip{}, classify(err)
	}
	t.BlockTime = AsUTC(t.BlockTime)
	return t, nil
}

// AsUTC reinterprets a db-sync timestamp (timestamp without time zone,
// holding UTC) as UTC, whatever zone the driver attached.
func AsUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
