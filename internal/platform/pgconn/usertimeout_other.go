//go:build !linux

package pgconn

import (
	"syscall"
	"time"
)

// userTimeoutControl: TCP_USER_TIMEOUT is Linux-only; keepalive still applies.
func userTimeoutControl(time.Duration) func(network, address string, c syscall.RawConn) error {
	return nil
}
