package events

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// Blockfrost's webhook event types.
const (
	BlockfrostTransaction = "transaction"
	BlockfrostBlock       = "block"
	BlockfrostDelegation  = "delegation"
	BlockfrostEpoch       = "epoch"
)

// blockfrostEnvelope is Blockfrost's webhook request body (api_version 1).
type blockfrostEnvelope struct {
	ID         uuid.UUID       `json:"id"`
	WebhookID  uuid.UUID       `json:"webhook_id"`
	Created    int64           `json:"created"`
	APIVersion int             `json:"api_version"`
	Type       string          `json:"type"`
	Payload    json.RawMessage `json:"payload"`
}

// blockfrostBody is event e's body for a Blockfrost-format webhook: its
// Blockfrost payload, or (an event Blockfrost has no type for: undos,
// webhook.*, quota notices) syncgate's type and data in the envelope, in
// the form JSON.stringify writes (JSCanonical).
func blockfrostBody(id uuid.UUID, e NewEvent, data []byte, created time.Time) ([]byte, error) {
	env := blockfrostEnvelope{ID: id, WebhookID: e.WebhookID, Created: created.Unix(), APIVersion: 1, Type: e.Type, Payload: data}
	if e.Blockfrost != nil {
		env.Type, env.Payload = e.Blockfrost.Type, e.Blockfrost.Payload
	}
	raw, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	return JSCanonical(raw)
}
