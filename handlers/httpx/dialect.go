package httpx

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// BlockfrostPrefix is where the Blockfrost dialect is served
// (spec/blockfrost.md). Every answer under it, errors included, is in
// Blockfrost's shape, whichever middleware or handler writes it.
const BlockfrostPrefix = "/api/v0"

// IsBlockfrost reports whether the request is in the Blockfrost dialect.
// It is decided by the path (after a key prefix is taken off, keypath.go),
// so middleware that runs before the dialect's routes match (in-flight
// bound, body limit, unknown paths) answers in the right shape too.
func IsBlockfrost(c *gin.Context) bool {
	p := c.Request.URL.Path
	return p == BlockfrostPrefix || strings.HasPrefix(p, BlockfrostPrefix+"/")
}

// BlockfrostError is the body of every Blockfrost error answer.
type BlockfrostError struct {
	StatusCode int    `json:"status_code"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// Blockfrost's fixed messages (its openapi.yaml's error examples), for the
// statuses where ours say nothing more useful.
const (
	bfMsgNotFound  = "The requested component has not been found."
	bfMsgForbidden = "Invalid project token."
	bfMsgMissing   = "Missing project token. Please include project_id in your request."
	bfMsgOverLimit = "Usage is over limit."
	bfMsgInternal  = "An unexpected response was received from the backend."
)

// blockfrostBody turns an APIError into Blockfrost's status and body.
// Authentication failures are Blockfrost's 403 (it has no 401): a missing
// key says how to send one, any other failure says the token is invalid
// and, where it helps, why (revoked, expired, inactive user). Not-found
// answers keep Blockfrost's wording; 400s, 402s, 501s and 503s keep ours,
// which name the parameter or the reason.
func blockfrostBody(ae *APIError) (int, BlockfrostError) {
	status, msg := ae.status, ae.msg
	switch {
	case ae == ErrMissingAuth || ae == ErrMissingProjectID:
		status, msg = http.StatusForbidden, bfMsgMissing
	case ae == ErrInvalidKey:
		status, msg = http.StatusForbidden, bfMsgForbidden
	case status == http.StatusUnauthorized:
		status, msg = http.StatusForbidden, bfMsgForbidden+" "+msg+"."
	case status == http.StatusNotFound && strings.HasSuffix(strings.ToLower(msg), "not found"):
		msg = bfMsgNotFound
	case status == http.StatusTooManyRequests:
		msg = bfMsgOverLimit + " " + msg + "."
	case status == http.StatusInternalServerError:
		msg = bfMsgInternal
	}
	return status, BlockfrostError{StatusCode: status, Error: blockfrostErrorName(status), Message: msg}
}

// blockfrostErrorName is the "error" field: Blockfrost's names where its
// document has one, the HTTP reason phrase otherwise.
func blockfrostErrorName(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "Project Over Limit"
	case 418:
		return "Requested Banned"
	case 425:
		return "Mempool Full"
	case 499:
		return "Client Closed Request"
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

// writeBlockfrostError writes ae in Blockfrost's shape.
func writeBlockfrostError(c *gin.Context, ae *APIError) {
	status, body := blockfrostBody(ae)
	WriteJSON(c, status, body)
}

// ErrMissingProjectID: a Blockfrost request without a project_id header
// or key path prefix.
var ErrMissingProjectID = NewAPIError(http.StatusUnauthorized, "Missing project_id header")

// ProjectKey extracts the key of a Blockfrost request: the project_id
// header (the key path prefix is turned into that header before routing).
func ProjectKey(c *gin.Context) (string, bool) {
	key := strings.TrimSpace(c.GetHeader("project_id"))
	return key, key != ""
}
