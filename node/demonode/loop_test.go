package demonode_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"testing"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/demonode"
)

func TestDemoLoopCore(t *testing.T) {
	t.Parallel()
	testDemoLoop(t, chaingen.Variant{Mode: chaingen.ModeCore})
}

func TestDemoLoopConsumed(t *testing.T) {
	t.Parallel()
	testDemoLoop(t, chaingen.Variant{Mode: chaingen.ModeConsumed})
}

// testDemoLoop is the whole loop a wallet runs against the demo: a
// transaction built and signed from the demo wallet (ADA, the demo token
// and metadata to a new base address), submitted through syncgate's node
// client, listed by LocalTxMonitor, then written by the follower into its
// next block as db-sync writes it, checked row by row with SQL.
func testDemoLoop(t *testing.T, v chaingen.Variant) {
	c := newDemoChain(t, v)
	ctx := t.Context()
	if c.wallet.UTxOs != 6 || c.wallet.FundingTx == "" || c.manifest.DemoWallet != c.wallet {
		t.Fatalf("demo wallet: %+v", c.wallet)
	}
	coins := c.coins(t, c.wallet.Address)
	if len(coins) != 6 || coins[0].value != 1000_000_000 {
		t.Fatalf("the demo wallet holds %+v, want its six funded outputs", coins)
	}
	var ada, tok coin
	for _, k := range coins {
		if k.tokens > 0 {
			tok = k
		} else if ada.value == 0 {
			ada = k
		}
	}
	if tok.tokens != 1_000_000 {
		t.Fatalf("token output: %+v", tok)
	}

	to, toPay, toStake := newBaseAddress(t, "receiver")
	pkh, _ := hex.DecodeString(c.wallet.PaymentKeyHash)
	b := testTx{
		ins: []demonode.Input{ada.in, tok.in},
		outs: []testOut{
			{addr: to, coin: 10_000_000, assets: map[[28]byte]map[string]uint64{c.policy: {"SGDEMO": 250}}},
			{addr: c.wallet.Address, coin: ada.value + tok.value - 10_000_000,
				assets: map[[28]byte]map[string]uint64{c.policy: {"SGDEMO": 999_750}}},
		},
		ttl:      c.tipSlot(t) + 100_000,
		meta:     map[uint64]any{674: map[string]any{"msg": []any{"hello from the demo wallet"}}, 1: []any{uint64(7), []byte{0xca, 0xfe}}},
		signers:  [][]byte{pkh},
		signWith: []ed25519.PrivateKey{c.key},
	}.withFee(t, 1, 0)
	raw, hash := b.build(t)
	if err := c.send(t, raw); err != nil {
		t.Fatalf("submit: %v", err)
	}

	// LocalTxMonitor lists it, with its outputs, as /v1/mempool reads it.
	pool := node.NewMempool(map[string]string{"mainnet": c.node.Socket()}, node.MempoolOptions{})
	snap, err := pool.Snapshot(ctx, mainnet)
	if err != nil {
		t.Fatal(err)
	}
	mt, ok := snap.Tx(hash)
	if !ok || snap.TxCount != 1 || len(mt.Outputs) != 2 || mt.Outputs[0].Address != to || snap.Slot != c.tipSlot(t)+1 {
		t.Fatalf("mempool snapshot: %+v (tx %+v)", snap, mt)
	}
	if _, spent := snap.SpentBy(node.Input{TxHash: hex.EncodeToString(ada.in.TxHash[:]), Index: ada.in.Index}); !spent {
		t.Fatal("the snapshot does not show the input spent")
	}

	ev := c.block(t)
	if len(ev.Txs) == 0 || ev.Txs[0].Hash != hash || !ev.Txs[0].Pending || ev.Txs[0].Fee != b.fee {
		t.Fatalf("the next block does not open with the transaction: %+v", ev.Txs)
	}
	if c.node.Mempool().Len() != 0 {
		t.Fatal("the transaction stayed in the mempool after its block")
	}
	checkWritten(t, c, v, ev, b, raw, hash, to, toPay, toStake)

	// The receiver's UTxO holds it (besides what the follower's own
	// traffic may have paid it since).
	found := false
	for _, k := range c.coins(t, to) {
		if hex.EncodeToString(k.in.TxHash[:]) == hash {
			found = k.in.Index == 0 && k.value == 10_000_000 && k.tokens == 250
		}
	}
	if !found {
		t.Fatalf("receiver's UTxOs %+v lack the transaction's output", c.coins(t, to))
	}
}

