// Package governance reads Conway governance as Blockfrost's /governance
// routes describe it: DReps (their state, voting power, anchors,
// delegators, certificates and votes), governance action proposals (their
// record, parameters, withdrawals, votes and anchor) and the
// constitutional committee (its members and votes). Every statement is
// in sql/dbsync/gov_*.sql; the indexes it needs beyond stock db-sync's are
// sql/dbsync/indexes/0135-0139 and 0144-0147.
package governance

import (
	"context"
	"fmt"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlDRepFind      = engine.Fixed("dbsync/gov_drep_find.sql")
	sqlDReps         = engine.Fixed("dbsync/gov_dreps.sql")
	sqlDRepActivity  = engine.Fixed("dbsync/gov_drep_activity.sql")
	sqlDRepDistr     = engine.Fixed("dbsync/gov_drep_distr.sql")
	sqlDRepMetadata  = engine.Fixed("dbsync/gov_drep_metadata.sql")
	sqlDRepDelegates = engine.Fixed("dbsync/gov_drep_delegators.sql")
	sqlStakeLive     = engine.Template("dbsync/gov_stake_live.sql", engine.AlwaysGeneric, nil)
	sqlDRepUpdates   = engine.Fixed("dbsync/gov_drep_updates.sql")
	sqlDRepVotes     = engine.Fixed("dbsync/gov_drep_votes.sql")
)

// DRep is one drep_hash row with its state (gov_dreps.sql).
type DRep struct {
	ID              int64  `db:"id" json:"i"`
	View            string `db:"view" json:"v"`
	Hex             string `db:"hex" json:"x"`
	HasScript       bool   `db:"has_script" json:"s,omitempty"`
	Registered      bool   `db:"registered" json:"r,omitempty"`
	RegisteredEpoch *int64 `db:"registered_epoch" json:"re,omitempty"`
	LastActiveEpoch *int64 `db:"last_active_epoch" json:"la,omitempty"`
}

// Special is whether the DRep is one of the two predefined ones.
func (d DRep) Special() bool { return d.Hex == "" }

// FindDRep returns the drep_hash id of a DRep by hash and kind, or a
// predefined one by name (raw nil); 0 when db-sync has never seen it.
func FindDRep(ctx context.Context, db *dbsync.DB, raw []byte, script bool, name string) (int64, error) {
	var rows []DRep
	if err := db.Reader().Select(ctx, &rows, sqlDRepFind, raw, script, name); err != nil {
		return 0, fmt.Errorf("governance.FindDRep: %w", engine.Classify(err))
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].ID, nil
}

// DReps returns every DRep (id 0) or the one of that drep_hash id, in
// drep_hash order, with the drep_activity parameter of epoch (nil when
// db-sync has none), read in one snapshot.
func DReps(ctx context.Context, db *dbsync.DB, id int64, epoch int64) ([]DRep, *int64, error) {
	out := []DRep{}
	var activity []*int64
	var arg any
	if id != 0 {
		arg = id
	}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := tx.SelectContext(ctx, &out, sqlDReps, arg); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &activity, sqlDRepActivity, epoch)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("governance.DReps: %w", engine.Classify(err))
	}
	if len(activity) == 0 {
		return out, nil, nil
	}
	return out, activity[0], nil
}

// Power is one DRep's voting power in an epoch.
type Power struct {
	HashID int64  `db:"hash_id" json:"i"`
	Amount string `db:"amount" json:"a"`
}

// Distribution returns every DRep's voting power in the epoch.
func Distribution(ctx context.Context, db *dbsync.DB, epoch int64) ([]Power, error) {
	out := []Power{}
	if err := db.Reader().Select(ctx, &out, sqlDRepDistr, epoch); err != nil {
		return nil, fmt.Errorf("governance.Distribution: %w", engine.Classify(err))
	}
	return out, nil
}

// Anchor is an anchor with its fetched document (JSON and bytes as
// text) or its fetch error.
type Anchor struct {
	DRepID     int64   `db:"drep_hash_id"`
	URL        string  `db:"url"`
	Hash       string  `db:"hash"`
	JSON       *string `db:"json"`
	Bytes      *string `db:"bytes"`
	FetchError *string `db:"fetch_error"`
}

// DRepAnchors returns the anchor of each of the DReps that has one.
func DRepAnchors(ctx context.Context, db *dbsync.DB, ids []int64) (map[int64]Anchor, error) {
	var rows []Anchor
	if err := db.Reader().Select(ctx, &rows, sqlDRepMetadata, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("governance.DRepAnchors: %w", engine.Classify(err))
	}
	out := make(map[int64]Anchor, len(rows))
	for _, r := range rows {
		out[r.DRepID] = r
	}
	return out, nil
}

// Stake is a stake address with its live stake.
type Stake struct {
	Address string `db:"address" json:"address"`
	Amount  string `db:"amount" json:"amount"`
}

// LiveStake returns the stake addresses (ids, at most a page) with their
// live stake at epoch, in the order given.
func LiveStake(ctx context.Context, db *dbsync.DB, ids []int64, epoch int64) ([]Stake, error) {
	out := []Stake{}
	if err := db.Reader().Select(ctx, &out, db.SQL(sqlStakeLive), pq.Array(ids), epoch); err != nil {
		return nil, fmt.Errorf("governance.LiveStake: %w", engine.Classify(err))
	}
	return out, nil
}

// Update is one of a DRep's certificates.
type Update struct {
	TxHash    string  `db:"tx_hash" json:"tx_hash"`
	CertIndex int64   `db:"cert_index" json:"cert_index"`
	Action    string  `db:"action" json:"action"`
	Deposit   *string `db:"deposit" json:"deposit"`
}

// Updates returns the DRep's certificates in chain order.
func Updates(ctx context.Context, db *dbsync.DB, drep int64) ([]Update, error) {
	out := []Update{}
	if err := db.Reader().Select(ctx, &out, sqlDRepUpdates, drep); err != nil {
		return nil, fmt.Errorf("governance.Updates: %w", engine.Classify(err))
	}
	return out, nil
}

// DRepVote is one vote a DRep cast.
type DRepVote struct {
	TxHash            string `db:"tx_hash"`
	CertIndex         int64  `db:"cert_index"`
	ProposalTxHash    string `db:"proposal_tx_hash"`
	ProposalCertIndex int64  `db:"proposal_cert_index"`
	Vote              string `db:"vote"`
}

// DRepVotes returns the DRep's votes in chain order.
func DRepVotes(ctx context.Context, db *dbsync.DB, drep int64) ([]DRepVote, error) {
	out := []DRepVote{}
	if err := db.Reader().Select(ctx, &out, sqlDRepVotes, drep); err != nil {
		return nil, fmt.Errorf("governance.DRepVotes: %w", engine.Classify(err))
	}
	return out, nil
}
