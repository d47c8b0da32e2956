package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
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
// not be reached or used (connection exceptions, admin shutdown, too many
// connections, missing database, bad credentials, TLS refused, a dropped
// connection) as opposed to a bad query. The admin database's errors are
// judged by the same rule.
func IsConnectionFailure(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false // both satisfy net.Error, but are our own deadline or the client leaving
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		switch {
		case pqErr.Code.Class() == "08", pqErr.Code == "57P01", pqErr.Code == "57P02", pqErr.Code == "57P03",
			pqErr.Code == "53300", pqErr.Code == "3D000", pqErr.Code == "28P01", pqErr.Code == "28000":
			return true
		}
		return false
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, pq.ErrSSLNotSupported) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, driver.ErrBadConn)
}
