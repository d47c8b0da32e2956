package admin

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Invalidator learns, after a change has committed, the key hashes of the
// credentials whose authentication the change affects (revoked, rolled,
// user suspended or reactivated). auth.Authenticator implements it.
type Invalidator interface {
	Invalidate(ctx context.Context, hashes ...[]byte)
}

// Options configures the Store.
type Options struct {
	BootstrapAdminKey string
	Log               *slog.Logger
	// Invalidator is told about every change to credentials and users;
	// nil when nothing caches them (one-off commands that only create).
	Invalidator Invalidator
	// Now is the clock (tests move it); nil means time.Now.
	Now func() time.Time
	// SecurityEvents bounds the recording of denied admin requests.
	SecurityEvents SecurityEventOptions
}

// Store is the admin schema's data access.
type Store struct {
	db   *sqlx.DB
	opts Options
	log  *slog.Logger
	now  func() time.Time

	bootstrapHash [32]byte
	hasBootstrap  bool

	sec *securityLog
	// deferred collects the audit entries of snapshot reads in progress
	// (inSnapshotTx), written after the read commits.
	deferredMu sync.Mutex
	deferred   map[*sqlx.Tx]*[]auditEntry

	// subStmt is submission.sql prepared (prepared.go).
	subStmt preparedStmt

	closeOnce sync.Once
	stop      chan struct{}
	secDone   chan struct{}
}

// NewStore returns a Store over db (already migrated) and starts the
// security-event writer; Close stops it.
func NewStore(db *sqlx.DB, opts Options) *Store {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{
		db: db, opts: opts, log: opts.Log, now: opts.Now,
		sec:     newSecurityLog(opts.SecurityEvents),
		stop:    make(chan struct{}),
		secDone: make(chan struct{}),
	}
	if opts.BootstrapAdminKey != "" {
		s.bootstrapHash = sha256.Sum256([]byte(opts.BootstrapAdminKey))
		s.hasBootstrap = true
	}
	go s.securityLoop()
	return s
}

// Close stops the security-event writer after a last attempt.
func (s *Store) Close() {
	s.closeOnce.Do(func() {
		close(s.stop)
		<-s.secDone
		s.subStmt.close()
	})
}

// invalidate passes the key hashes of a committed change to the
// Invalidator, if any.
func (s *Store) invalidate(ctx context.Context, hashes ...[]byte) {
	if s.opts.Invalidator != nil && len(hashes) > 0 {
		s.opts.Invalidator.Invalidate(ctx, hashes...)
	}
}

// Page is a limit/offset window of a list.
type Page struct {
	Limit  int
	Offset int
}

// getOne reads the one row of query into dest; no row is ErrNotFound.
func getOne(ctx context.Context, tx *sqlx.Tx, dest any, query string, args ...any) error {
	err := tx.GetContext(ctx, dest, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// inTx runs fn in one transaction: each admin action and its audit entry
// commit together or not at all.
func (s *Store) inTx(ctx context.Context, name string, fn func(tx *sqlx.Tx) error) error {
	return s.inTxOpts(ctx, name, nil, fn)
}

// inSnapshotTx is inTx at REPEATABLE READ: a read made of several
// statements (a page and its total) sees one snapshot. Its audit entry is
// written once the read has committed, in a READ COMMITTED transaction of
// its own: written inside the snapshot, the entry's update of the key's
// audit counters collided with any concurrent read of the same key
// (40001), which PostgreSQL resolves by refusing one of them whole.
func (s *Store) inSnapshotTx(ctx context.Context, name string, fn func(tx *sqlx.Tx) error) error {
	var entries []auditEntry
	err := s.inTxOpts(ctx, name, &sql.TxOptions{Isolation: sql.LevelRepeatableRead}, func(tx *sqlx.Tx) error {
		entries = entries[:0] // a retried attempt starts afresh
		s.deferAudits(tx, &entries)
		defer s.deferAudits(tx, nil)
		return fn(tx)
	})
	if err != nil || len(entries) == 0 {
		return err
	}
	return s.inTx(ctx, name+" audit", func(tx *sqlx.Tx) error {
		for _, e := range entries {
			if err := s.writeAudit(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// deferAudits makes audit() collect the entries of tx into q instead of
// writing them (q nil: stop collecting).
func (s *Store) deferAudits(tx *sqlx.Tx, q *[]auditEntry) {
	s.deferredMu.Lock()
	defer s.deferredMu.Unlock()
	if q == nil {
		delete(s.deferred, tx)
		return
	}
	if s.deferred == nil {
		s.deferred = map[*sqlx.Tx]*[]auditEntry{}
	}
	s.deferred[tx] = q
}

func (s *Store) inTxOpts(ctx context.Context, name string, opts *sql.TxOptions, fn func(tx *sqlx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := s.runTx(ctx, name, opts, fn)
		// A snapshot read that also writes (its audit entry moves the audit
		// counters) can lose a race with a concurrent one of the same key:
		// PostgreSQL then refuses it whole, and running it again is safe.
		if attempt >= maxTxAttempts || !isRetryable(err) {
			return err
		}
		// Back off a little, at random, so the transactions that collided
		// do not collide again in step.
		select {
		case <-time.After(time.Duration(attempt) * time.Duration(1+rand.IntN(4)) * time.Millisecond):
		case <-ctx.Done():
			return err
		}
	}
}

// maxTxAttempts bounds the retries of a transaction refused for a
// serialization failure or a deadlock (eight reads of one key at once all
// succeed well within it).
const maxTxAttempts = 10

// isRetryable reports a serialization failure (40001) or deadlock (40P01).
func isRetryable(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "40001" || pqErr.Code == "40P01")
}

func (s *Store) runTx(ctx context.Context, name string, opts *sql.TxOptions, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, opts)
	if err != nil {
		return fmt.Errorf("admin.%s: %w", name, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return wrap(name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("admin.%s: commit: %w", name, err)
	}
	return nil
}

// wrap names the operation on unexpected errors and leaves the sentinels
// the handlers match on untouched (they stay matchable either way).
func wrap(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("admin.%s: %w", name, err)
}
