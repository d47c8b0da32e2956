// Package events is the store of chain events for partners' users:
// webhooks and their watch sets, the events decided for them (the pull
// feed reads these rows and push delivery sends them, so the two never
// disagree), push delivery records and each network's scanner checkpoint.
// It lives in the admin database (syncgate schema, migration 0011).
package events

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
)

// Event types.
const (
	TypeTxConfirmed          = "tx.confirmed"
	TypeTxRolledBack         = "tx.rolled_back"
	TypeBlockAdded           = "block.added"
	TypeBlockRolledBack      = "block.rolled_back"
	TypeEpochStarted         = "epoch.started"
	TypeEpochRolledBack      = "epoch.rolled_back"
	TypeDelegationConfirmed  = "delegation.confirmed"
	TypeDelegationRolledBack = "delegation.rolled_back"
	TypeWebhookTest          = "webhook.test"
	TypeWebhookDisabled      = "webhook.disabled"
)

// SubscribableTypes are the event types a webhook may ask for (the
// webhook.* events are always delivered).
var SubscribableTypes = []string{TypeTxConfirmed, TypeTxRolledBack, TypeBlockAdded, TypeBlockRolledBack,
	TypeEpochStarted, TypeEpochRolledBack, TypeDelegationConfirmed, TypeDelegationRolledBack}

// DefaultTypes are a new webhook's event types when it names none: the
// transaction events (a webhook made before the block, epoch and
// delegation kinds existed got these, and every block is not a default
// anyone would want).
var DefaultTypes = []string{TypeTxConfirmed, TypeTxRolledBack}

// UndoOf is, for each announcing type, the type that revokes one of its
// events when a rollback removes its block.
var UndoOf = map[string]string{
	TypeTxConfirmed:         TypeTxRolledBack,
	TypeBlockAdded:          TypeBlockRolledBack,
	TypeEpochStarted:        TypeEpochRolledBack,
	TypeDelegationConfirmed: TypeDelegationRolledBack,
}

// Body formats: syncgate's own, or Blockfrost's webhook envelope.
const (
	FormatStandard   = "standard"
	FormatBlockfrost = "blockfrost"
)

// Formats lists every body format.
var Formats = []string{FormatStandard, FormatBlockfrost}

// Watch item kinds.
const (
	KindAddress           = "address"
	KindStakeAddress      = "stake_address"
	KindPaymentCredential = "payment_credential"
	KindPolicy            = "policy"
	KindAsset             = "asset"
	KindTx                = "tx"
	KindPool              = "pool"
	KindDRep              = "drep"
)

// Kinds lists every watch item kind.
var Kinds = []string{KindAddress, KindStakeAddress, KindPaymentCredential, KindPolicy, KindAsset, KindTx, KindPool, KindDRep}

// Limits.
const (
	MaxDepth         = 2160
	MaxItems         = 100_000 // per webhook
	MaxItemsPerBatch = 10_000  // per add or remove request
)

// Webhook statuses.
const (
	StatusActive   = "active"
	StatusDisabled = "disabled"
)

// Webhook is one row of syncgate.webhooks (the sealed secrets stay in the
// store).
type Webhook struct {
	ID             uuid.UUID  `db:"id"`
	UserAccountID  uuid.UUID  `db:"user_account_id"`
	Network        string     `db:"network"`
	URL            *string    `db:"url"` // nil: pull only
	Description    string     `db:"description"`
	Depth          int        `db:"depth"`
	EventTypes     []string   `db:"-"`
	Status         string     `db:"status"`
	DisabledReason *string    `db:"disabled_reason"`
	DisabledAt     *time.Time `db:"disabled_at"`
	Items          int        `db:"items"`
	LastSeq        int64      `db:"last_seq"`
	ScannedThrough int64      `db:"scanned_through"`
	FailingSince   *time.Time `db:"failing_since"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      *time.Time `db:"updated_at"`
	// PreviousSecretExpiresAt is set while a rolled secret's predecessor
	// still signs.
	PreviousSecretExpiresAt *time.Time `db:"previous_secret_expires_at"`
	Format                  string     `db:"format"`
}

// Item is one watch set entry, in canonical form (see the migration).
type Item struct {
	Kind  string `db:"kind" json:"kind"`
	Value string `db:"value" json:"value"`
}

// NewEvent is an event about to be decided for one webhook: AppendEvents
// gives it its id and sequence number and writes Body around Data.
type NewEvent struct {
	WebhookID uuid.UUID
	Type      string
	TxHash    []byte
	Block     *BlockRef // nil for webhook.* events
	Tip       *BlockRef // the tip it was decided at (nil for webhook.* events)
	// Revokes is, for an undo (tx.rolled_back…), the event it revokes.
	Revokes *uuid.UUID
	// Data is the type's payload (marshalled with encoding/json).
	Data any
	// Blockfrost is the event as a Blockfrost-format webhook gets it (nil:
	// its envelope carries the type and Data as they are).
	Blockfrost *BlockfrostPayload
}

// BlockfrostPayload is an event's type and payload in Blockfrost's
// webhook envelope (transaction, block, delegation, epoch).
type BlockfrostPayload struct {
	Type    string
	Payload []byte // JSON
}

// BlockRef names a block.
type BlockRef struct {
	Hash   []byte
	Height int64
	Slot   int64
	Time   time.Time // zero for a tip
}

// Decided is an event AppendEvents wrote, as delivery needs it.
type Decided struct {
	ID        uuid.UUID
	WebhookID uuid.UUID
	Seq       int64
	// Push: the webhook has a URL and is active, so a delivery row was
	// written and Enqueuer was called for it.
	Push bool
}

// Enqueuer schedules push deliveries in the transaction that decides
// their events, so that a delivery exists if and only if its event does.
// The delivery service implements it with river; nil: pull only.
type Enqueuer interface {
	EnqueueTx(ctx context.Context, tx *sql.Tx, events []Decided) error
	// EnqueueNewTx is EnqueueTx for events decided in tx itself: no push
	// can be owed for them yet, so none is looked for.
	EnqueueNewTx(ctx context.Context, tx *sql.Tx, events []Decided) error
}
