package dbsync_test

import (
	"context"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"reflect"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

type histItem struct {
	Hash string `db:"hash"`
	Slot int64  `db:"slot_no"`
}

// independentHistory lists every transaction that pays to addr or spends
// one of its outputs, once each, oldest first by (slot, block index):
// plain SQL over the whole tables, each mode with its own spend record.
func independentHistory(t *testing.T, c *chain, addr string) []histItem {
	t.Helper()
	spends := `SELECT i.tx_in_id FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE o.address = $1`
	if c.mode == "consumed" {
		spends = `SELECT consumed_by_tx_id FROM tx_out WHERE address = $1 AND consumed_by_tx_id IS NOT NULL`
	}
	var items []histItem
	if err := c.raw.Select(&items, `SELECT encode(t.hash, 'hex') AS hash, COALESCE(b.slot_no, 0) AS slot_no
		FROM tx t JOIN block b ON b.id = t.block_id
		WHERE t.id IN (SELECT tx_id FROM tx_out WHERE address = $1) OR t.id IN (`+spends+`)
		ORDER BY b.slot_no NULLS FIRST, t.block_index`, addr); err != nil {
		t.Fatal(err)
	}
	return items
}

func itemsOf(refs []dbsync.TxRef) []histItem {
	out := make([]histItem, len(refs))
	for i, r := range refs {
		out[i] = histItem{Hash: r.Hash, Slot: r.SlotNo}
	}
	return out
}

func ordered(items []histItem, asc bool) []histItem {
	if asc {
		return items
	}
	rev := slices.Clone(items)
	slices.Reverse(rev)
	return rev
}

// walkCursor pages through addr's history with next_cursor as fromSlot and
// checks the page rules on the way.
func walkCursor(t *testing.T, c *chain, addr string, limit int, asc bool, total int) []histItem {
	t.Helper()
	var all []histItem
	// Start in cursor mode (a page without fromSlot is an offset page).
	start := int64(1 << 62)
	if asc {
		start = 0
	}
	from := &start
	// Count once per walk, as the handler's per-tip cache does.
	counted := int64(-1)
	counter := func(ctx context.Context, _ dbsync.Tip, count func(context.Context) (int64, error)) (int64, error) {
		if counted < 0 {
			n, err := count(ctx)
			counted = n
			return n, err
		}
		return counted, nil
	}
	for pages := 0; ; pages++ {
		if pages > total+1 {
			t.Fatalf("%s: walk does not end after %d pages", addr, pages)
		}
		p, err := c.db.TxHistory(t.Context(), mustAddress(t, addr), dbsync.HistoryQuery{Limit: limit, FromSlot: from, Ascending: asc}, counter)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, addr, limit, asc, true, p, total)
		got := itemsOf(p.Items)
		if len(all) > 0 && len(got) > 0 && all[len(all)-1].Slot == got[0].Slot {
			t.Fatalf("%s limit %d: slot %d split across pages", addr, limit, got[0].Slot)
		}
		all = append(all, got...)
		if p.NextCursor == nil {
			return all
		}
		from = p.NextCursor
	}
}

// checkPage checks what every page must satisfy; cursor: the page was asked
// for with fromSlot.
func checkPage(t *testing.T, addr string, limit int, asc, cursor bool, p dbsync.HistoryPage[dbsync.TxRef], total int) {
	t.Helper()
	if p.Total != int64(total) {
		t.Fatalf("%s: total %d, want %d", addr, p.Total, total)
	}
	if p.Tip.BlockHash == "" || p.Tip.SlotNo == 0 {
		t.Fatalf("%s: no tip on the page", addr)
	}
	n := len(p.Items)
	if n > limit && !cursor {
		t.Fatalf("%s: an offset page of %d items exceeds its limit %d", addr, n, limit)
	}
	if n > limit {
		for _, r := range p.Items {
			if r.SlotNo != p.Items[0].SlotNo {
				t.Fatalf("%s limit %d: a page of %d mixes slots; only one whole slot may exceed the limit", addr, limit, n)
			}
		}
	}
	if p.NextCursor != nil {
		if n == 0 {
			t.Fatalf("%s: empty page with a next cursor", addr)
		}
		last := p.Items[n-1].SlotNo
		if cursor && (asc && *p.NextCursor <= last || !asc && *p.NextCursor >= last) ||
			asc && *p.NextCursor < last || !asc && *p.NextCursor > last {
			t.Fatalf("%s: next cursor %d does not move past the last slot %d (asc=%v)", addr, *p.NextCursor, last, asc)
		}
	}
	if p.HasMore() != (p.NextCursor != nil) {
		t.Fatalf("%s: hasMore disagrees with next_cursor", addr)
	}
}

