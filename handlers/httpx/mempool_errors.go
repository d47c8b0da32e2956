package httpx

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/syncgate/syncgate/node"
)

// Mempool errors (DECISIONS.md "Mempool"). Kept beside the endpoint; every
// message is checked verbatim in mempool_test.go.
var (
	ErrMempoolTxNotFound = NewAPIError(http.StatusNotFound, "Transaction not found in the mempool")
	ErrInvalidPending    = ErrInvalidParam("pending", "must be true, false or exclude")
)

// ErrMempoolUnavailable: no node configured for the network, or it cannot
// be reached (the submit route's wording, for the mempool).
func ErrMempoolUnavailable(network string) *APIError {
	return NewAPIError(http.StatusServiceUnavailable, "Mempool is unavailable for network "+network)
}

// MempoolFailure maps a failed mempool read to its client error, in either
// dialect; the wrapped cause (socket, phase) goes to the log with the
// request id. Other errors are returned as they are.
func MempoolFailure(network string, err error) error {
	switch {
	case errors.Is(err, node.ErrTimeout):
		return fmt.Errorf("%w: %v", ErrNodeTimeout, err)
	case errors.Is(err, node.ErrNotConfigured), errors.Is(err, node.ErrUnavailable):
		return fmt.Errorf("%w: %v", ErrMempoolUnavailable(network), err)
	}
	return err
}
