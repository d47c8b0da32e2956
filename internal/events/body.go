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

// Revocation is the data of block.rolled_back and epoch.rolled_back: the
// announcement a rollback took back (its block is the event's block).
type Revocation struct {
	Revokes    uuid.UUID `json:"revokes"`
	RevokedSeq int64     `json:"revoked_seq"`
}

// BlockAdded is the data of a block.added event (the block's hash,
// height, slot and time are the event's block).
type BlockAdded struct {
	Epoch     int64 `json:"epoch"`
	EpochSlot int64 `json:"epoch_slot"`
	// Pool is the bech32 id of the pool that made the block (null: a
	// genesis delegate's block).
	Pool          *string `json:"pool"`
	SlotLeader    string  `json:"slot_leader"`
	TxCount       int64   `json:"tx_count"`
	Size          int64   `json:"size"`
	Depth         int     `json:"depth"`
	Confirmations int64   `json:"confirmations"`
}

// EpochStarted is the data of an epoch.started event, decided at the
// first block of the epoch (the event's block).
type EpochStarted struct {
	Epoch         int64     `json:"epoch"`
	StartTime     time.Time `json:"start_time"`
	EndTime       time.Time `json:"end_time"`
	Depth         int       `json:"depth"`
	Confirmations int64     `json:"confirmations"`
	// Previous is the epoch that ended.
	Previous EpochSummary `json:"previous_epoch"`
	// Parameters are the new epoch's protocol parameters (null where
	// db-sync keeps none).
	Parameters *EpochParameters `json:"parameters"`
}

// EpochSummary is a finished epoch's figures.
type EpochSummary struct {
	Epoch          int64     `json:"epoch"`
	StartTime      time.Time `json:"start_time"`
	EndTime        time.Time `json:"end_time"`
	FirstBlockTime time.Time `json:"first_block_time"`
	LastBlockTime  time.Time `json:"last_block_time"`
	BlockCount     int64     `json:"block_count"`
	TxCount        int64     `json:"tx_count"`
	Output         string    `json:"output"`
	Fees           string    `json:"fees"`
}

// EpochParameters are the protocol parameters an epoch.started names
// (Blockfrost's /epochs/{n}/parameters names, quantities as strings).
type EpochParameters struct {
	MinFeeA             int64    `json:"min_fee_a"`
	MinFeeB             int64    `json:"min_fee_b"`
	MaxBlockSize        int64    `json:"max_block_size"`
	MaxTxSize           int64    `json:"max_tx_size"`
	MaxBlockHeaderSize  int64    `json:"max_block_header_size"`
	KeyDeposit          string   `json:"key_deposit"`
	PoolDeposit         string   `json:"pool_deposit"`
	EMax                int64    `json:"e_max"`
	NOpt                int64    `json:"n_opt"`
	A0                  float64  `json:"a0"`
	Rho                 float64  `json:"rho"`
	Tau                 float64  `json:"tau"`
	ProtocolMajorVer    int64    `json:"protocol_major_ver"`
	ProtocolMinorVer    int64    `json:"protocol_minor_ver"`
	MinPoolCost         string   `json:"min_pool_cost"`
	Nonce               *string  `json:"nonce"`
	PriceMem            *float64 `json:"price_mem"`
	PriceStep           *float64 `json:"price_step"`
	MaxTxExMem          *string  `json:"max_tx_ex_mem"`
	MaxTxExSteps        *string  `json:"max_tx_ex_steps"`
	MaxBlockExMem       *string  `json:"max_block_ex_mem"`
	MaxBlockExSteps     *string  `json:"max_block_ex_steps"`
	MaxValSize          *string  `json:"max_val_size"`
	CollateralPercent   *int64   `json:"collateral_percent"`
	MaxCollateralInputs *int64   `json:"max_collateral_inputs"`
	CoinsPerUTxOSize    *string  `json:"coins_per_utxo_size"`
	GovActionDeposit    *string  `json:"gov_action_deposit"`
	DRepDeposit         *string  `json:"drep_deposit"`
	DRepActivity        *string  `json:"drep_activity"`
}

// DelegationConfirmed is the data of a delegation.confirmed event: the
// transaction's stake certificates that touch the webhook's items.
type DelegationConfirmed struct {
	TxHash        string        `json:"tx_hash"`
	Depth         int           `json:"depth"`
	Confirmations int64         `json:"confirmations"`
	Certificates  []Certificate `json:"certificates"`
}

// Certificate is one stake certificate.
type Certificate struct {
	CertIndex int64 `json:"cert_index"`
	// Type: stake_delegation, vote_delegation, registration or
	// deregistration.
	Type         string  `json:"type"`
	StakeAddress string  `json:"stake_address"`
	Pool         *string `json:"pool,omitempty"`
	DRep         *string `json:"drep,omitempty"`
	ActiveEpoch  *int64  `json:"active_epoch,omitempty"`
}
