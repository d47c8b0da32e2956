package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/dbsync/engine"
)

var sqlEpochLatest = load("dbsync/epoch_latest.sql")

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
	return p, positionErr(db.get(ctx, &p, sqlEpochLatest), &p)
}

// RecentPosition is LatestPosition as the reading server (see Pin) saw it
// at most RecentTipMaxAge ago, read again when older: the chain moves
// about every 20 s, while clients poll the position before every
// transaction they build, and for a statement this cheap the round trip
// is most of a request's cost.
func (db *DB) RecentPosition(ctx context.Context) (ChainPosition, error) {
	return engine.Recent(ctx, db.reader(), memoPosition, readPosition)
}

// positionErr classifies a position read's error (and converts its times).
func positionErr(err error, p *ChainPosition) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("dbsync.LatestPosition: %w: db-sync holds no blocks yet", ErrUnavailable)
	}
	if err != nil {
		return fmt.Errorf("dbsync.LatestPosition: %w", classify(err))
	}
	p.BlockTime, p.SystemStart = AsUTC(p.BlockTime), AsUTC(p.SystemStart)
	return nil
}

// readPosition reads the position on one server (ungated, as readTip).
func readPosition(ctx context.Context, get engine.GetFunc) (ChainPosition, error) {
	var pos ChainPosition
	if err := positionErr(get(ctx, &pos, sqlEpochLatest), &pos); err != nil {
		return ChainPosition{}, err
	}
	return pos, nil
}
