package dbsync_test

import (
	"context"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// withReplicas opens the core chain with two replicas (the same database
// through pools of their own) and waits until all are in rotation.
func withReplicas(t *testing.T) *dbsync.DB {
	t.Helper()
	db, err := dbsync.New(config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: chains[0].dsn, ReplicaURLs: []string{chains[0].dsn, chains[0].dsn}},
		dbsync.Options{ServerOptions: dbsync.ServerOptions{StatementTimeout: 30 * time.Second, ProbeInterval: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.Started(t.Context()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		s := db.Servers()
		if s[0].Up && s[1].Up && s[2].Up {
			return db
		}
		if time.Now().After(deadline) {
			t.Fatalf("servers not in rotation: %+v", s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A pinned request reads from one server, remembers the tip of that
// server only, and moves to the primary when its server leaves rotation:
// pinned by a view (Pinned).
func TestPinnedReadsStayOnOneServer(t *testing.T) {
	needChains(t)
	testPinnedReads(t, func(db *dbsync.DB) (*dbsync.DB, context.Context) { return db.Pinned(), context.Background() })
}

func testPinnedReads(t *testing.T, pin func(db *dbsync.DB) (*dbsync.DB, context.Context)) {
	all := withReplicas(t)
	// Unpinned reads take the replicas in turn.
	seen := map[string]bool{}
	for range 4 {
		seen[all.ReaderName(context.Background())] = true
	}
	if !seen["replica1"] || !seen["replica2"] || len(seen) != 2 {
		t.Fatalf("unpinned reads went to %v, want both replicas", seen)
	}
	db, ctx := pin(all)
	server := db.ReaderName(ctx)
	if !strings.HasPrefix(server, "replica") {
		t.Fatalf("pinned to %s, want a replica", server)
	}
	i := int(server[len(server)-1] - '0') // the server's place: 0 is the primary
	tip, err := db.RecentTip(ctx)
	if err != nil || tip.BlockHash != chains[0].manifest.Tip.BlockHash {
		t.Fatalf("tip %+v, %v", tip, err)
	}
	for j := range 3 {
		if db.TipRemembered(j) != (j == i) {
			t.Errorf("server %d remembers a tip: %v; want only the pinned %s's", j, db.TipRemembered(j), server)
		}
	}
	for range 5 {
		if got := db.ReaderName(ctx); got != server {
			t.Fatalf("pinned read went to %s, not %s", got, server)
		}
	}
	db.TakeOut(i)
	if got := db.ReaderName(ctx); got != "primary" {
		t.Errorf("%s out of rotation: pinned read goes to %s, want the primary", server, got)
	}
	other := "replica" + string(rune('0'+3-i))
	if got := all.ReaderName(context.Background()); got != other {
		t.Errorf("%s out of rotation: unpinned read goes to %s, want %s", server, got, other)
	}
	if _, err := db.TxHistory(ctx, mustAddress(t, samples.Small[0]), dbsync.HistoryQuery{Limit: 5}, nil); err != nil {
		t.Errorf("read with the replica out: %v", err)
	}
	// Every server out of rotation: answered at once, unavailable.
	db.TakeOut(3 - i)
	db.TakeOut(0)
	start := time.Now()
	_, err = db.TxHistory(ctx, mustAddress(t, samples.Small[0]), dbsync.HistoryQuery{Limit: 5}, nil)
	// At once: not after a wait for a probe or a connection (a second each).
	if !errors.Is(err, dbsync.ErrUnavailable) || time.Since(start) >= time.Second {
		t.Errorf("every server out: %v after %s", err, time.Since(start))
	}
}

// A database that is not (yet) db-sync is retried: it answers
// ErrUnavailable at once until db-sync has created its schema, then the
// detection succeeds and the database serves.
func TestDetectionRetried(t *testing.T) {
	requireDB(t)
	dsn := testdb.New(t, "sg_test_not_dbsync")
	db, err := dbsync.New(config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: dsn}, dbsync.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Started(t.Context())
	if !errors.Is(err, dbsync.ErrUnavailable) || !strings.Contains(err.Error(), "detect capabilities") {
		t.Fatalf("first attempt on an empty database: %v", err)
	}
	start := time.Now()
	// At once: not after a detection attempt's connection (a second).
	if _, err := db.Tip(t.Context()); !errors.Is(err, dbsync.ErrUnavailable) || time.Since(start) >= time.Second {
		t.Errorf("read before ready: %v after %s", err, time.Since(start))
	}
	// db-sync creates its schema meanwhile.
	if err := chaingen.CreateSchema(t.Context(), testdb.Open(t, dsn).DB); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !db.Ready(); {
		if time.Now().After(deadline) {
			t.Fatalf("not ready after the schema appeared: %+v", db.Servers())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := db.Tip(t.Context()); !errors.Is(err, dbsync.ErrNotFound) {
		t.Errorf("tip of an empty chain: %v, want ErrNotFound", err)
	}
}

// Requests pin views from the start of a degraded service, while the
// capabilities are still to be detected on the engine's goroutine: a view
// reads them through Capabilities, never from a copy written there without
// synchronisation (under -race, the detector fails this test if one is),
// and a view pinned before detection sees them once it is done.
func TestPinnedWhileDetecting(t *testing.T) {
	requireDB(t)
	dsn := testdb.New(t, "sg_test_pin_detect")
	db, err := dbsync.New(config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: dsn}, dbsync.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	early := db.Pinned()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var pinnedKnown atomic.Bool
	for range 4 {
		wg.Add(1)
		go func() { // requests arriving all along
			defer wg.Done()
			for {
				if caps, known := db.Pinned().Capabilities(); known && caps.LayoutName() != "" {
					pinnedKnown.Store(true)
				}
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	if err := chaingen.CreateSchema(t.Context(), testdb.Open(t, dsn).DB); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !db.Ready() || !pinnedKnown.Load(); {
		if time.Now().After(deadline) {
			t.Fatalf("capabilities not seen through a pinned view after the schema appeared: %+v", db.Servers())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if caps, known := early.Capabilities(); !known || caps.Layout() != (dbsync.Layout{}) {
		t.Errorf("a view pinned before detection: %+v (known %v), want the core layout", caps, known)
	}
}

// Open returns with the primary in rotation: a read right after it must
// not be refused as unavailable (Started once reported before the
// rotation state was set, and a loaded machine answered 503 in between).
func TestOpenReturnsInRotation(t *testing.T) {
	needChains(t)
	for range 20 {
		db, err := dbsync.Open(t.Context(), config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: chains[0].dsn}, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		s := db.Servers()
		db.Close()
		if !s[0].Up {
			t.Fatalf("Open returned with the primary out of rotation: %+v", s[0])
		}
	}
}
