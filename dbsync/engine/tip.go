package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"
)

// SQLTip reads the newest block (tip.sql).
var SQLTip = Fixed("dbsync/tip.sql")

// Tip is the newest block db-sync has written.
type Tip struct {
	SlotNo    int64     `db:"slot_no"`
	BlockHash string    `db:"block_hash"`
	BlockNo   *int64    `db:"block_no"`
	EpochNo   *int64    `db:"epoch_no"`
	BlockTime time.Time `db:"block_time"`
}

// ReadTip reads the tip with get (one server, see Recent and OnPrimary).
func ReadTip(ctx context.Context, get GetFunc) (Tip, error) {
	var t Tip
	if err := get(ctx, &t, SQLTip); err != nil {
		return Tip{}, err
	}
	t.BlockTime = AsUTC(t.BlockTime)
	return t, nil
}

// TipIn reads the chain tip inside a request's snapshot; an empty chain
// is ErrUnavailable.
func TipIn(ctx context.Context, tx *Snapshot) (Tip, error) {
	var t Tip
	if err := tx.GetContext(ctx, &t, SQLTip); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Tip{}, fmt.Errorf("%w: db-sync holds no blocks yet", ErrUnavailable)
		}
		return Tip{}, err
	}
	t.BlockTime = AsUTC(t.BlockTime)
	return t, nil
}

// AsUTC reinterprets a db-sync timestamp (timestamp without time zone,
// holding UTC) as UTC, whatever zone the driver attached.
func AsUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// ParseQuantity parses a db-sync numeric (lovelace, asset quantities,
// fees) read as text: exact at any size.
func ParseQuantity(s string) (*big.Int, error) {
	if len(s) < 19 {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return big.NewInt(n), nil
		}
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("unparseable quantity %q", s)
	}
	return v, nil
}
