package answer

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

// poolResponseTTL is how long a pool answer is kept under the tip it was
// read at (about one block interval on mainnet). Within one tip a pool
// answer changes only when a background refresh lands, so a cached answer
// adds at most this much to the live figures' age.
const poolResponseTTL = 20 * time.Second

// poolTotalsTTL bounds how long a pool's per-epoch totals stay in Redis;
// the key holds the epoch, so they are never stale, only kept.
const poolTotalsTTL = time.Hour

// poolData is the spec's Stake pool (OpenAPI "Pool") and the client SDK's superset.
type poolData struct {
	PoolID         string      `json:"pool_id"`
	PoolIDHex      string      `json:"pool_id_hex"`
	VRFKeyHash     string      `json:"vrf_key_hash"`
	Pledge         string      `json:"pledge"`
	Margin         float64     `json:"margin"`
	FixedCost      string      `json:"fixed_cost"`
	RewardAccount  *string     `json:"reward_account"`
	Owners         []string    `json:"owners"`
	Relays         []poolRelay `json:"relays"`
	MetadataURL    *string     `json:"metadata_url"`
	MetadataHash   *string     `json:"metadata_hash"`
	ActiveStake    string      `json:"active_stake"`
	LiveStake      string      `json:"live_stake"`
	DelegatorCount int64       `json:"delegator_count"`
	BlocksMinted   int64       `json:"blocks_minted"`
	BlocksEpoch    int64       `json:"blocks_epoch"`
	Saturation     float64     `json:"saturation"`
	Status         string      `json:"status"`
	RetiringEpoch  *int64      `json:"retiring_epoch"`

	// The client SDK's names for the same figures (OpenAPI "Pool").
	Hex            string  `json:"hex"`
	VRFKey         string  `json:"vrf_key"`
	DeclaredPledge string  `json:"declared_pledge"`
	MarginCost     float64 `json:"margin_cost"`
	LiveDelegators int64   `json:"live_delegators"`
	LiveSaturation float64 `json:"live_saturation"`
	// And its extra figures: shares of all live / active stake, the
	// owners' current stake, certificate transactions oldest first.
	LiveSize     float64  `json:"live_size"`
	ActiveSize   float64  `json:"active_size"`
	LivePledge   string   `json:"live_pledge"`
	Registration []string `json:"registration"`
	Retirement   []string `json:"retirement"`
}

// poolRelay has a port and either ipv4 or dns (OpenAPI "Relay"): ipv4 when the
// relay has one, else its DNS name, else its SRV name, else its IPv6
// address as a literal host in dns. ipv6 is added whenever the relay has
// one. A relay without a port (SRV) reports port 0.
type poolRelay struct {
	IPv4 *string `json:"ipv4,omitempty"`
	DNS  *string `json:"dns,omitempty"`
	IPv6 *string `json:"ipv6,omitempty"`
	Port int64   `json:"port"`
}

// poolDelegatorsData is the delegator list's data object.
type poolDelegatorsData struct {
	PoolID     string          `json:"pool_id"`
	Delegators []poolDelegator `json:"delegators"`
}

// poolDelegator is the spec's Delegator (OpenAPI "PoolDelegators" items).
type poolDelegator struct {
	StakeAddress  string `json:"stake_address"`
	Amount        string `json:"amount"`
	ActiveEpochNo int64  `json:"active_epoch_no"`
}

// Pool answers GET /v1/pools/:poolId: the pool record (OpenAPI "Pool": the spec's fields and the
// client SDK's superset).
func (s *Service) Pool(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return s.byTipEnvelope(ctx, s.caches.poolInfo, db, []string{id.Hex()}, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		rec, err := s.readPoolRecord(ctx, db, id, true)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		livePledge, err := db.PoolLivePledge(ctx, id)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		activeTotal, err := s.epochActiveStake(ctx, db, rec.pool.CurrentEpoch)
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		return ok(rec.data(id, livePledge, activeTotal)), poolResponseTTL, nil
	})
}

// poolRecord is what the pool endpoints report, read once per answer.
type poolRecord struct {
	pool dbsync.Pool
	// live is the pool's live stake and delegator count (zero when not
	// asked for); networkLive every pool's live stake of the same refresh,
	// nil when unknown (before the first background refresh).
	live        *big.Int
	delegators  int64
	networkLive *big.Int
	totals      dbsync.PoolEpochTotals
}

// readPoolRecord reads a registered pool (ErrPoolNotFound otherwise), its
// per-epoch totals and, when withLive, its live stake.
func (s *Service) readPoolRecord(ctx context.Context, db *dbsync.DB, id cardano.PoolID, withLive bool) (poolRecord, error) {
	p, err := db.PoolInfo(ctx, id)
	if errors.Is(err, dbsync.ErrNotFound) {
		return poolRecord{}, ErrPoolNotFound
	}
	if err != nil {
		return poolRecord{}, err
	}
	rec := poolRecord{pool: p, live: new(big.Int)}
	if withLive {
		if rec.live, rec.delegators, rec.networkLive, err = s.poolLiveStake(ctx, db, id); err != nil {
			return poolRecord{}, err
		}
	}
	// Active stake and blocks before this epoch change once an epoch: one
	// request per pool and epoch computes them, the others read the cache.
	key := db.Network.Name + ":" + id.Hex() + ":epoch:" + strconv.FormatInt(p.CurrentEpoch, 10)
	rec.totals, err = s.caches.poolTotals.Get(ctx, key, func(ctx context.Context) (dbsync.PoolEpochTotals, error) {
		return db.PoolEpochTotals(ctx, id, p.CurrentEpoch)
	})
	if err != nil {
		return poolRecord{}, err
	}
	return rec, nil
}

