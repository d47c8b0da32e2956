package txs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Content is a transaction's head: where it is, what it paid and the
// counts of what it holds (txs_content.sql).
type Content struct {
	Hash             string
	Block            string
	BlockHeight      int64
	BlockTime        time.Time
	Slot             int64
	Index            int64
	Output           dbsync.Value // summed per asset over its outputs
	Fee              string
	Deposit          string
	Size             int64
	InvalidBefore    *string
	InvalidHereafter *string
	ValidContract    bool
	TreasuryDonation string
	Counts           Counts
}

// Counts are how many of each thing a transaction holds.
type Counts struct {
	UTxOs       int64 `db:"utxo_count"`
	Withdrawals int64 `db:"withdrawal_count"`
	MIRCerts    int64 `db:"mir_cert_count"`
	Delegations int64 `db:"delegation_count"`
	StakeCerts  int64 `db:"stake_cert_count"`
	PoolUpdates int64 `db:"pool_update_count"`
	PoolRetires int64 `db:"pool_retire_count"`
	Mints       int64 `db:"mint_count"`
	Redeemers   int64 `db:"redeemer_count"`
}

type contentRow struct {
	Hash             string         `db:"hash"`
	Block            string         `db:"block_hash"`
	BlockHeight      int64          `db:"block_no"`
	BlockTime        time.Time      `db:"block_time"`
	Slot             int64          `db:"slot_no"`
	Index            int64          `db:"block_index"`
	OutSum           string         `db:"out_sum"`
	Fee              string         `db:"fee"`
	Deposit          string         `db:"deposit"`
	Size             int64          `db:"size"`
	InvalidBefore    *string        `db:"invalid_before"`
	InvalidHereafter *string        `db:"invalid_hereafter"`
	ValidContract    bool           `db:"valid_contract"`
	TreasuryDonation string         `db:"treasury_donation"`
	Assets           pq.StringArray `db:"assets"`
	Counts
}

// ContentOf returns the transaction's head, or dbsync.ErrNotFound.
func ContentOf(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) (Content, error) {
	var r contentRow
	if err := db.Reader().Get(ctx, &r, db.SQL(sqlContent), hash[:]); err != nil {
		err = engine.Classify(err)
		if errors.Is(err, dbsync.ErrNotFound) {
			return Content{}, err
		}
		return Content{}, fmt.Errorf("txs.ContentOf(%s): %w", hash, err)
	}
	out, err := value(r.OutSum, r.Assets)
	if err != nil {
		return Content{}, fmt.Errorf("txs.ContentOf(%s): %w", hash, err)
	}
	return Content{
		Hash: r.Hash, Block: r.Block, BlockHeight: r.BlockHeight, BlockTime: dbsync.AsUTC(r.BlockTime),
		Slot: r.Slot, Index: r.Index, Output: out, Fee: r.Fee, Deposit: r.Deposit, Size: r.Size,
		InvalidBefore: r.InvalidBefore, InvalidHereafter: r.InvalidHereafter, ValidContract: r.ValidContract,
		TreasuryDonation: r.TreasuryDonation, Counts: r.Counts,
	}, nil
}
