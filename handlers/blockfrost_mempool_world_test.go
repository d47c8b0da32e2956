package handlers

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/node"
)

// chainOut is an output of the seeded chain, read with this test's SQL.
type chainOut struct {
	Hash     string `db:"hash"`
	Index    uint32 `db:"index"`
	Address  string `db:"address"`
	Lovelace int64  `db:"lovelace"`
}

func (o chainOut) input() node.Input { return node.Input{TxHash: o.Hash, Index: o.Index} }

// mempoolWorld is a mempool over a seeded chain: three test transactions
// (a spends outputs of x, pays y and z; b spends a's first output and an
// output nobody knows, pays z; c fails its script, pays z) after the
// vectors, and what the test knows of each.
type mempoolWorld struct {
	x          []chainOut // x's outputs: a's two inputs
	y, z       string
	yOut, zOut chainOut // outputs of y and z: a's collateral and reference inputs
	keyDeposit *big.Int
	poolDep    *big.Int
	regPool    string // a pool the chain registered (hex)
	a, b, c    synthTx
	vectors    []*node.Tx
	all        [][]byte // the mempool, in order
	hashes     []string // its hashes, in order
}

func newMempoolWorld(t *testing.T, c *testChain) mempoolWorld {
	t.Helper()
	var w mempoolWorld
	var addrs []string
	if err := c.raw.Select(&addrs, `SELECT address FROM tx_out WHERE address LIKE 'addr1q%'
		GROUP BY address HAVING count(*) >= 2 ORDER BY count(*), address LIMIT 3`); err != nil || len(addrs) != 3 {
		t.Fatalf("three base addresses with 2 outputs: %v %v", addrs, err)
	}
	if err := c.raw.Select(&w.x, `SELECT encode(t.hash, 'hex') AS hash, o.index, o.address, o.value AS lovelace
		FROM tx_out o JOIN tx t ON t.id = o.tx_id WHERE o.address = $1 ORDER BY o.id LIMIT 2`, addrs[0]); err != nil {
		t.Fatal(err)
	}
	w.y, w.z = addrs[1], addrs[2]
	for _, o := range []*chainOut{&w.yOut, &w.zOut} {
		addr := w.y
		if o == &w.zOut {
			addr = w.z
		}
		if err := c.raw.Get(o, `SELECT encode(t.hash, 'hex') AS hash, o.index, o.address, o.value AS lovelace
			FROM tx_out o JOIN tx t ON t.id = o.tx_id WHERE o.address = $1 ORDER BY o.id LIMIT 1`, addr); err != nil {
			t.Fatal(err)
		}
	}
	var dep struct{ Key, Pool string }
	if err := c.raw.QueryRow(`SELECT key_deposit::text, pool_deposit::text FROM epoch_param ORDER BY epoch_no DESC LIMIT 1`).Scan(&dep.Key, &dep.Pool); err != nil {
		t.Fatal(err)
	}
	w.keyDeposit, _ = new(big.Int).SetString(dep.Key, 10)
	w.poolDep, _ = new(big.Int).SetString(dep.Pool, 10)
	if err := c.raw.Get(&w.regPool, `SELECT encode(ph.hash_raw, 'hex') FROM pool_hash ph
		WHERE EXISTS (SELECT 1 FROM pool_update pu WHERE pu.hash_id = ph.id) ORDER BY ph.id LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	cred := func(b byte) []any { return []any{0, slices.Repeat([]byte{b}, 28)} }
	pool := slices.Repeat([]byte{0x99}, 28)
	ttl, start := uint64(200_000_000), uint64(0)
	w.a = synthTx{
		ins: []node.Input{w.x[0].input(), w.x[1].input()}, collateral: []node.Input{w.yOut.input()}, refs: []node.Input{w.zOut.input()},
		outs: []synthOut{
			{addr: w.y, lovelace: 5_000_000, assets: map[string]map[string]uint64{strings.Repeat("ab", 28): {"746f6b": 7}},
				inlineDatum: []byte{0x18, 0x2a}, scriptRef: []byte{0x82, 0x00, 0x82, 0x01, 0x80}},
			{addr: w.z, lovelace: 1_234_567},
		},
		collateralReturn: &synthOut{addr: w.x[0].Address, lovelace: 1_000_000},
		fee:              200_000, donation: 1_000, ttl: &ttl, start: &start,
		withdrawals: map[string]uint64{"e1" + strings.Repeat("11", 28): 3_000_000},
		certs: []any{[]any{0, cred(1)}, []any{7, cred(2), 2_000_000}, []any{2, cred(1), pool},
			[]any{11, cred(3), pool, 2_000_000}},
		redeemers: [][2]uint64{{0, 0}, {1, 0}},
	}
	aHash := w.a.tx(t).Hash
	regPool := mustHex(t, w.regPool)
	w.b = synthTx{
		ins:  []node.Input{{TxHash: aHash, Index: 0}, {TxHash: strings.Repeat("ee", 32), Index: 3}},
		outs: []synthOut{{addr: w.z, lovelace: 4_000_000}}, fee: 170_000,
		certs: []any{[]any{0, cred(4)}, []any{8, cred(5), 2_000_000}, []any{17, cred(6), 500_000_000},
			[]any{16, cred(7), 500_000_000, nil},
			[]any{3, regPool, slices.Repeat([]byte{1}, 32), 1, 340_000_000, cborRational{1, 100},
				append([]byte{0xe1}, slices.Repeat([]byte{2}, 28)...), []any{slices.Repeat([]byte{3}, 28)}, []any{}, nil}},
	}
	w.c = synthTx{ins: []node.Input{{TxHash: strings.Repeat("dd", 32), Index: 0}}, collateral: []node.Input{w.yOut.input()},
		outs: []synthOut{{addr: w.z, lovelace: 2_000_000}}, fee: 300_000, invalid: true, redeemers: [][2]uint64{{0, 0}}}
	w.vectors = vectorTxs(t)
	for _, tx := range w.vectors {
		w.all = append(w.all, tx.CBOR)
		w.hashes = append(w.hashes, tx.Hash)
	}
	for _, s := range []synthTx{w.a, w.b, w.c} {
		tx := s.tx(t)
		w.all = append(w.all, tx.CBOR)
		w.hashes = append(w.hashes, tx.Hash)
	}
	return w
}
