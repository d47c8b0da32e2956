package httpx

import (
	"net/http"
	"testing"
	"time"
)

// Every status the Blockfrost dialect can answer maps to Blockfrost's
// status, error name and message (docs/DECISIONS.md "Blockfrost dialect").
func TestBlockfrostErrorBodies(t *testing.T) {
	cases := []struct {
		in        *APIError
		status    int
		name, msg string
	}{
		{ErrMissingProjectID, 403, "Forbidden", "Missing project token. Please include project_id in your request."},
		{ErrMissingAuth, 403, "Forbidden", "Missing project token. Please include project_id in your request."},
		{ErrInvalidKey, 403, "Forbidden", "Invalid project token."},
		{ErrKeyRevoked, 403, "Forbidden", "Invalid project token. API key has been revoked."},
		{ErrKeyExpired, 403, "Forbidden", "Invalid project token. API key has expired."},
		{ErrUserInactive, 403, "Forbidden", "Invalid project token. User account is not active."},
		{ErrInvalidTxHash, 400, "Bad Request", ErrInvalidTxHash.msg},
		{ErrNotFoundRoute, 404, "Not Found", "The requested component has not been found."},
		{ErrTxNotFound, 404, "Not Found", "The requested component has not been found."},
		{ErrQuotaExceeded("daily", 10, 24*time.Hour, time.Hour), 402, "Payment Required", ErrDailyQuotaOver},
		{ErrRateLimited(60), 429, "Project Over Limit", "Usage is over limit. Rate limit exceeded: 60 requests per minute."},
		{NewAPIError(425, "Mempool is full, please try resubmitting again later."), 425, "Mempool Full", "Mempool is full, please try resubmitting again later."},
		{ErrInternal, 500, "Internal Server Error", "An unexpected response was received from the backend."},
		{ErrPrunedDatabase, 501, "Not Implemented", ErrPrunedDatabase.msg},
		{ErrChainUnavailable, 503, "Service Unavailable", ErrChainUnavailable.msg},
		{ErrQueryTimeout, 504, "Gateway Timeout", ErrQueryTimeout.msg},
		{ErrBodyTooLarge, http.StatusRequestEntityTooLarge, "Request Entity Too Large", ErrBodyTooLarge.msg},
	}
	for _, c := range cases {
		status, body := blockfrostBody(c.in)
		if status != c.status || body.StatusCode != c.status || body.Error != c.name || body.Message != c.msg {
			t.Errorf("%v: %d %+v, want %d %q %q", c.in, status, body, c.status, c.name, c.msg)
		}
	}
}
