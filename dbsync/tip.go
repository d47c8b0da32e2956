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
	t, err := recentOn(ctx, db, func(p *pool) *recent[Tip] { return &p.tip }, (*pool).readTip)
	return t, classify(err)
}

// recentOn returns a reader's memo of a value (memo picks it), reading it
// on that reader when older than RecentTipMaxAge. A fresh memo of an
// in-rotation reader is answered without an attempt: at tens of thousands
// of requests a second an attempt's cancelable context, registered on the
// server's down signal (one mutex for every request), cost more than the
// memo read.
func recentOn[T any](ctx context.Context, db *DB, memo func(*pool) *recent[T], read func(*pool, context.Context) (T, error)) (T, error) {
	if db.ready.Load() {
		p := db.reader(ctx)
		if up, _ := p.isUp(); up {
			if v, ok := memo(p).fresh(); ok {
				return v, nil
			}
		}
	}
	var v T
	err := db.onReader(ctx, nil, func(ctx context.Context, p *pool) error {
		var err error
		v, err = memo(p).get(ctx, func(ctx context.Context) (T, error) { return read(p, ctx) })
		return err
	})
	return v, err
}

func (p *pool) readTip(ctx context.Context) (Tip, error) {
	var t Tip
	if err := p.getUngated(ctx, &t, sqlTip); err != nil {
		return Tip{}, err
	}
	t.BlockTime = AsUTC(t.BlockTime)
	return t, nil
}

// recent is one server's last read of a value and when: Tip and
// ChainPosition are read again once older than RecentTipMaxAge.
type recent[T any] struct {
	mu sync.Mutex
	v  T
	at time.Time
}

func (m *recent[T]) get(ctx context.Context, read func(context.Context) (T, error)) (T, error) {
	if v, ok := m.fresh(); ok {
		return v, nil
	}
	v, err := read(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	m.mu.Lock()
	m.v, m.at = v, time.Now()
	m.mu.Unlock()
	return v, nil
}

// fresh returns the value when it is younger than RecentTipMaxAge.
func (m *recent[T]) fresh() (T, bool) {
	m.mu.Lock()
	v, at := m.v, m.at
	m.mu.Unlock()
	if !at.IsZero() && time.Since(at) < RecentTipMaxAge {
		return v, true
	}
	var zero T
	return zero, false
}

// forget makes the next get read again.
func (m *recent[T]) forget() {
	m.mu.Lock()
	m.at = time.Time{}
	m.mu.Unlock()
}

// remembered reports whether a value is held.
func (m *recent[T]) remembered() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.at.IsZero()
}

// ForgetTips drops every server's remembered tip and position (tests that
// add a block).
func (db *DB) ForgetTips() {
	for _, p := range db.servers() {
		p.tip.forget()
		p.position.forget()
	}
}

// AsUTC reinterprets a db-sync timestamp (timestamp without time zone,
// holding UTC) as UTC, whatever zone the driver attached.
func AsUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