// checkWritten compares the block's rows for the transaction with what it
// carries, with SQL of the test's own.
func checkWritten(t *testing.T, c *demoChain, v chaingen.Variant, ev chaingen.FollowEvent, b testTx, raw []byte,
	hash, to string, toPay, toStake []byte) {
	t.Helper()
	ctx := t.Context()
	h, _ := hex.DecodeString(hash)
	var txID, blockID, size, blockIndex int64
	var fee, outSum, deposit uint64
	var before *int64
	var hereafter int64
	var valid bool
	err := c.db.QueryRowContext(ctx, `SELECT id, block_id, block_index, fee::bigint, out_sum::bigint, deposit, size,
	  invalid_before, invalid_hereafter, valid_contract FROM tx WHERE hash = $1`, h).
		Scan(&txID, &blockID, &blockIndex, &fee, &outSum, &deposit, &size, &before, &hereafter, &valid)
	if err != nil {
		t.Fatal(err)
	}
	if blockID != ev.Block.ID || blockIndex != 0 || fee != b.fee || outSum != b.outs[0].coin+b.outs[1].coin ||
		deposit != 0 || size != int64(len(raw)) || before != nil || hereafter != int64(b.ttl) || !valid {
		t.Fatalf("tx row: block %d index %d fee %d out_sum %d deposit %d size %d before %v hereafter %d valid %v",
			blockID, blockIndex, fee, outSum, deposit, size, before, hereafter, valid)
	}

	// tx_out: address, script flag, payment credential, stake address
	// (a new stake_address row for the receiver's new stake key), value.
	rows, err := c.db.QueryContext(ctx, `SELECT o.index, o.address, o.address_has_script, o.payment_cred,
	  sa.hash_raw, sa.view, o.value::bigint, o.consumed_by_tx_id
	FROM tx_out o LEFT JOIN stake_address sa ON sa.id = o.stake_address_id WHERE o.tx_id = $1 ORDER BY o.index`, txID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var idx int
		var addr string
		var script bool
		var pay, stakeRaw []byte
		var view *string
		var value uint64
		var consumed *int64
		if err := rows.Scan(&idx, &addr, &script, &pay, &stakeRaw, &view, &value, &consumed); err != nil {
			t.Fatal(err)
		}
		o := b.outs[idx]
		if addr != o.addr || script || value != o.coin || consumed != nil {
			t.Fatalf("tx_out %d: %s script %v value %d consumed %v", idx, addr, script, value, consumed)
		}
		if idx == 0 && (!bytes.Equal(pay, toPay) || !bytes.Equal(stakeRaw, toStake) || view == nil) {
			t.Fatalf("receiver's tx_out: payment_cred %x stake %x", pay, stakeRaw)
		}
		if idx == 1 && (hex.EncodeToString(pay) != c.wallet.PaymentKeyHash || stakeRaw != nil) {
			t.Fatalf("change tx_out: payment_cred %x stake %x (an enterprise address has none)", pay, stakeRaw)
		}
		n++
	}
	rows.Close()
	if n != 2 {
		t.Fatalf("%d tx_out rows", n)
	}
	var assets string
	err = c.db.QueryRowContext(ctx, `SELECT string_agg(o.index || ':' || encode(a.policy, 'hex') || '.' || encode(a.name, 'escape')
	  || '=' || m.quantity || ':' || a.fingerprint, ',' ORDER BY o.index)
	FROM ma_tx_out m JOIN tx_out o ON o.id = m.tx_out_id JOIN multi_asset a ON a.id = m.ident WHERE o.tx_id = $1`, txID).Scan(&assets)
	if err != nil {
		t.Fatal(err)
	}
	p := hex.EncodeToString(c.policy[:])
	want := "0:" + p + ".SGDEMO=250:" + c.wallet.Token.Fingerprint + ",1:" + p + ".SGDEMO=999750:" + c.wallet.Token.Fingerprint
	if assets != want {
		t.Fatalf("ma_tx_out: %s, want %s", assets, want)
	}

	// The inputs: tx_in rows (core) or consumed_by_tx_id (consumed).
	q := `SELECT count(*) FROM tx_in i JOIN tx t ON t.id = i.tx_out_id WHERE i.tx_in_id = $1 AND t.hash = ANY($2)`
	if v.Mode == chaingen.ModeConsumed {
		q = `SELECT count(*) FROM tx_out o JOIN tx t ON t.id = o.tx_id WHERE o.consumed_by_tx_id = $1 AND t.hash = ANY($2)`
	}
	var spent int
	if err := c.db.QueryRowContext(ctx, q, txID, pq.ByteaArray{b.ins[0].TxHash[:], b.ins[1].TxHash[:]}).Scan(&spent); err != nil {
		t.Fatal(err)
	}
	if spent != 2 {
		t.Fatalf("%d inputs recorded spent by the transaction, want 2", spent)
	}

	// tx_metadata: db-sync's JSON and the CBOR of {label: value}.
	rows, err = c.db.QueryContext(ctx, `SELECT key::bigint, json::text, bytes FROM tx_metadata WHERE tx_id = $1 ORDER BY id`, txID)
	if err != nil {
		t.Fatal(err)
	}
	var labels []uint64
	for rows.Next() {
		var key uint64
		var js string
		var bs []byte
		if err := rows.Scan(&key, &js, &bs); err != nil {
			t.Fatal(err)
		}
		labels = append(labels, key)
		wantJSON := map[uint64]string{1: `[7, "0xcafe"]`, 674: `{"msg": ["hello from the demo wallet"]}`}[key]
		if js != wantJSON || !bytes.Equal(bs, mustCBOR(t, map[uint64]any{key: b.meta[key]})) {
			t.Fatalf("tx_metadata %d: %s %x", key, js, bs)
		}
	}
	rows.Close()
	if len(labels) != 2 || labels[0] != 1 {
		t.Fatalf("tx_metadata labels %v", labels)
	}

	var cborBytes, witness []byte
	if err := c.db.QueryRowContext(ctx, `SELECT bytes FROM tx_cbor WHERE tx_id = $1`, txID).Scan(&cborBytes); err != nil {
		t.Fatal(err)
	}
	if err := c.db.QueryRowContext(ctx, `SELECT hash FROM extra_key_witness WHERE tx_id = $1`, txID).Scan(&witness); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cborBytes, raw) || hex.EncodeToString(witness) != c.wallet.PaymentKeyHash {
		t.Fatalf("tx_cbor %d bytes, extra_key_witness %x", len(cborBytes), witness)
	}
}

