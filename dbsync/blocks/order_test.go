package blocks

import (
	"slices"
	"testing"
)

// TestChainOrder: blocks placed in chain order from their heights and the
// few without one (a genesis, then Byron's epoch boundaries), and windows
// of positions turned back into heights and ids.
func TestChainOrder(t *testing.T) {
	i := func(v int64) *int64 { return &v }
	// Chain: genesis (id 1), boundary 0 (id 2), heights 1..20 (ids
	// 3..22), boundary 1 (id 23), heights 21.. (ids 24..).
	o := newChainOrder([]unnumbered{
		{ID: 1, FirstNo: i(1)},
		{ID: 2, PreviousID: i(1), FirstNo: i(1)},
		{ID: 23, PreviousID: i(22), PreviousNo: i(20), FirstNo: i(1)},
	})
	position := func(id int64) int64 { // ids are positions in this chain
		return id
	}
	for id, height := range map[int64]*int64{1: nil, 2: nil, 3: i(1), 22: i(20), 23: nil, 24: i(21), 500: i(497)} {
		if p, ok := o.position(id, height); !ok || p != position(id) {
			t.Errorf("block %d (height %v): position %d %v", id, height, p, ok)
		}
	}
	for _, tc := range []struct {
		from, to int64
		lo, hi   int64
		ids      []int64
	}{
		{1, 5, 1, 3, []int64{1, 2}},
		{20, 26, 18, 23, []int64{23}},
		{23, 23, 21, 20, []int64{23}},
		{24, 30, 21, 27, []int64{}},
		{-5, 0, -5, 0, []int64{}}, // before the chain: heights no block has
	} {
		lo, hi, ids := o.window(tc.from, tc.to)
		if lo > hi {
			lo, hi = tc.lo, tc.hi // an empty range is any lo > hi
		}
		if lo != tc.lo || hi != tc.hi || !slices.Equal(ids, tc.ids) {
			t.Errorf("positions %d..%d: heights %d..%d ids %v, want %d..%d %v", tc.from, tc.to, lo, hi, ids, tc.lo, tc.hi, tc.ids)
		}
	}
	// A chain whose blocks all have a height.
	plain := newChainOrder(nil)
	if lo, hi, ids := plain.window(10, 19); lo != 10 || hi != 19 || len(ids) != 0 {
		t.Errorf("no blocks without a height: %d..%d %v", lo, hi, ids)
	}
}

// TestTxPositions: a page's block_index range, from either end.
func TestTxPositions(t *testing.T) {
	for _, tc := range []struct {
		p        Page
		n        int
		from, to int
	}{
		{Page{Offset: 0, Count: 3}, 10, 0, 2},
		{Page{Offset: 9, Count: 3}, 10, 9, 11},
		{Page{Offset: 0, Count: 3, Desc: true}, 10, 7, 9},
		{Page{Offset: 9, Count: 3, Desc: true}, 10, -2, 0},
	} {
		if from, to := tc.p.positions(tc.n); from != tc.from || to != tc.to {
			t.Errorf("%+v of %d: %d..%d, want %d..%d", tc.p, tc.n, from, to, tc.from, tc.to)
		}
	}
}
