package dbsync_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// withFinalDepth makes blocks n below the tip final for every chain's
// history memo, with a fresh memo, until the test ends.
func withFinalDepth(t *testing.T, n int64) {
	for _, c := range chains {
		c.db.SetFinalDepth(n)
		c.db.SetHistoryMemo(0)
	}
	t.Cleanup(func() {
		for _, c := range chains {
			c.db.SetFinalDepth(0)
			c.db.SetHistoryMemo(0)
		}
	})
}

// Final cursor and deep offset pages are remembered and served again
// unchanged: walking the history twice, in both directions and both modes,
// gives the reference history both times, and the memo holds pages.
func TestHistoryMemoServesFinalPages(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0)
	withAnchorStride(t, 7)
	withFinalDepth(t, 5)
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, addr := range []string{samples.Whale, samples.Busy} {
			want := independentHistory(t, c, addr)
			for _, asc := range []bool{false, true} {
				for round := range 2 {
					if got := walkCursor(t, c, addr, 4, asc, len(want)); !slices.Equal(got, ordered(want, asc)) {
						t.Fatalf("%s asc=%v round %d: cursor walk gave %d txs, want %d", addr, asc, round, len(got), len(want))
					}
					if got := walkOffset(t, c, addr, 5, asc, ordered(want, asc)); !slices.Equal(got, ordered(want, asc)) {
						t.Fatalf("%s asc=%v round %d: offset walk gave %d txs, want %d", addr, asc, round, len(got), len(want))
					}
				}
			}
		}
		if c.db.MemoPages() == 0 {
			t.Fatal("no final page remembered after walking two histories")
		}
	})
}

// A page that a rollback could still change is not remembered: cursor
// pages from the tip's slot, and the oldest-first walk's last page.
func TestHistoryMemoSkipsRecentPages(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0)
	withFinalDepth(t, 1<<40) // nothing is final
	forEachChain(t, func(t *testing.T, c *chain) {
		want := independentHistory(t, c, samples.Whale)
		for _, asc := range []bool{false, true} {
			walkCursor(t, c, samples.Whale, 4, asc, len(want))
			walkOffset(t, c, samples.Whale, 5, asc, ordered(want, asc))
		}
		if n := c.db.MemoPages(); n != 0 {
			t.Fatalf("%d pages remembered on a chain with no final block", n)
		}
	})
	withFinalDepth(t, 5)
	forEachChain(t, func(t *testing.T, c *chain) {
		tip := independentHistory(t, c, samples.Whale)
		newest := tip[len(tip)-1].Slot
		for _, asc := range []bool{false, true} {
			q := dbsync.HistoryQuery{Limit: 3, FromSlot: &newest, Ascending: asc}
			if _, err := c.db.TxHistory(t.Context(), mustAddress(t, samples.Whale), q, nil); err != nil {
				t.Fatal(err)
			}
		}
		if n := c.db.MemoPages(); n != 0 {
			t.Fatalf("%d pages remembered from the newest slot", n)
		}
	})
}

// Detailed pages read with remembered transaction details are the pages
// read without the memo, field for field.
func TestHistoryMemoDetailsMatch(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0)
	withFinalDepth(t, 5)
	forEachChain(t, func(t *testing.T, c *chain) {
		addr := mustAddress(t, samples.Whale)
		read := func() []byte {
			var all []dbsync.Tx
			for offset := 0; offset < 60; offset += 6 {
				p, err := c.db.TxsByAddress(t.Context(), addr, dbsync.HistoryQuery{Limit: 6, Offset: offset, Ascending: true}, nil)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, p.Items...)
			}
			b, err := json.Marshal(all)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		c.db.SetHistoryMemo(-1)
		want := read()
		c.db.SetHistoryMemo(0)
		if first, again := read(), read(); string(first) != string(want) || string(again) != string(want) {
			t.Fatal("detailed pages differ with the memo")
		}
	})
}
