package httpx

import (
	"encoding/hex"
	"net/http"
)

// Transaction submission errors (DECISIONS.md "Transaction submission").
// Kept beside the endpoint; every message is checked verbatim in submit_test.go.
var (
	ErrTxNotString   = ErrInvalidTx("tx must be a hex string")
	ErrSkipValidType = ErrInvalidParam("skipValidation", "must be true or false")
	ErrNodeTimeout   = NewAPIError(http.StatusGatewayTimeout, "Node did not answer in time")
)

// ErrInvalidTx: 400 "Invalid transaction: <reason>".
func ErrInvalidTx(reason string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Invalid transaction: "+reason)
}

// ErrInputUnavailable names the first input (<tx_hash>#<index>) that is not
// an unspent output in db-sync.
func ErrInputUnavailable(ref string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Transaction input not found or already spent: "+ref)
}

// ErrSubmitUnavailable: no node configured for the network, or it cannot be reached.
func ErrSubmitUnavailable(network string) *APIError {
	return NewAPIError(http.StatusServiceUnavailable, "Transaction submission is unavailable for network "+network)
}

// rejectDetails is the error envelope's details on a node rejection: the
// reason exactly as the node sent it, for clients that decode it themselves.
type rejectDetails struct {
	ReasonCBOR string `json:"reasonCbor"`
}

// ErrTxRejected: the node refused the transaction; reason is readable.
func ErrTxRejected(reason string, reasonCBOR []byte) *APIError {
	e := NewAPIError(http.StatusBadRequest, "Transaction rejected by node: "+reason)
	e.details = rejectDetails{ReasonCBOR: hex.EncodeToString(reasonCBOR)}
	return e
}
