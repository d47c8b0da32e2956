package dbsync_test

import (
	"context"
	"testing"

	"github.com/syncgate/syncgate/dbsync/addresses"
)

// TestTxBoundPastIntegers: Blockfrost's to=2147483647 (and to=N:2147483647)
// asks for the first transaction one past it, a number beyond db-sync's
// integer columns: past the tip, none; past a block's last index, the
// next block's first transaction; never an error.
func TestTxBoundPastIntegers(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		ctx := context.Background()
		if id, ok, err := addresses.TxBound(ctx, c.db, 2147483648, 0); err != nil || ok {
			t.Errorf("past the tip: %d, %v, %v; want none", id, ok, err)
		}
		next, ok, err := addresses.TxBound(ctx, c.db, 2, 0)
		if err != nil || !ok {
			t.Fatalf("TxBound(2, 0): %v %v", ok, err)
		}
		if id, ok, err := addresses.TxBound(ctx, c.db, 1, 2147483648); err != nil || !ok || id != next {
			t.Errorf("past block 1's last index: %d, %v, %v; want %d", id, ok, err, next)
		}
	})
}
