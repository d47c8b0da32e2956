package bf

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/epochs"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Epoch is Blockfrost's epoch_content.
type Epoch struct {
	Epoch          int64   `json:"epoch"`
	StartTime      int64   `json:"start_time"`
	EndTime        int64   `json:"end_time"`
	FirstBlockTime int64   `json:"first_block_time"`
	LastBlockTime  int64   `json:"last_block_time"`
	BlockCount     int64   `json:"block_count"`
	TxCount        int64   `json:"tx_count"`
	Output         string  `json:"output"`
	Fees           string  `json:"fees"`
	ActiveStake    *string `json:"active_stake"`
}

// epochOf is the epoch's content: its start and end from the network's
// start (every epoch lasts as long: a Byron epoch's 10k slots of 20 s are
// a Shelley epoch's slots of 1 s), its active stake from the per-epoch
// memo (null for an epoch without a stake distribution).
func (a *Answers) epochOf(ctx context.Context, db *dbsync.DB, e epochs.Epoch, systemStart time.Time) (Epoch, error) {
	length := db.Network.EpochLength * db.Network.Genesis().SlotLength
	start := systemStart.Unix() + e.Epoch*length
	out := Epoch{Epoch: e.Epoch, StartTime: start, EndTime: start + length,
		FirstBlockTime: e.FirstBlockTime.Unix(), LastBlockTime: e.LastBlockTime.Unix(),
		BlockCount: e.BlockCount, TxCount: e.TxCount, Output: e.Output, Fees: e.Fees}
	total, err := a.svc.ActiveStake(ctx, db, e.Epoch)
	if err != nil {
		return Epoch{}, err
	}
	if total.Sign() > 0 {
		s := total.String()
		out.ActiveStake = &s
	}
	return out, nil
}

// epochList is the epochs from..to with blocks.
func (a *Answers) epochList(ctx context.Context, db *dbsync.DB, from, to int64) ([]Epoch, error) {
	pos, err := db.RecentPosition(ctx) // for the network's start only
	if err != nil {
		return nil, err
	}
	es, err := epochs.Figures(ctx, db, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]Epoch, len(es))
	for i, e := range es {
		if out[i], err = a.epochOf(ctx, db, e, pos.SystemStart); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LatestEpoch answers /epochs/latest: the tip's epoch.
func (a *Answers) LatestEpoch(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	return cached(ctx, a, db, "epoch", []string{"latest"}, func(ctx context.Context, db *dbsync.DB) (Epoch, error) {
		pos, err := db.LatestPosition(ctx)
		if err != nil {
			return Epoch{}, err
		}
		if pos.EpochNo == nil {
			return Epoch{}, answer.ErrNotFound
		}
		return a.epoch(ctx, db, *pos.EpochNo)
	})
}

// EpochByNumber answers /epochs/{number}.
func (a *Answers) EpochByNumber(ctx context.Context, db *dbsync.DB, epoch int64) ([]byte, error) {
	return cached(ctx, a, db, "epoch", []string{strconv.FormatInt(epoch, 10)}, func(ctx context.Context, db *dbsync.DB) (Epoch, error) {
		return a.epoch(ctx, db, epoch)
	})
}

func (a *Answers) epoch(ctx context.Context, db *dbsync.DB, epoch int64) (Epoch, error) {
	es, err := a.epochList(ctx, db, epoch, epoch)
	if err == nil && len(es) == 0 {
		err = answer.ErrNotFound
	}
	if err != nil {
		return Epoch{}, err
	}
	return es[0], nil
}

// EpochNeighbours answers /epochs/{number}/next (next) and /previous:
// Blockfrost's epoch_content_array, oldest first, page 1 nearest the
// epoch (Desc does not apply). An epoch without blocks is not found.
func (a *Answers) EpochNeighbours(ctx context.Context, db *dbsync.DB, epoch int64, next bool, p Paging) ([]byte, error) {
	route := "epochprevious"
	if next {
		route = "epochnext"
	}
	p.Desc = false
	return cached(ctx, a, db, route, []string{strconv.FormatInt(epoch, 10), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]Epoch, error) {
		if ok, err := epochs.Exists(ctx, db, epoch); err != nil {
			return nil, err
		} else if !ok {
			return nil, answer.ErrNotFound
		}
		from, to := epoch+int64(p.Offset())+1, epoch+int64(p.Offset()+p.Count)
		if !next {
			from, to = max(epoch-int64(p.Offset()+p.Count), 0), epoch-int64(p.Offset())-1
		}
		return a.epochList(ctx, db, from, to)
	})
}

