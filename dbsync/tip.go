package dbsync

import (
	"context"
	"time"

	"github.com/syncgate/syncgate/dbsync/engine"
)

// Tip is the newest block db-sync has written.
type Tip = engine.Tip

// Tip returns the primary's chain tip (health, metrics, the pool stake
// refresh, which runs on the primary). An empty chain is ErrNotFound. It
// does not wait at the gate: it is the health probe's query (a busy
// database is not a down one) and a one-row index read.
func (db *DB) Tip(ctx context.Context) (Tip, error) {
	var t Tip
	err := db.eng.OnPrimary(ctx, func(ctx context.Context, get engine.GetFunc) error {
		var err error
		t, err = engine.ReadTip(ctx, get)
		return err
	})
	return t, classify(err)
}

// RecentTipMaxAge is how old a tip RecentTip may return.
const RecentTipMaxAge = engine.RecentMaxAge

// Names of the values each server remembers (engine.Recent).
const (
	memoTip      = "tip"
	memoPosition = "position"
)

// RecentTip returns the tip of the server the request reads from (see
// Pinned), as that server's memo saw it at most RecentTipMaxAge ago; it
// asks the server when the memo is older. An answer cached under this tip
// and read afterwards through the same pinned reader is never older than it.
func (db *DB) RecentTip(ctx context.Context) (Tip, error) {
	t, err := engine.Recent(ctx, db.reader(), memoTip, engine.ReadTip)
	return t, classify(err)
}

// ForgetTips drops every server's remembered tip and position (tests that
// add a block).
func (db *DB) ForgetTips() { db.eng.Forget() }

// AsUTC reinterprets a db-sync timestamp (timestamp without time zone,
// holding UTC) as UTC, whatever zone the driver attached.
func AsUTC(t time.Time) time.Time { return engine.AsUTC(t) }

// tipIn reads the chain tip inside a request's snapshot.
func tipIn(ctx context.Context, tx *Snapshot) (Tip, error) { return engine.TipIn(ctx, tx) }
