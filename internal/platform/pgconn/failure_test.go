package pgconn

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/lib/pq"
)

// TestIsConnectionFailure pins which errors mean an unusable database (a
// 503) rather than a bad query (a 500): connection classes, shutdown,
// too many connections, missing database, bad credentials, TLS refused,
// dropped connections; never our own deadline or a client leaving.
func TestIsConnectionFailure(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&pq.Error{Code: "08006"}, true},
		{&pq.Error{Code: "57P01"}, true},
		{&pq.Error{Code: "57P02"}, true},
		{&pq.Error{Code: "57P03"}, true},
		{&pq.Error{Code: "53300"}, true},
		{&pq.Error{Code: "3D000"}, true},
		{&pq.Error{Code: "28P01"}, true},
		{&pq.Error{Code: "28000"}, true},
		{pq.ErrSSLNotSupported, true},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
		{fmt.Errorf("wrapped: %w", sql.ErrConnDone), true},
		{driver.ErrBadConn, true},
		{&pq.Error{Code: "42P01"}, false}, // undefined table: our bug
		{&pq.Error{Code: "57014"}, false}, // statement timeout
		{sql.ErrNoRows, false},
		{context.DeadlineExceeded, false},
		{fmt.Errorf("read: %w", context.Canceled), false},
	}
	for _, tc := range cases {
		if got := IsConnectionFailure(tc.err); got != tc.want {
			t.Errorf("IsConnectionFailure(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
