package dbsync_test

import (
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
)

// TestHistoryCountFollowsChain: a history total counted once is counted
// on from there (what came after the snapshot's newest transaction) and
// stays exact through a rollback (the remembered transaction gone: counted
// whole) and the blocks coming back with new ids; in core mode with the
// unspent-output index too, counting whole while db-sync is rolled back
// below the index.
func TestHistoryCountFollowsChain(t *testing.T) {
	needChains(t)
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeConsumed, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, AddressTable: true, Schema: chaingen.Schema137},
	} {
		t.Run(strings.ReplaceAll(v.String(), "/", "_"), func(t *testing.T) {
			ctx := t.Context()
			var lc *layoutChain
			var x *utxoindex.Index
			if v.Mode == chaingen.ModeCore {
				sc := seedSpent(t, v, 0)
				lc, x = sc.layoutChain, sc.index
			} else {
				lc = seedLayout(t, v)
			}
			lc.db.SetSmallHistoryOutputs(0) // every page walks and counts
			sc := &spentChain{layoutChain: lc}
			addrs := append([]string{samples.Whale, samples.Busy}, spendOnlyAddresses(t, sc)...)
			check := func(when string, wantBase, wantWhole int64) {
				t.Helper()
				base0, whole0 := lc.db.HistoryCounts()
				for _, a := range addrs {
					p, err := lc.db.TxHistory(ctx, mustAddress(t, a), dbsync.HistoryQuery{Limit: 1, Offset: 1}, nil)
					if err != nil {
						t.Fatalf("%s: %s: %v", when, a, err)
					}
					if want := independentCount(t, lc, a); p.Total != want {
						t.Errorf("%s: %s has %d transactions, the page says %d", when, a, want, p.Total)
					}
				}
				base, whole := lc.db.HistoryCounts()
				if base-base0 != wantBase || whole-whole0 != wantWhole {
					t.Errorf("%s: %d counts from a base and %d whole, want %d and %d", when, base-base0, whole-whole0, wantBase, wantWhole)
				}
			}
			n := int64(len(addrs))
			// The first counts come before any page has read where the
			// index's horizon is.
			for _, a := range addrs {
				got, err := lc.db.CountHistory(ctx, a)
				if want := independentCount(t, lc, a); err != nil || got != want {
					t.Errorf("first count of %s: %d (%v), want %d", a, got, err, want)
				}
			}
			if base, whole := lc.db.HistoryCounts(); base != 0 || whole != n {
				t.Errorf("first counts: %d from a base and %d whole, want 0 and %d", base, whole, n)
			}
			// With a 40-block window the marks never hold a whole history.
			if m := lc.db.HistoryCountsFromMarks(); m != 0 {
				t.Errorf("%d totals counted from the marks of a 40-block window", m)
			}
			check("again", n, 0)
			cut, err := testdb.CutBlocks(ctx, lc.raw, cutBlocks)
			if err != nil {
				t.Fatal(err)
			}
			check("rolled back", 0, n)
			if x != nil {
				// Blocks back while the index still sees the rollback: no
				// marks to count spends with, so counted whole.
				if err := cut.Restore(ctx, 50000); err != nil {
					t.Fatal(err)
				}
				check("blocks back, index rolled back below", 0, n)
				if _, err := x.CatchUp(ctx, nil); err != nil {
					t.Fatal(err)
				}
				check("index caught up", n, 0)
				if cut, err = testdb.CutBlocks(ctx, lc.raw, cutBlocks); err != nil {
					t.Fatal(err)
				}
				check("rolled back again", 0, n)
				if _, err := x.CatchUp(ctx, nil); err != nil { // rewinds
					t.Fatal(err)
				}
			}
			if err := cut.Restore(ctx, 100000); err != nil {
				t.Fatal(err)
			}
			// The blocks back (new ids) are counted on from the base taken
			// while they were gone; core: through the index's tail.
			check("blocks back", n, 0)
			if x != nil {
				if _, err := x.CatchUp(ctx, nil); err != nil {
					t.Fatal(err)
				}
				check("index caught up again", n, 0)
				// Spends at or below the horizon are no longer marked: a
				// base below it cannot be counted on from.
				var horizon int64
				if err := lc.raw.Get(&horizon, `SELECT horizon_tx_id FROM syncgate_utxo.checkpoint ORDER BY tx_id DESC LIMIT 1`); err != nil || horizon == 0 {
					t.Fatalf("horizon %d (%v)", horizon, err)
				}
				query := dbsync.StatementText("dbsync/tx_history_count_after_marked.sql", dbsync.Layout{AddressTable: v.AddressTable, SpentIndex: true}, map[string]any{"TailCap": dbsync.RecentTailCap})
				for _, c := range []struct {
					from  int64
					exact bool
				}{{horizon - 1, false}, {horizon, true}} {
					var exact bool
					if err := lc.raw.QueryRow(`SELECT exact FROM (`+query+`) q`, samples.Whale, c.from).Scan(&exact); err != nil {
						t.Fatal(err)
					}
					if exact != c.exact {
						t.Errorf("counting on from tx %d with the horizon at %d: exact %v", c.from, horizon, exact)
					}
				}
			}
		})
	}
}

