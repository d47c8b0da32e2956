package dbsync_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// withAnchorStride sets every chain's history anchor stride until the test
// ends, so the test chains' short histories take the anchored path.
func withAnchorStride(t *testing.T, n int) {
	for _, c := range chains {
		c.db.SetHistoryAnchorStride(n)
	}
	t.Cleanup(func() {
		for _, c := range chains {
			c.db.SetHistoryAnchorStride(0)
		}
	})
}

// Deep offset pages start from remembered anchors: walking offset +=
// limit, jumping to offsets in any order, in both directions, every page is
// the plain window the reference history says, and anchors were used.
func TestHistoryAnchoredPages(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0) // every address takes the walk
	withAnchorStride(t, 7)
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, addr := range []string{samples.Whale, samples.Busy} {
			want := independentHistory(t, c, addr)
			if len(want) < 40 {
				t.Fatalf("%s has %d transactions; the test needs a longer history", addr, len(want))
			}
			for _, asc := range []bool{false, true} {
				got := walkOffset(t, c, addr, 5, asc, ordered(want, asc))
				if !slices.Equal(got, ordered(want, asc)) {
					t.Fatalf("%s asc=%v: offset walk gave %d txs, want %d", addr, asc, len(got), len(want))
				}
			}
			if c.db.HistoryAnchorCount(addr) == 0 {
				t.Fatalf("%s: no anchors remembered after deep pages", addr)
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(want))))
			for range 40 {
				offset, limit, asc := rng.IntN(len(want)+3), 1+rng.IntN(9), rng.IntN(2) == 0
				checkWindow(t, c, addr, offset, limit, asc, ordered(want, asc))
			}
		}
	})
}

// An anchor whose transaction is gone or was replaced (a rollback) is never
// used: the address's anchors are forgotten and the page is still right.
func TestHistoryAnchorsAfterRollback(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0)
	withAnchorStride(t, 7)
	forEachChain(t, func(t *testing.T, c *chain) {
		addr := samples.Whale
		want := independentHistory(t, c, addr)
		deep := len(want) / 2
		checkWindow(t, c, addr, deep, 5, false, ordered(want, false))
		if n := c.db.CorruptHistoryAnchors(addr); n == 0 {
			t.Fatal("no anchors after a deep page")
		}
		for _, offset := range []int{deep + 5, deep - 20, deep} {
			checkWindow(t, c, addr, offset, 5, false, ordered(want, false))
		}
		checkWindow(t, c, addr, deep, 5, true, want)
	})
}

// checkWindow reads one offset page and compares it with want[offset:].
func checkWindow(t *testing.T, c *chain, addr string, offset, limit int, asc bool, want []histItem) {
	t.Helper()
	p, err := c.db.TxHistory(t.Context(), mustAddress(t, addr), dbsync.HistoryQuery{Limit: limit, Offset: offset, Ascending: asc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	end := min(offset+limit, len(want))
	exp := []histItem{}
	if offset < len(want) {
		exp = want[offset:end]
	}
	if got := itemsOf(p.Items); !slices.Equal(got, exp) {
		t.Fatalf("%s offset %d limit %d asc=%v: got %v, want %v", addr, offset, limit, asc, got, exp)
	}
	if p.Total != int64(len(want)) {
		t.Fatalf("%s offset %d: total %d, want %d", addr, offset, p.Total, len(want))
	}
	if (p.NextCursor != nil) != (end < len(want)) || (p.NextCursor != nil && *p.NextCursor != want[end].Slot) {
		t.Fatalf("%s offset %d limit %d asc=%v: next cursor %v", addr, offset, limit, asc, p.NextCursor)
	}
}

// Concurrent requests for a deep page of an address without anchors share
// one walk to it (the others wait for it) and all get the right page.
func TestHistoryAnchorsConcurrentHarvest(t *testing.T) {
	needChains(t)
	setSmallHistory(t, 0)
	withAnchorStride(t, 7)
	forEachChain(t, func(t *testing.T, c *chain) {
		addr := samples.Whale
		want := ordered(independentHistory(t, c, addr), false)
		offset := len(want) * 2 / 3
		errs := make(chan error, 8)
		for range 8 {
			go func() {
				p, err := c.db.TxHistory(t.Context(), mustAddress(t, addr), dbsync.HistoryQuery{Limit: 5, Offset: offset}, nil)
				if err == nil && !slices.Equal(itemsOf(p.Items), want[offset:offset+5]) {
					err = fmt.Errorf("offset %d: got %v, want %v", offset, itemsOf(p.Items), want[offset:offset+5])
				}
				errs <- err
			}()
		}
		for range 8 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}
