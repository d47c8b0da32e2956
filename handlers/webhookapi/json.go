package webhookapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/events"
)

// webhookJSON is a webhook (OpenAPI schema Webhook); Secret only in the
// creation answer.
type webhookJSON struct {
	ID                 uuid.UUID `json:"id"`
	UserAccountID      uuid.UUID `json:"user_account_id"`
	Network            string    `json:"network"`
	URL                *string   `json:"url"`
	Description        string    `json:"description"`
	Depth              int       `json:"depth"`
	EventTypes         []string  `json:"event_types"`
	Status             string    `json:"status"`
	DisabledReason     *string   `json:"disabled_reason"`
	DisabledAt         *string   `json:"disabled_at"`
	FailingSince       *string   `json:"failing_since"`
	Items              int       `json:"items"`
	LastSeq            int64     `json:"last_seq"`
	CreatedAt          string    `json:"created_at"`
	UpdatedAt          *string   `json:"updated_at"`
	SecretRollingUntil *string   `json:"secret_rolling_until"`
	Format             string    `json:"format"`
	Secret             string    `json:"secret,omitempty"`
}

func (a *API) view(w events.Webhook) webhookJSON {
	return webhookJSON{
		ID: w.ID, UserAccountID: w.UserAccountID, Network: w.Network, URL: w.URL, Description: w.Description,
		Depth: w.Depth, EventTypes: w.EventTypes, Status: w.Status, DisabledReason: w.DisabledReason,
		DisabledAt: isoTimePtr(w.DisabledAt), FailingSince: isoTimePtr(w.FailingSince), Items: w.Items, LastSeq: w.LastSeq, CreatedAt: isoTime(w.CreatedAt),
		UpdatedAt: isoTimePtr(w.UpdatedAt), SecretRollingUntil: isoTimePtr(w.SecretRollingUntil(a.deps.Now())),
		Format: w.Format,
	}
}

// deliveryJSON is one push delivery (OpenAPI schema Delivery).
type deliveryJSON struct {
	EventID       uuid.UUID `json:"event_id"`
	EventSeq      int64     `json:"event_seq"`
	EventType     string    `json:"event_type"`
	Status        string    `json:"status"`
	Attempts      int       `json:"attempts"`
	LastCode      *int      `json:"last_code"`
	LastLatencyMS *int      `json:"last_latency_ms"`
	LastError     *string   `json:"last_error"`
	LastAttemptAt *string   `json:"last_attempt_at"`
	// LastSignatureHeaders: what the last attempt sent to be verified
	// (null until a request is sent).
	LastSignatureHeaders events.SentHeaders `json:"last_signature_headers"`
	DeliveredAt          *string            `json:"delivered_at"`
	CreatedAt            string             `json:"created_at"`
}

func deliveryView(d events.Delivery) deliveryJSON {
	return deliveryJSON{EventID: d.EventID, EventSeq: d.Seq, EventType: d.Type, Status: d.Status, Attempts: d.Attempts,
		LastCode: d.LastCode, LastLatencyMS: d.LastLatencyMS, LastError: d.LastError,
		LastAttemptAt: isoTimePtr(d.LastAttemptAt), LastSignatureHeaders: d.LastHeaders, DeliveredAt: isoTimePtr(d.DeliveredAt),
		CreatedAt: isoTime(d.CreatedAt)}
}

// isoTime is how records write times (as the admin API: ISO 8601, UTC,
// milliseconds, Z).
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func isoTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := isoTime(*t)
	return &s
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// urlField reads url: nil for null (pull only), else a checked URL.
func (a *API) urlField(raw json.RawMessage) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, httpx.ErrWebhookURLType
	}
	allow := a.deps.Config.WebhookAllowPrivate
	switch err := events.CheckURL(s, allow); {
	case err == nil:
		return &s, nil
	case errors.Is(err, events.ErrURLTooLong):
		return nil, httpx.ErrWebhookURLTooLong
	case errors.Is(err, events.ErrURLScheme) && allow:
		return nil, httpx.ErrWebhookURLHTTP
	case errors.Is(err, events.ErrURLScheme):
		return nil, httpx.ErrWebhookURLHTTPS
	case errors.Is(err, events.ErrURLUserinfo):
		return nil, httpx.ErrWebhookURLUserinfo
	case errors.Is(err, events.ErrURLPrivate):
		return nil, httpx.ErrWebhookURLPrivate
	default:
		return nil, httpx.ErrWebhookURLInvalid
	}
}