// cutBlocks is how deep the rollbacks go: within the index's Keep (40
// blocks in these tests).
const cutBlocks = 8

// independentCount counts addr's transactions with plain SQL.
func independentCount(t *testing.T, lc *layoutChain, addr string) int64 {
	t.Helper()
	key, param := "o.address", "$1"
	if lc.variant.AddressTable {
		key, param = "o.address_id", "(SELECT id FROM address WHERE address = $1)"
	}
	spent := `SELECT i.tx_in_id FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE ` + key + ` = ` + param
	if lc.variant.Mode == chaingen.ModeConsumed {
		spent = `SELECT o.consumed_by_tx_id FROM tx_out o WHERE ` + key + ` = ` + param + ` AND o.consumed_by_tx_id IS NOT NULL`
	}
	var n int64
	if err := lc.raw.Get(&n, `SELECT count(*) FROM (SELECT o.tx_id FROM tx_out o WHERE `+key+` = `+param+` UNION `+spent+`) ids`, addr); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestHistoryCountInBackground: a whole count that runs past the
// statement timeout (here: tx_out locked by another session) fails its
// request, as before, but runs again in the background with a long
// timeout, and its count becomes the base the next request counts on
// from, where before every request for the address failed the same way.
func TestHistoryCountInBackground(t *testing.T) {
	needChains(t)
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeConsumed, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema137},
	} {
		t.Run(strings.ReplaceAll(v.String(), "/", "_"), func(t *testing.T) {
			ctx := t.Context()
			var lc *layoutChain
			if v.Mode == chaingen.ModeCore {
				lc = seedSpent(t, v, 0).layoutChain
			} else {
				lc = seedLayout(t, v)
			}
			mainnet, _ := cardano.NetworkByName("mainnet")
			db, err := dbsync.OpenWith(ctx, config.NetworkConfig{Network: mainnet, DBSyncURL: lc.dsn},
				dbsync.Options{ServerOptions: dbsync.ServerOptions{StatementTimeout: 300 * time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(db.Close)
			if v.Mode == chaingen.ModeCore {
				useIndex(t, db)
			}
			lock, err := lc.raw.BeginTxx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Rollback() //nolint:errcheck // released below
			if _, err := lock.Exec(`LOCK TABLE tx_out IN ACCESS EXCLUSIVE MODE`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.CountHistory(ctx, samples.Whale); !errors.Is(err, dbsync.ErrTimeout) {
				t.Fatalf("count with tx_out locked: %v, want a timeout", err)
			}
			time.Sleep(500 * time.Millisecond) // past the request's timeout, the background count waits on
			if n := db.HistoryCountsInBackground(); n != 0 {
				t.Fatalf("%d background counts finished while tx_out is locked", n)
			}
			if err := lock.Rollback(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(15 * time.Second); db.HistoryCountsInBackground() == 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the background count did not finish")
				}
			}
			base0, _ := db.HistoryCounts()
			got, err := db.CountHistory(ctx, samples.Whale)
			if want := independentCount(t, lc, samples.Whale); err != nil || got != want {
				t.Fatalf("count after the background count: %d (%v), want %d", got, err, want)
			}
			if base, _ := db.HistoryCounts(); base != base0+1 {
				t.Errorf("the count after the background one was not counted on from its base (%d from a base before, %d after)", base0, base)
			}
		})
	}
}
