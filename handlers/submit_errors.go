package handlers

import (
	"encoding/hex"
	"net/http"
)

// Transaction submission errors (DECISIONS.md "Transaction submission").
// Kept beside the endpoint; every message is checked verbatim in submit_test.go.
var (
	errTxNotString   = errInvalidTx("tx must be a hex string")
	errSkipValidType = errInvalidParam("skipValidation", "must be true or false")
	errNodeTimeout   = newAPIError(http.StatusGatewayTimeout, "Node did not answer in time")
)

// errInvalidTx: 400 "Invalid transaction: <reason>".
func errInvalidTx(reason string) *apiError {
	return newAPIError(http.StatusBadRequest, "Invalid transaction: "+reason)
}

// errInputUnavailable names the first input (<tx_hash>#<index>) that is not
// an unspent output in db-sync.
func errInputUnavailable(ref string) *apiError {
	return newAPIError(http.StatusBadRequest, "Transaction input not found or already spent: "+ref)
}

// errSubmitUnavailable: no node configured for the network, or it cannot be reached.
func errSubmitUnavailable(network string) *apiError {
	return newAPIError(http.StatusServiceUnavailable, "Transaction submission is unavailable for network "+network)
}

// rejectDetails is the error envelope's details on a node rejection: the
// reason exactly as the node sent it, for clients that decode it themselves.
type rejectDetails struct {
	ReasonCBOR string `json:"reasonCbor"`
}

// errTxRejected: the node refused the transaction; reason is readable.
func errTxRejected(reason string, reasonCBOR []byte) *apiError {
	e := newAPIError(http.StatusBadRequest, "Transaction rejected by node: "+reason)
	e.details = rejectDetails{ReasonCBOR: hex.EncodeToString(reasonCBOR)}
	return e
}