// data is the pool record: the spec's fields plus the client SDK's names for the
// same figures and its extra ones (OpenAPI "Pool").
func (rec poolRecord) data(id cardano.PoolID, livePledge, activeTotal *big.Int) poolData {
	p := rec.pool
	active, ok := new(big.Int).SetString(rec.totals.ActiveStake, 10)
	if !ok {
		active = new(big.Int)
	}
	// live_size is a share of every pool's live stake; before the first
	// background refresh that total is unknown, and the epoch's active
	// total stands in (DECISIONS.md).
	liveTotal := rec.networkLive
	if liveTotal == nil {
		liveTotal = activeTotal
	}
	data := poolData{
		PoolID:         id.String(),
		PoolIDHex:      id.Hex(),
		VRFKeyHash:     p.VRFKeyHash,
		Pledge:         p.Pledge.String(),
		Margin:         p.Margin,
		FixedCost:      p.FixedCost.String(),
		RewardAccount:  p.RewardAccount,
		Owners:         p.Owners,
		Relays:         make([]poolRelay, 0, len(p.Relays)),
		MetadataURL:    p.MetadataURL,
		MetadataHash:   p.MetadataHash,
		ActiveStake:    rec.totals.ActiveStake,
		LiveStake:      rec.live.String(),
		DelegatorCount: rec.delegators,
		BlocksMinted:   rec.totals.BlocksBefore + p.BlocksEpoch,
		BlocksEpoch:    p.BlocksEpoch,
		Saturation:     p.Saturation(rec.live),
		Status:         p.Status,
		RetiringEpoch:  p.RetiringEpoch,
		LiveSize:       share(rec.live, liveTotal),
		ActiveSize:     share(active, activeTotal),
		LivePledge:     livePledge.String(),
		Registration:   p.Registrations,
		Retirement:     p.Retirements,
	}
	data.Hex, data.VRFKey, data.DeclaredPledge, data.MarginCost = data.PoolIDHex, data.VRFKeyHash, data.Pledge, data.Margin
	data.LiveDelegators, data.LiveSaturation = data.DelegatorCount, data.Saturation
	for _, list := range []*[]string{&data.Owners, &data.Registration, &data.Retirement} {
		if *list == nil {
			*list = []string{}
		}
	}
	for _, r := range p.Relays {
		out := poolRelay{IPv6: r.IPv6}
		switch {
		case r.IPv4 != nil:
			out.IPv4 = r.IPv4
		case r.DNS != nil:
			out.DNS = r.DNS
		case r.DNSSrv != nil:
			out.DNS = r.DNSSrv
		case r.IPv6 != nil:
			out.DNS = r.IPv6
		default:
			continue // a relay with no address at all says nothing usable
		}
		if r.Port != nil {
			out.Port = *r.Port
		}
		data.Relays = append(data.Relays, out)
	}
	return data
}

// share is part / total as a number, 0 when the total is unknown or zero.
func share(part, total *big.Int) float64 {
	if part == nil || total == nil || total.Sign() <= 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(part, total).Float64()
	return f
}

// PoolDelegators answers GET /v1/pools/:poolId/delegators/list: a page of
// the pool's live delegators.
func (s *Service) PoolDelegators(ctx context.Context, db *dbsync.DB, id cardano.PoolID, limit, offset int) ([]byte, error) {
	parts := []string{id.Hex(), strconv.Itoa(limit), strconv.Itoa(offset)}
	return s.byTipEnvelope(ctx, s.caches.poolDelegators, db, parts, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		data := poolDelegatorsData{PoolID: id.String(), Delegators: []poolDelegator{}}
		var total int64
		stored := false
		if s.opts.PoolStats != nil {
			page, sum, ok, err := s.opts.PoolStats.PoolDelegators(ctx, db.Network.Name, id, limit, offset)
			if err != nil {
				return wire.Envelope{}, 0, err
			}
			if ok {
				stored, total = true, sum.DelegatorCount
				for _, d := range page {
					data.Delegators = append(data.Delegators, poolDelegator{StakeAddress: d.StakeAddress, Amount: d.Amount, ActiveEpochNo: d.ActiveEpochNo})
				}
			}
		}
		// A pool with delegators was registered (delegating needs a
		// registered pool); otherwise ask db-sync whether it exists at all.
		if total == 0 {
			registered, err := db.PoolRegistered(ctx, id)
			if err != nil {
				return wire.Envelope{}, 0, err
			}
			if !registered {
				return wire.Envelope{}, 0, ErrPoolNotFound
			}
		}
		if !stored {
			// No refresh has completed yet: compute this one pool now.
			rows, _, err := db.PoolStakeOnDemand(ctx, id, s.tuning.PoolOnDemandBudget)
			if err != nil {
				return wire.Envelope{}, 0, err
			}
			total = int64(len(rows))
			if offset < len(rows) {
				for _, d := range rows[offset:min(offset+limit, len(rows))] {
					data.Delegators = append(data.Delegators, poolDelegator{StakeAddress: d.StakeAddress, Amount: d.Amount, ActiveEpochNo: d.ActiveEpochNo})
				}
			}
		}
		p := wire.NewPagination(limit, offset, len(data.Delegators), total)
		return wire.Envelope{Success: true, Data: data, Pagination: &p}, poolResponseTTL, nil
	})
}
