// Package epochs reads epochs as Blockfrost's epoch routes describe them:
// each epoch's block and transaction figures, its active stake
// distribution (stakes.go), its blocks (blocks.go), and the epochs where
// each protocol version took effect (protocols.go, for /network/eras).
package epochs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlEpochSchema = engine.Fixed("dbsync/epoch_schema.sql")
	sqlEpochExists = engine.Fixed("dbsync/epoch_exists.sql")
	// Two renderings: 13.7 keeps finished epochs in epoch_finalized, 13.6
	// in the epoch table. A database refuses to prepare the other's, which
	// is never run there.
	sqlFigures137 = engine.Template("dbsync/epoch_figures.sql", engine.NeverPrepared, map[string]any{"Schema136": false})
	sqlFigures136 = engine.Template("dbsync/epoch_figures.sql", engine.NeverPrepared, map[string]any{"Schema136": true})
)

// Epoch is one epoch's figures.
type Epoch struct {
	Epoch          int64     `db:"epoch"`
	BlockCount     int64     `db:"block_count"`
	TxCount        int64     `db:"tx_count"`
	Output         string    `db:"output"` // lovelace
	Fees           string    `db:"fees"`   // lovelace
	FirstBlockTime time.Time `db:"first_block_time"`
	LastBlockTime  time.Time `db:"last_block_time"`
}

// Figures returns the epochs from..to that have blocks, in order.
func Figures(ctx context.Context, db *dbsync.DB, from, to int64) ([]Epoch, error) {
	out := []Epoch{}
	if to < from {
		return out, nil
	}
	finalized, err := keepsFinalized(ctx, db)
	if err != nil {
		return nil, err
	}
	q := sqlFigures137
	if !finalized {
		q = sqlFigures136
	}
	if err := db.Reader().Select(ctx, &out, db.SQL(q), from, to); err != nil {
		return nil, fmt.Errorf("epochs.Figures(%d, %d): %w", from, to, engine.Classify(err))
	}
	for i := range out {
		out[i].FirstBlockTime = dbsync.AsUTC(out[i].FirstBlockTime)
		out[i].LastBlockTime = dbsync.AsUTC(out[i].LastBlockTime)
	}
	return out, nil
}

// ByNumber returns one epoch's figures, or dbsync.ErrNotFound for an
// epoch without blocks.
func ByNumber(ctx context.Context, db *dbsync.DB, epoch int64) (Epoch, error) {
	es, err := Figures(ctx, db, epoch, epoch)
	if err != nil {
		return Epoch{}, err
	}
	if len(es) == 0 {
		return Epoch{}, dbsync.ErrNotFound
	}
	return es[0], nil
}

// Exists says whether the epoch has a block: Blockfrost's epochs are those
// with blocks.
func Exists(ctx context.Context, db *dbsync.DB, epoch int64) (bool, error) {
	var found bool
	err := db.Reader().Get(ctx, &found, sqlEpochExists, epoch)
	return found, epochsErr("Exists", engine.Classify(err))
}

// exists says whether the epoch has a block, in the snapshot.
func exists(ctx context.Context, tx *dbsync.Snapshot, epoch int64) error {
	var found bool
	if err := tx.GetContext(ctx, &found, sqlEpochExists, epoch); err != nil {
		return err
	}
	if !found {
		return dbsync.ErrNotFound
	}
	return nil
}

// schemas remembers, per database, whether it keeps epoch_finalized (a
// db-sync schema does not change under a running service).
var schemas sync.Map // *dbsync.DB -> bool

func keepsFinalized(ctx context.Context, db *dbsync.DB) (bool, error) {
	if v, ok := schemas.Load(db); ok {
		return v.(bool), nil
	}
	var finalized bool
	if err := db.Reader().Get(ctx, &finalized, sqlEpochSchema); err != nil {
		return false, fmt.Errorf("epochs: schema: %w", engine.Classify(err))
	}
	schemas.Store(db, finalized)
	return finalized, nil
}

// epochsErr names the call in an error other than not found.
func epochsErr(call string, err error) error {
	if err == nil || errors.Is(err, dbsync.ErrNotFound) {
		return err
	}
	return fmt.Errorf("epochs.%s: %w", call, err)
}
