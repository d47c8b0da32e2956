package bf

import (
	"context"
	"encoding/json"
	"math/big"
	"slices"

	"sync"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/pools"
)

// The pool lists (/pools, /pools/extended, /pools/retired,
// /pools/retiring) are cut from one table of every registered pool, read
// once per tip and kept in process (poolTables): a few thousand rows on
// mainnet, so any page, however deep, is a slice of it. The table joins
// what changes per tip (parameters and status, blocks in the current
// epoch: one statement each; live stake: poolstats' stored summaries)
// with what changes per epoch (active stake, blocks before the epoch:
// answer.Service.EpochFact, read once an epoch and shared by instances).

// poolRow is one pool of the table with its figures.
type poolRow struct {
	pools.Pool
	active, live      string
	blocks            int64
	saturation        float64
	retiring, retired bool
}

// poolTable is every registered pool at one tip.
type poolTable struct {
	epoch int64
	rows  []poolRow
	// active lists the pools not retired, in pool_hash order; retired
	// and retiring those whose retirement took effect / is announced, by
	// (retiring epoch, announcing transaction).
	active, retired, retiring []int
}

// poolTables keeps the newest table of each network.
type poolTables struct {
	mu sync.Mutex
	of map[string]*poolTableLoad
}

type poolTableLoad struct {
	tip  string
	done chan struct{}
	t    *poolTable
	err  error
}

// poolsEpochFact is what the table reads once an epoch.
type poolsEpochFact struct {
	Stakes []pools.Stake      `json:"s"`
	Before []pools.BlockCount `json:"b"`
}

