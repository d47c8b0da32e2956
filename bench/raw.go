package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
)

// rawStatementTimeout matches the service's default STATEMENT_TIMEOUT, so
// both runs give up on a statement at the same point.
const rawStatementTimeout = 10 * time.Second

// rawRunner calls the dbsync store methods the handlers call, directly:
// PostgreSQL plus the driver and the store's scanning, without HTTP, auth,
// rate limiting, usage counting and JSON. It is the limit the gateway is
// compared with.
type rawRunner struct {
	db *dbsync.DB

	// totals stands in for the gateway's Redis cache of history totals
	// (handlers.historyTotal, single-flight like cache.Fetch): counted once
	// per address and tip, so raw cursor pages pay what gateway cursor
	// pages pay, minus the round trip.
	mu     sync.Mutex
	totals map[string]*total
}

type total struct {
	mu   sync.Mutex // held while counting: concurrent callers wait
	done bool
	n    int64
}

// openRaw opens the db-sync database of network the way `serve` does
// (dbsync.Open: same pool sizes, same statement timeout).
func openRaw(ctx context.Context, dbURL, network string) (*rawRunner, error) {
	n, ok := config.NetworkByName(network)
	if !ok {
		return nil, fmt.Errorf("unknown network %q in the manifest", network)
	}
	db, err := dbsync.Open(ctx, config.NetworkConfig{Network: n, DBSyncURL: dbURL}, rawStatementTimeout)
	if err != nil {
		return nil, err
	}
	if err := db.Caps.Supported(); err != nil {
		db.Close()
		return nil, err
	}
	return &rawRunner{db: db, totals: map[string]*total{}}, nil
}

// Close closes the pool.
func (r *rawRunner) Close() { r.db.Close() }

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
