package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
)

// apiError is an error a client may see: a status and the exact message.
// Every message a client can read is constructed in this file, so a test
// table can check each one verbatim.
type apiError struct {
	status  int
	msg     string
	details any
	// retryAfter, when set, goes out as Retry-After (whole seconds, at least 1).
	retryAfter time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.status, e.msg) }

func newAPIError(status int, msg string) *apiError { return &apiError{status: status, msg: msg} }

// Generic and routing errors (DECISIONS.md "Envelope, numbers, routing").
var (
	errNotFoundRoute    = newAPIError(http.StatusNotFound, "Not found")
	errMethodNotAllowed = newAPIError(http.StatusMethodNotAllowed, "Method not allowed")
	errInvalidJSON      = newAPIError(http.StatusBadRequest, "Invalid JSON body")
	errBodyTooLarge     = newAPIError(http.StatusRequestEntityTooLarge, "Request body too large")
	errInternal         = newAPIError(http.StatusInternalServerError, "Internal server error")
	errChainUnavailable = newAPIError(http.StatusServiceUnavailable, "Chain database unavailable")
	errQueryTimeout     = newAPIError(http.StatusGatewayTimeout, "Query timed out")
	errAdminUnavailable = newAPIError(http.StatusServiceUnavailable, "Service temporarily unavailable")
	// errOverloaded: refused at once instead of queued (MAX_IN_FLIGHT, a
	// db-sync gate whose queue is full or too slow for the deadline).
	errOverloaded = func(retry time.Duration) *apiError {
		return &apiError{status: http.StatusServiceUnavailable, msg: "Service temporarily unavailable", retryAfter: max(retry, time.Second)}
	}
	// errClientGone: the client cancelled the request (closed the
	// connection) before the answer was ready. Nobody reads the body; the
	// status (nginx's 499) keeps it out of the 5xx counts and error logs.
	errClientGone = newAPIError(499, "Client closed request")
)

// Data-endpoint identifier errors (spec §7).
var (
	errInvalidAddress  = newAPIError(http.StatusBadRequest, "Invalid address format")
	errInvalidStakeKey = newAPIError(http.StatusBadRequest, "Invalid stake key format")
	errInvalidCred     = newAPIError(http.StatusBadRequest, "Invalid payment credential format")
	errInvalidTxHash   = newAPIError(http.StatusBadRequest, "Invalid transaction hash format (expected 64 hex characters)")
	errInvalidPoolID   = newAPIError(http.StatusBadRequest, "Invalid pool ID format (expected pool1... or 56 hex chars)")
	errInvalidAssetID  = newAPIError(http.StatusBadRequest, "Invalid asset identifier format. Expected: {policy_id}.{asset_name} where policy_id is 56 hex characters")
	errTxNotFound      = newAPIError(http.StatusNotFound, "Transaction not found")
	errAssetNotFound   = newAPIError(http.StatusNotFound, "Asset not found")
	errPoolNotFound    = newAPIError(http.StatusNotFound, "Pool not found")
	errInvalidMetaSrc  = newAPIError(http.StatusBadRequest, "Invalid metadata_source: must be one of auto, cip68, cip25, registry")
	// A db-sync layout that does not keep what the route reads
	// (docs/DECISIONS.md "db-sync layouts: what each one can answer").
	errPrunedDatabase   = newAPIError(http.StatusNotImplemented, "Not available on a pruned database")
	errNoOutputs        = newAPIError(http.StatusNotImplemented, "Not available: this db-sync stores no transaction outputs (tx_out.value: disable)")
	errNetworkNotServed = func(name string) *apiError {
		return newAPIError(http.StatusServiceUnavailable, "Network "+name+" is not served by this deployment")
	}
)

// errInvalidParam names the query parameter and its allowed range, e.g.
// "Invalid limit: must be an integer from 1 to 100".
func errInvalidParam(name, rule string) *apiError {
	return newAPIError(http.StatusBadRequest, "Invalid "+name+": "+rule)
}

// fail writes err as the envelope {success:false, error}. apiErrors go out
// as they are; db-sync sentinels get their fixed messages; anything else
// is a 500 whose cause goes only to the log, with the request id.
func fail(c *gin.Context, err error) {
	var ae *apiError
	shed := false
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, context.Canceled) && c.Request.Context().Err() != nil:
		ae = errClientGone
	case errors.Is(err, dbsync.ErrOverloaded):
		retry := time.Second
		if oe := (*dbsync.OverloadedError)(nil); errors.As(err, &oe) {
			retry = oe.RetryAfter
		}
		ae, shed = errOverloaded(retry), true
	case errors.Is(err, dbsync.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		ae = errQueryTimeout
	case errors.Is(err, dbsync.ErrUnavailable):
		// A server out of rotation is probed again within a second or two.
		ae = &apiError{status: errChainUnavailable.status, msg: errChainUnavailable.msg, retryAfter: time.Second}
	case pgconn.IsConnectionFailure(err):
		// Only the admin database is left: db-sync errors are classified
		// by dbsync. A dead dependency is a 503, not our bug.
		ae = errAdminUnavailable
	default:
		ae = errInternal
	}
	// A shed request is counted (syncgate_shed_total) and in the access
	// log; an error line each would flood the log exactly when it matters.
	if ae.status >= 500 && !shed {
		logger(c).Error("request failed", slog.String("request_id", requestID(c)),
			slog.Int("status", ae.status), slog.String("error", err.Error()))
	}
	if ae.retryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(max(1, ceilSeconds(ae.retryAfter))))
	}
	if ae.status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", "Bearer") // RFC 6750: the scheme the client must use
	}
	writeJSON(c, ae.status, envelope{Success: false, Error: ae.msg, Details: ae.details})
	c.Abort()
}