// table returns the pool table at db's tip, read once per tip (requests
// for the same tip meanwhile wait for the one read).
func (a *Answers) table(ctx context.Context, db *dbsync.DB) (*poolTable, error) {
	tip, err := db.Tip(ctx)
	if err != nil {
		return nil, err
	}
	m := &a.poolTables
	m.mu.Lock()
	if m.of == nil {
		m.of = map[string]*poolTableLoad{}
	}
	l := m.of[db.Network.Name]
	if l == nil || l.tip != tip.BlockHash || (isClosed(l.done) && l.err != nil) {
		l = &poolTableLoad{tip: tip.BlockHash, done: make(chan struct{})}
		m.of[db.Network.Name] = l
		m.mu.Unlock()
		l.t, l.err = a.readTable(context.WithoutCancel(ctx), db, tip.EpochNo)
		close(l.done)
	} else {
		m.mu.Unlock()
	}
	select {
	case <-l.done:
		return l.t, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func (a *Answers) readTable(ctx context.Context, db *dbsync.DB, tipEpoch *int64) (*poolTable, error) {
	epoch := int64(0)
	if tipEpoch != nil {
		epoch = *tipEpoch
	}
	all, err := pools.All(ctx, db)
	if err != nil {
		return nil, err
	}
	b, err := a.svc.EpochFact(ctx, db, "poolsepoch", epoch, 0, func(ctx context.Context) ([]byte, error) {
		var f poolsEpochFact
		var err error
		if f.Stakes, err = pools.EpochStakes(ctx, db, epoch); err != nil {
			return nil, err
		}
		if f.Before, err = pools.BlockCounts(ctx, db, 0, epoch-1); err != nil {
			return nil, err
		}
		return json.Marshal(f)
	})
	if err != nil {
		return nil, err
	}
	var fact poolsEpochFact
	if err := json.Unmarshal(b, &fact); err != nil {
		return nil, err
	}
	now, err := pools.BlockCounts(ctx, db, epoch, epoch)
	if err != nil {
		return nil, err
	}
	live, stored, err := a.svc.PoolLiveStakes(ctx, db)
	if err != nil {
		return nil, err
	}
	active := map[int64]string{}
	for _, s := range fact.Stakes {
		active[s.HashID] = s.ActiveStake
	}
	blocks := map[int64]int64{}
	for _, c := range append(fact.Before, now...) {
		blocks[c.HashID] += c.Blocks
	}
	t := &poolTable{epoch: epoch, rows: make([]poolRow, len(all))}
	for i, p := range all {
		r := poolRow{Pool: p, active: "0", blocks: blocks[p.HashID],
			retiring: p.Retiring(epoch), retired: p.Retired(epoch)}
		if s, ok := active[p.HashID]; ok {
			r.active = s
		}
		// Before the first refresh the epoch's active stake stands in for
		// the live one (docs/DECISIONS.md).
		r.live = r.active
		if stored {
			r.live = "0"
			if l, ok := live[p.Hex]; ok {
				r.live = l.Stake.String()
			}
		}
		liveInt, _ := new(big.Int).SetString(r.live, 10)
		sat := dbsync.Pool{OptimalPoolCount: p.OptimalPoolCount}
		if p.Reserves != nil {
			sat.Reserves, _ = new(big.Int).SetString(*p.Reserves, 10)
		}
		r.saturation = sat.Saturation(liveInt)
		t.rows[i] = r
		switch {
		case r.retired:
			t.retired = append(t.retired, i)
		case r.retiring:
			t.retiring = append(t.retiring, i)
			t.active = append(t.active, i)
		default:
			t.active = append(t.active, i)
		}
	}
	byRetirement := func(x, y int) int {
		px, py := t.rows[x].Pool, t.rows[y].Pool
		if *px.RetiringEpoch != *py.RetiringEpoch {
			return int(*px.RetiringEpoch - *py.RetiringEpoch)
		}
		return int(*px.RetireTxID - *py.RetireTxID)
	}
	slices.SortStableFunc(t.retired, byRetirement)
	slices.SortStableFunc(t.retiring, byRetirement)
	return t, nil
}

// pageOf is page p of list (oldest first; Desc counts from the newest and
// lists newest first).
func pageOf[T any](list []T, p Paging) []T {
	n := len(list)
	lo, hi := p.Offset(), p.Offset()+p.Count
	if lo >= n {
		return []T{}
	}
	hi = min(hi, n)
	out := make([]T, 0, hi-lo)
	for i := lo; i < hi; i++ {
		j := i
		if p.Desc {
			j = n - 1 - i
		}
		out = append(out, list[j])
	}
	return out
}

// PoolIDs answers /pools: the bech32 ids of the pools not retired.
func (a *Answers) PoolIDs(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "pools", []string{p.key()}, func(ctx context.Context, db *dbsync.DB) ([]string, error) {
		t, err := a.table(ctx, db)
		if err != nil {
			return nil, err
		}
		out := []string{}
		for _, i := range pageOf(t.active, p) {
			out = append(out, t.rows[i].ID)
		}
		return out, nil
	})
}

// PoolRetirement is Blockfrost's pool_list_retire item.
type PoolRetirement struct {
	PoolID string `json:"pool_id"`
	Epoch  int64  `json:"epoch"`
}

// PoolsRetiring answers /pools/retired (retired) and /pools/retiring.
func (a *Answers) PoolsRetiring(ctx context.Context, db *dbsync.DB, retired bool, p Paging) ([]byte, error) {
	route := "poolsretiring"
	if retired {
		route = "poolsretired"
	}
	return cached(ctx, a, db, route, []string{p.key()}, func(ctx context.Context, db *dbsync.DB) ([]PoolRetirement, error) {
		t, err := a.table(ctx, db)
		if err != nil {
			return nil, err
		}
		list := t.retiring
		if retired {
			list = t.retired
		}
		out := []PoolRetirement{}
		for _, i := range pageOf(list, p) {
			out = append(out, PoolRetirement{PoolID: t.rows[i].ID, Epoch: *t.rows[i].RetiringEpoch})
		}
		return out, nil
	})
}

// PoolMetadataShort is the metadata of a /pools/extended item.
type PoolMetadataShort struct {
	URL         *string `json:"url"`
	Hash        *string `json:"hash"`
	Ticker      *string `json:"ticker"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Homepage    *string `json:"homepage"`
}

// PoolExtended is Blockfrost's pool_list_extended item.
type PoolExtended struct {
	PoolID         string             `json:"pool_id"`
	Hex            string             `json:"hex"`
	ActiveStake    string             `json:"active_stake"`
	LiveStake      string             `json:"live_stake"`
	LiveSaturation float64            `json:"live_saturation"`
	BlocksMinted   int64              `json:"blocks_minted"`
	DeclaredPledge string             `json:"declared_pledge"`
	MarginCost     float64            `json:"margin_cost"`
	FixedCost      string             `json:"fixed_cost"`
	Metadata       *PoolMetadataShort `json:"metadata"`
}

// PoolsExtended answers /pools/extended: the pools not retired with their
// figures; metadata is null for a registration that names none.
func (a *Answers) PoolsExtended(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "poolsextended", []string{p.key()}, func(ctx context.Context, db *dbsync.DB) ([]PoolExtended, error) {
		t, err := a.table(ctx, db)
		if err != nil {
			return nil, err
		}
		out := []PoolExtended{}
		for _, i := range pageOf(t.active, p) {
			r := t.rows[i]
			e := PoolExtended{PoolID: r.ID, Hex: r.Hex, ActiveStake: r.active, LiveStake: r.live,
				LiveSaturation: r.saturation, BlocksMinted: r.blocks, DeclaredPledge: r.Pledge,
				MarginCost: r.Margin, FixedCost: r.FixedCost}
			if r.MetadataURL != nil {
				e.Metadata = &PoolMetadataShort{URL: r.MetadataURL, Hash: r.MetadataHash, Ticker: r.Ticker,
					Name: r.Name, Description: r.Description, Homepage: r.Homepage}
			}
			out = append(out, e)
		}
		return out, nil
	})
}
