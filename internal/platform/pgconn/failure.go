package pgconn

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"

	"github.com/lib/pq"
)

// IsConnectionFailure reports whether err means a PostgreSQL server could
// not be reached or used (connection exceptions, admin shutdown, too many
// connections, missing database, bad credentials, TLS refused, a dropped
// connection) as opposed to a bad query. It lives here, below every store,
// so the chain and admin databases' errors are judged by one rule.
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
