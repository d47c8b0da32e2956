package dbsync_test

import (
	"fmt"
	"testing"

	"github.com/syncgate/syncgate/internal/cardano"
)

// TestTxInChain: the block of sampled transactions and the tip, checked
// against independent SQL; an unknown hash has no block but a tip.
func TestTxInChain(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		var rows []struct {
			Tx    string `db:"tx"`
			Block string `db:"block"`
		}
		if err := c.raw.Select(&rows, `SELECT encode(t.hash, 'hex') AS tx, concat_ws(' ', encode(b.hash, 'hex'), COALESCE(b.block_no, 0), COALESCE(b.slot_no, 0)) AS block
			FROM tx t JOIN block b ON b.id = t.block_id ORDER BY md5(t.hash::text) LIMIT 20`); err != nil || len(rows) == 0 {
			t.Fatalf("samples: %v", err)
		}
		var tipSlot int64
		if err := c.raw.Get(&tipSlot, `SELECT max(slot_no) FROM block`); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			hash, _ := cardano.ParseTxHash(r.Tx)
			tip, b, err := c.db.TxInChain(t.Context(), hash)
			if err != nil || b == nil {
				t.Fatalf("%s: %v %v", r.Tx, b, err)
			}
			if got := fmt.Sprintf("%s %d %d", b.Hash, b.BlockNo, b.Slot); got != r.Block {
				t.Errorf("%s: block %s, want %s", r.Tx, got, r.Block)
			}
			if tip.SlotNo != tipSlot {
				t.Errorf("tip slot %d, want %d", tip.SlotNo, tipSlot)
			}
		}
		var unknown cardano.TxHash
		tip, b, err := c.db.TxInChain(t.Context(), unknown)
		if err != nil || b != nil || tip.SlotNo != tipSlot {
			t.Fatalf("unknown hash: %+v %v %v", tip, b, err)
		}
	})
}
