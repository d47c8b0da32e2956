package engine

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"github.com/syncgate/syncgate/sql"
)

// Reader reads from one network's servers. A pinned reader (Pinned) sends
// every read to one server, the next in rotation when it was made, while
// that server stays in rotation, and to the primary after: a request that
// reads the tip and then its answer in several statements sees one
// server's chain, or a newer one, never an older one. An unpinned reader
// (Any) takes the next server in rotation for each read, for requests
// whose reads need not agree with each other.
type Reader struct {
	e   *Engine
	pin *pool // nil: unpinned
}

// Pinned returns a reader pinned to the next server in rotation.
func (e *Engine) Pinned() Reader { return Reader{e: e, pin: e.rotate()} }

// Any returns an unpinned reader.
func (e *Engine) Any() Reader { return Reader{e: e} }

// rotate returns the next replica in rotation that has reached every
// tip served so far, or the primary when none has (lag.go). A replica
// skipped for being behind is asked for a probe, to be back as soon as it
// has the block.
func (e *Engine) rotate() *pool {
	n := len(e.replicas)
	if n == 0 {
		return e.primary
	}
	start := e.next.Add(1)
	for i := range n {
		r := e.replicas[int((start+uint64(i))%uint64(n))]
		if up, _ := r.isUp(); up {
			if e.current(r) {
				return r
			}
			r.suspect()
		}
	}
	return e.primary
}

// server is the server for the reader's next read: the pinned one while
// it is in rotation (the primary after), else the next in rotation.
func (r Reader) server() *pool {
	if r.pin == nil {
		return r.e.rotate()
	}
	if up, _ := r.pin.isUp(); up {
		return r.pin
	}
	return r.e.primary
}

// Server names the server the reader's next read goes to ("primary",
// "replica1", …).
func (r Reader) Server() string { return r.server().server }

// Get runs a one-row read (gated, prepared when registered); the error is
// the driver's (see Classify).
func (r Reader) Get(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) error {
	return r.e.onReader(ctx, r, nil, func(ctx context.Context, p *pool) error {
		return p.GetContext(ctx, dest, q, args...)
	})
}

// Select runs a many-row read (gated, prepared when registered).
func (r Reader) Select(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) error {
	return r.e.onReader(ctx, r, nil, func(ctx context.Context, p *pool) error {
		return p.SelectContext(ctx, dest, q, args...)
	})
}

// ReadTx runs fn inside one REPEATABLE READ READ ONLY transaction, so that
// several queries of one request see one snapshot even if db-sync writes
// or rolls back in between. The transaction holds a place at the server's
// gate until it ends. A transaction that fails on a replica runs again on
// the primary (see onReader). The error is classified.
func (r Reader) ReadTx(ctx context.Context, fn func(tx *Snapshot) error) error {
	return r.readTx(ctx, false, fn)
}

// Stream is ReadTx for a UTxO listing, which writes to its client while
// the transaction is open: it also takes one of the server's stream slots
// for its whole length and may leave the gate early (Snapshot.LeaveGate).
// It does not run again on the primary once fn has started.
func (r Reader) Stream(ctx context.Context, fn func(tx *Snapshot) error) error {
	return r.readTx(ctx, true, fn)
}

func (r Reader) readTx(ctx context.Context, streaming bool, fn func(tx *Snapshot) error) error {
	called := false
	retry := func() bool { return !streaming || !called }
	return Classify(r.e.onReader(ctx, r, retry, func(ctx context.Context, p *pool) error {
		return p.readTx(ctx, streaming, func(tx *Snapshot) error {
			called = true
			return fn(tx)
		})
	}))
}

// GetFunc runs a one-row read on one server without waiting at its gate.
type GetFunc func(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) error

// OnPrimary runs fn on the primary (no failover); get does not wait at
// the gate (the health probe's tip must report the database, not the
// queue in front of it).
func (e *Engine) OnPrimary(ctx context.Context, fn func(ctx context.Context, get GetFunc) error) error {
	if !e.ready.Load() {
		return e.NotReady()
	}
	return e.primary.attempt(ctx, func(ctx context.Context, p *pool) error { return fn(ctx, p.getUngated) })
}

// PrimaryTx runs fn in a snapshot on the primary, for background work
// (no failover, no rotation check; the tips it reads are no client's, so
// they do not hold replicas behind them out of rotation).
func (e *Engine) PrimaryTx(ctx context.Context, fn func(tx *Snapshot) error) error {
	return e.primary.readTx(ctx, false, func(tx *Snapshot) error {
		tx.background = true
		return fn(tx)
	})
}

