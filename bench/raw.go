package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/service/poolstats"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
)

// rawHistoryMemo turns the store's history memo off (dbsync.Options): a
// raw call answered from it would measure a map lookup, not PostgreSQL.
const rawHistoryMemo = -1

// rawStatementTimeout matches the service's default STATEMENT_TIMEOUT, so
// both runs give up on a statement at the same point.
const rawStatementTimeout = 10 * time.Second

// rawRunner calls the dbsync store methods the handlers call, directly:
// the same SQL in PostgreSQL plus the driver and the store's scanning,
// without HTTP, auth, rate limiting, usage counting, JSON and the
// gateway's caches (Redis and in-process). It is the limit the gateway is
// compared with, so every call runs its statements in PostgreSQL: the
// store is opened with the history memo off (no page or transaction
// detail is answered from process memory) and GET /v1/epochs/latest reads
// the position with LatestPosition (one statement a call), not the
// one-second RecentPosition memo the handler reads. What the store keeps
// in process still applies, as in the server, because it only chooses
// which statements run, not their answers: history anchors (where a deep
// offset page starts its walk), core-mode output counts and tx_out's row
// estimate (which plan a history walk takes). Two stand-ins below amortise
// a per-tip statement the way the gateway's caches do, see totals and
// epochTotals.
type rawRunner struct {
	db *dbsync.DB
	// stats reads the stored pool stake distribution the server keeps in
	// the admin database (nil without --admin-db: no raw pool runs).
	stats *poolstats.Stats
	admin *sqlx.DB

	// epochTotals stands in for the handler's per-(pool, epoch) cache of a
	// pool's epoch totals and the epoch's active stake: figures that change
	// once an epoch, so no deployment reads them per request.
	emu         sync.Mutex
	epochTotals map[string]dbsync.PoolEpochTotals

	// totals stands in for the gateway's Redis cache of history totals
	// (handlers.historyTotal, single-flight like cache.Cache): counted once
	// per address and tip, so raw cursor pages pay what gateway cursor
	// pages pay, minus the round trip. Each page still runs its own
	// statements; only the whole-history count is shared.
	mu     sync.Mutex
	totals map[string]*total
}

type total struct {
	mu   sync.Mutex // held while counting: concurrent callers wait
	done bool
	n    int64
}

// openRaw opens the db-sync database of network the way `serve` does (same
// pool sizes, same statement timeout) but with the history memo off, and,
// when adminURL is set, the pool stake store the server fills there.
func openRaw(ctx context.Context, dbURL, adminURL, network string) (*rawRunner, error) {
	n, ok := cardano.NetworkByName(network)
	if !ok {
		return nil, fmt.Errorf("unknown network %q in the manifest", network)
	}
	db, err := dbsync.OpenWith(ctx, config.NetworkConfig{Network: n, DBSyncURL: dbURL},
		dbsync.Options{ServerOptions: dbsync.ServerOptions{StatementTimeout: rawStatementTimeout}, HistoryMemoBytes: rawHistoryMemo})
	if err != nil {
		return nil, err
	}
	caps, _ := db.Capabilities() // known: OpenWith waited for them
	if err := caps.Supported(); err != nil {
		db.Close()
		return nil, err
	}
	if err := useUTxOIndex(ctx, db, dbURL); err != nil {
		db.Close()
		return nil, err
	}
	r := &rawRunner{db: db, totals: map[string]*total{}, epochTotals: map[string]dbsync.PoolEpochTotals{}}
	if adminURL != "" {
		if r.admin, err = sqlx.Open("postgres", adminURL); err != nil {
			db.Close()
			return nil, err
		}
		r.stats = poolstats.New(r.admin, map[string]*dbsync.DB{network: db}, poolstats.Options{}) // read only: never started
	}
	return r, nil
}

// Close closes the pools.
func (r *rawRunner) Close() {
	r.db.Close()
	if r.admin != nil {
		r.admin.Close()
	}
}

