package demonode_test

import (
	"encoding/hex"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/node/demonode"
)

// included lists the submitted transactions a block took.
func included(ev chaingen.FollowEvent) []string {
	var out []string
	for _, tx := range ev.Txs {
		if tx.Pending {
			out = append(out, tx.Hash)
		}
	}
	return out
}

// TestDemoNodeChainsAndRollsBack: a transaction spending the change of one
// still waiting is accepted, both go into one block in order; a rollback
// that removes the block brings both back to the mempool, and the next
// block takes them again.
func TestDemoNodeChainsAndRollsBack(t *testing.T) {
	t.Parallel()
	c := newDemoChain(t, chaingen.Variant{Mode: chaingen.ModeCore})
	coins := c.coins(t, c.wallet.Address)
	to, _, _ := newBaseAddress(t, "chained")

	parent := c.payment(t, coins[2], to, 3_000_000)
	rawP, hashP := parent.build(t)
	if err := c.send(t, rawP); err != nil {
		t.Fatal(err)
	}
	hp, _ := hex.DecodeString(hashP)
	change := coin{in: demonode.Input{TxHash: [32]byte(hp), Index: 1}, value: parent.outs[1].coin}
	rawC, hashC := c.payment(t, change, to, 4_000_000).build(t)
	if err := c.send(t, rawC); err != nil {
		t.Fatalf("a transaction spending a waiting one's change: %v", err)
	}
	// Spending the same change twice is a double spend in the mempool.
	again, _ := c.payment(t, change, to, 5_000_000).build(t)
	if reason := rejection(t, c.send(t, again)); reason == "" {
		t.Fatal("no reason")
	}

	ev := c.block(t)
	if got := included(ev); !slices.Equal(got, []string{hashP, hashC}) {
		t.Fatalf("the block took %v, want the parent then the child", got)
	}
	var spends int
	err := c.db.QueryRowContext(t.Context(), `SELECT count(*) FROM tx_in i JOIN tx p ON p.id = i.tx_out_id
	  JOIN tx ch ON ch.id = i.tx_in_id WHERE p.hash = $1 AND ch.hash = $2 AND i.tx_out_index = 1`, hp, mustHex(t, hashC)).Scan(&spends)
	if err != nil || spends != 1 {
		t.Fatalf("the child's tx_in on the parent's change: %d (%v)", spends, err)
	}

	// The rollback removes the block: both wait again, in chain order,
	// and are gone from db-sync until the next block.
	if _, err := c.follower.Rollback(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	m := c.node.Mempool()
	if m.Len() != 2 || !m.Has(hashP) || !m.Has(hashC) || !slices.Equal(m.Pending()[0], rawP) {
		t.Fatalf("after the rollback the mempool holds %d transactions", m.Len())
	}
	var n int
	if err := c.db.QueryRowContext(t.Context(), `SELECT count(*) FROM tx WHERE hash = $1`, hp).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the rolled-back transaction is still in db-sync (%d, %v)", n, err)
	}
	ev = c.block(t)
	if got := included(ev); !slices.Equal(got, []string{hashP, hashC}) || m.Len() != 0 {
		t.Fatalf("after the rollback the next block took %v (mempool %d)", got, m.Len())
	}
}

// TestDemoNodeDropsExpired: a transaction whose TTL passes before a block
// takes it leaves the mempool without being written, as a node drops what
// it can no longer validate.
func TestDemoNodeDropsExpired(t *testing.T) {
	t.Parallel()
	c := newDemoChain(t, chaingen.Variant{Mode: chaingen.ModeCore})
	coins := c.coins(t, c.wallet.Address)
	to, _, _ := newBaseAddress(t, "expired")
	b := c.payment(t, coins[3], to, 2_000_000)
	b.ttl = c.tipSlot(t) + 5 // valid now; the next block is 20 slots on
	raw, hash := b.build(t)
	if err := c.send(t, raw); err != nil {
		t.Fatal(err)
	}
	ev := c.block(t)
	if len(included(ev)) != 0 || c.node.Mempool().Has(hash) {
		t.Fatalf("an expired transaction was kept or written: %v", included(ev))
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
