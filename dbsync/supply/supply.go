// Package supply reads the figures of Blockfrost's /network: the ledger's
// pots db-sync records at each epoch's start, and the lovelace locked at
// script addresses (a full pass over the unspent outputs, for background
// work only).
package supply

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlPots   = engine.Fixed("dbsync/network_pots.sql")
	sqlLocked = engine.Template("dbsync/network_locked.sql", engine.NeverPrepared, nil)
)

// Pots is the ledger's pots at the first block of Epoch (ada_pots), in
// lovelace.
type Pots struct {
	Epoch    int64  `db:"epoch"`
	Treasury string `db:"treasury"`
	Reserves string `db:"reserves"`
	Rewards  string `db:"rewards"` // the reward accounts' balances
	UTxO     string `db:"utxo"`
}

// LatestPots returns the newest epoch's pots, or dbsync.ErrNotFound where
// db-sync keeps none.
func LatestPots(ctx context.Context, db *dbsync.DB) (Pots, error) {
	var p Pots
	if err := db.Reader().Get(ctx, &p, sqlPots); err != nil {
		if err = engine.Classify(err); errors.Is(err, dbsync.ErrNotFound) {
			return Pots{}, err
		}
		return Pots{}, fmt.Errorf("supply.LatestPots: %w", err)
	}
	return p, nil
}

// ScriptLocked returns the lovelace held by unspent outputs at script
// addresses now, with the tip it was read at. It reads every unspent
// output (minutes on mainnet): a background pass on the primary under its
// own statement timeout, never called on a request.
func ScriptLocked(ctx context.Context, db *dbsync.DB, timeout time.Duration) (locked string, tip dbsync.Tip, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("supply.ScriptLocked(%s): %w", db.Network.Name, engine.Classify(err))
		}
	}()
	if !db.Ready() {
		return "", tip, dbsync.ErrUnavailable
	}
	tx, err := db.Primary().BeginTxx(ctx, &engine.TxOptions)
	if err != nil {
		return "", tip, err
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if err := engine.SetStatementTimeout(ctx, tx, timeout); err != nil {
		return "", tip, err
	}
	if err := tx.GetContext(ctx, &tip, engine.SQLTip.Text); err != nil {
		return "", tip, err
	}
	tip.BlockTime = dbsync.AsUTC(tip.BlockTime)
	err = tx.GetContext(ctx, &locked, db.SQL(sqlLocked).Text)
	return locked, tip, err
}