// RecentMaxAge is how old a value Recent may return.
const RecentMaxAge = time.Second

// Recent returns the reader's server's memo of a value (named key), read
// again with read (ungated) when older than RecentMaxAge. A fresh memo of
// an in-rotation server is answered without an attempt: at tens of
// thousands of requests a second an attempt's cancelable context,
// registered on the server's down signal (one mutex for every request),
// cost more than the memo read.
func Recent[T any](ctx context.Context, r Reader, key string, read func(ctx context.Context, get GetFunc) (T, error)) (T, error) {
	// A remembered tip older than one already served is read again.
	if r.e.ready.Load() {
		p := r.server()
		if up, _ := p.isUp(); up {
			if v, ok := memoOf[T](p, key).fresh(); ok && !olderThanServed(r.e, &v) {
				return v, nil
			}
		}
	}
	valid := func(v *T) bool { return !olderThanServed(r.e, v) }
	var v T
	err := r.e.onReader(ctx, r, nil, func(ctx context.Context, p *pool) error {
		var err error
		v, err = memoOf[T](p, key).get(ctx, valid, func(ctx context.Context) (T, error) { return read(ctx, p.getUngated) })
		return err
	})
	return v, err
}

// memoOf is server p's memo named key.
func memoOf[T any](p *pool, key string) *recent[T] {
	m, _ := p.memos.LoadOrStore(key, new(recent[T]))
	return m.(*recent[T])
}

// Forget drops every server's remembered values (tests that add a block).
func (e *Engine) Forget() {
	for _, p := range e.servers() {
		p.memos.Range(func(_, m any) bool {
			m.(forgetter).forget()
			return true
		})
	}
}

// Remembered reports whether server i (0: the primary) holds a value
// under key.
func (e *Engine) Remembered(i int, key string) bool {
	m, ok := e.servers()[i].memos.Load(key)
	return ok && m.(forgetter).remembered()
}

type forgetter interface {
	forget()
	remembered() bool
}

// recent is one server's last read of a value and when.
type recent[T any] struct {
	mu sync.Mutex
	v  T
	at time.Time
}

func (m *recent[T]) get(ctx context.Context, valid func(*T) bool, read func(context.Context) (T, error)) (T, error) {
	if v, ok := m.fresh(); ok && valid(&v) {
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

// fresh returns the value when it is younger than RecentMaxAge.
func (m *recent[T]) fresh() (T, bool) {
	m.mu.Lock()
	v, at := m.v, m.at
	m.mu.Unlock()
	if !at.IsZero() && time.Since(at) < RecentMaxAge {
		return v, true
	}
	var zero T
	return zero, false
}

func (m *recent[T]) forget() {
	m.mu.Lock()
	m.at = time.Time{}
	m.mu.Unlock()
}

func (m *recent[T]) remembered() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.at.IsZero()
}

// IsPinned reports whether r was made by Pinned.
func (r Reader) IsPinned() bool { return r.pin != nil }

// Rows runs q as one statement outside a transaction (gated, prepared
// when registered) on the reader's server and scans every row into a T:
// for an answer one statement reads whole, which needs no snapshot, so no
// BEGIN and COMMIT round trips. The error is classified. expect is how
// many rows the caller expects at most in the usual case: the rows are
// read into a slice of that capacity (growing from nothing, a page of
// wide rows was copied four or five times on its way).
func Rows[T any, P RowScanner[T]](ctx context.Context, r Reader, expect int, q sqlfiles.Statement, args ...any) ([]T, error) {
	out := make([]T, 0, max(expect, 1))
	err := r.e.onReader(ctx, r, nil, func(ctx context.Context, p *pool) (err error) {
		t, err := p.gate.enter(ctx)
		if err != nil {
			return err
		}
		defer p.gate.leave(t)
		defer observe(p.network, q, time.Now(), &err)
		var rows *sql.Rows
		if st, ok := p.statements()[q.Text]; ok {
			rows, err = st.QueryContext(ctx, args...)
		} else {
			rows, err = p.DB.QueryContext(ctx, q.Text, args...)
		}
		if err != nil {
			return err
		}
		defer rows.Close()
		out = out[:0]
		for rows.Next() {
			var v T
			if err := P(&v).ScanRow(rows); err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	return out, Classify(err)
}
