package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/lib/pq"
)

// TestClassify pins which driver errors become which sentinel, including
// the connection failures the admin database's errors are judged by too
// (IsConnectionFailure): a bad password or a refused TLS handshake is an
// unusable database (503), not a bug (500).
func TestClassify(t *testing.T) {
	cases := []struct {
		err  error
		want error // nil: passed through unchanged
	}{
		{sql.ErrNoRows, ErrNotFound},
		{context.DeadlineExceeded, ErrTimeout},
		{&pq.Error{Code: "57014"}, ErrTimeout},
		{&pq.Error{Code: "08006"}, ErrUnavailable},
		{&pq.Error{Code: "57P01"}, ErrUnavailable},
		{&pq.Error{Code: "53300"}, ErrUnavailable},
		{&pq.Error{Code: "3D000"}, ErrUnavailable},
		{&pq.Error{Code: "28P01"}, ErrUnavailable},
		{&pq.Error{Code: "28000"}, ErrUnavailable},
		{pq.ErrSSLNotSupported, ErrUnavailable},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, ErrUnavailable},
		{fmt.Errorf("wrapped: %w", sql.ErrConnDone), ErrUnavailable},
		{&pq.Error{Code: "42P01"}, nil}, // undefined table: our bug
	}
	for _, tc := range cases {
		got := Classify(tc.err)
		switch {
		case tc.want == nil && (errors.Is(got, ErrUnavailable) || errors.Is(got, ErrTimeout) || errors.Is(got, ErrNotFound)):
			t.Errorf("Classify(%v) = %v, want it passed through", tc.err, got)
		case tc.want != nil && !errors.Is(got, tc.want):
			t.Errorf("Classify(%v) = %v, want %v", tc.err, got, tc.want)
		}
		if unavailable := errors.Is(tc.want, ErrUnavailable); IsConnectionFailure(tc.err) != unavailable {
			t.Errorf("IsConnectionFailure(%v) = %v, want %v", tc.err, !unavailable, unavailable)
		}
	}
}
