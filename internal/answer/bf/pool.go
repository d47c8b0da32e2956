package bf

import (
	"context"
	"errors"
	"math/big"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Pool is Blockfrost's pool.
type Pool struct {
	PoolID         string   `json:"pool_id"`
	Hex            string   `json:"hex"`
	VRFKey         string   `json:"vrf_key"`
	BlocksMinted   int64    `json:"blocks_minted"`
	BlocksEpoch    int64    `json:"blocks_epoch"`
	LiveStake      string   `json:"live_stake"`
	LiveSize       float64  `json:"live_size"`
	LiveSaturation float64  `json:"live_saturation"`
	LiveDelegators int64    `json:"live_delegators"`
	ActiveStake    string   `json:"active_stake"`
	ActiveSize     float64  `json:"active_size"`
	DeclaredPledge string   `json:"declared_pledge"`
	LivePledge     string   `json:"live_pledge"`
	MarginCost     float64  `json:"margin_cost"`
	FixedCost      string   `json:"fixed_cost"`
	RewardAccount  string   `json:"reward_account"`
	Owners         []string `json:"owners"`
	Registration   []string `json:"registration"`
	Retirement     []string `json:"retirement"`
	// CalidusKey is always null: db-sync keeps no CIP-88 registrations.
	CalidusKey *struct{} `json:"calidus_key"`
}

// poolFacts reads one pool through /v1's record (answer.Service.PoolFacts).
func (a *Answers) poolFacts(ctx context.Context, db *dbsync.DB, id cardano.PoolID) (answer.PoolFacts, error) {
	f, err := a.svc.PoolFacts(ctx, db, id)
	if errors.Is(err, answer.ErrNotFound) || errors.Is(err, dbsync.ErrNotFound) {
		return f, answer.ErrNotFound
	}
	return f, err
}

// PoolByID answers /pools/{pool_id}: the figures of /v1's pool record
// (live stake per tip from poolstats, active stake and blocks before the
// epoch per epoch) in Blockfrost's names.
func (a *Answers) PoolByID(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return cached(ctx, a, db, "pool", []string{id.Hex()}, func(ctx context.Context, db *dbsync.DB) (Pool, error) {
		f, err := a.poolFacts(ctx, db, id)
		if err != nil {
			return Pool{}, err
		}
		p := f.Pool
		active, ok := new(big.Int).SetString(f.Totals.ActiveStake, 10)
		if !ok {
			active = new(big.Int)
		}
		// Before the first refresh the network's live total is unknown:
		// the epoch's active total stands in (as /v1's live_size).
		liveTotal := f.NetworkLive
		if liveTotal == nil {
			liveTotal = f.ActiveTotal
		}
		out := Pool{PoolID: id.String(), Hex: id.Hex(), VRFKey: p.VRFKeyHash,
			BlocksMinted: f.Totals.BlocksBefore + p.BlocksEpoch, BlocksEpoch: p.BlocksEpoch,
			LiveStake: f.Live.String(), LiveSize: share(f.Live, liveTotal), LiveSaturation: p.Saturation(f.Live),
			LiveDelegators: f.Delegators, ActiveStake: f.Totals.ActiveStake, ActiveSize: share(active, f.ActiveTotal),
			DeclaredPledge: p.Pledge.String(), LivePledge: f.LivePledge.String(), MarginCost: p.Margin,
			FixedCost: p.FixedCost.String(), Owners: p.Owners, Registration: p.Registrations, Retirement: p.Retirements}
		if p.RewardAccount != nil {
			out.RewardAccount = *p.RewardAccount
		}
		for _, l := range []*[]string{&out.Owners, &out.Registration, &out.Retirement} {
			if *l == nil {
				*l = []string{}
			}
		}
		return out, nil
	})
}

// share is part / total, 0 when the total is unknown or zero.
func share(part, total *big.Int) float64 {
	if part == nil || total == nil || total.Sign() <= 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(part, total).Float64()
	return f
}

// PoolRelay is Blockfrost's pool_relays item.
type PoolRelay struct {
	IPv4   *string `json:"ipv4"`
	IPv6   *string `json:"ipv6"`
	DNS    *string `json:"dns"`
	DNSSrv *string `json:"dns_srv"`
	Port   int64   `json:"port"`
}

// PoolRelays answers /pools/{pool_id}/relays: the relays of the pool's
// latest registration or update; a relay without a port (SRV) has port 0.
func (a *Answers) PoolRelays(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return cached(ctx, a, db, "poolrelays", []string{id.Hex()}, func(ctx context.Context, db *dbsync.DB) ([]PoolRelay, error) {
		p, err := db.PoolInfo(ctx, id)
		if err != nil {
			return nil, notFound(err)
		}
		out := []PoolRelay{}
		for _, r := range p.Relays {
			x := PoolRelay{IPv4: r.IPv4, IPv6: r.IPv6, DNS: r.DNS, DNSSrv: r.DNSSrv}
			if r.Port != nil {
				x.Port = *r.Port
			}
			out = append(out, x)
		}
		return out, nil
	})
}

// PoolMetadata is Blockfrost's pool_metadata.
type PoolMetadata struct {
	PoolID string `json:"pool_id"`
	Hex    string `json:"hex"`
	PoolMetadataShort
}

// PoolMetadataAnswer answers /pools/{pool_id}/metadata: the metadata
// reference of the pool's latest registration with what db-sync fetched
// for it (nulls when not fetched); {} when the registration names none.
func (a *Answers) PoolMetadataAnswer(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return cached(ctx, a, db, "poolmetadata", []string{id.Hex()}, func(ctx context.Context, db *dbsync.DB) (any, error) {
		p, err := db.PoolInfo(ctx, id)
		if err != nil {
			return nil, notFound(err)
		}
		if p.MetadataURL == nil {
			return struct{}{}, nil
		}
		m, err := db.PoolMetadata(ctx, id)
		if err != nil {
			return nil, notFound(err)
		}
		return PoolMetadata{PoolID: id.String(), Hex: id.Hex(), PoolMetadataShort: PoolMetadataShort{
			URL: p.MetadataURL, Hash: p.MetadataHash, Ticker: m.Ticker, Name: m.Name,
			Description: m.Description, Homepage: m.Homepage}}, nil
	})
}
