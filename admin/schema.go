package admin

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/platform/pgconn"
)

// Starting while the admin database is down: serve does not
// wait for it. MigrateAtStart migrates if it can and otherwise keeps
// trying in the background; until the schema is current, Schema.Ready is
// false and the admin routes answer 503.

// Retry pacing of the background migration: doubling from the first to
// the last delay.
const (
	migrateFirstRetry = time.Second
	migrateMaxRetry   = 10 * time.Second
	// migrateAttemptTimeout bounds one attempt, so a frozen server counts
	// as unreachable instead of stalling the start.
	migrateAttemptTimeout = 10 * time.Second
)

// Schema reports whether the admin schema has been migrated.
type Schema struct {
	ready atomic.Bool
	done  chan struct{}
}

// MigratedSchema is a Schema that is ready (the migrations already ran).
func MigratedSchema() *Schema {
	s := &Schema{done: make(chan struct{})}
	s.ready.Store(true)
	close(s.done)
	return s
}

// Ready reports whether the migrations have been applied.
func (s *Schema) Ready() bool { return s.ready.Load() }

// Done is closed once the migrations have been applied (or the retries
// stopped with their context).
func (s *Schema) Done() <-chan struct{} { return s.done }

// MigrateAtStart applies the migrations. When the admin database cannot be
// reached (or does not answer within migrateAttemptTimeout) it returns at
// once with a Schema that is not ready yet and keeps trying in the
// background until ctx ends, each failure logged at Warn. Any other failure
// (a reachable database refusing a migration) is returned: that is a defect
// to fix, not an outage to wait out.
func MigrateAtStart(ctx context.Context, db *sqlx.DB, log *slog.Logger) (*Schema, error) {
	s := &Schema{done: make(chan struct{})}
	err := s.attempt(ctx, db, log)
	switch {
	case err == nil:
		return s, nil
	case !unreachable(err):
		return nil, err
	}
	log.Warn("admin database unavailable at start; serving without it, migrations retried in the background",
		slog.String("error", err.Error()))
	go func() {
		defer func() {
			if !s.Ready() {
				close(s.done)
			}
		}()
		for wait := migrateFirstRetry; ; wait = min(2*wait, migrateMaxRetry) {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return
			}
			err := s.attempt(ctx, db, log)
			if err == nil {
				return
			}
			if ctx.Err() != nil {
				return
			}
			log.Warn("admin migrations failed; will retry", slog.String("error", err.Error()),
				slog.String("retry_in", min(2*wait, migrateMaxRetry).String()))
		}
	}()
	return s, nil
}

// attempt runs the migrations once and marks s ready when they succeed.
func (s *Schema) attempt(ctx context.Context, db *sqlx.DB, log *slog.Logger) error {
	actx, cancel := context.WithTimeout(ctx, migrateAttemptTimeout)
	defer cancel()
	applied, err := Migrate(actx, db)
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return errAttemptTimedOut{err}
		}
		return err
	}
	if len(applied) > 0 {
		log.Info("admin migrations applied", slog.Any("migrations", applied))
	}
	s.ready.Store(true)
	close(s.done)
	return nil
}

// errAttemptTimedOut: the database did not answer within the attempt.
type errAttemptTimedOut struct{ err error }

func (e errAttemptTimedOut) Error() string {
	return "no answer within " + migrateAttemptTimeout.String() + ": " + e.err.Error()
}
func (e errAttemptTimedOut) Unwrap() error { return e.err }

// unreachable reports whether err means the admin database could not be
// used at all (rather than that it refused a migration).
func unreachable(err error) bool {
	var timedOut errAttemptTimedOut
	return errors.As(err, &timedOut) || pgconn.IsConnectionFailure(err)
}
