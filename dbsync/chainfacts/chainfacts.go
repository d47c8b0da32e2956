// Package chainfacts reads what the event scanner's block, epoch and
// delegation events say, inside the scanner's snapshot
// (dbsync.DB.ReadChainPlanned): each block's epoch and pool, and the stake
// certificates of its transactions.
package chainfacts

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlBlockFacts   = engine.Fixed("dbsync/scan_block_facts.sql")
	sqlCertificates = engine.Fixed("dbsync/scan_certificates.sql")
)

// Block is one block's facts.
type Block struct {
	Height    int64         `db:"block_no"`
	Epoch     int64         `db:"epoch_no"`
	PrevEpoch sql.NullInt64 `db:"prev_epoch_no"`
	EpochSlot int64         `db:"epoch_slot_no"`
	// Pool is the bech32 id of the pool that made the block ("" for a
	// genesis delegate's).
	Pool       sql.NullString `db:"pool"`
	SlotLeader string         `db:"slot_leader"`
	TxCount    int64          `db:"tx_count"`
	Size       int64          `db:"size"`
}

// StartsEpoch says whether the block is its epoch's first.
func (b Block) StartsEpoch() bool { return b.PrevEpoch.Valid && b.PrevEpoch.Int64 < b.Epoch }

// Certificate kinds.
const (
	StakeDelegation = "stake_delegation"
	VoteDelegation  = "vote_delegation"
	Registration    = "registration"
	Deregistration  = "deregistration"
)

// Certificate is one stake certificate of a valid transaction.
type Certificate struct {
	Height       int64          `db:"block_no"`
	TxHash       []byte         `db:"tx_hash"`
	CertIndex    int64          `db:"cert_index"`
	Kind         string         `db:"kind"`
	StakeAddress string         `db:"stake_address"`
	Pool         sql.NullString `db:"pool"`
	// DRepRaw is the DRep's hash in hex ("" for the two predefined DReps,
	// which DRepView names).
	DRepRaw     sql.NullString `db:"drep_raw"`
	DRepScript  bool           `db:"drep_script"`
	DRepView    sql.NullString `db:"drep_view"`
	ActiveEpoch sql.NullInt64  `db:"active_epoch"`
}

// Blocks returns the facts of the blocks in r, in chain order.
func Blocks(ctx context.Context, tx *dbsync.Snapshot, r dbsync.HeightRange) ([]Block, error) {
	var out []Block
	if err := tx.SelectContext(ctx, &out, sqlBlockFacts, r.From, r.To); err != nil {
		return nil, fmt.Errorf("chainfacts.Blocks: %w", err)
	}
	return out, nil
}

// Certificates returns the stake certificates of the valid transactions
// of the blocks in r, in chain order.
func Certificates(ctx context.Context, tx *dbsync.Snapshot, r dbsync.HeightRange) ([]Certificate, error) {
	var out []Certificate
	if err := tx.SelectContext(ctx, &out, sqlCertificates, r.From, r.To); err != nil {
		return nil, fmt.Errorf("chainfacts.Certificates: %w", err)
	}
	return out, nil
}
