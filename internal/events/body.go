package events

import (
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// Body is an event as pushed and as served by the pull feed, byte for
// byte the same (webhook_events.body).
type Body struct {
	ID        uuid.UUID       `json:"id"`
	Type      string          `json:"type"`
	WebhookID uuid.UUID       `json:"webhook_id"`
	Seq       int64           `json:"seq"`
	Network   string          `json:"network"`
	CreatedAt time.Time       `json:"created_at"`
	Block     *BlockJSON      `json:"block"`
	Tip       *BlockJSON      `json:"tip"`
	Data      json.RawMessage `json:"data"`
}

// BlockJSON is a block in an event: the block holding the transaction, or
// the tip the event was decided at (no time).
type BlockJSON struct {
	Hash   string     `json:"hash"`
	Height int64      `json:"height"`
	Slot   int64      `json:"slot"`
	Time   *time.Time `json:"time,omitempty"`
}

func blockJSON(b *BlockRef) *BlockJSON {
	if b == nil {
		return nil
	}
	j := &BlockJSON{Hash: hex.EncodeToString(b.Hash), Height: b.Height, Slot: b.Slot}
	if !b.Time.IsZero() {
		t := b.Time.UTC()
		j.Time = &t
	}
	return j
}

// TxConfirmed is the data of a tx.confirmed event.
type TxConfirmed struct {
	TxHash        string `json:"tx_hash"`
	Fee           string `json:"fee"`
	Depth         int    `json:"depth"`
	Confirmations int64  `json:"confirmations"`
	// ValidContract false: a failed phase-2 script transaction, announced
	// with its collateral movement only.
	ValidContract bool           `json:"valid_contract"`
	Items         []ItemMovement `json:"items"`
}

// ItemMovement is what one matched watch item received and sent in a
// transaction.
type ItemMovement struct {
	Kind     string `json:"kind"`
	Value    string `json:"value"`
	Received Amount `json:"received"`
	Sent     Amount `json:"sent"`
}

// Amount is lovelace and assets, as exact decimal strings.
type Amount struct {
	Lovelace string        `json:"lovelace"`
	Assets   []AssetAmount `json:"assets"`
}

// AssetAmount is one native asset's quantity.
type AssetAmount struct {
	Unit     string `json:"unit"` // policy id || asset name, hex
	Quantity string `json:"quantity"`
}

// TxRolledBack is the data of a tx.rolled_back event.
type TxRolledBack struct {
	TxHash     string    `json:"tx_hash"`
	Revokes    uuid.UUID `json:"revokes"`
	RevokedSeq int64     `json:"revoked_seq"`
}

// WebhookNote is the data of webhook.test and webhook.disabled events.
type WebhookNote struct {
	Message string `json:"message"`
}