// historyReads are the small-history thresholds every history test runs
// with: the default, 0 (every address walks the history in tx id order)
// and one so large that every address, the whale too, is read whole by
// tx_history_small. Both reads must give the same pages.
var historyReads = []int{1000, 0, 1 << 30}

// inHistoryReads runs f once per historyReads threshold.
func inHistoryReads(t *testing.T, f func(t *testing.T)) {
	needChains(t)
	for _, n := range historyReads {
		t.Run(fmt.Sprintf("small=%d", n), func(t *testing.T) {
			setSmallHistory(t, n)
			f(t)
		})
	}
	// Core mode's two walks (denseOutputs), each for every address.
	for _, dense := range []int{1, 1 << 40} {
		t.Run(fmt.Sprintf("small=0,dense=%d", dense), func(t *testing.T) {
			setSmallHistory(t, 0)
			for _, c := range chains {
				c.db.SetDenseHistoryOutputs(dense)
			}
			t.Cleanup(func() {
				for _, c := range chains {
					c.db.SetDenseHistoryOutputs(0)
				}
			})
			f(t)
		})
	}
}

// setSmallHistory sets every chain's small-history threshold until the
// test ends.
func setSmallHistory(t *testing.T, n int) {
	for _, c := range chains {
		c.db.SetSmallHistoryOutputs(n)
	}
	t.Cleanup(func() {
		for _, c := range chains {
			c.db.SetSmallHistoryOutputs(historyReads[0])
		}
	})
}

func TestTxHistoryCursorWalk(t *testing.T) { inHistoryReads(t, testTxHistoryCursorWalk) }

func TestTxHistoryOffsetWalk(t *testing.T) { inHistoryReads(t, testTxHistoryOffsetWalk) }

func TestTxHistoryOffsetThenCursor(t *testing.T) { inHistoryReads(t, testTxHistoryOffsetThenCursor) }

func TestTxHistoryFromSlot(t *testing.T) { inHistoryReads(t, testTxHistoryFromSlot) }

func TestManifestCounts(t *testing.T) { inHistoryReads(t, testManifestCounts) }

func TestTxHistoryPastTheEnd(t *testing.T) { inHistoryReads(t, testTxHistoryPastTheEnd) }

// A page past the end of the history (an offset beyond it, a cursor after
// its last slot) is empty, has no more, and still gives the total.
func testTxHistoryPastTheEnd(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, a := range []string{samples.Whale, samples.Small[0]} {
			want := independentHistory(t, c, a)
			after := want[len(want)-1].Slot + 1
			for _, q := range []dbsync.HistoryQuery{
				{Limit: 20, Offset: len(want)},
				{Limit: 20, Offset: len(want) + 7, Ascending: true},
				{Limit: 20, FromSlot: &after, Ascending: true},
			} {
				p, err := c.db.TxHistory(t.Context(), mustAddress(t, a), q, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Items) != 0 || p.HasMore() || p.Total != int64(len(want)) {
					t.Fatalf("%s %+v: %d items, hasMore %v, total %d; want none, false, %d", a, q, len(p.Items), p.HasMore(), p.Total, len(want))
				}
			}
		}
	})
}

