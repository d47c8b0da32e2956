package utxoindex_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
)

const seedTxs = 3000

// seed creates a db-sync database of variant v for one test (the tests
// write to it: the index, and rollbacks).
func seed(t *testing.T, v chaingen.Variant) *sqlx.DB {
	t.Helper()
	requireDB(t)
	dsn, _, drop, err := testdb.DBSyncVariant(v, seedTxs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return testdb.Open(t, dsn)
}

// requireDB skips a test that needs PostgreSQL under -short.
func requireDB(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL (skipped with -short)")
	}
}

func open(t *testing.T, db *sqlx.DB, o utxoindex.Options) *utxoindex.Index {
	t.Helper()
	x, err := utxoindex.New(t.Context(), db, o)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func catchUp(t *testing.T, x *utxoindex.Index) utxoindex.StepResult {
	t.Helper()
	res, err := x.CatchUp(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// check compares the index with tx_in, the only record of spends. Of the
// outputs of transactions up to H, by their first spend m: none (or one
// above both H and the horizon, not seen yet) is a live row with the
// output's lookup keys; one above the horizon and at or below H is a row
// marked m; one at or below the horizon (final) has no row. It returns
// how many live and marked rows there are.
func check(t *testing.T, db *sqlx.DB, addressTable bool) (live, marked int64) {
	t.Helper()
	keys := `o.address, o.payment_cred`
	join := ``
	if addressTable {
		keys, join = `o.address_id, a.payment_cred`, `JOIN address a ON a.id = o.address_id`
	}
	ukeys := `u.address, u.payment_cred`
	if addressTable {
		ukeys = `u.address_id, u.payment_cred`
	}
	q := fmt.Sprintf(`
WITH c AS (SELECT tx_id AS h, horizon_tx_id AS s FROM syncgate_utxo.checkpoint ORDER BY tx_id DESC LIMIT 1),
firsts AS (
  SELECT o.tx_id, o.index, o.id, %[1]s, o.stake_address_id,
    (SELECT min(i.tx_in_id) FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index) AS spent
  FROM tx_out o %[2]s
  WHERE o.tx_id <= (SELECT h FROM c)
),
want_live AS (SELECT tx_id, index, id, %[3]s, stake_address_id FROM firsts o
  WHERE spent IS NULL OR spent > (SELECT h FROM c) AND spent > (SELECT s FROM c)),
want_marked AS (SELECT tx_id, index, spent FROM firsts WHERE spent > (SELECT s FROM c) AND spent <= (SELECT h FROM c)),
got_live AS (SELECT u.tx_id, u.index, u.tx_out_id, %[4]s, u.stake_address_id FROM syncgate_utxo.output u WHERE u.spent_by_tx_id IS NULL),
got_marked AS (SELECT tx_id, index, spent_by_tx_id FROM syncgate_utxo.output WHERE spent_by_tx_id IS NOT NULL)
SELECT
  (SELECT count(*) FROM (SELECT * FROM want_live EXCEPT SELECT * FROM got_live) x) AS missing_live,
  (SELECT count(*) FROM (SELECT * FROM got_live EXCEPT SELECT * FROM want_live) x) AS extra_live,
  (SELECT count(*) FROM (SELECT * FROM want_marked EXCEPT SELECT * FROM got_marked) x) AS missing_marked,
  (SELECT count(*) FROM (SELECT * FROM got_marked EXCEPT SELECT * FROM want_marked) x) AS extra_marked,
  (SELECT count(*) FROM got_live) AS live,
  (SELECT count(*) FROM got_marked) AS marked`, keys, join, map[bool]string{false: `o.address, o.payment_cred`, true: `o.address_id, o.payment_cred`}[addressTable], ukeys)
	var r struct {
		MissingLive   int64 `db:"missing_live"`
		ExtraLive     int64 `db:"extra_live"`
		MissingMarked int64 `db:"missing_marked"`
		ExtraMarked   int64 `db:"extra_marked"`
		Live          int64 `db:"live"`
		Marked        int64 `db:"marked"`
	}
	if err := db.GetContext(t.Context(), &r, q); err != nil {
		t.Fatal(err)
	}
	if r.MissingLive+r.ExtraLive+r.MissingMarked+r.ExtraMarked != 0 {
		t.Errorf("index differs from tx_in: %d live rows missing, %d extra; %d marked rows missing, %d extra",
			r.MissingLive, r.ExtraLive, r.MissingMarked, r.ExtraMarked)
	}
	if r.Live == 0 {
		t.Error("no live rows")
	}
	return r.Live, r.Marked
}

// high is H, the newest checkpoint.
func high(t *testing.T, db *sqlx.DB) int64 {
	t.Helper()
	var h int64
	if err := db.Get(&h, `SELECT COALESCE(max(tx_id), 0) FROM syncgate_utxo.checkpoint`); err != nil {
		t.Fatal(err)
	}
	return h
}

func maxTx(t *testing.T, db *sqlx.DB) int64 {
	t.Helper()
	var id int64
	if err := db.Get(&id, `SELECT max(id) FROM tx`); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestCatchUp builds the index in small steps to a point well below the
// tip, then to the tip, on both address layouts, and compares it with
// tx_in each time.
func TestCatchUp(t *testing.T) {
	for _, addressTable := range []bool{false, true} {
		t.Run(fmt.Sprintf("address_table=%v", addressTable), func(t *testing.T) {
			db := seed(t, chaingen.Variant{Mode: chaingen.ModeCore, AddressTable: addressTable})
			x := open(t, db, utxoindex.Options{Batch: 400, Lag: 40, Keep: 30})
			steps := 0
			res, err := x.CatchUp(t.Context(), func(utxoindex.StepResult) { steps++ })
			if err != nil {
				t.Fatal(err)
			}
			if steps < 3 {
				t.Errorf("%d steps for %d txs in batches of 400", steps, res.To)
			}
			if h := high(t, db); h == 0 || h >= maxTx(t, db) {
				t.Fatalf("H = %d with 40 blocks of lag, max tx %d", h, maxTx(t, db))
			}
			check(t, db, addressTable)
			st, err := x.Status(t.Context())
			if err != nil || !st.Valid || st.Lag() < 40 {
				t.Errorf("status %+v (%v), want valid with a lag of 40 blocks or more", st, err)
			}

			x = open(t, db, utxoindex.Options{Batch: 400, Lag: 0, Keep: 30})
			catchUp(t, x)
			if h, m := high(t, db), maxTx(t, db); h != m {
				t.Fatalf("H = %d, want the newest tx %d", h, m)
			}
			if _, marked := check(t, db, addressTable); marked == 0 {
				t.Error("no spend within the last 30 blocks kept for rollbacks")
			}
			// Caught up: a further step has nothing to do.
			if res := catchUp(t, x); res.Action != "current" {
				t.Errorf("step at the tip: %+v", res)
			}
		})
	}
}

// TestRollback rolls db-sync back under a built index: readers see the
// checkpoint gone at once (Status), the next step rewinds to the newest
// checkpoint db-sync still holds, unmarking the spends it lost, and the
// blocks coming back with new ids are indexed again. A rollback below the
// horizon (spends already swept) resets the index, which then rebuilds.
func TestRollback(t *testing.T) {
	db := seed(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx := t.Context()
	x := open(t, db, utxoindex.Options{Batch: 250, Lag: 0, Keep: 1000})
	catchUp(t, x)
	check(t, db, false)

	cut, err := testdb.CutBlocks(ctx, db, 6)
	if err != nil {
		t.Fatal(err)
	}
	if cut.Txs == 0 {
		t.Fatal("the newest 6 blocks hold no transactions")
	}
	st, err := x.Status(ctx)
	if err != nil || st.Valid {
		t.Fatalf("status after a rollback below H: %+v (%v), want invalid", st, err)
	}
	res := step(t, x)
	if res.Action != "rewound" || res.To > cut.Tx {
		t.Fatalf("step after the rollback: %+v, want a rewind to at most tx %d", res, cut.Tx)
	}
	if res.Unmarked == 0 {
		t.Error("the rewind unmarked no spend, though the cut blocks spent older outputs")
	}
	check(t, db, false)
	catchUp(t, x)
	if h := high(t, db); h != cut.Tx {
		t.Fatalf("H = %d after catching up, want %d (the new tip)", h, cut.Tx)
	}
	check(t, db, false)

	// The same blocks come back as new ones, with ids db-sync's sequences
	// would give them.
	if err := cut.Restore(ctx, 100000); err != nil {
		t.Fatal(err)
	}
	catchUp(t, x)
	if h, m := high(t, db), maxTx(t, db); h != m {
		t.Fatalf("H = %d, want the new tip's tx %d", h, m)
	}
	check(t, db, false)

	// Below the horizon: only a rebuild is right.
	x = open(t, db, utxoindex.Options{Batch: 250, Lag: 0, Keep: 3})
	catchUp(t, x)
	check(t, db, false)
	if _, err := testdb.CutBlocks(ctx, db, 10); err != nil {
		t.Fatal(err)
	}
	if res := step(t, x); res.Action != "reset" {
		t.Fatalf("step after a rollback below the horizon: %+v, want a reset", res)
	}
	catchUp(t, x)
	check(t, db, false)
}

// step runs one step under the lock.
func step(t *testing.T, x *utxoindex.Index) utxoindex.StepResult {
	t.Helper()
	conn, release, err := x.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	res, err := x.Step(t.Context(), conn)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestOneMaintainer: while one session holds the maintenance lock, another
// is told the index is busy; once released it can take it.
func TestOneMaintainer(t *testing.T) {
	db := seed(t, chaingen.Variant{Mode: chaingen.ModeCore})
	x := open(t, db, utxoindex.Options{})
	_, release, err := x.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.CatchUp(t.Context(), nil); !errors.Is(err, utxoindex.ErrBusy) {
		t.Errorf("second maintainer: %v, want ErrBusy", err)
	}
	release()
	if _, err := x.CatchUp(context.WithoutCancel(t.Context()), nil); err != nil {
		t.Errorf("after release: %v", err)
	}
}

// TestNotNeededInConsumedMode: a database that records spends in tx_out
// needs no index.
func TestNotNeededInConsumedMode(t *testing.T) {
	db := seed(t, chaingen.Variant{Mode: chaingen.ModeConsumed})
	if _, err := utxoindex.New(t.Context(), db, utxoindex.Options{}); !errors.Is(err, utxoindex.ErrNotNeeded) {
		t.Errorf("New on a consumed database: %v, want ErrNotNeeded", err)
	}
}

// TestMaintainer: the service's loop builds the index of a served core
// network and switches its DB to reading it; when db-sync then rolls back
// below the index, the loop rewinds it and the DB keeps reading it.
func TestMaintainer(t *testing.T) {
	requireDB(t)
	dsn, _, drop, err := testdb.DBSync(chaingen.ModeCore, seedTxs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	db := testdb.MustOpenDBSync(t, dsn)
	raw := testdb.Open(t, dsn)
	m := utxoindex.NewMaintainer(map[string]*dbsync.DB{"mainnet": db}, map[string]*sqlx.DB{"mainnet": raw},
		utxoindex.MaintainerOptions{Index: utxoindex.Options{Batch: 500, Lag: 0, Keep: 100}, Poll: 50 * time.Millisecond})
	m.Start(t.Context())
	defer m.Stop()
	waitFor(t, "the DB reads the index", db.SpentIndexOn)
	waitFor(t, "the DB reads the index's marks", db.SpentMarksOn)
	if h := high(t, raw); h != maxTx(t, raw) {
		t.Errorf("H = %d, want the tip's tx %d", h, maxTx(t, raw))
	}
	if _, err := testdb.CutBlocks(t.Context(), raw, 4); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the index rewound to the new tip", func() bool {
		var h, m int64
		_ = raw.Get(&h, `SELECT COALESCE(max(tx_id), 0) FROM syncgate_utxo.checkpoint`)
		_ = raw.Get(&m, `SELECT max(id) FROM tx`)
		return h == m
	})
	check(t, raw, false)
	waitFor(t, "the DB reads the index again", db.SpentIndexOn)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAdditionsInPlace: an index an older build made (the same format,
// without output_spent_address) gets the addition in place, not a
// rebuild: its rows and checkpoints stay, its format stays (so the older
// build, if it still runs, keeps maintaining it), and Status reports the
// addition. An index of an unknown format is rebuilt.
func TestAdditionsInPlace(t *testing.T) {
	db := seed(t, chaingen.Variant{Mode: chaingen.ModeCore})
	x := open(t, db, utxoindex.Options{Batch: 400, Lag: 20, Keep: 30})
	catchUp(t, x)
	h := high(t, db)
	counts := func() (rows, checkpoints int64) {
		t.Helper()
		if err := db.Get(&rows, `SELECT count(*) FROM syncgate_utxo.output`); err != nil {
			t.Fatal(err)
		}
		if err := db.Get(&checkpoints, `SELECT count(*) FROM syncgate_utxo.checkpoint`); err != nil {
			t.Fatal(err)
		}
		return rows, checkpoints
	}
	rows, checkpoints := counts()
	if st, err := x.Status(t.Context()); err != nil || !st.MarksByAddress {
		t.Fatalf("status of a fresh index: %+v (%v), want MarksByAddress", st, err)
	}
	db.MustExec(`DROP INDEX syncgate_utxo.output_spent_address`)
	if st, err := x.Status(t.Context()); err != nil || st.MarksByAddress || !st.Present {
		t.Fatalf("status without the addition: %+v (%v)", st, err)
	}
	if err := open(t, db, utxoindex.Options{Batch: 400, Lag: 20, Keep: 30}).Ensure(t.Context()); err != nil {
		t.Fatal(err)
	}
	var version int
	if err := db.Get(&version, `SELECT version FROM syncgate_utxo.meta`); err != nil || version != 1 {
		t.Fatalf("format %d after the addition (%v), want 1 as before", version, err)
	}
	if st, err := x.Status(t.Context()); err != nil || !st.MarksByAddress {
		t.Fatalf("status after the addition: %+v (%v)", st, err)
	}
	if r, c := counts(); r != rows || c != checkpoints || high(t, db) != h {
		t.Errorf("after the addition: %d rows, %d checkpoints, H %d; want %d, %d, %d (kept, not rebuilt)",
			r, c, high(t, db), rows, checkpoints, h)
	}
	// A format it does not know is rebuilt.
	db.MustExec(`UPDATE syncgate_utxo.meta SET version = 99`)
	if err := open(t, db, utxoindex.Options{Batch: 400, Lag: 20, Keep: 30}).Ensure(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, c := counts(); c != 0 {
		t.Errorf("%d checkpoints after an unknown format, want a fresh index", c)
	}
}

// TestKeepAll keeps every spend marked (the history statements read the
// marks): nothing is swept, checkpoints are still pruned below the
// deepest rollback, and rewinds still unmark. Raising the window on a
// built index never moves its horizon back (the spends below it are
// gone), and lowering it sweeps.
func TestKeepAll(t *testing.T) {
	db := seed(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx := t.Context()
	horizon := func() (h int64) {
		t.Helper()
		if err := db.Get(&h, `SELECT horizon_tx_id FROM syncgate_utxo.checkpoint ORDER BY tx_id DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		return h
	}
	spentUpToH := func() (n int64) {
		t.Helper()
		if err := db.Get(&n, `SELECT count(DISTINCT (i.tx_out_id, i.tx_out_index)) FROM tx_in i
			WHERE i.tx_in_id <= (SELECT max(tx_id) FROM syncgate_utxo.checkpoint)`); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// A window of 30 blocks first, well below the tip; then 300 blocks,
	// then for ever.
	catchUp(t, open(t, db, utxoindex.Options{Batch: 250, Lag: 60, Keep: 30}))
	first := horizon()
	if first == 0 {
		t.Fatal("no horizon with a 30-block window")
	}
	for _, keep := range []int{300, utxoindex.KeepAll} {
		catchUp(t, open(t, db, utxoindex.Options{Batch: 250, Lag: 0, Keep: keep}))
		if h := horizon(); h != first {
			t.Errorf("horizon %d after raising the window to %d, want it kept at %d", h, keep, first)
		}
		check(t, db, false)
	}
	x := open(t, db, utxoindex.Options{Batch: 250, Lag: 0, Keep: utxoindex.KeepAll, RollbackDepth: 20})

	// Built with every spend kept from the start.
	if _, err := db.Exec(`DROP SCHEMA syncgate_utxo CASCADE`); err != nil {
		t.Fatal(err)
	}
	catchUp(t, x)
	if h := horizon(); h != 0 {
		t.Errorf("horizon %d, want none", h)
	}
	if _, marked := check(t, db, false); marked != spentUpToH() {
		t.Errorf("%d marked rows, want every spent output up to H (%d)", marked, spentUpToH())
	}
	var below int64
	if err := db.Get(&below, `SELECT count(*) FROM syncgate_utxo.checkpoint WHERE tx_id <= (
		SELECT max(t.id) FROM tx t JOIN block b ON b.id = t.block_id
		WHERE b.block_no <= (SELECT max(block_no) FROM block) - 20)`); err != nil {
		t.Fatal(err)
	}
	if below != 1 {
		t.Errorf("%d checkpoints older than the deepest rollback, want 1", below)
	}

	// A rollback is rewound as with a window.
	if _, err := testdb.CutBlocks(ctx, db, 6); err != nil {
		t.Fatal(err)
	}
	if res := step(t, x); res.Action != "rewound" || res.Unmarked == 0 {
		t.Fatalf("step after a rollback: %+v, want a rewind that unmarks", res)
	}
	catchUp(t, x)
	if _, marked := check(t, db, false); marked != spentUpToH() {
		t.Errorf("%d marked rows after the rollback, want %d", marked, spentUpToH())
	}

	// Below the oldest checkpoint kept (the rest were pruned, being
	// deeper than the rollback depth): only a rebuild is right, and it
	// marks every spend again.
	var depth int
	if err := db.Get(&depth, `SELECT (SELECT max(block_no) FROM block) - b.block_no + 1
		FROM syncgate_utxo.checkpoint c JOIN tx ON tx.id = c.tx_id JOIN block b ON b.id = tx.block_id
		ORDER BY c.tx_id LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := testdb.CutBlocks(ctx, db, depth); err != nil {
		t.Fatal(err)
	}
	if res := step(t, x); res.Action != "reset" {
		t.Fatalf("step after a rollback deeper than the rollback depth: %+v, want a reset", res)
	}
	catchUp(t, x)
	if _, marked := check(t, db, false); marked != spentUpToH() {
		t.Errorf("%d marked rows after the rebuild, want %d", marked, spentUpToH())
	}

	// Back to a window: the next steps sweep what it no longer keeps, the
	// spends of at most 200 tx ids a step, oldest first.
	x = open(t, db, utxoindex.Options{Batch: 250, Lag: 0, Keep: 30, SweepTxs: 200})
	res := step(t, x)
	if res.Swept == 0 || !res.SweepPending || res.CaughtUp() || horizon() == 0 {
		t.Errorf("first step with a 30-block window: %+v, horizon %d; want part of the backlog swept", res, horizon())
	}
	var oldest int64
	if err := db.Get(&oldest, `SELECT min(spent_by_tx_id) FROM syncgate_utxo.output`); err != nil {
		t.Fatal(err)
	}
	if oldest <= 200 {
		t.Errorf("oldest marked spend after one chunk: tx %d, want the oldest 200 tx ids swept", oldest)
	}
	steps := 1
	for ; res.SweepPending; steps++ {
		res = step(t, x)
	}
	if steps < 5 || !res.CaughtUp() {
		t.Errorf("backlog swept in %d steps (last %+v), want several and caught up", steps, res)
	}
	check(t, db, false)
}
