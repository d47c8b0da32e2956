package answer

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"sync"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

// poolMetadataData is GET /v1/pools/:poolId/metadata's data (OpenAPI schema PoolMetadata).
type poolMetadataData struct {
	PoolID      string  `json:"pool_id"`
	Name        *string `json:"name"`
	Ticker      *string `json:"ticker"`
	Description *string `json:"description"`
	Homepage    *string `json:"homepage"`
	Extended    *string `json:"extended"`
}

// poolDelegatorSummary is GET /v1/pools/:poolId/delegators's data: the
// pool record's figures.
type poolDelegatorSummary struct {
	PoolID         string `json:"pool_id"`
	DelegatorCount int64  `json:"delegator_count"`
	ActiveStake    string `json:"active_stake"`
}

// poolBlocksData is GET /v1/pools/:poolId/blocks's data.
type poolBlocksData struct {
	PoolID       string `json:"pool_id"`
	BlocksMinted int64  `json:"blocks_minted"`
	BlocksEpoch  int64  `json:"blocks_epoch"`
	CurrentEpoch int64  `json:"current_epoch"`
}

// PoolMetadata answers GET /v1/pools/:poolId/metadata.
func (s *Service) PoolMetadata(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return s.poolAnswer(ctx, s.caches.poolMeta, db, id, func(ctx context.Context, db *dbsync.DB) (any, error) {
		m, err := db.PoolMetadata(ctx, id)
		if err != nil {
			return nil, err
		}
		return poolMetadataData{PoolID: id.String(), Name: m.Name, Ticker: m.Ticker,
			Description: m.Description, Homepage: m.Homepage, Extended: m.Extended}, nil
	})
}

// PoolDelegatorCount answers GET /v1/pools/:poolId/delegators.
func (s *Service) PoolDelegatorCount(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return s.poolAnswer(ctx, s.caches.poolDelegCount, db, id, func(ctx context.Context, db *dbsync.DB) (any, error) {
		rec, err := s.readPoolRecord(ctx, db, id, true)
		if err != nil {
			return nil, err
		}
		return poolDelegatorSummary{PoolID: id.String(), DelegatorCount: rec.delegators, ActiveStake: rec.totals.ActiveStake}, nil
	})
}

// PoolBlocks answers GET /v1/pools/:poolId/blocks.
func (s *Service) PoolBlocks(ctx context.Context, db *dbsync.DB, id cardano.PoolID) ([]byte, error) {
	return s.poolAnswer(ctx, s.caches.poolBlocks, db, id, func(ctx context.Context, db *dbsync.DB) (any, error) {
		rec, err := s.readPoolRecord(ctx, db, id, false)
		if err != nil {
			return nil, err
		}
		return poolBlocksData{PoolID: id.String(), BlocksMinted: rec.totals.BlocksBefore + rec.pool.BlocksEpoch,
			BlocksEpoch: rec.pool.BlocksEpoch, CurrentEpoch: rec.pool.CurrentEpoch}, nil
	})
}

// poolAnswer answers read's data, cached under the tip like the pool
// record. db-sync's ErrNotFound (never registered) is ErrPoolNotFound.
func (s *Service) poolAnswer(ctx context.Context, answers *cache.Cache[[]byte], db *dbsync.DB, id cardano.PoolID, read func(context.Context, *dbsync.DB) (any, error)) ([]byte, error) {
	return s.byTipEnvelope(ctx, answers, db, []string{id.Hex()}, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		data, err := read(ctx, db)
		if errors.Is(err, dbsync.ErrNotFound) {
			return wire.Envelope{}, 0, ErrPoolNotFound
		}
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		return ok(data), poolResponseTTL, nil
	})
}

// epochTotalMemo remembers, per db-sync database, the total active stake
// of the last epoch asked for: a mainnet epoch has over a million
// epoch_stake rows, summed once per epoch (through the activestake cache,
// shared with the other instances) and then read from memory.
type epochTotalMemo struct {
	mu sync.Mutex
	m  map[*dbsync.DB]epochTotal
}

type epochTotal struct {
	epoch int64
	total *big.Int
}

// epochActiveStake returns the total stake of epoch's active distribution.
func (s *Service) epochActiveStake(ctx context.Context, db *dbsync.DB, epoch int64) (*big.Int, error) {
	t := &s.activeTotals
	t.mu.Lock()
	seen, ok := t.m[db]
	t.mu.Unlock()
	if ok && seen.epoch == epoch {
		return seen.total, nil
	}
	text, err := s.caches.activeStake.Get(ctx, db.Network.Name+":"+strconv.FormatInt(epoch, 10), func(ctx context.Context) (string, error) {
		total, err := db.EpochActiveStake(ctx, epoch)
		if err != nil {
			return "", err
		}
		return total.String(), nil
	})
	if err != nil {
		return nil, err
	}
	total, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return nil, fmt.Errorf("active stake total %q is not an integer", text)
	}
	t.mu.Lock()
	if t.m == nil {
		t.m = map[*dbsync.DB]epochTotal{}
	}
	if cur, ok := t.m[db]; !ok || cur.epoch <= epoch {
		t.m[db] = epochTotal{epoch: epoch, total: total}
	}
	t.mu.Unlock()
	return total, nil
}

// poolLiveStake returns the pool's live stake and delegator count from the
// stored distribution, with every pool's live stake of the same refresh,
// or, before the first background refresh (or without one), computed for
// this pool on demand (the network total then unknown: nil).
func (s *Service) poolLiveStake(ctx context.Context, db *dbsync.DB, id cardano.PoolID) (*big.Int, int64, *big.Int, error) {
	if s.opts.PoolStats != nil {
		sum, ok, err := s.opts.PoolStats.PoolSummary(ctx, db.Network.Name, id)
		if err != nil {
			return nil, 0, nil, err
		}
		if ok {
			network := sum.NetworkLiveStake
			if network == nil {
				network = new(big.Int) // no pool had delegators
			}
			return sum.LiveStake, sum.DelegatorCount, network, nil
		}
	}
	rows, _, err := db.PoolStakeOnDemand(ctx, id, s.tuning.PoolOnDemandBudget)
	if err != nil {
		return nil, 0, nil, err
	}
	live, err := dbsync.SumStake(rows)
	if err != nil {
		return nil, 0, nil, err
	}
	return live, int64(len(rows)), nil, nil
}
