package answer

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/service/poolstats"
)

// PoolFacts is what /v1's pool record reads about one pool, for another
// dialect's pool answers: the registration, the per-epoch totals (cached
// per epoch), the live stake (stored by poolstats, else computed on
// demand), the owners' live pledge and the epoch's active total.
type PoolFacts struct {
	Pool        dbsync.Pool
	Totals      dbsync.PoolEpochTotals
	Live        *big.Int
	Delegators  int64
	LivePledge  *big.Int
	ActiveTotal *big.Int
	// NetworkLive is every pool's live stake of the same refresh; nil
	// before the first one.
	NetworkLive *big.Int
}

// PoolFacts reads one pool's facts; ErrNotFound for a pool never
// registered.
func (s *Service) PoolFacts(ctx context.Context, db *dbsync.DB, id cardano.PoolID) (PoolFacts, error) {
	rec, err := s.readPoolRecord(ctx, db, id, true)
	if errors.Is(err, ErrPoolNotFound) {
		return PoolFacts{}, ErrNotFound
	}
	if err != nil {
		return PoolFacts{}, err
	}
	pledge, err := db.PoolLivePledge(ctx, id)
	if err != nil {
		return PoolFacts{}, err
	}
	total, err := s.epochActiveStake(ctx, db, rec.pool.CurrentEpoch)
	if err != nil {
		return PoolFacts{}, err
	}
	return PoolFacts{Pool: rec.pool, Totals: rec.totals, Live: rec.live, Delegators: rec.delegators,
		LivePledge: pledge, ActiveTotal: total, NetworkLive: rec.networkLive}, nil
}

// PoolLiveStakes is every pool's live stake from the background refresh
// (internal/service/poolstats), by pool id hex; ok is false without one.
func (s *Service) PoolLiveStakes(ctx context.Context, db *dbsync.DB) (map[string]poolstats.Live, bool, error) {
	if s.opts.PoolStats == nil {
		return nil, false, nil
	}
	return s.opts.PoolStats.Summaries(ctx, db.Network.Name)
}

// PoolDelegatorList is every current delegator of the pool with its live
// stake, in the order their delegations took effect (active epoch, then
// stake address): the stored distribution, or before the first refresh
// this pool's computed now (the epoch's snapshot when that is too slow).
func (s *Service) PoolDelegatorList(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]poolstats.Delegator, error) {
	if s.opts.PoolStats != nil {
		list, ok, err := s.opts.PoolStats.AllDelegators(ctx, db.Network.Name, id)
		if err != nil || ok {
			return list, err
		}
	}
	rows, _, err := db.PoolStakeOnDemand(ctx, id, s.tuning.PoolOnDemandBudget)
	if err != nil {
		return nil, err
	}
	out := make([]poolstats.Delegator, len(rows))
	for i, r := range rows {
		out[i] = poolstats.Delegator{StakeAddress: r.StakeAddress, Amount: r.Amount, ActiveEpochNo: r.ActiveEpochNo}
	}
	slices.SortFunc(out, func(a, b poolstats.Delegator) int {
		if a.ActiveEpochNo != b.ActiveEpochNo {
			return int(a.ActiveEpochNo - b.ActiveEpochNo)
		}
		return strings.Compare(a.StakeAddress, b.StakeAddress)
	})
	return out, nil
}
