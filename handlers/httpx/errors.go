package httpx

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
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
)

// APIError is an error a client may see: a status and the exact message.
// Every message a client can read is constructed in this file, so a test
// table can check each one verbatim.
type APIError struct {
	status  int
	msg     string
	details any
	// retryAfter, when set, goes out as Retry-After (whole seconds, at least 1).
	retryAfter time.Duration
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s", e.status, e.msg) }

// Status is the HTTP status the error is answered with.
func (e *APIError) Status() int { return e.status }

// Message is the exact message the client reads.
func (e *APIError) Message() string { return e.msg }

func NewAPIError(status int, msg string) *APIError { return &APIError{status: status, msg: msg} }

// Generic and routing errors (DECISIONS.md "Envelope, numbers, routing").
var (
	ErrNotFoundRoute    = NewAPIError(http.StatusNotFound, "Not found")
	ErrMethodNotAllowed = NewAPIError(http.StatusMethodNotAllowed, "Method not allowed")
	ErrInvalidJSON      = NewAPIError(http.StatusBadRequest, "Invalid JSON body")
	ErrBodyTooLarge     = NewAPIError(http.StatusRequestEntityTooLarge, "Request body too large")
	ErrMediaType        = NewAPIError(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
	ErrInternal         = NewAPIError(http.StatusInternalServerError, "Internal server error")
	ErrChainUnavailable = NewAPIError(http.StatusServiceUnavailable, "Chain database unavailable")
	ErrQueryTimeout     = NewAPIError(http.StatusGatewayTimeout, "Query timed out")
	ErrAdminUnavailable = NewAPIError(http.StatusServiceUnavailable, "Service temporarily unavailable")
	// ErrOverloaded: refused at once instead of queued (MAX_IN_FLIGHT, a
	// db-sync gate whose queue is full or too slow for the deadline).
	ErrOverloaded = func(retry time.Duration) *APIError {
		return &APIError{status: http.StatusServiceUnavailable, msg: "Service temporarily unavailable", retryAfter: max(retry, time.Second)}
	}
	// ErrClientGone: the client cancelled the request (closed the
	// connection) before the answer was ready. Nobody reads the body; the
	// status (nginx's 499) keeps it out of the 5xx counts and error logs.
	ErrClientGone = NewAPIError(499, "Client closed request")
)

// Data-endpoint identifier errors: 400 with the message naming the identifier.
var (
	ErrInvalidAddress  = NewAPIError(http.StatusBadRequest, "Invalid address format")
	ErrInvalidStakeKey = NewAPIError(http.StatusBadRequest, "Invalid stake key format")
	ErrInvalidCred     = NewAPIError(http.StatusBadRequest, "Invalid payment credential format")
	ErrInvalidTxHash   = NewAPIError(http.StatusBadRequest, "Invalid transaction hash format (expected 64 hex characters)")
	ErrInvalidPoolID   = NewAPIError(http.StatusBadRequest, "Invalid pool ID format (expected pool1... or 56 hex chars)")
	ErrInvalidAssetID  = NewAPIError(http.StatusBadRequest, "Invalid asset identifier format. Expected: {policy_id}.{asset_name} where policy_id is 56 hex characters")
	ErrTxNotFound      = NewAPIError(http.StatusNotFound, "Transaction not found")
	ErrAssetNotFound   = NewAPIError(http.StatusNotFound, "Asset not found")
	ErrPoolNotFound    = NewAPIError(http.StatusNotFound, "Pool not found")
	// An epoch with no parameters: a Byron epoch, the next epoch before it
	// begins, or a db-sync that keeps no ledger state.
	ErrEpochParamsNotFound = NewAPIError(http.StatusNotFound, "Epoch parameters not found")
	// ErrInvalidEpoch: :epoch is not a non-negative integer.
	ErrInvalidEpoch   = ErrInvalidParam("epoch", "must be a non-negative integer")
	ErrInvalidMetaSrc = NewAPIError(http.StatusBadRequest, "Invalid metadata_source: must be one of auto, cip68, cip25, registry")
	// A db-sync layout that does not keep what the route reads
	// (docs/DECISIONS.md "db-sync layouts: what each one can answer").
	ErrPrunedDatabase   = NewAPIError(http.StatusNotImplemented, "Not available on a pruned database")
	ErrNoOutputs        = NewAPIError(http.StatusNotImplemented, "Not available: this db-sync stores no transaction outputs (tx_out.value: disable)")
	ErrNetworkNotServed = func(name string) *APIError {
		return NewAPIError(http.StatusServiceUnavailable, "Network "+name+" is not served by this deployment")
	}
)

// Read-your-writes errors (min_slot, DECISIONS.md "Read your writes").
var (
	ErrInvalidMinSlot = ErrInvalidParam("min_slot", "must be a non-negative integer (a slot number)")
	// ErrMinSlotTooFar: no wait could reach it.
	ErrMinSlotTooFar = func(minSlot, tipSlot, epochLength int64) *APIError {
		return NewAPIError(http.StatusBadRequest, fmt.Sprintf(
			"Invalid min_slot: slot %d is more than one epoch (%d slots) ahead of the chain tip (slot %d)", minSlot, epochLength, tipSlot))
	}
	// ErrChainBehind: db-sync did not reach min_slot within the wait;
	// retry after about one second per missing slot (one-second slots),
	// at most a block interval.
	ErrChainBehind = func(minSlot, tipSlot int64) *APIError {
		retry := time.Duration(min(max(minSlot-tipSlot, 1), 20)) * time.Second
		return &APIError{status: http.StatusServiceUnavailable, msg: "Chain not yet at slot " + strconv.FormatInt(minSlot, 10), retryAfter: retry}
	}
)

// Authentication errors (DECISIONS.md "Authentication").
var (
	ErrMissingAuth  = NewAPIError(http.StatusUnauthorized, "Missing or malformed Authorization header")
	ErrInvalidKey   = NewAPIError(http.StatusUnauthorized, "Invalid API key")
	ErrKeyRevoked   = NewAPIError(http.StatusUnauthorized, "API key has been revoked")
	ErrKeyExpired   = NewAPIError(http.StatusUnauthorized, "API key has expired")
	ErrUserInactive = NewAPIError(http.StatusUnauthorized, "User account is not active")
)

// ErrRateLimited is DECISIONS.md's 429 for a credential over its limit.
func ErrRateLimited(perMinute int) *APIError {
	return NewAPIError(http.StatusTooManyRequests, "Rate limit exceeded: "+strconv.Itoa(perMinute)+" requests per minute")
}

var ErrHeadersTooLarge = NewAPIError(http.StatusRequestHeaderFieldsTooLarge, "Request header fields too large")

// ErrEpochOutOfRange: :epoch is past the next epoch, whose parameters no
// chain can have yet.
func ErrEpochOutOfRange(maxEpoch int64) *APIError {
	return ErrInvalidParam("epoch", "must be an integer from 0 to "+strconv.FormatInt(maxEpoch, 10)+" (the current epoch + 1)")
}

// ErrInvalidParam names the query parameter and its allowed range, e.g.
// "Invalid limit: must be an integer from 1 to 100".
func ErrInvalidParam(name, rule string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Invalid "+name+": "+rule)
}

// Fail writes err as the envelope {success:false, error}. APIErrors go out
// as they are; db-sync sentinels get their fixed messages; anything else
// is a 500 whose cause goes only to the log, with the request id.
func Fail(c *gin.Context, err error) {
	var ae *APIError
	var outOfRange *answer.EpochOutOfRangeError
	shed := false
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, answer.ErrTxNotFound):
		ae = ErrTxNotFound
	case errors.Is(err, answer.ErrAssetNotFound):
		ae = ErrAssetNotFound
	case errors.Is(err, answer.ErrPoolNotFound):
		ae = ErrPoolNotFound
	case errors.Is(err, answer.ErrNotFound):
		ae = ErrNotFoundRoute
	case errors.As(err, new(*answer.ErrChainBehind)):
		var e *answer.ErrChainBehind
		errors.As(err, &e)
		ae, shed = ErrChainBehind(e.MinSlot, e.Tip.SlotNo), true
	case errors.As(err, new(*answer.ErrSlotTooFar)):
		var e *answer.ErrSlotTooFar
		errors.As(err, &e)
		ae = ErrMinSlotTooFar(e.MinSlot, e.Tip.SlotNo, e.EpochLength)
	case errors.Is(err, answer.ErrEpochParamsNotFound):
		ae = ErrEpochParamsNotFound
	case errors.As(err, &outOfRange):
		ae = ErrEpochOutOfRange(outOfRange.Max)
	case errors.Is(err, context.Canceled) && c.Request.Context().Err() != nil:
		ae = ErrClientGone
	case errors.Is(err, dbsync.ErrOverloaded):
		retry := time.Second
		if oe := (*dbsync.OverloadedError)(nil); errors.As(err, &oe) {
			retry = oe.RetryAfter
		}
		ae, shed = ErrOverloaded(retry), true
	case errors.Is(err, dbsync.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		ae = ErrQueryTimeout
	case errors.Is(err, dbsync.ErrUnavailable):
		// A server out of rotation is probed again within a second or two.
		ae = &APIError{status: ErrChainUnavailable.status, msg: ErrChainUnavailable.msg, retryAfter: time.Second}
	case pgconn.IsConnectionFailure(err):
		// Only the admin database is left: db-sync errors are classified
		// by dbsync. A dead dependency is a 503, not our bug.
		ae = ErrAdminUnavailable
	default:
		ae = ErrInternal
	}
	// A shed request is counted (syncgate_shed_total) and in the access
	// log; an error line each would flood the log exactly when it matters.
	// A min_slot not reached is the client's wait running out, not a fault.
	if ae.status >= 500 && !shed {
		Logger(c).Error("request failed", slog.String("request_id", RequestID(c)),
			slog.Int("status", ae.status), slog.String("error", err.Error()))
	}
	if ae.retryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(max(1, CeilSeconds(ae.retryAfter))))
	}
	WriteError(c, ae)
	c.Abort()
}

// WriteError writes ae in the request's dialect: Blockfrost's body under
// /api/v0, the envelope elsewhere. It logs nothing (Fail does, and the
// panic recovery logs the panic itself).
func WriteError(c *gin.Context, ae *APIError) {
	if IsBlockfrost(c) {
		writeBlockfrostError(c, ae)
		return
	}
	if ae.status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", "Bearer") // RFC 6750: the scheme the client must use
	}
	WriteJSON(c, ae.status, Envelope{Success: false, Error: ae.msg, Details: ae.details})
}
