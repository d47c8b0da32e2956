package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	sqlfiles "github.com/syncgate/syncgate/sql"
)

var sqlEpochLatest = prepared(sqlfiles.Must("dbsync/epoch_latest.sql"))

// ChainPosition is the tip with what GET /v1/epochs/latest reports about
// it, read in one statement.
type ChainPosition struct {
	Tip
	EpochSlotNo int64     `db:"epoch_slot_no"`
	ProtoMajor  int       `db:"proto_major"`
	SystemStart time.Time `db:"system_start"`
}

// Era names the ledger era of a block from its protocol major version.
func (p ChainPosition) Era() string {
	switch v := p.ProtoMajor; {
	case v <= 1:
		return "byron"
	case v == 2:
		return "shelley"
	case v == 3:
		return "allegra"
	case v == 4:
		return "mary"
	case v <= 6:
		return "alonzo"
	case v <= 8:
		return "babbage"
	}
	return "conway"
}

// LatestPosition returns the chain tip, its era and the network's start.
// An empty chain is ErrUnavailable (nothing to compute a TTL from).
func (db *DB) LatestPosition(ctx context.Context) (ChainPosition, error) {
	var p ChainPosition
	err := db.get(ctx, &p, sqlEpochLatest)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("dbsync.LatestPosition: %w: db-sync holds no blocks yet", ErrUnavailable)
	}
	if err != nil {
		return p, fmt.Errorf("dbsync.LatestPosition: %w", classify(err))
	}
	p.BlockTime, p.SystemStart = AsUTC(p.BlockTime), AsUTC(p.SystemStart)
	return p, nil
}