func testTxHistoryCursorWalk(t *testing.T) {
	if samples.BusyTxs < 21 {
		t.Fatalf("the busiest slot holds %d txs of one address; the whole-slot page needs more than a limit of 20", samples.BusyTxs)
	}
	type walk struct {
		addr   string
		limits []int
	}
	walks := []walk{
		{samples.Whale, []int{7, 100}},
		{samples.Busy, []int{1, 20, samples.BusyTxs - 1, samples.BusyTxs, 500}},
		{neverSeen, []int{20}},
	}
	for i, a := range samples.Addresses()[2:] {
		limits := []int{3, 20}
		if i < 3 {
			limits = []int{1, 2, 20}
		}
		walks = append(walks, walk{a, limits})
	}
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, w := range walks {
			want := independentHistory(t, c, w.addr)
			if w.addr == samples.Whale && len(want) < 50 {
				t.Fatalf("the whale has only %d transactions", len(want))
			}
			for _, limit := range w.limits {
				for _, asc := range []bool{false, true} {
					got := walkCursor(t, c, w.addr, limit, asc, len(want))
					if !slices.Equal(got, ordered(want, asc)) {
						t.Fatalf("%s limit %d asc=%v: cursor walk gave %d txs, want %d (every tx exactly once, in order)",
							w.addr, limit, asc, len(got), len(want))
					}
				}
			}
		}
	})
}

// Offset mode is a plain window: walking offset += limit (as the public
// client SDK does) returns every transaction exactly once, in order, and
// every page but the last holds exactly limit items, busy slot or not.
func testTxHistoryOffsetWalk(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, w := range []struct {
			addr   string
			limits []int
		}{
			{samples.Whale, []int{20, 100}},
			{samples.Busy, []int{1, 7, 20, samples.BusyTxs - 1, 100}},
			{samples.Small[0], []int{3, 20}},
		} {
			want := independentHistory(t, c, w.addr)
			for _, limit := range w.limits {
				for _, asc := range []bool{false, true} {
					got := walkOffset(t, c, w.addr, limit, asc, ordered(want, asc))
					if !slices.Equal(got, ordered(want, asc)) {
						t.Fatalf("%s limit %d asc=%v: offset walk gave %d txs, want %d (every tx exactly once, in order)",
							w.addr, limit, asc, len(got), len(want))
					}
				}
			}
		}
	})
}

// walkOffset pages through addr's history with offset += limit while
// hasMore, checking the plain-window rules on the way.
func walkOffset(t *testing.T, c *chain, addr string, limit int, asc bool, want []histItem) []histItem {
	t.Helper()
	total := len(want)
	var got []histItem
	for offset := 0; ; offset += limit {
		p, err := c.db.TxHistory(t.Context(), mustAddress(t, addr), dbsync.HistoryQuery{Limit: limit, Offset: offset, Ascending: asc}, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, addr, limit, asc, false, p, total)
		if p.HasMore() != (offset+len(p.Items) < total) {
			t.Fatalf("%s offset %d: hasMore %v with %d of %d", addr, offset, p.HasMore(), offset+len(p.Items), total)
		}
		if p.HasMore() && len(p.Items) != limit {
			t.Fatalf("%s limit %d offset %d: a page before the last holds %d items", addr, limit, offset, len(p.Items))
		}
		if p.NextCursor != nil && want[offset+limit].Slot != *p.NextCursor {
			t.Fatalf("%s offset %d: next cursor %d is not the slot of the first transaction not returned", addr, offset, *p.NextCursor)
		}
		got = append(got, itemsOf(p.Items)...)
		if !p.HasMore() {
			return got
		}
	}
}

