package demonode_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/node/demonode"
)

// payment is an ADA payment from the demo wallet's coin to addr, the
// change back to the wallet, signed by its key, with the minimum fee.
func (c *demoChain) payment(t *testing.T, from coin, to string, amount uint64) testTx {
	t.Helper()
	return testTx{
		ins:      []demonode.Input{from.in},
		outs:     []testOut{{addr: to, coin: amount}, {addr: c.wallet.Address, coin: from.value - amount}},
		ttl:      c.tipSlot(t) + 100_000,
		signWith: []ed25519.PrivateKey{c.key},
	}.withFee(t, 1, 0)
}

// TestDemoNodeRefuses: each refusal reaches syncgate's node client as a
// readable reason naming the ledger rule (or what the demo node does not
// take), and leaves the mempool as it was.
func TestDemoNodeRefuses(t *testing.T) {
	t.Parallel()
	c := newDemoChain(t, chaingen.Variant{Mode: chaingen.ModeCore})
	coins := c.coins(t, c.wallet.Address) // 1000, 500, 250, 100, 50 and 5 ADA (the token)
	to, _, _ := newBaseAddress(t, "refusals")
	other := ed25519.NewKeyFromSeed(make([]byte, 32))
	refused := func(name string, raw []byte, want ...string) {
		t.Helper()
		before := c.node.Mempool().Len()
		reason := rejection(t, c.send(t, raw))
		for _, w := range want {
			if !strings.Contains(reason, w) {
				t.Errorf("%s: reason %q lacks %q", name, reason, w)
			}
		}
		if c.node.Mempool().Len() != before {
			t.Errorf("%s: the mempool changed", name)
		}
	}

	// An input no transaction created: BadInputsUTxO naming it.
	unknown := coin{in: demonode.Input{TxHash: [32]byte{0xab, 0xcd}, Index: 3}, value: 100_000_000}
	raw, _ := c.payment(t, unknown, to, 2_000_000).build(t)
	refused("unknown input", raw, "ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'abcd0000", "', 3]])))")

	// A spent input: the first payment is accepted and confirmed, the
	// second spends its input again.
	first, _ := c.payment(t, coins[0], to, 5_000_000).build(t)
	if err := c.send(t, first); err != nil {
		t.Fatal(err)
	}
	// Against the mempool: another transaction spending the same output
	// while the first waits.
	dbl, _ := c.payment(t, coins[0], to, 7_000_000).build(t)
	refused("double spend against the mempool", dbl, "BadInputsUTxO", hex.EncodeToString(coins[0].in.TxHash[:]))
	// The same transaction again: its inputs are spent by itself.
	refused("resubmitted", first, "BadInputsUTxO")
	c.block(t)
	refused("spent input", dbl, "BadInputsUTxO", hex.EncodeToString(coins[0].in.TxHash[:]))

	// A signature of other bytes: InvalidWitnessesUTXOW; and with only
	// another key: MissingVKeyWitnessesUTXOW naming the wallet's key hash.
	b := c.payment(t, coins[1], to, 2_000_000)
	b.forgeSig = true
	raw, _ = b.build(t)
	refused("bad signature", raw, "InvalidWitnessesUTXOW", "MissingVKeyWitnessesUTXOW")
	b.forgeSig, b.signWith = false, []ed25519.PrivateKey{other}
	raw, _ = b.build(t)
	refused("missing witness", raw, "ConwayUtxowFailure (MissingVKeyWitnessesUTXOW 258([h'"+c.wallet.PaymentKeyHash+"']))")

	// More out than in, a fee below the minimum, a passed TTL, an output
	// of another network, metadata under another hash.
	b = c.payment(t, coins[1], to, 2_000_000)
	b.outs[0].coin++
	raw, _ = b.build(t)
	refused("value not conserved", raw, "ValueNotConservedUTxO")
	b = c.payment(t, coins[1], to, 2_000_000)
	b.fee -= 1000
	b.outs[1].coin += 1000
	raw, _ = b.build(t)
	refused("fee too small", raw, "FeeTooSmallUTxO")
	b = c.payment(t, coins[1], to, 2_000_000)
	b.ttl = c.tipSlot(t)
	raw, _ = b.build(t)
	refused("expired", raw, "OutsideValidityIntervalUTxO")
	b = c.payment(t, coins[1], "addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz", 2_000_000)
	raw, _ = b.build(t)
	refused("wrong network", raw, "WrongNetwork")
	b = c.payment(t, coins[1], to, 2_000_000)
	b.meta, b.badHash = map[uint64]any{674: "hi"}, true
	raw, _ = b.build(t)
	refused("metadata hash", raw, "ConflictingMetadataHash")
	b.meta, b.badHash = map[uint64]any{674: strings.Repeat("x", 65)}, false
	raw, _ = b.build(t)
	refused("long metadata string", raw, "InvalidMetadata")

	// What the demo node cannot write: minting, certificates.
	b = c.payment(t, coins[1], to, 2_000_000)
	b.extra = map[uint64]any{9: map[[28]byte]map[cbor.ByteString]int64{c.policy: {"X": 1}}}
	raw, _ = b.build(t)
	refused("minting", raw, "the demo node does not support transactions with minting (body field 9)")
	b.extra = map[uint64]any{4: []any{[]any{0, []any{0, make([]byte, 28)}}}}
	raw, _ = b.build(t)
	refused("certificates", raw, "does not support transactions with certificates")

	// And a good one still passes.
	raw, _ = c.payment(t, coins[1], to, 2_000_000).build(t)
	if err := c.send(t, raw); err != nil {
		t.Fatalf("a valid payment after the refusals: %v", err)
	}
}
