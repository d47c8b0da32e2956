package dbsync

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
)

var (
	sqlPoolInfo   = load("dbsync/pool_info.sql")
	sqlPoolExists = load("dbsync/pool_exists.sql")
	sqlPoolTotals = load("dbsync/pool_epoch_totals.sql")
)

// Pool statuses (the status field of OpenAPI schema Pool).
const (
	PoolActive   = "active"
	PoolRetiring = "retiring"
	PoolRetired  = "retired"
)

// MaxLovelaceSupply is maxLovelaceSupply of every public network's Shelley
// genesis (db-sync does not store it).
var MaxLovelaceSupply = big.NewInt(45_000_000_000_000_000)

// PoolRelay is one relay of a pool registration.
type PoolRelay struct {
	IPv4   *string `json:"ipv4"`
	IPv6   *string `json:"ipv6"`
	DNS    *string `json:"dns"`
	DNSSrv *string `json:"dns_srv"`
	Port   *int64  `json:"port"`
}

// Pool is a registered pool's parameters (from its latest registration or
// update), retirement state and blocks in the current epoch. The figures
// that change once an epoch are PoolEpochTotals.
type Pool struct {
	ID            cardano.PoolID
	CurrentEpoch  int64
	VRFKeyHash    string
	Pledge        *big.Int
	Margin        float64
	FixedCost     *big.Int
	RewardAccount *string
	Owners        []string
	Relays        []PoolRelay
	MetadataURL   *string
	MetadataHash  *string
	BlocksEpoch   int64
	// Status is active, retiring or retired (DECISIONS.md): active unless
	// the latest retirement certificate is newer than the latest
	// registration; then retiring while its epoch is in the future.
	Status string
	// RetiringEpoch is the retirement epoch when Status is retiring or
	// retired (for a retired pool, the epoch it retired at); else nil.
	RetiringEpoch *int64
	// Registrations and Retirements are the hashes of the transactions
	// carrying the pool's registration (or update) and retirement
	// certificates, oldest first.
	Registrations []string
	Retirements   []string
	// OptimalPoolCount (k) and Reserves of the current epoch (or the latest
	// earlier row); nil when db-sync has none (ledger disabled).
	OptimalPoolCount *int64
	Reserves         *big.Int
}

type poolInfoRow struct {
	CurrentEpoch     sql.NullInt64  `db:"current_epoch"`
	VRFKeyHash       string         `db:"vrf_key_hash"`
	Pledge           string         `db:"pledge"`
	Margin           float64        `db:"margin"`
	FixedCost        string         `db:"fixed_cost"`
	RewardAccount    sql.NullString `db:"reward_account"`
	Owners           string         `db:"owners"`
	Relays           string         `db:"relays"`
	Registrations    string         `db:"registrations"`
	Retirements      string         `db:"retirements"`
	MetadataURL      sql.NullString `db:"metadata_url"`
	MetadataHash     sql.NullString `db:"metadata_hash"`
	BlocksEpoch      int64          `db:"blocks_epoch"`
	RetiringEpoch    sql.NullInt64  `db:"retiring_epoch"`
	RetirementNewer  bool           `db:"retirement_newer"`
	OptimalPoolCount sql.NullInt64  `db:"optimal_pool_count"`
	Reserves         sql.NullString `db:"reserves"`
	PoolHashID       int64          `db:"pool_hash_id"`
}