// A client may switch from an offset page to the cursor: following
// next_cursor from the first (offset-mode) page loses nothing and repeats at
// most the one slot that page split.
func testTxHistoryOffsetThenCursor(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, w := range []struct {
			addr  string
			limit int
		}{{samples.Busy, 2}, {samples.Busy, 20}, {samples.Whale, 20}, {samples.Small[0], 3}} {
			want := independentHistory(t, c, w.addr)
			for _, asc := range []bool{false, true} {
				first, err := c.db.TxHistory(t.Context(), mustAddress(t, w.addr), dbsync.HistoryQuery{Limit: w.limit, Ascending: asc}, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := itemsOf(first.Items)
				if first.NextCursor == nil {
					if !slices.Equal(got, ordered(want, asc)) {
						t.Fatalf("%s: single page is not the whole history", w.addr)
					}
					continue
				}
				from := first.NextCursor
				for pages := 0; from != nil; pages++ {
					if pages > len(want)+1 {
						t.Fatalf("%s: cursor walk does not end", w.addr)
					}
					p, err := c.db.TxHistory(t.Context(), mustAddress(t, w.addr), dbsync.HistoryQuery{Limit: w.limit, FromSlot: from, Ascending: asc}, nil)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, itemsOf(p.Items)...)
					from = p.NextCursor
				}
				// Drop the repeats of the split slot: they must be exactly the
				// first page's items of the cursor's slot.
				split := *first.NextCursor
				repeated := 0
				for _, it := range first.Items {
					if it.SlotNo == split {
						repeated++
					}
				}
				n := len(first.Items)
				if !slices.Equal(got[n:n+repeated], got[n-repeated:n]) {
					t.Fatalf("%s limit %d asc=%v: the cursor walk does not start with the split slot's %d transactions", w.addr, w.limit, asc, repeated)
				}
				dedup := append(slices.Clone(got[:n]), got[n+repeated:]...)
				if !slices.Equal(dedup, ordered(want, asc)) {
					t.Fatalf("%s limit %d asc=%v: offset page then cursor gave %d txs (%d repeated), want %d", w.addr, w.limit, asc, len(got), repeated, len(want))
				}
			}
		}
	})
}

// A cursor that falls between the address's slots starts at the next
// transaction in walk order; with an offset, that many are skipped first.
func testTxHistoryFromSlot(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		want := independentHistory(t, c, samples.Whale)
		mid := want[len(want)/2]
		for _, tc := range []struct {
			from   int64
			asc    bool
			offset int
		}{
			{mid.Slot, false, 0}, {mid.Slot, true, 0}, {mid.Slot - 1, false, 0}, {mid.Slot + 1, true, 0},
			{mid.Slot, false, 3}, {mid.Slot, true, 5}, {0, true, 0}, {0, false, 0}, {1 << 62, false, 0}, {1 << 62, true, 0},
		} {
			var rest []histItem
			for _, it := range ordered(want, tc.asc) {
				if tc.asc && it.Slot >= tc.from || !tc.asc && it.Slot <= tc.from {
					rest = append(rest, it)
				}
			}
			if tc.offset <= len(rest) {
				rest = rest[tc.offset:]
			}
			from := tc.from
			p, err := c.db.TxHistory(t.Context(), mustAddress(t, samples.Whale),
				dbsync.HistoryQuery{Limit: 10, Offset: tc.offset, FromSlot: &from, Ascending: tc.asc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkPage(t, samples.Whale, 10, tc.asc, true, p, len(want))
			got := itemsOf(p.Items)
			if len(got) > len(rest) || !slices.Equal(got, rest[:len(got)]) || len(rest) > 0 && len(got) == 0 {
				t.Fatalf("fromSlot %d asc=%v offset %d: page is not the start of the %d matching txs", tc.from, tc.asc, tc.offset, len(rest))
			}
			if (p.NextCursor == nil) != (len(got) == len(rest)) {
				t.Fatalf("fromSlot %d asc=%v: next cursor %v with %d of %d left", tc.from, tc.asc, p.NextCursor, len(got), len(rest))
			}
		}
	})
}