// textField reads a string of at most 255 characters without NUL (the
// description, the disable reason); bad is the field's 400.
func textField(raw json.RawMessage, bad *httpx.APIError) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || utf8.RuneCountInString(s) > 255 || strings.ContainsRune(s, 0) {
		return "", bad
	}
	return s, nil
}

func depthField(raw json.RawMessage) (int, error) {
	n, err := jsonInt(raw)
	if err != nil || n < 0 || n > events.MaxDepth {
		return 0, httpx.ErrWebhookDepth
	}
	return n, nil
}

// jsonInt decodes a JSON integer literal (no fraction, no exponent).
func jsonInt(raw json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(raw))
	if s == "" || strings.ContainsAny(s, ".eE\"") {
		return 0, errors.New("not an integer")
	}
	var n int
	err := json.Unmarshal([]byte(s), &n)
	return n, err
}

// eventTypesField reads a non-empty array of subscribable types (duplicates dropped).
func eventTypesField(raw json.RawMessage) ([]string, error) {
	bad := httpx.ErrWebhookEventTypes(events.SubscribableTypes)
	var in []string
	if err := json.Unmarshal(raw, &in); err != nil || len(in) == 0 {
		return nil, bad
	}
	var out []string
	for _, t := range in {
		if !slices.Contains(events.SubscribableTypes, t) {
			return nil, bad
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// formatField reads the body format ("standard" or "blockfrost").
func formatField(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(events.Formats, s) {
		return "", httpx.ErrWebhookFormat(events.Formats)
	}
	return s, nil
}

// itemsField reads and canonicalises a watch-item array for the network
// (duplicates dropped); the first bad item is a 400 naming its index.
func itemsField(raw json.RawMessage, mainnet, required bool) ([]events.Item, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) > events.MaxItemsPerBatch || (required && len(list) == 0) {
		return nil, httpx.ErrItemsField(events.MaxItemsPerBatch, required)
	}
	out := make([]events.Item, 0, len(list))
	seen := make(map[events.Item]bool, len(list))
	for i, r := range list {
		var in map[string]json.RawMessage
		if err := json.Unmarshal(r, &in); err != nil || in == nil || len(in) != 2 {
			return nil, httpx.ErrWatchItem(i, httpx.ItemNotObject)
		}
		var kind, value string
		if json.Unmarshal(in["kind"], &kind) != nil || json.Unmarshal(in["value"], &value) != nil || in["kind"] == nil || in["value"] == nil {
			return nil, httpx.ErrWatchItem(i, httpx.ItemNotObject)
		}
		it, err := events.CanonicalItem(kind, value, mainnet)
		if err != nil {
			return nil, httpx.ErrWatchItem(i, itemProblem(err))
		}
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out, nil
}

func itemProblem(err error) string {
	switch {
	case errors.Is(err, events.ErrItemAddress):
		return httpx.ItemAddress
	case errors.Is(err, events.ErrItemStake):
		return httpx.ItemStakeAddress
	case errors.Is(err, events.ErrItemCredential):
		return httpx.ItemCredential
	case errors.Is(err, events.ErrItemPolicy):
		return httpx.ItemPolicy
	case errors.Is(err, events.ErrItemAsset):
		return httpx.ItemAsset
	case errors.Is(err, events.ErrItemTx):
		return httpx.ItemTx
	case errors.Is(err, events.ErrItemPool):
		return httpx.ItemPool
	case errors.Is(err, events.ErrItemDRep):
		return httpx.ItemDRep
	}
	return httpx.ItemUnknownKind(events.Kinds)
}
