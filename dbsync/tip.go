package dbsync

import (
	"context"
	"sync"
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

// Tip returns the primary's chain tip (health, metrics, the pool stake
// refresh, which runs on the primary). An empty chain is ErrNotFound. It
// does not wait at the gate: it is the health probe's query (a busy
// database is not a down one) and a one-row index read.
func (db *DB) Tip(ctx context.Context) (Tip, error) {
	var t Tip
	err := db.onPrimary(ctx, func(ctx context.Context, p *pool) error {
		var err error
		t, err = p.readTip(ctx)
		return err
	})
	return t, classify(err)
}

// RecentTipMaxAge is how old a tip RecentTip may return.
const RecentTipMaxAge = time.Second

// RecentTip returns the tip of the server the request reads from (see
// Pin), as that server's memo saw it at most RecentTipMaxAge ago; it asks
// the server when the memo is older. An answer cached under this tip and
// read afterwards in the same pinned context is never older than it.
func (db *DB) RecentTip(ctx context.Context) (Tip, error) {
	var t Tip
	err := db.onReader(ctx, nil, func(ctx context.Context, p *pool) error {
		var err error
		t, err = p.tip.get(ctx, p)
		return err
	})
	return t, classify(err)
}

func (p *pool) readTip(ctx context.Context) (Tip, error) {
	var t Tip
	if err := p.getUngated(ctx, &t, sqlTip); err != nil {
		return Tip{}, err
	}
	t.BlockTime = AsUTC(t.BlockTime)
	return t, nil
}

// tipMemo is one server's last tip read and when.
type tipMemo struct {
	mu  sync.Mutex
	tip Tip
	at  time.Time
}

func (m *tipMemo) get(ctx context.Context, p *pool) (Tip, error) {
	m.mu.Lock()
	t, at := m.tip, m.at
	m.mu.Unlock()
	if !at.IsZero() && time.Since(at) < RecentTipMaxAge {
		return t, nil
	}
	t, err := p.readTip(ctx)
	if err != nil {
		return Tip{}, err
	}
	m.mu.Lock()
	m.tip, m.at = t, time.Now()
	m.mu.Unlock()
	return t, nil
}

// ForgetTips drops every server's remembered tip and position (tests that
// add a block).
func (db *DB) ForgetTips() {
	for _, p := range db.servers() {
		p.tip.mu.Lock()
		p.tip.at = time.Time{}
		p.tip.mu.Unlock()
		p.position.mu.Lock()
		p.position.at = time.Time{}
		p.position.mu.Unlock()
	}
}

// AsUTC reinterprets a db-sync timestamp (timestamp without time zone,
// holding UTC) as UTC, whatever zone the driver attached.
func AsUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