// The total comes from the counter when one is given (the handler caches it
// per tip) and is the same number either way.
func TestTxHistoryTotalCounter(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0) // addresses read whole count in the same statement
	forEachChain(t, func(t *testing.T, c *chain) {
		want := len(independentHistory(t, c, samples.Whale))
		calls := 0
		counter := func(ctx context.Context, tip dbsync.Tip, count func(context.Context) (int64, error)) (int64, error) {
			calls++
			if tip.BlockHash == "" {
				t.Error("counter called without the page's tip")
			}
			return count(ctx)
		}
		p, err := c.db.TxHistory(t.Context(), mustAddress(t, samples.Whale), dbsync.HistoryQuery{Limit: 5}, counter)
		if err != nil || p.Total != int64(want) || calls != 1 {
			t.Fatalf("total %d (calls %d, err %v), want %d from one counter call", p.Total, calls, err, want)
		}
		// A deep (anchored) page counts once too, read or from the memo.
		withAnchorStride(t, 7)
		for round := range 2 {
			calls = 0
			q := dbsync.HistoryQuery{Limit: 5, Offset: want / 2}
			p, err := c.db.TxHistory(t.Context(), mustAddress(t, samples.Whale), q, counter)
			if err != nil || p.Total != int64(want) || calls != 1 {
				t.Fatalf("deep page, round %d: total %d (calls %d, err %v), want %d from one counter call", round, p.Total, calls, err, want)
			}
		}
		// A complete first page needs no count at all.
		calls = 0
		small := samples.Small[0]
		p, err = c.db.TxHistory(t.Context(), mustAddress(t, small), dbsync.HistoryQuery{Limit: 500}, counter)
		if err != nil || calls != 0 || p.Total != int64(len(independentHistory(t, c, small))) {
			t.Fatalf("complete page: total %d, %d counter calls, %v", p.Total, calls, err)
		}
	})
}

