// Package scanner decides chain events for webhooks: one scanner per
// network follows db-sync's tip, matches each new block's transactions
// against the watch sets of the network's webhooks and decides
// tx.confirmed, delegation.confirmed, block.added and epoch.started events
// once a webhook's depth is reached, and each one's undo (tx.rolled_back…)
// when a rollback removes the block it announced (docs/DECISIONS.md "The
// scanner").
//
// Any number of instances run a Scanner for a network; the one holding the
// network's PostgreSQL advisory lock, on an admin-database connection of
// its own, scans, and the others take over within seconds when it stops or
// its connection dies. Each step's events, webhook positions and the
// checkpoint are written in one admin transaction that compares-and-sets
// the checkpoint and each webhook's scanned_through, so an event is never
// decided twice, even by two scanners at once.
package scanner

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// Options configures a Scanner.
type Options struct {
	Network string
	// DB is the network's db-sync (read on its primary).
	DB *dbsync.DB
	// Events is the admin database's event store.
	Events *events.Store
	// Interval is how often db-sync's tip is polled (default 200 ms).
	Interval time.Duration
	// LeaderRetry is how often a standby tries to take leadership
	// (default 1 s).
	LeaderRetry time.Duration
	// BatchBlocks bounds the heights one step decides per webhook group
	// (default 100).
	BatchBlocks int
	// StepTimeout bounds one step (default 1 min).
	StepTimeout time.Duration
	// Blockfrost renders the payloads of Blockfrost-format webhooks (nil:
	// their envelopes carry syncgate's data).
	Blockfrost Blockfrost
	Log        *slog.Logger
}

// Scanner scans one network. Run it in every instance; one leads.
type Scanner struct {
	o       Options
	leading atomic.Bool
	// kept is the network's webhooks as the last step read them, for the
	// leading goroutine alone (see kept.go).
	kept *keptHooks
	// beforeCommit, when set (tests), runs between a step's writes and its
	// commit.
	beforeCommit func(ctx context.Context)
	// onPhase, when set (benchmarks), gets the time each phase of a step
	// took.
	onPhase func(phase string, d time.Duration)
	// onStep, when set (benchmarks), gets each committed step that moved
	// the checkpoint over blocks blocks, and its time.
	onStep func(blocks int, d time.Duration)
}

// Leading says whether this scanner holds its network's leadership now.
func (s *Scanner) Leading() bool { return s.leading.Load() }

// New checks the options and fills in defaults.
func New(o Options) (*Scanner, error) {
	if o.Network == "" || o.DB == nil || o.Events == nil {
		return nil, errors.New("scanner: Network, DB and Events are required")
	}
	if o.Interval <= 0 {
		o.Interval = 200 * time.Millisecond
	}
	if o.LeaderRetry <= 0 {
		o.LeaderRetry = time.Second
	}
	if o.BatchBlocks <= 0 {
		o.BatchBlocks = 100
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = time.Minute
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	o.Log = o.Log.With("network", o.Network, "component", "scanner")
	return &Scanner{o: o}, nil
}

// LockKey is the advisory lock key of network's scanner leadership.
func LockKey(network string) int64 {
	h := fnv.New64a()
	h.Write([]byte("syncgate-scanner:" + network))
	return int64(h.Sum64())
}

// Run scans while it leads and waits for leadership otherwise, until ctx
// ends (it then returns nil).
func (s *Scanner) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		conn, err := s.lead(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.o.Log.Warn("scanner leadership", "err", err)
			}
			sleep(ctx, s.o.LeaderRetry)
			continue
		}
		if conn == nil {
			sleep(ctx, s.o.LeaderRetry)
			continue
		}
		s.o.Log.Info("scanner leads")
		metrics.ScannerLeader(s.o.Network, true)
		s.leading.Store(true)
		err = s.scan(ctx, conn)
		s.leading.Store(false)
		metrics.ScannerLeader(s.o.Network, false)
		s.release(ctx, conn)
		if ctx.Err() != nil {
			return nil
		}
		s.o.Log.Warn("scanner lost leadership", "err", err)
		sleep(ctx, s.o.LeaderRetry)
	}
	return nil
}

// lead takes leadership on a connection of its own: nil when another
// session holds it.
func (s *Scanner) lead(ctx context.Context) (*sqlx.Conn, error) {
	conn, err := s.o.Events.DB().Connx(ctx)
	if err != nil {
		return nil, err
	}
	got, err := events.ScanLock(ctx, conn, LockKey(s.o.Network))
	if err != nil || !got {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// release gives leadership up. The lock belongs to the session, which
// conn.Close would return to the pool still holding it; a session that
// cannot be unlocked is discarded instead (its end frees the lock).
func (s *Scanner) release(ctx context.Context, conn *sqlx.Conn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if ok, err := events.ScanUnlock(ctx, conn, LockKey(s.o.Network)); err != nil || !ok {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	conn.Close()
}

// scan steps every Interval (at once again while a step leaves work) until
// ctx ends or the leadership connection fails.
func (s *Scanner) scan(ctx context.Context, conn *sqlx.Conn) error {
	// Another leader may have moved positions meanwhile.
	s.kept = nil
	t := time.NewTicker(s.o.Interval)
	defer t.Stop()
	for {
		more, err := s.stepTimed(ctx, conn)
		if err != nil && ctx.Err() == nil {
			if !alive(ctx, conn) {
				return err
			}
			if !errors.Is(err, events.ErrConflict) && !errors.Is(err, errChainMoved) {
				s.o.Log.Warn("scanner step", "err", err)
			}
		}
		if more && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

func (s *Scanner) stepTimed(ctx context.Context, conn *sqlx.Conn) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.o.StepTimeout)
	defer cancel()
	more, err := s.step(ctx, conn)
	if err != nil {
		// A failed commit may have written after all.
		s.kept = nil
	}
	return more, err
}

// alive says whether the leadership connection still answers.
func alive(ctx context.Context, conn *sqlx.Conn) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var one int
	return conn.GetContext(ctx, &one, "SELECT 1") == nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// errChainMoved: db-sync changed between a step's two reads; the next
// step sees the new chain.
var errChainMoved = errors.New("scanner: the chain moved during the step")

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("scanner: %s: %w", what, err)
}
