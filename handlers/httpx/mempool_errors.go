package httpx

import "net/http"

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