// The generator counts each address's transactions and UTxOs itself while
// it builds the chain: a third computation the store must agree with.
func testManifestCounts(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		m := c.manifest
		if m == nil {
			t.Fatal("no manifest")
		}
		refs := append([]chaingen.AddressRef{m.Whale, m.ByronAddress, m.ScriptAddress, m.AssetAddress}, m.Addresses...)
		for _, ref := range refs {
			addr := mustAddress(t, ref.Address)
			p, err := c.db.TxHistory(t.Context(), addr, dbsync.HistoryQuery{Limit: 1, Offset: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			utxos, err := c.db.UTxOsByAddress(t.Context(), addr)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != ref.TxCount || len(utxos) != ref.UTxOs {
				t.Errorf("%s: %d txs, %d UTxOs; the generator counted %d and %d", ref.Address, p.Total, len(utxos), ref.TxCount, ref.UTxOs)
			}
		}
		key, err := cardano.ParseStakeKey(m.BusiestStakeKey.StakeAddress, true)
		if err != nil {
			t.Fatal(err)
		}
		if utxos, err := c.db.UTxOsByStake(t.Context(), key); err != nil || int64(len(utxos)) != m.BusiestStakeKey.UTxOs {
			t.Errorf("busiest stake key: %d UTxOs (%v); the generator counted %d", len(utxos), err, m.BusiestStakeKey.UTxOs)
		}
		// A cursor on the busy slot gives the whole slot in one page, and
		// the next cursor moves past it.
		slot := int64(m.BusySlot.Slot)
		for _, asc := range []bool{false, true} {
			p, err := c.db.TxHistory(t.Context(), mustAddress(t, m.BusySlot.Address), dbsync.HistoryQuery{Limit: 20, FromSlot: &slot, Ascending: asc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Items {
				if r.SlotNo != slot {
					t.Fatalf("busy slot page holds slot %d", r.SlotNo)
				}
			}
			if int64(len(p.Items)) != m.BusySlot.TxCount || p.NextCursor != nil && *p.NextCursor == slot {
				t.Errorf("asc=%v: busy slot page has %d txs (next %v); the generator put %d in slot %d", asc, len(p.Items), p.NextCursor, m.BusySlot.TxCount, slot)
			}
			// With an offset into the slot, the page is the rest of it.
			rest, err := c.db.TxHistory(t.Context(), mustAddress(t, m.BusySlot.Address), dbsync.HistoryQuery{Limit: 20, Offset: 5, FromSlot: &slot, Ascending: asc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rest.Items) != len(p.Items)-5 || len(rest.Items) > 0 && rest.Items[0].Hash != p.Items[5].Hash ||
				cursorString(rest.NextCursor) != cursorString(p.NextCursor) {
				t.Errorf("asc=%v offset 5: %d txs (next %s); want the slot's last %d from its 6th", asc, len(rest.Items),
					cursorString(rest.NextCursor), len(p.Items)-5)
			}
		}
	})
}

// Core-mode history pages are planned for their values; the statements
// that follow in the request (inputs, outputs, assets) must go back to
// their generic plans, or each request re-plans them all.
func TestCustomPlansOnlyForTheWalk(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		inside, after, err := c.db.PlanCacheModes(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		wantInside := "force_generic_plan"
		if c.mode == chaingen.ModeCore {
			wantInside = "force_custom_plan"
		}
		if inside != wantInside || after != "force_generic_plan" {
			t.Fatalf("plan_cache_mode inside the walk %q, after it %q; want %q then force_generic_plan", inside, after, wantInside)
		}
	})
}

// An offset page of an address with few outputs is one statement outside a
// transaction (FirstHistoryPage); it must be the page the snapshot path
// reads, field for field: tip, items, next cursor and total, at every
// offset (past the end too), in both orders. With every address small,
// the whale and the busy address take it as well.
func TestTxHistoryFirstPageAgrees(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 1<<30)
	addrs := append([]string{neverSeen}, samples.Addresses()...)
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, a := range addrs {
			n := len(independentHistory(t, c, a))
			for _, limit := range []int{1, 7, 100} {
				for _, offset := range []int{0, 1, n / 2, max(n-1, 0), n, n + 5} {
					for _, asc := range []bool{false, true} {
						q := dbsync.HistoryQuery{Limit: limit, Offset: offset, Ascending: asc}
						got, ok, err := c.db.FirstHistoryPage(t.Context(), mustAddress(t, a), q)
						if err != nil || !ok {
							t.Fatalf("%s %+v: one statement: ok %v, %v", a, q, ok, err)
						}
						want, err := c.db.TxHistoryInSnapshot(t.Context(), mustAddress(t, a), q)
						if err != nil {
							t.Fatal(err)
						}
						if !reflect.DeepEqual(got.Tip, want.Tip) || got.Total != want.Total || !reflect.DeepEqual(got.Items, want.Items) ||
							(got.NextCursor == nil) != (want.NextCursor == nil) ||
							got.NextCursor != nil && *got.NextCursor != *want.NextCursor {
							t.Fatalf("%s %+v: one statement gave %d items, total %d, next %v; the snapshot %d, %d, %v",
								a, q, len(got.Items), got.Total, got.NextCursor, len(want.Items), want.Total, want.NextCursor)
						}
					}
				}
			}
		}
	})
	// A cursor page, or an address at the threshold, is not for it.
	setSmallHistory(t, 1)
	c := chains[0]
	if _, ok, err := c.db.FirstHistoryPage(t.Context(), mustAddress(t, samples.Whale), dbsync.HistoryQuery{Limit: 10}); ok || err != nil {
		t.Fatalf("the whale over a threshold of 1 output: ok %v, %v; want the snapshot path", ok, err)
	}
	slot := int64(1 << 40)
	setSmallHistory(t, 1<<30)
	if _, ok, err := c.db.FirstHistoryPage(t.Context(), mustAddress(t, samples.Small[0]), dbsync.HistoryQuery{Limit: 10, FromSlot: &slot}); ok || err != nil {
		t.Fatalf("a cursor page: ok %v, %v; want the snapshot path", ok, err)
	}
}