// EpochStakes answers /epochs/{number}/stakes: the epoch's active stake
// distribution in db-sync's row order (Desc does not apply). Where the
// epoch lies in epoch_stake is read once per epoch (epochs.Extent).
func (a *Answers) EpochStakes(ctx context.Context, db *dbsync.DB, epoch int64, p Paging) ([]byte, error) {
	p.Desc = false
	return cached(ctx, a, db, "epochstakes", []string{strconv.FormatInt(epoch, 10), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]epochs.Stake, error) {
		b, err := a.svc.EpochFact(ctx, db, "stakeextent", epoch, 0, func(ctx context.Context) ([]byte, error) {
			x, err := epochs.Extent(ctx, db, epoch)
			if err != nil {
				return nil, err
			}
			return json.Marshal(x)
		})
		if err != nil {
			return nil, err
		}
		var x epochs.StakeExtent
		if err := json.Unmarshal(b, &x); err != nil {
			return nil, err
		}
		stakes, err := epochs.Stakes(ctx, db, epoch, x, p.Offset(), p.Count)
		return stakes, notFound(err)
	})
}

// EpochPoolStakes answers /epochs/{number}/stakes/{pool_id}: the pool's
// part of the epoch's active stake distribution, in db-sync's row order
// (Desc does not apply). A pool never registered is not found.
func (a *Answers) EpochPoolStakes(ctx context.Context, db *dbsync.DB, epoch int64, pool cardano.PoolID, p Paging) ([]byte, error) {
	p.Desc = false
	return cached(ctx, a, db, "epochpoolstakes", []string{strconv.FormatInt(epoch, 10), pool.Hex(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]epochs.PoolStake, error) {
		if err := poolKnown(ctx, db, pool); err != nil {
			return nil, err
		}
		stakes, err := epochs.PoolStakes(ctx, db, epoch, pool[:], p.Offset(), p.Count)
		return stakes, notFound(err)
	})
}

// EpochBlocks answers /epochs/{number}/blocks: the hashes of the epoch's
// blocks in chain order.
func (a *Answers) EpochBlocks(ctx context.Context, db *dbsync.DB, epoch int64, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "epochblocks", []string{strconv.FormatInt(epoch, 10), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]string, error) {
		hashes, err := epochs.Blocks(ctx, db, epoch, p.Offset(), p.Count, p.Desc)
		return hashes, notFound(err)
	})
}

// EpochPoolBlocks answers /epochs/{number}/blocks/{pool_id}: the hashes
// of the blocks the pool made in the epoch, in chain order. A pool never
// registered is not found.
func (a *Answers) EpochPoolBlocks(ctx context.Context, db *dbsync.DB, epoch int64, pool cardano.PoolID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "epochpoolblocks", []string{strconv.FormatInt(epoch, 10), pool.Hex(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]string, error) {
		if err := poolKnown(ctx, db, pool); err != nil {
			return nil, err
		}
		hashes, err := epochs.PoolBlocks(ctx, db, epoch, pool[:], p.Offset(), p.Count, p.Desc)
		return hashes, notFound(err)
	})
}

// EpochParameters answers /epochs/{number}/parameters and (latest)
// /epochs/latest/parameters from /v1's row, cache and rules
// (answer.Service.BlockfrostEpochParameters): an epoch without
// parameters, or past the next one, is not found.
func (a *Answers) EpochParameters(ctx context.Context, db *dbsync.DB, epoch int64, latest bool) ([]byte, error) {
	b, err := a.svc.BlockfrostEpochParameters(ctx, db, epoch, latest)
	var beyond *answer.EpochOutOfRangeError
	if errors.Is(err, answer.ErrEpochParamsNotFound) || errors.As(err, &beyond) {
		return nil, answer.ErrNotFound
	}
	return b, err
}

// poolKnown is nil for a pool that was ever registered, else not found.
func poolKnown(ctx context.Context, db *dbsync.DB, pool cardano.PoolID) error {
	ok, err := db.PoolRegistered(ctx, pool)
	if err == nil && !ok {
		err = answer.ErrNotFound
	}
	return err
}
