package dbsync_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
)

// TestSpentIndexHistoryPages: newest-first history pages read from the
// unspent-output index's marks (tx_history_recent.sql) are the pages the
// plain core walk gives, page by page, in offset and cursor mode, light
// and detailed, on both address layouts and through both core walks
// (dense and sparse); the walks are long enough that some pages come from
// the marks and some reach below the index's horizon (40 blocks here) and
// are walked.
func TestSpentIndexHistoryPages(t *testing.T) {
	t.Parallel() // its own chains; the shared ones only read
	needChains(t)
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, AddressTable: true, Schema: chaingen.Schema137},
	} {
		t.Run(strings.ReplaceAll(v.String(), "/", "_"), func(t *testing.T) {
			sc := seedSpent(t, v, 5)
			sc.db.SetSmallHistoryOutputs(0) // every address walks: the path the index serves
			if !v.AddressTable {
				// The plain core chain also against the independent history.
				c := &chain{mode: v.Mode, db: sc.db, raw: sc.raw}
				for _, w := range []struct {
					addr   string
					limits []int
				}{{samples.Whale, []int{20, 100}}, {samples.Busy, []int{7, samples.BusyTxs - 1}}} {
					want := ordered(independentHistory(t, c, w.addr), false)
					for _, limit := range w.limits {
						if got := walkOffset(t, c, w.addr, limit, false, want); !slices.Equal(got, want) {
							t.Fatalf("%s limit %d: offset walk gave %d txs, want %d", w.addr, limit, len(got), len(want))
						}
						if got := walkCursor(t, c, w.addr, limit, false, len(want)); !slices.Equal(got, want) {
							t.Fatalf("%s limit %d: cursor walk gave %d txs, want %d", w.addr, limit, len(got), len(want))
						}
					}
				}
			}
			for _, dense := range []int{1, 1 << 40} {
				sc.db.SetDenseHistoryOutputs(dense)
				compareHistory(t, fmt.Sprintf("dense=%d", dense), sc, true)
			}
			hits, walks := sc.db.RecentPages()
			if hits < 20 || walks < 5 {
				t.Errorf("%d pages from the index's marks and %d walked after trying: the comparison did not exercise both", hits, walks)
			}
			// Oldest first, only a page starting above the horizon comes
			// from the marks (the last cursor pages).
			compareHistoryOrder(t, "oldest first", sc, false, true)
			if now, _ := sc.db.RecentPages(); now == hits {
				t.Error("no oldest-first page from the marks")
			}
			hits, _ = sc.db.RecentPages()
			// Random jumps through anchors: harvests that reach below the
			// horizon are walked.
			if !v.AddressTable {
				jumpPages(t, sc, 40)
			}
			// An index without output_spent_address (an older build's):
			// the marks are not read.
			sc.db.UseSpentMarks(false)
			compareHistory(t, "without the marks' index", sc, false)
			if now, _ := sc.db.RecentPages(); now != hits {
				t.Errorf("%d pages read from the marks without their index", now-hits)
			}
			sc.db.UseSpentMarks(true)
		})
	}
}

// TestSpentIndexHistoryWhileUnusable: while db-sync has rolled back below
// the index's high-water tx (before the maintainer rewinds it), no page is
// taken from the marks, and every page is still right; after the rewind
// they are taken from the marks again.
func TestSpentIndexHistoryWhileUnusable(t *testing.T) {
	t.Parallel()  // its own chains; the shared ones only read
	needChains(t) // the sample addresses its walks use
	ctx := t.Context()
	sc := seedSpent(t, chaingen.Variant{Mode: chaingen.ModeCore, Schema: chaingen.Schema137}, 0)
	sc.db.SetSmallHistoryOutputs(0)
	if _, err := testdb.CutBlocks(ctx, sc.raw, 8); err != nil {
		t.Fatal(err)
	}
	hits, _ := sc.db.RecentPages()
	compareHistory(t, "rolled back below H", sc, false)
	if now, _ := sc.db.RecentPages(); now != hits {
		t.Errorf("%d pages taken from the marks of an index db-sync rolled back below", now-hits)
	}
	x, err := utxoindex.New(ctx, sc.raw, utxoindex.Options{Batch: 700, Lag: 0, Keep: 40})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.CatchUp(ctx, nil); err != nil {
		t.Fatal(err)
	}
	compareHistory(t, "rewound", sc, false)
	if now, walks := sc.db.RecentPages(); now == hits {
		t.Errorf("no page taken from the marks after the rewind (%d walked)", walks)
	}
}

