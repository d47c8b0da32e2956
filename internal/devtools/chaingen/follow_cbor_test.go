package chaingen_test

import (
	"bytes"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// TestFollowGivenCBOR: a transaction handed in with its CBOR shares a
// block with the follower's own transactions, which carry CBOR too. Every
// tx_cbor row of the block takes the next id of the table's sequence (the
// given CBOR once written under an id of its own collided with theirs and
// failed the block), the given bytes are stored as they came, and the
// sequence ends past every row, as db-sync's inserts leave it.
func TestFollowGivenCBOR(t *testing.T) {
	t.Parallel()
	_, db, m := followDB(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx := t.Context()
	var given []byte
	f, err := chaingen.NewFollower(ctx, db, chaingen.FollowOptions{SlotsPerBlock: 20, TxsPerBlock: 6, Seed: 4, Manifest: m,
		Pending: func() []chaingen.PendingTx {
			return []chaingen.PendingTx{{CBOR: given, To: []chaingen.PendingOutput{{Address: m.Whale.Address, Lovelace: 2_000_000}}}}
		}})
	if err != nil {
		t.Fatal(err)
	}
	shared := 0 // blocks where the given CBOR sits beside the follower's own
	for i := range 4 {
		given = bytes.Repeat([]byte{0x80 + byte(i)}, 64+i)
		ev, err := f.AppendBlock(ctx)
		if err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		var txID int64
		for _, tx := range ev.Txs {
			if tx.Pending {
				txID = tx.ID
			}
		}
		if txID == 0 {
			t.Fatalf("block %d lacks the pending transaction: %+v", i, ev.Txs)
		}
		var stored []byte
		if err := db.QueryRowContext(ctx, `SELECT bytes FROM tx_cbor WHERE tx_id = $1`, txID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(stored, given) {
			t.Errorf("block %d: tx_cbor %x, want the given %x", i, stored, given)
		}
		if queryInt(t, db, `SELECT count(*) FROM tx_cbor c JOIN tx t ON t.id = c.tx_id WHERE t.block_id = $1 AND t.id <> $2`,
			ev.Block.ID, txID) > 0 {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("no block carried the follower's own CBOR beside the given one: the test shows nothing")
	}
	if n := queryInt(t, db, `SELECT nextval(pg_get_serial_sequence('tx_cbor', 'id')) - max(id) FROM tx_cbor`); n != 1 {
		t.Errorf("tx_cbor's sequence stands %d past its newest row, want 1", n-1)
	}
}
