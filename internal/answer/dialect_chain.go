package answer

import (
	"context"
	"math/big"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
)

// epochFactTTL is how long an epoch's fact is kept unless its loader
// says otherwise: final once the epoch has begun, but a rollback across
// the epoch's first block may rewrite it (as with the pools' per-epoch
// totals).
const epochFactTTL = time.Hour

// ActiveStake is the total stake of the epoch's active distribution (0
// for an epoch without one), summed once per epoch and shared with the
// pool answers (the activestake cache).
func (s *Service) ActiveStake(ctx context.Context, db *dbsync.DB, epoch int64) (*big.Int, error) {
	return s.epochActiveStake(ctx, db, epoch)
}

// NetworkLiveStake is every pool's live stake as of the background pool
// stake refresh (internal/service/poolstats); ok is false without one
// (no PoolStats configured, or none completed yet).
func (s *Service) NetworkLiveStake(ctx context.Context, db *dbsync.DB) (live *big.Int, ok bool, err error) {
	if s.opts.PoolStats == nil {
		return nil, false, nil
	}
	// The network's total comes with any pool's summary; the zero pool id
	// names none, so only the total is read.
	sum, ok, err := s.opts.PoolStats.PoolSummary(ctx, db.Network.Name, cardano.PoolID{})
	if err != nil || !ok {
		return nil, false, err
	}
	if sum.NetworkLiveStake == nil {
		return new(big.Int), true, nil
	}
	return sum.NetworkLiveStake, true, nil
}

// EpochFact is a JSON value that is final for an epoch of the network
// (name says which), loaded once per epoch and shared with the other
// instances for ttl (0: an hour): for another dialect's answers whose
// parts cost too much to read under every tip.
func (s *Service) EpochFact(ctx context.Context, db *dbsync.DB, name string, epoch int64, ttl time.Duration, load func(context.Context) ([]byte, error)) ([]byte, error) {
	return s.caches.epochFact.GetTTL(ctx, db.Network.Name+":"+name+":"+strconv.FormatInt(epoch, 10), func(ctx context.Context) ([]byte, time.Duration, error) {
		b, err := load(ctx)
		return b, ttl, err
	})
}
