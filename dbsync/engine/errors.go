package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
	"time"

	"github.com/lib/pq"
)

// Sentinel errors. Handlers map them to HTTP statuses; everything else is a 500.
var (
	// ErrNotFound: the requested entity does not exist in db-sync.
	ErrNotFound = errors.New("dbsync: not found")
	// ErrUnavailable: the database could not be reached or refused the connection.
	ErrUnavailable = errors.New("dbsync: chain database unavailable")
	// ErrTimeout: the statement ran past statement_timeout or the request deadline.
	ErrTimeout = errors.New("dbsync: query timed out")
	// ErrOverloaded: the request was refused at once rather than queued
	// (see gate); the error is an *OverloadedError saying when to retry.
	ErrOverloaded = errors.New("dbsync: too many requests waiting")
)

// OverloadedError is ErrOverloaded with the time after which a retry may
// find room (the expected wait of the queue, at least a second).
type OverloadedError struct {
	RetryAfter time.Duration
}

func (e *OverloadedError) Error() string {
	return fmt.Sprintf("%v (retry after %s)", ErrOverloaded, e.RetryAfter)
}

func (e *OverloadedError) Is(target error) bool { return target == ErrOverloaded }

// Classify turns driver errors into the sentinels above, keeping the cause.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrUnavailable) || errors.Is(err, ErrTimeout) || errors.Is(err, ErrOverloaded) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "57014" { // query_canceled: statement_timeout fired
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	}
	if IsConnectionFailure(err) {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return err
}

// IsConnectionFailure reports whether err means a PostgreSQL server could
// not be reached or used, by the one rule every store shares
// (pgconn.IsConnectionFailure).
func IsConnectionFailure(err error) bool { return pgconn.IsConnectionFailure(err) }
