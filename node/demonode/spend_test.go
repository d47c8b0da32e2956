package demonode_test

import (
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger/conway"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// TestDemoFollowerSpendsSubmitted: an output a submitted transaction pays
// to an address the follower spends from is spent by the follower's own
// traffic later, and that transaction's CBOR (tx_cbor) names the
// submitted transaction's hash for the input, as a real one would.
func TestDemoFollowerSpendsSubmitted(t *testing.T) {
	t.Parallel()
	c := newDemoChain(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx := t.Context()
	to, _, _ := newBaseAddress(t, "spent by the follower")
	raw, hash := c.payment(t, c.coins(t, c.wallet.Address)[0], to, 400_000_000).build(t)
	if err := c.send(t, raw); err != nil {
		t.Fatal(err)
	}
	// A follower whose traffic spends from the receiver only (it holds
	// nothing until the submitted transaction's block).
	f, err := chaingen.NewFollower(ctx, c.db, chaingen.FollowOptions{Addresses: []string{to}, Submitted: c.node.Mempool(),
		SlotsPerBlock: 20, TxsPerBlock: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	h := mustHex(t, hash)
	for i := 0; i < 20; i++ {
		if _, err := f.AppendBlock(ctx); err != nil {
			t.Fatal(err)
		}
		var cborBytes []byte
		err := c.db.QueryRowContext(ctx, `SELECT c.bytes FROM tx_in i JOIN tx p ON p.id = i.tx_out_id
		  JOIN tx_cbor c ON c.tx_id = i.tx_in_id WHERE p.hash = $1 AND i.tx_out_index = 0`, h).Scan(&cborBytes)
		if err != nil {
			continue // not spent yet
		}
		spender, err := conway.NewConwayTransactionFromCbor(cborBytes)
		if err != nil {
			t.Fatalf("the spending transaction's CBOR: %v", err)
		}
		var names []string
		for _, in := range spender.Inputs() {
			if in.Id().String() == hash && in.Index() == 0 {
				return
			}
			names = append(names, in.String())
		}
		t.Fatalf("the spending transaction's CBOR names inputs %v, not %s#0", names, hash)
	}
	t.Fatal("the follower never spent the submitted transaction's output")
}