// PoolInfo returns a registered pool. A pool with no registration
// certificate at all is ErrNotFound.
func (db *DB) PoolInfo(ctx context.Context, id cardano.PoolID) (p Pool, err error) {
	defer func() {
		if err != nil && !errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("dbsync.PoolInfo(%s): %w", id, err)
		}
	}()
	var row poolInfoRow
	if err := db.get(ctx, &row, sqlPoolInfo, id[:]); err != nil {
		return Pool{}, classify(err)
	}
	p = Pool{
		ID:           id,
		CurrentEpoch: row.CurrentEpoch.Int64,
		VRFKeyHash:   row.VRFKeyHash,
		Margin:       row.Margin,
		BlocksEpoch:  row.BlocksEpoch,
	}
	for _, f := range []struct {
		dst **big.Int
		src string
	}{{&p.Pledge, row.Pledge}, {&p.FixedCost, row.FixedCost}} {
		v, ok := new(big.Int).SetString(f.src, 10)
		if !ok {
			return Pool{}, fmt.Errorf("amount %q is not an integer", f.src)
		}
		*f.dst = v
	}
	if row.Reserves.Valid {
		v, ok := new(big.Int).SetString(row.Reserves.String, 10)
		if !ok {
			return Pool{}, fmt.Errorf("reserves %q is not an integer", row.Reserves.String)
		}
		p.Reserves = v
	}
	if row.OptimalPoolCount.Valid {
		k := row.OptimalPoolCount.Int64
		p.OptimalPoolCount = &k
	}
	p.RewardAccount = nullString(row.RewardAccount)
	p.MetadataURL = nullString(row.MetadataURL)
	p.MetadataHash = nullString(row.MetadataHash)
	if err := json.Unmarshal([]byte(row.Owners), &p.Owners); err != nil {
		return Pool{}, fmt.Errorf("owners: %w", err)
	}
	if err := json.Unmarshal([]byte(row.Registrations), &p.Registrations); err != nil {
		return Pool{}, fmt.Errorf("registrations: %w", err)
	}
	if err := json.Unmarshal([]byte(row.Retirements), &p.Retirements); err != nil {
		return Pool{}, fmt.Errorf("retirements: %w", err)
	}
	if err := json.Unmarshal([]byte(row.Relays), &p.Relays); err != nil {
		return Pool{}, fmt.Errorf("relays: %w", err)
	}
	for i := range p.Relays {
		// db-sync before 13.7.2.0 stored ports above 32767 as negative
		// smallints; migration 2-0050 repairs them, older data may not be.
		if r := p.Relays[i].Port; r != nil && *r < 0 {
			fixed := *r + 65536
			p.Relays[i].Port = &fixed
		}
	}
	p.Status = PoolActive
	if row.RetiringEpoch.Valid && row.RetirementNewer {
		e := row.RetiringEpoch.Int64
		p.RetiringEpoch = &e
		p.Status = PoolRetiring
		if e <= p.CurrentEpoch {
			p.Status = PoolRetired
		}
	}
	return p, nil
}

// PoolEpochTotals are the figures of a pool that change once an epoch.
type PoolEpochTotals struct {
	// ActiveStake is the pool's stake in the epoch's active distribution.
	ActiveStake string `db:"active_stake" json:"active_stake"`
	// BlocksBefore counts the blocks the pool minted before the epoch.
	BlocksBefore int64 `db:"blocks_before" json:"blocks_before"`
}

// PoolEpochTotals returns the pool's active stake in epoch and the blocks
// it minted before epoch. Both are fixed once epoch has begun, so callers
// cache them per epoch; a big pool has tens of thousands of each.
func (db *DB) PoolEpochTotals(ctx context.Context, id cardano.PoolID, epoch int64) (PoolEpochTotals, error) {
	var t PoolEpochTotals
	if err := db.get(ctx, &t, sqlPoolTotals, id[:], epoch); err != nil {
		return PoolEpochTotals{}, fmt.Errorf("dbsync.PoolEpochTotals(%s, %d): %w", id, epoch, classify(err))
	}
	return t, nil
}

// PoolRegistered reports whether the pool has any registration certificate.
func (db *DB) PoolRegistered(ctx context.Context, id cardano.PoolID) (bool, error) {
	var ok bool
	if err := db.get(ctx, &ok, sqlPoolExists, id[:]); err != nil {
		return false, fmt.Errorf("dbsync.PoolRegistered(%s): %w", id, classify(err))
	}
	return ok, nil
}

// Saturation is live stake × k / (maxLovelaceSupply − reserves) (docs/
// DECISIONS.md "Pools"): 1 means saturated. It is 0 when k or the
// reserves are unknown.
func (p Pool) Saturation(live *big.Int) float64 {
	if live == nil || p.OptimalPoolCount == nil || *p.OptimalPoolCount <= 0 || p.Reserves == nil {
		return 0
	}
	circulation := new(big.Int).Sub(MaxLovelaceSupply, p.Reserves)
	if circulation.Sign() <= 0 {
		return 0
	}
	num := new(big.Int).Mul(live, big.NewInt(*p.OptimalPoolCount))
	f, _ := new(big.Rat).SetFrac(num, circulation).Float64()
	return f
}

func nullString(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	v := s.String
	return &v
}
