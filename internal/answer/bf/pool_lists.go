package bf

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/pools"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// PoolHistoryItem is Blockfrost's pool_history item.
type PoolHistoryItem struct {
	Epoch           int64   `json:"epoch"`
	Blocks          int64   `json:"blocks"`
	ActiveStake     string  `json:"active_stake"`
	ActiveSize      float64 `json:"active_size"`
	DelegatorsCount int64   `json:"delegators_count"`
	Rewards         string  `json:"rewards"`
	Fees            string  `json:"fees"`
}

// PoolHistory answers /pools/{pool_id}/history: the pool's figures in
// each epoch before the current one in which it had active stake. The
// epochs up to two before the current one are final (their rewards are
// in) and read once an epoch (answer.Service.EpochFact); the previous
// epoch, whose rewards arrive during the current one, is read under the
// tip.
func (a *Answers) PoolHistory(ctx context.Context, db *dbsync.DB, id cardano.PoolID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "poolhistory", []string{id.Hex(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]PoolHistoryItem, error) {
		if err := poolKnown(ctx, db, id); err != nil {
			return nil, err
		}
		tip, err := db.Tip(ctx)
		if err != nil {
			return nil, err
		}
		current := int64(0)
		if tip.EpochNo != nil {
			current = *tip.EpochNo
		}
		var final []PoolHistoryItem
		b, err := a.svc.EpochFact(ctx, db, "poolhistory:"+id.Hex(), current, 0, func(ctx context.Context) ([]byte, error) {
			items, err := a.poolHistory(ctx, db, id, 0, current-2)
			if err != nil {
				return nil, err
			}
			return json.Marshal(items)
		})
		if err == nil {
			err = json.Unmarshal(b, &final)
		}
		if err != nil {
			return nil, err
		}
		last, err := a.poolHistory(ctx, db, id, max(current-1, 0), current-1)
		if err != nil {
			return nil, err
		}
		return pageOf(append(final, last...), p), nil
	})
}

// poolHistory reads the pool's history items of the epochs from..to.
func (a *Answers) poolHistory(ctx context.Context, db *dbsync.DB, id cardano.PoolID, from, to int64) ([]PoolHistoryItem, error) {
	out := []PoolHistoryItem{}
	if to < from {
		return out, nil
	}
	es, err := pools.History(ctx, db, id[:], from, to)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		total, err := a.svc.ActiveStake(ctx, db, e.Epoch)
		if err != nil {
			return nil, err
		}
		active, _ := new(big.Int).SetString(e.ActiveStake, 10)
		out = append(out, PoolHistoryItem{Epoch: e.Epoch, Blocks: e.Blocks, ActiveStake: e.ActiveStake,
			ActiveSize: share(active, total), DelegatorsCount: e.Delegators, Rewards: e.Rewards,
			Fees: operatorFees(e.Rewards, e.FixedCost, e.Margin)})
	}
	return out, nil
}

// operatorFees is the operator's part of a pool's rewards for an epoch,
// as Blockfrost's open backend computes it: all of them when they do not
// exceed the fixed cost, else the fixed cost plus the margin of the rest,
// rounded down (exactly, from the margin's double).
func operatorFees(rewards, fixedCost string, margin float64) string {
	r, ok1 := new(big.Int).SetString(rewards, 10)
	f, ok2 := new(big.Int).SetString(fixedCost, 10)
	if !ok1 || !ok2 || r.Sign() <= 0 {
		return "0"
	}
	if r.Cmp(f) <= 0 {
		return r.String()
	}
	m := new(big.Rat)
	m.SetFloat64(margin)
	rest := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Sub(r, f)), m)
	floor := new(big.Int).Quo(rest.Num(), rest.Denom())
	return floor.Add(floor, f).String()
}

// PoolDelegator is Blockfrost's pool_delegators item.
type PoolDelegator struct {
	Address   string `json:"address"`
	LiveStake string `json:"live_stake"`
}

// poolPage answers a page of one pool's list read whole once per tip
// (answer.DialectPage: every page cut from stored blocks of 100); an
// empty list of a pool never registered is not found.
func (a *Answers) poolPage(ctx context.Context, db *dbsync.DB, route string, id cardano.PoolID, p Paging, each func(ctx context.Context, db *dbsync.DB, fn func(any) error) error) ([]byte, error) {
	list := answer.DialectList{Params: []string{"bf", route, id.Hex()},
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			return each(ctx, db, func(v any) error {
				b, err := json.Marshal(v)
				if err != nil {
					return err
				}
				return fn(b)
			})
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || !bytes.Equal(b, emptyList) {
		return b, err
	}
	if err := poolKnown(ctx, db, id); err != nil {
		return nil, err
	}
	return b, nil
}

// PoolDelegators answers /pools/{pool_id}/delegators: the pool's current
// delegators with their live stake, in the order their delegations took
// effect (answer.Service.PoolDelegatorList).
func (a *Answers) PoolDelegators(ctx context.Context, db *dbsync.DB, id cardano.PoolID, p Paging) ([]byte, error) {
	return a.poolPage(ctx, db, "pooldelegators", id, p, func(ctx context.Context, db *dbsync.DB, fn func(any) error) error {
		list, err := a.svc.PoolDelegatorList(ctx, db, id)
		if err != nil {
			return err
		}
		for _, d := range list {
			if err := fn(PoolDelegator{Address: d.StakeAddress, LiveStake: d.Amount}); err != nil {
				return err
			}
		}
		return nil
	})
}

// PoolBlocks answers /pools/{pool_id}/blocks: the hashes of the blocks
// the pool made, in chain order.
func (a *Answers) PoolBlocks(ctx context.Context, db *dbsync.DB, id cardano.PoolID, p Paging) ([]byte, error) {
	return a.poolPage(ctx, db, "poolblocks", id, p, func(ctx context.Context, db *dbsync.DB, fn func(any) error) error {
		hashes, err := pools.Blocks(ctx, db, id[:])
		if err != nil {
			return err
		}
		for _, h := range hashes {
			if err := fn(h); err != nil {
				return err
			}
		}
		return nil
	})
}

// PoolUpdates answers /pools/{pool_id}/updates: the pool's registration,
// update and retirement certificates in chain order (a handful: read
// whole under the tip).
func (a *Answers) PoolUpdates(ctx context.Context, db *dbsync.DB, id cardano.PoolID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "poolupdates", []string{id.Hex(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]pools.Update, error) {
		list, err := pools.Updates(ctx, db, id[:])
		if err == nil && len(list) == 0 {
			err = answer.ErrNotFound // a registered pool has its registration
		}
		if err != nil {
			return nil, err
		}
		return pageOf(list, p), nil
	})
}

// PoolVotes answers /pools/{pool_id}/votes: the votes the pool cast, in
// chain order (at most a few per governance action: read whole under
// the tip).
func (a *Answers) PoolVotes(ctx context.Context, db *dbsync.DB, id cardano.PoolID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "poolvotes", []string{id.Hex(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]pools.Vote, error) {
		if err := poolKnown(ctx, db, id); err != nil {
			return nil, err
		}
		list, err := pools.Votes(ctx, db, id[:])
		if err != nil {
			return nil, err
		}
		return pageOf(list, p), nil
	})
}
