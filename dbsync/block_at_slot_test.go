package dbsync_test

import (
	"errors"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// TestBlockHashAt: the block at a slot, checked against the database read
// directly; a slot without a block is ErrNotFound.
func TestBlockHashAt(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		var want struct {
			Slot int64  `db:"slot_no"`
			Hash string `db:"hash"`
		}
		if err := c.raw.Get(&want, `SELECT slot_no, encode(hash, 'hex') AS hash FROM block WHERE block_no IS NOT NULL ORDER BY slot_no DESC OFFSET 7 LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		got, err := c.db.BlockHashAt(t.Context(), want.Slot)
		if err != nil || got != want.Hash {
			t.Errorf("slot %d: %q %v, want %s", want.Slot, got, err, want.Hash)
		}
		var empty int64
		if err := c.raw.Get(&empty, `SELECT max(slot_no) + 1 FROM block`); err != nil {
			t.Fatal(err)
		}
		if _, err := c.db.BlockHashAt(t.Context(), empty); !errors.Is(err, dbsync.ErrNotFound) {
			t.Errorf("slot %d past the tip: %v, want ErrNotFound", empty, err)
		}
	})
}