// TestDemoLoopAddressTable: with tx_out.use_address_table the follower
// writes a new receiver's address row (with its payment credential and new
// stake address) and the outputs point at it.
func TestDemoLoopAddressTable(t *testing.T) {
	t.Parallel()
	c := newDemoChain(t, chaingen.Variant{Mode: chaingen.ModeCore, AddressTable: true})
	coins := c.coins(t, c.wallet.Address)
	if len(coins) != 6 {
		t.Fatalf("the demo wallet holds %d outputs", len(coins))
	}
	to, toPay, toStake := newBaseAddress(t, "address table")
	raw, hash := c.payment(t, coins[0], to, 12_000_000).build(t)
	if err := c.send(t, raw); err != nil {
		t.Fatal(err)
	}
	if ev := c.block(t); len(ev.Txs) == 0 || ev.Txs[0].Hash != hash {
		t.Fatalf("the block did not take the transaction: %+v", ev.Txs)
	}
	var value uint64
	var pay, stake []byte
	err := c.db.QueryRowContext(t.Context(), `SELECT o.value::bigint, a.payment_cred, sa.hash_raw
	FROM tx t JOIN tx_out o ON o.tx_id = t.id AND o.index = 0 JOIN address a ON a.id = o.address_id
	JOIN stake_address sa ON sa.id = a.stake_address_id AND sa.id = o.stake_address_id
	WHERE t.hash = $1 AND a.address = $2`, mustHex(t, hash), to).Scan(&value, &pay, &stake)
	if err != nil || value != 12_000_000 || !bytes.Equal(pay, toPay) || !bytes.Equal(stake, toStake) {
		t.Fatalf("receiver's output: %d %x %x (%v)", value, pay, stake, err)
	}
	if got := c.coins(t, c.wallet.Address); len(got) != 6 { // five left and the change
		t.Fatalf("the demo wallet holds %d outputs after paying", len(got))
	}
}
