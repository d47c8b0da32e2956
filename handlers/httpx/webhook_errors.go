package httpx

import (
	"net/http"
	"strconv"
	"strings"
)

// Messages of the webhook endpoints (docs/DECISIONS.md "Chain events").
var (
	ErrWebhooksOff          = NewAPIError(http.StatusServiceUnavailable, "Webhooks are not configured on this server")
	ErrWebhookNotFound      = NewAPIError(http.StatusNotFound, "Webhook not found")
	ErrWebhookEventNotFound = NewAPIError(http.StatusNotFound, "Event not found")
	ErrWebhookURLType       = NewAPIError(http.StatusBadRequest, "Invalid url: must be a string or null")
	ErrWebhookURLInvalid    = NewAPIError(http.StatusBadRequest, "Invalid url: must be an absolute URL such as https://example.com/hook")
	ErrWebhookURLHTTPS      = NewAPIError(http.StatusBadRequest, "Invalid url: the scheme must be https")
	ErrWebhookURLHTTP       = NewAPIError(http.StatusBadRequest, "Invalid url: the scheme must be http or https")
	ErrWebhookURLUserinfo   = NewAPIError(http.StatusBadRequest, "Invalid url: must not contain a user name or password")
	ErrWebhookURLPrivate    = NewAPIError(http.StatusBadRequest, "Invalid url: the host must not be a private, loopback, link-local or metadata address")
	ErrWebhookURLTooLong    = NewAPIError(http.StatusBadRequest, "Invalid url: must be 2048 characters or less")
	ErrWebhookDescription   = NewAPIError(http.StatusBadRequest, "Invalid description: must be a string of 255 characters or less")
	ErrWebhookDepth         = NewAPIError(http.StatusBadRequest, "Invalid depth: must be an integer from 0 to 2160")
	ErrWebhookStatus        = NewAPIError(http.StatusBadRequest, `Invalid status: only "active" may be set (it re-enables a disabled webhook)`)
	ErrWebhookPatchNone     = NewAPIError(http.StatusBadRequest, "At least one field (url, description, depth, event_types, status) must be provided")
	ErrWebhookCursor        = ErrInvalidParam("cursor", "must be the next_cursor of a previous page")
	ErrWebhookAfter         = ErrInvalidParam("after", "must be a non-negative integer (an event sequence number)")
	ErrWebhookOverlap       = NewAPIError(http.StatusBadRequest, "Invalid overlap_seconds: must be an integer from 0 to 86400")
	ErrWebhookReason        = NewAPIError(http.StatusBadRequest, "Invalid reason: must be a string of 255 characters or less")
	ErrWebhookNotPushable   = NewAPIError(http.StatusConflict, "Webhook does not push events: it has no url or is disabled")
)

// ErrWebhookFormat names the body formats a webhook may be sent in.
func ErrWebhookFormat(formats []string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Invalid format: must be one of: "+strings.Join(formats, ", "))
}

// ErrWebhookNetwork: the admin creation's network is missing or not one
// this server serves (served, in network_id order).
func ErrWebhookNetwork(served []string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Invalid network: required, one of the networks this server serves: "+strings.Join(served, ", "))
}

// ErrWebhookEventTypes names the event types a webhook may ask for.
func ErrWebhookEventTypes(types []string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Invalid event_types: must be a non-empty array of: "+strings.Join(types, ", "))
}

// ErrTooManyWebhooks: the user already holds limit webhooks.
func ErrTooManyWebhooks(limit int) *APIError {
	return NewAPIError(http.StatusConflict, "Webhook limit reached: a user may hold at most "+strconv.Itoa(limit)+" webhooks")
}

// ErrWatchSetFull: the batch would take the watch set past limit.
func ErrWatchSetFull(limit int) *APIError {
	return NewAPIError(http.StatusConflict, "Watch set limit reached: a webhook may hold at most "+strconv.Itoa(limit)+" items")
}

// ErrItemsField: the items field is not an array of at most max items.
func ErrItemsField(max int, required bool) *APIError {
	rule := "must be an array of at most " + strconv.Itoa(max) + " {kind, value} objects"
	if required {
		rule = "must be a non-empty array of at most " + strconv.Itoa(max) + " {kind, value} objects"
	}
	return NewAPIError(http.StatusBadRequest, "Invalid items: "+rule)
}

// Watch item problems (ErrWatchItem's problem).
const (
	ItemNotObject     = "must be an object with string fields kind and value"
	ItemAddress       = "not a payment address (bech32 or Byron base58) of the webhook's network"
	ItemStakeAddress  = "not a stake address (bech32) of the webhook's network"
	ItemCredential    = "not a payment credential (56 hex characters, addr_vkh1… or script1…)"
	ItemPolicy        = "not a policy id (56 hex characters)"
	ItemAsset         = "not an asset unit (policy id followed by the asset name: 56 to 120 hex characters, or policy.name)"
	ItemTx            = "not a transaction hash (64 hex characters)"
	ItemPool          = "not a pool id (pool1… or 56 hex characters)"
	ItemDRep          = "not a DRep id (drep1… as CIP-129 or CIP-105, drep_script1…, drep_always_abstain or drep_always_no_confidence)"
	itemKindsLeadText = "kind must be one of: "
)

// ErrWatchItem names the item (its index in the request) and its problem.
func ErrWatchItem(index int, problem string) *APIError {
	return NewAPIError(http.StatusBadRequest, "Invalid items["+strconv.Itoa(index)+"]: "+problem)
}

// ItemUnknownKind is the problem of an item whose kind is not one of kinds.
func ItemUnknownKind(kinds []string) string { return itemKindsLeadText + strings.Join(kinds, ", ") }
