package dbsync_test

import (
	"slices"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

func TestTxHistoryWithin(t *testing.T) { inHistoryReads(t, testTxHistoryWithin) }

// An offset page bounded to a tx-id range (Blockfrost's from/to) is a
// plain window over the part of the history in the range: walking
// offset += limit returns each of its transactions once, in order, both
// ways, whichever read serves the address (small, walked, dense or not).
func testTxHistoryWithin(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		smallDone := false
		for i, addr := range append([]string{samples.Whale, samples.Busy}, samples.Small...) {
			small := i >= 2
			if small && smallDone {
				break
			}
			spends := `SELECT i.tx_in_id FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE o.address = $1`
			if c.mode == "consumed" {
				spends = `SELECT consumed_by_tx_id FROM tx_out WHERE address = $1 AND consumed_by_tx_id IS NOT NULL`
			}
			var all []struct {
				ID   int64  `db:"id"`
				Hash string `db:"hash"`
			}
			if err := c.raw.Select(&all, `SELECT t.id, encode(t.hash, 'hex') AS hash FROM tx t
				WHERE t.id IN (SELECT tx_id FROM tx_out WHERE address = $1) OR t.id IN (`+spends+`) ORDER BY t.id`, addr); err != nil {
				t.Fatal(err)
			}
			if len(all) < 8 {
				// an ordinary address may be quiet: the test takes the first
				// small one with enough history to cut into ranges
				if small {
					continue
				}
				t.Fatalf("%s: %d transactions", addr, len(all))
			}
			smallDone = smallDone || small
			for _, r := range [][2]int{{len(all) / 3, 2 * len(all) / 3}, {0, 1}, {len(all) - 1, len(all)}, {3, 3}} {
				lo, hi := all[r[0]].ID, int64(1<<62)
				if r[1] < len(all) {
					hi = all[r[1]].ID
				}
				var want []string
				for _, tx := range all[r[0]:r[1]] {
					want = append(want, tx.Hash)
				}
				for _, asc := range []bool{true, false} {
					var got []string
					for offset := 0; ; offset += 3 {
						q := dbsync.HistoryQuery{Limit: 3, Offset: offset, Ascending: asc, Within: &[2]int64{lo, hi}}
						p, err := c.db.TxHistory(t.Context(), mustAddress(t, addr), q, nil)
						if err != nil {
							t.Fatal(err)
						}
						for _, ref := range p.Items {
							got = append(got, ref.Hash)
						}
						if len(p.Items) < 3 {
							break
						}
					}
					w := slices.Clone(want)
					if !asc {
						slices.Reverse(w)
					}
					if !slices.Equal(got, w) {
						t.Fatalf("%s [%d, %d) asc=%v: %v, want %v", addr, lo, hi, asc, got, w)
					}
				}
			}
		}
		if !smallDone {
			t.Fatal("no ordinary sample address has 8 transactions")
		}
	})
}