// TestSpentIndexKeepAllHistory: with every spend kept marked
// (UTXO_INDEX_KEEP_BLOCKS=all) there is no horizon, so pages in both
// orders, at any depth, come from the marks, and are still the plain core
// walk's pages; so are the totals, counted from the marks.
func TestSpentIndexKeepAllHistory(t *testing.T) {
	t.Parallel() // its own chains; the shared ones only read
	needChains(t)
	sc := seedSpentKeeping(t, chaingen.Variant{Mode: chaingen.ModeCore, Schema: chaingen.Schema137}, 5, utxoindex.KeepAll)
	sc.db.SetSmallHistoryOutputs(0)
	// Totals first, before any page has read where the horizon is: from
	// the marks (a count after 0), so no base is used and nothing walked.
	addrs := append([]string{samples.Whale, samples.Busy}, spendOnlyAddresses(t, sc)...)
	for _, a := range addrs {
		got, err := sc.db.CountHistory(t.Context(), a)
		if want := independentCount(t, sc.layoutChain, a); err != nil || got != want {
			t.Errorf("count of %s: %d (%v), want %d", a, got, err, want)
		}
	}
	if n := sc.db.HistoryCountsFromMarks(); n != int64(len(addrs)) {
		t.Errorf("%d of %d totals counted from the marks", n, len(addrs))
	}
	for _, asc := range []bool{false, true} {
		compareHistoryOrder(t, fmt.Sprintf("kept for ever, asc=%v", asc), sc, true, asc)
	}
	hits, walks := sc.db.RecentPages()
	if hits < 100 || walks*50 > hits {
		t.Errorf("%d pages from the marks and %d walked: want nearly all from the marks", hits, walks)
	}

	// Jumps to random offsets on a fresh DB with a short anchor stride:
	// the anchors are harvested from the marks, and the pages are right.
	jumpPages(t, sc, 60)
	if hits, walks := sc.lastJumps.MarkedAnchorHarvests(); hits == 0 || walks != 0 {
		t.Errorf("%d anchor harvests from the marks, %d tried and walked: want all from the marks", hits, walks)
	}

	// The window made 40 blocks again: one step sweeps only the oldest
	// chunk of the backlog, so marks below the new horizon remain for a
	// while. Pages judge by the horizon, so they are still the plain walk's.
	x, err := utxoindex.New(t.Context(), sc.raw, utxoindex.Options{Batch: 700, Lag: 5, Keep: 40, SweepTxs: 100})
	if err != nil {
		t.Fatal(err)
	}
	conn, release, err := x.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	res, err := x.Step(t.Context(), conn)
	release()
	if err != nil || res.Swept == 0 || !res.SweepPending {
		t.Fatalf("step with a 40-block window: %+v (%v), want part of the backlog swept", res, err)
	}
	for _, asc := range []bool{false, true} {
		compareHistoryOrder(t, fmt.Sprintf("part swept, asc=%v", asc), sc, false, asc)
	}
	if now, _ := sc.db.RecentPages(); now == hits {
		t.Error("no page from the marks while part swept")
	}

	// Swept to the end, and a DB that has not read the new horizon yet
	// before each request (its totals come from a cache, as the service's
	// do, so no count reads it first): a page or harvest tried on the
	// marks must see it is not exact, and walk.
	if _, err := x.CatchUp(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	db := testdb.MustOpenDBSync(t, sc.dsn)
	useIndex(t, db)
	db.SetSmallHistoryOutputs(0)
	db.SetHistoryAnchorStride(7)
	same := func(addr string, q dbsync.HistoryQuery, total int) {
		t.Helper()
		cached := func(context.Context, dbsync.Tip, func(context.Context) (int64, error)) (int64, error) {
			return int64(total), nil
		}
		db.ForgetHorizon()
		got, err := db.TxHistory(t.Context(), mustAddress(t, addr), q, cached)
		if err != nil {
			t.Fatal(err)
		}
		want, err := sc.plain.TxHistory(t.Context(), mustAddress(t, addr), q, cached)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(itemsOf(got.Items), itemsOf(want.Items)) {
			t.Fatalf("%s %+v with the horizon unseen: got %v, want %v", addr, q, itemsOf(got.Items), itemsOf(want.Items))
		}
	}
	for _, addr := range append([]string{samples.Whale}, spendOnlyAddresses(t, sc)...) {
		n := len(independentHistory(t, &chain{mode: sc.variant.Mode, db: sc.db, raw: sc.raw}, addr))
		for _, q := range []dbsync.HistoryQuery{
			{Limit: 5, Offset: n / 2}, {Limit: 5, Offset: n / 3}, {Limit: 5, Ascending: true}, {Limit: 5, Offset: n / 2, Ascending: true},
		} {
			same(addr, q, n)
		}
	}
	// Oldest first from the newest transaction at or below the horizon
	// that only spends from its address, to the address's newest: a full
	// page whose last item is above the horizon, and whose first the
	// swept marks lack.
	var spender struct {
		Address string `db:"address"`
		Slot    int64  `db:"slot_no"`
	}
	if err := sc.raw.Get(&spender, `
		WITH h AS (SELECT horizon_tx_id AS id FROM syncgate_utxo.checkpoint ORDER BY tx_id DESC LIMIT 1)
		SELECT o.address, b.slot_no
		FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
		JOIN tx ON tx.id = i.tx_in_id JOIN block b ON b.id = tx.block_id
		WHERE i.tx_in_id <= (SELECT id FROM h)
		  AND NOT EXISTS (SELECT 1 FROM tx_out p WHERE p.tx_id = i.tx_in_id AND p.address = o.address)
		  AND EXISTS (SELECT 1 FROM tx_out q WHERE q.address = o.address AND q.tx_id > (SELECT id FROM h))
		ORDER BY i.tx_in_id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	history := independentHistory(t, &chain{mode: sc.variant.Mode, db: sc.db, raw: sc.raw}, spender.Address)
	rest := 0
	for _, it := range history {
		if it.Slot >= spender.Slot {
			rest++
		}
	}
	// A page reads limit + 1 rows: from the marks, which lack the first
	// item, this is all the rest, so the read is full.
	if rest < 3 {
		t.Fatalf("%s has %d transactions from slot %d, the test needs 3", spender.Address, rest, spender.Slot)
	}
	same(spender.Address, dbsync.HistoryQuery{Limit: rest - 2, FromSlot: &spender.Slot, Ascending: true}, len(history))
	if _, walks := db.MarkedAnchorHarvests(); walks == 0 {
		t.Error("no harvest tried on the marks and walked: the check was not exercised")
	}
}

// jumpPages reads n pages of the whale and the busy address at random
// offsets and limits, in both orders, through a fresh DB reading the
// index (no anchors yet, stride 7, every address walked) and checks each
// against the independent history; the DB is left in sc.lastJumps.
func jumpPages(t *testing.T, sc *spentChain, n int) {
	t.Helper()
	db := testdb.MustOpenDBSync(t, sc.dsn)
	useIndex(t, db)
	db.SetSmallHistoryOutputs(0)
	db.SetHistoryAnchorStride(7)
	sc.lastJumps = db
	c := &chain{mode: sc.variant.Mode, db: db, raw: sc.raw}
	for _, addr := range []string{samples.Whale, samples.Busy} {
		want := independentHistory(t, &chain{mode: sc.variant.Mode, db: sc.db, raw: sc.raw}, addr)
		rng := rand.New(rand.NewPCG(7, uint64(len(want))))
		for range n {
			offset, limit, asc := rng.IntN(len(want)+3), 1+rng.IntN(9), rng.IntN(2) == 0
			checkWindow(t, c, addr, offset, limit, asc, ordered(want, asc))
		}
	}
}

// compareHistory walks the newest-first history of the whale, the busy
// address and a few ordinary ones through the index-reading DB and the
// plain one, page by page (offset mode, cursor mode, detailed first
// pages), and wants the same pages. deep also walks the whale to its end
// in small pages.
func compareHistory(t *testing.T, when string, sc *spentChain, deep bool) {
	t.Helper()
	compareHistoryOrder(t, when, sc, deep, false)
}

// compareHistoryOrder is compareHistory in either order.
func compareHistoryOrder(t *testing.T, when string, sc *spentChain, deep, asc bool) {
	t.Helper()
	ctx := t.Context()
	type walk struct {
		addr  string
		limit int
		pages int // offset pages to compare (0: to the end)
	}
	// The whale's newest pages of 3 lie above the horizon (40 blocks).
	walks := []walk{{samples.Whale, 3, 6}, {samples.Whale, 20, 12}, {samples.Whale, 100, 0}, {samples.Busy, 7, 0}, {samples.Busy, samples.BusyTxs - 1, 0}}
	if deep {
		walks = append(walks, walk{samples.Whale, 3, 0})
	}
	for _, a := range samples.Small[:min(3, len(samples.Small))] {
		walks = append(walks, walk{a, 2, 0})
	}
	// Most transactions that spend an address's outputs also pay it
	// change, so the paid side alone would hide a missing spend: walk the
	// addresses with the most transactions that only spend from them.
	for _, a := range spendOnlyAddresses(t, sc) {
		walks = append(walks, walk{a, 2, 0}, walk{a, 5, 0})
	}
	page := func(db *dbsync.DB, addr string, q dbsync.HistoryQuery) dbsync.HistoryPage[dbsync.TxRef] {
		t.Helper()
		p, err := db.TxHistory(ctx, mustAddress(t, addr), q, nil)
		if err != nil {
			t.Fatalf("%s: %s %+v: %v", when, addr, q, err)
		}
		return p
	}
	same := func(what string, got, want any) {
		t.Helper()
		if render(got) != render(want) {
			t.Fatalf("%s: %s differs with the index:\n got %.600s\nwant %.600s", when, what, render(got), render(want))
		}
	}
	for _, w := range walks {
		for offset, n := 0, 0; w.pages == 0 || n < w.pages; offset, n = offset+w.limit, n+1 {
			q := dbsync.HistoryQuery{Limit: w.limit, Offset: offset, Ascending: asc}
			want := page(sc.plain, w.addr, q)
			same(fmt.Sprintf("%s %+v", w.addr, q), page(sc.db, w.addr, q), want)
			if !want.HasMore() {
				break
			}
		}
		from := int64(1 << 62)
		if asc {
			from = 0
		}
		for n := 0; w.pages == 0 || n < w.pages; n++ {
			q := dbsync.HistoryQuery{Limit: w.limit, FromSlot: &from, Ascending: asc}
			want := page(sc.plain, w.addr, q)
			same(fmt.Sprintf("%s limit %d from slot %d", w.addr, w.limit, from), page(sc.db, w.addr, q), want)
			if !want.HasMore() {
				break
			}
			from = *want.NextCursor
		}
		q := dbsync.HistoryQuery{Limit: min(w.limit, 20), Ascending: asc}
		detailed := func(db *dbsync.DB) any {
			p, err := db.TxsByAddress(ctx, mustAddress(t, w.addr), q, nil)
			if err != nil {
				t.Fatalf("%s: detailed %s: %v", when, w.addr, err)
			}
			return p
		}
		same("detailed first page of "+w.addr, detailed(sc.db), detailed(sc.plain))
	}
}

// spendOnlyAddresses are the three addresses with the most transactions
// that spend their outputs without paying them.
func spendOnlyAddresses(t *testing.T, sc *spentChain) []string {
	t.Helper()
	out := spendOnlyAfter(t, sc, 0)
	if len(out) < 3 {
		t.Fatalf("only %d addresses have transactions that only spend from them", len(out))
	}
	return out
}

// spendOnlyAfter is spendOnlyAddresses for the transactions after tx id
// after (at most three).
func spendOnlyAfter(t *testing.T, sc *spentChain, after int64) []string {
	t.Helper()
	addr, key := "o.address", "o.address"
	if sc.variant.AddressTable {
		addr, key = "(SELECT a.address FROM address a WHERE a.id = o.address_id)", "o.address_id"
	}
	spends := `SELECT i.tx_in_id AS spender, o.* FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index`
	if sc.variant.Mode == chaingen.ModeConsumed {
		spends = `SELECT o.consumed_by_tx_id AS spender, o.* FROM tx_out o WHERE o.consumed_by_tx_id IS NOT NULL`
	}
	var out []string
	if err := sc.raw.Select(&out, `SELECT `+addr+` FROM (`+spends+`) o
		WHERE o.spender > $1 AND NOT EXISTS (SELECT 1 FROM tx_out p WHERE p.tx_id = o.spender AND `+strings.ReplaceAll(key, "o.", "p.")+` = `+key+`)
		GROUP BY `+key+` ORDER BY count(DISTINCT o.spender) DESC, 1 LIMIT 3`, after); err != nil {
		t.Fatal(err)
	}
	return out
}
