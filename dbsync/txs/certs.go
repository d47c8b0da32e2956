package txs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
)

// The certificates and withdrawals of a transaction, each list in the
// order of its statement (by certificate index; withdrawals as the body
// lists them), each read by one statement. A transaction without any is
// an empty list; an unknown one dbsync.ErrNotFound. Fields are pointers
// where the statement's "none" row is all NULL.

// StakeCert is a stake address registration or deregistration.
type StakeCert struct {
	CertIndex    *int64  `db:"cert_index"`
	Address      *string `db:"address"`
	Registration *bool   `db:"registration"`
}

// Stakes returns the transaction's stake address (de)registrations.
func Stakes(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]StakeCert, error) {
	return list(ctx, db, "Stakes", sqlStakes, hash, func(r StakeCert) bool { return r.CertIndex != nil })
}

// Delegation is a stake pool delegation certificate.
type Delegation struct {
	CertIndex   *int64  `db:"cert_index"`
	Address     *string `db:"address"`
	PoolID      *string `db:"pool_id"`
	ActiveEpoch *int64  `db:"active_epoch_no"`
}

// Delegations returns the transaction's delegation certificates.
func Delegations(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]Delegation, error) {
	return list(ctx, db, "Delegations", sqlDelegations, hash, func(r Delegation) bool { return r.CertIndex != nil })
}

// Withdrawal is lovelace withdrawn from a stake address's rewards.
type Withdrawal struct {
	Address *string `db:"address"`
	Amount  *string `db:"amount"`
}

// Withdrawals returns the transaction's withdrawals.
func Withdrawals(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]Withdrawal, error) {
	return list(ctx, db, "Withdrawals", sqlWithdrawals, hash, func(r Withdrawal) bool { return r.Amount != nil })
}

// MIR is what one move-instantaneous-rewards certificate pays one stake
// address from a pot ("reserve" or "treasury").
type MIR struct {
	Pot       *string `db:"pot"`
	CertIndex *int64  `db:"cert_index"`
	Address   *string `db:"address"`
	Amount    *string `db:"amount"`
}

// MIRs returns the transaction's MIR payments to stake addresses.
func MIRs(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]MIR, error) {
	return list(ctx, db, "MIRs", sqlMIRs, hash, func(r MIR) bool { return r.Pot != nil })
}

// PoolRetire is a pool retirement certificate.
type PoolRetire struct {
	CertIndex     *int64  `db:"cert_index"`
	PoolID        *string `db:"pool_id"`
	RetiringEpoch *int64  `db:"retiring_epoch"`
}

// PoolRetires returns the transaction's pool retirements.
func PoolRetires(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]PoolRetire, error) {
	return list(ctx, db, "PoolRetires", sqlPoolRetires, hash, func(r PoolRetire) bool { return r.CertIndex != nil })
}

// PoolUpdate is a pool registration or update certificate.
type PoolUpdate struct {
	CertIndex     int64
	PoolID        string
	VRFKey        string
	Pledge        string
	Margin        float64
	FixedCost     string
	RewardAccount string
	Owners        []string
	// MetadataURL and MetadataHash are the certificate's metadata
	// reference (nil: none); Ticker, Name, Description and Homepage what
	// db-sync fetched from it (nil: not fetched, or not in the document).
	MetadataURL, MetadataHash           *string
	Ticker, Name, Description, Homepage *string
	Relays                              []Relay
	ActiveEpoch                         int64
}

// Relay is one relay a pool certificate names.
type Relay struct {
	IPv4   *string `json:"ipv4"`
	IPv6   *string `json:"ipv6"`
	DNS    *string `json:"dns"`
	DNSSrv *string `json:"dns_srv"`
	Port   *int64  `json:"port"`
}

type poolUpdateRow struct {
	CertIndex     *int64         `db:"cert_index"`
	PoolID        *string        `db:"pool_id"`
	VRFKey        *string        `db:"vrf_key"`
	Pledge        *string        `db:"pledge"`
	Margin        *float64       `db:"margin"`
	FixedCost     *string        `db:"fixed_cost"`
	RewardAccount *string        `db:"reward_account"`
	Owners        pq.StringArray `db:"owners"`
	MetadataURL   *string        `db:"metadata_url"`
	MetadataHash  *string        `db:"metadata_hash"`
	Ticker        *string        `db:"ticker"`
	Name          *string        `db:"name"`
	Description   *string        `db:"description"`
	Homepage      *string        `db:"homepage"`
	Relays        *string        `db:"relays"`
	ActiveEpoch   *int64         `db:"active_epoch_no"`
}

// PoolUpdates returns the transaction's pool registrations and updates.
func PoolUpdates(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]PoolUpdate, error) {
	rows, err := list(ctx, db, "PoolUpdates", sqlPoolUpdates, hash, func(r poolUpdateRow) bool { return r.CertIndex != nil })
	if err != nil {
		return nil, err
	}
	out := make([]PoolUpdate, len(rows))
	for i, r := range rows {
		if r.PoolID == nil || r.VRFKey == nil || r.Pledge == nil || r.Margin == nil || r.FixedCost == nil || r.ActiveEpoch == nil {
			return nil, fmt.Errorf("txs.PoolUpdates(%s): certificate %d without its pool", hash, *r.CertIndex)
		}
		u := PoolUpdate{CertIndex: *r.CertIndex, PoolID: *r.PoolID, VRFKey: *r.VRFKey, Pledge: *r.Pledge, Margin: *r.Margin,
			FixedCost: *r.FixedCost, Owners: []string(r.Owners), MetadataURL: r.MetadataURL, MetadataHash: r.MetadataHash,
			Ticker: r.Ticker, Name: r.Name, Description: r.Description, Homepage: r.Homepage, ActiveEpoch: *r.ActiveEpoch,
			Relays: []Relay{}}
		if u.Owners == nil {
			u.Owners = []string{}
		}
		if r.RewardAccount != nil {
			u.RewardAccount = *r.RewardAccount
		}
		if r.Relays != nil {
			if err := json.Unmarshal([]byte(*r.Relays), &u.Relays); err != nil {
				return nil, fmt.Errorf("txs.PoolUpdates(%s): relays: %w", hash, err)
			}
		}
		out[i] = u
	}
	return out, nil
}
