package dbsync_test

import (
	"context"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// A cursor page in the middle of the whale's history must cost about what
// it costs on a small address: the walk starts at the cursor and stops
// after the page. The total is served as the handler's per-tip cache
// serves it after the first page; BenchmarkHistoryTotalWhale prices a miss.
//
//	go test ./dbsync -run '^$' -bench History -benchtime 200x
func BenchmarkHistoryCursorWhale(b *testing.B) {
	needChains(b)
	benchmarkCursorPage(b, samples.Whale)
}

func BenchmarkHistoryCursorSmall(b *testing.B) {
	needChains(b)
	// an ordinary address with enough history for a page either side of the cursor
	var addr string
	if err := chains[0].raw.Get(&addr, `SELECT address FROM tx_out GROUP BY address
		HAVING count(*) BETWEEN 40 AND 400 ORDER BY md5(address) LIMIT 1`); err != nil {
		b.Fatal(err)
	}
	benchmarkCursorPage(b, addr)
}

func benchmarkCursorPage(b *testing.B, addr string) {
	for _, c := range chains {
		b.Run(string(c.mode), func(b *testing.B) {
			a := mustAddress(b, addr)
			from := midSlot(b, c, addr)
			cached := int64(-1)
			counter := func(ctx context.Context, _ dbsync.Tip, count func(context.Context) (int64, error)) (int64, error) {
				if cached < 0 {
					n, err := count(ctx)
					cached = n
					return n, err
				}
				return cached, nil
			}
			for _, asc := range []bool{false, true} {
				name := "desc"
				if asc {
					name = "asc"
				}
				b.Run(name, func(b *testing.B) {
					q := dbsync.HistoryQuery{Limit: 20, FromSlot: &from, Ascending: asc}
					for b.Loop() {
						p, err := c.db.TxHistory(b.Context(), a, q, counter)
						if err != nil || len(p.Items) == 0 {
							b.Fatalf("%v, %d items", err, len(p.Items))
						}
					}
				})
			}
		})
	}
}

func BenchmarkHistoryTotalWhale(b *testing.B) {
	needChains(b)
	for _, c := range chains {
		b.Run(string(c.mode), func(b *testing.B) {
			a := mustAddress(b, samples.Whale)
			from := midSlot(b, c, samples.Whale)
			q := dbsync.HistoryQuery{Limit: 20, FromSlot: &from}
			for b.Loop() {
				if _, err := c.db.TxHistory(b.Context(), a, q, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// midSlot is the slot of the address's median transaction.
func midSlot(b *testing.B, c *chain, addr string) int64 {
	b.Helper()
	var slot int64
	err := c.raw.Get(&slot, `SELECT b.slot_no FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
		WHERE o.address = $1 ORDER BY o.tx_id OFFSET (SELECT count(*) / 2 FROM tx_out WHERE address = $1) LIMIT 1`, addr)
	if err != nil {
		b.Fatal(err)
	}
	return slot
}