// poolInfo makes the store calls of GET /v1/pools/:poolId on a cache miss:
// the pool's parameters, its stored live stake, its epoch totals and the
// epoch's total active stake (cached per epoch as the handler does) and
// the owners' live pledge.
func (r *rawRunner) poolInfo(ctx context.Context, id cardano.PoolID) error {
	if err := r.poolRecord(ctx, id); err != nil {
		return err
	}
	if _, err := r.db.PoolLivePledge(ctx, id); err != nil {
		return err
	}
	epoch, err := r.db.Tip(ctx)
	if err != nil || epoch.EpochNo == nil {
		return err
	}
	key := fmt.Sprintf("active/%d", *epoch.EpochNo)
	r.emu.Lock()
	_, cached := r.epochTotals[key]
	r.emu.Unlock()
	if !cached {
		if _, err := r.db.EpochActiveStake(ctx, *epoch.EpochNo); err != nil {
			return err
		}
		r.emu.Lock()
		r.epochTotals[key] = dbsync.PoolEpochTotals{}
		r.emu.Unlock()
	}
	return nil
}

// poolMetadata makes the store call of GET /v1/pools/:poolId/metadata.
func (r *rawRunner) poolMetadata(ctx context.Context, id cardano.PoolID) error {
	_, err := r.db.PoolMetadata(ctx, id)
	return err
}

// poolRecord makes the store calls GET /v1/pools/:poolId/delegators and
// /blocks make on a cache miss: the pool record without its extras.
func (r *rawRunner) poolRecord(ctx context.Context, id cardano.PoolID) error {
	p, err := r.db.PoolInfo(ctx, id)
	if err != nil {
		return err
	}
	if _, ok, err := r.stats.PoolSummary(ctx, r.db.Network.Name, id); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("no stored pool stake yet: the server's first refresh has not completed")
	}
	key := fmt.Sprintf("%s/%d", id.Hex(), p.CurrentEpoch)
	r.emu.Lock()
	_, cached := r.epochTotals[key]
	r.emu.Unlock()
	if !cached {
		t, err := r.db.PoolEpochTotals(ctx, id, p.CurrentEpoch)
		if err != nil {
			return err
		}
		r.emu.Lock()
		r.epochTotals[key] = t
		r.emu.Unlock()
	}
	return nil
}

// poolDelegators makes the store calls of the delegator list on a cache
// miss: one page of the stored distribution (and the registration check
// the handler adds when the pool has no delegators).
func (r *rawRunner) poolDelegators(ctx context.Context, id cardano.PoolID, limit, offset int) error {
	_, sum, ok, err := r.stats.PoolDelegators(ctx, r.db.Network.Name, id, limit, offset)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("no stored pool stake yet: the server's first refresh has not completed")
	}
	if sum.DelegatorCount == 0 {
		_, err = r.db.PoolRegistered(ctx, id)
	}
	return err
}

// counter caches an address's history total per tip, in process.
func (r *rawRunner) counter(addr string) dbsync.TotalCounter {
	return func(ctx context.Context, tip dbsync.Tip, count func(context.Context) (int64, error)) (int64, error) {
		key := tip.BlockHash + "/" + addr
		r.mu.Lock()
		t := r.totals[key]
		if t == nil {
			t = &total{}
			r.totals[key] = t
		}
		r.mu.Unlock()
		t.mu.Lock()
		defer t.mu.Unlock()
		if !t.done {
			n, err := count(ctx)
			if err != nil {
				return 0, err
			}
			t.n, t.done = n, true
		}
		return t.n, nil
	}
}

// noTotal skips the count: walks that only want cursors need no total.
func noTotal(context.Context, dbsync.Tip, func(context.Context) (int64, error)) (int64, error) {
	return 0, nil
}

// useUTxOIndex reads the unspent-output index where the server would (a
// core-mode database whose index is current: serve's maintainer switches
// it on the same way), so both sides run the same statements.
func useUTxOIndex(ctx context.Context, db *dbsync.DB, dbURL string) error {
	if caps, _ := db.Capabilities(); caps.UTxOMode != dbsync.ModeCore {
		return nil
	}
	conn, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return err
	}
	defer conn.Close()
	st, err := utxoindex.StatusOf(ctx, conn)
	if err != nil || !st.Usable(utxoindex.DefaultMaxLag) {
		return nil // no index (or not current): the server would not read it either
	}
	db.UseSpentIndex(true)
	db.UseSpentMarks(st.MarksByAddress)
	for deadline := time.Now().Add(30 * time.Second); !db.SpentIndexOn(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return errors.New("raw: the unspent-output index was never switched on")
		}
	}
	return nil
}
