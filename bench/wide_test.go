package main

import (
	"bytes"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/sql"
)

// The address encoding is CIP-19's: its test vectors' key hashes give its
// type-0 base addresses and type-14 stake addresses, on both networks.
func TestBaseIdentityCIP19Vectors(t *testing.T) {
	keyHash := func(vk string) []byte {
		_, data, err := bech32.DecodeNoLimit(vk)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bech32.ConvertBits(data, 5, 8, false)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := blake2b.New(28, nil)
		h.Write(b)
		return h.Sum(nil)
	}
	pay := keyHash("addr_vk1w0l2sr2zgfm26ztc6nl9xy8ghsk5sh6ldwemlpmp9xylzy4dtf7st80zhd")
	stake := keyHash("stake_vk1px4j0r2fk7ux5p23shz8f3y5y2qam7s954rgf3lg5merqcj6aetsft99wu")
	for _, c := range []struct {
		mainnet        bool
		address, stake string
		header         byte
	}{
		{true, "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x",
			"stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw", 0xe1},
		{false, "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae",
			"stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn", 0xe0},
	} {
		id, err := baseIdentity(c.mainnet, pay, stake)
		if err != nil {
			t.Fatal(err)
		}
		if id.Address != c.address || id.StakeView != c.stake {
			t.Errorf("mainnet=%v: %s %s, want %s %s", c.mainnet, id.Address, id.StakeView, c.address, c.stake)
		}
		if want := append([]byte{c.header}, stake...); !bytes.Equal(id.StakeRaw, want) {
			t.Errorf("mainnet=%v: hash_raw %x, want %x", c.mainnet, id.StakeRaw, want)
		}
		if !bytes.Equal(id.PaymentCred, pay) {
			t.Errorf("payment_cred %x, want %x", id.PaymentCred, pay)
		}
	}
	// The wide address is such an address, and the service accepts it.
	id, err := wideIdentityFor(true)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := cardano.ParseAddress(id.Address, true); err != nil || a.String() != id.Address {
		t.Errorf("ParseAddress(%s) = %v, %v", id.Address, a, err)
	}
	if _, err := cardano.ParseStakeKey(id.StakeView, true); err != nil {
		t.Errorf("ParseStakeKey(%s): %v", id.StakeView, err)
	}
	if !strings.HasPrefix(id.Address, "addr1q") || !strings.HasPrefix(id.StakeView, "stake1u") {
		t.Errorf("wide address %s, stake key %s: not a key-hash base address and stake key", id.Address, id.StakeView)
	}
}

// Each shape's outputs fill transactions of PerTx (the last one the rest)
// and those blocks of PerBlock; each transaction adds one change output
// after its wide ones; sums add up; hashes are fresh.
func TestPlanWide(t *testing.T) {
	for _, c := range []struct {
		n                          int
		s                          wideShape
		txs, blocks, lastTx, lastB int
	}{
		{1, wideDefaultShape, 1, 1, 1, 1},
		{50, wideDefaultShape, 50, 1, 1, 50},
		{1001, wideDefaultShape, 1001, 21, 1, 1},
		{1000, wideShape{200, 1_000_000}, 5, 1, 200, 5},
		{1001, wideShape{200, 2}, 6, 3, 1, 2},
	} {
		p := planWide(c.n, c.s)
		if p.txs != c.txs || p.blocks != c.blocks || len(p.hashes) != c.txs || len(p.blockHashes) != c.blocks || len(p.value) != c.n {
			t.Fatalf("n=%d %+v: %d txs (%d hashes) in %d blocks (%d hashes), %d outputs; want %d txs, %d blocks",
				c.n, c.s, p.txs, len(p.hashes), p.blocks, len(p.blockHashes), len(p.value), c.txs, c.blocks)
		}
		perTx := slices.Clone(p.changeValue)
		count := make([]int, p.txs)
		var total int64
		for i, v := range p.value {
			if v < 1_000_000 || v >= 10_000_000 {
				t.Errorf("n=%d: output %d holds %d lovelace", c.n, i, v)
			}
			perTx[p.outTx[i]] += v
			if int(p.index[i]) != count[p.outTx[i]] {
				t.Errorf("n=%d: output %d has index %d, want %d", c.n, i, p.index[i], count[p.outTx[i]])
			}
			count[p.outTx[i]]++
			total += v
		}
		if !slices.Equal(perTx, p.outSum) || total != p.lovelace || count[p.txs-1] != c.lastTx {
			t.Errorf("n=%d: out sums %v vs %v, total %d vs %d, last tx %d outputs", c.n, perTx, p.outSum, total, p.lovelace, count[p.txs-1])
		}
		inBlock := make([]int64, p.blocks)
		for tx, b := range p.txBlock {
			if int(p.changeIndex[tx]) != count[tx] || p.txIndex[tx] != int32(inBlock[b]) || (tx > 0 && b < p.txBlock[tx-1]) {
				t.Errorf("n=%d: tx %d: change index %d after %d outputs, block %d index %d", c.n, tx, p.changeIndex[tx], count[tx], b, p.txIndex[tx])
			}
			inBlock[b]++
		}
		if !slices.Equal(inBlock, p.blockTxs) || inBlock[p.blocks-1] != int64(c.lastB) {
			t.Errorf("n=%d: block tx counts %v, planned %v, want %d in the last", c.n, inBlock, p.blockTxs, c.lastB)
		}
		for _, hs := range [][][]byte{p.hashes, p.blockHashes} {
			for i, h := range hs {
				if len(h) != 32 || slices.ContainsFunc(hs[:i], func(o []byte) bool { return bytes.Equal(o, h) }) {
					t.Errorf("n=%d: hash %d %x is not a fresh 32-byte hash", c.n, i, h)
				}
			}
		}
	}
	if p := planWide(1000, wideDefaultShape); slices.Min(p.value) == slices.Max(p.value) {
		t.Error("every output holds the same amount")
	}
}

func TestWideSupported(t *testing.T) {
	core := dbsync.Capabilities{Variant: "core", TxInPopulated: true, UTxOMode: dbsync.ModeCore}
	consumed := dbsync.Capabilities{Variant: "core", HasConsumedColumn: true, ConsumedPopulated: true, UTxOMode: dbsync.ModeConsumed}
	for _, c := range []struct {
		name string
		caps dbsync.Capabilities
		m    chaingen.Manifest
		ok   bool
	}{
		{"core", core, chaingen.Manifest{Mode: chaingen.ModeCore, Schema: chaingen.Schema137}, true},
		{"consumed", consumed, chaingen.Manifest{Mode: chaingen.ModeConsumed, Schema: chaingen.Schema137}, true},
		{"manifest without a mode", consumed, chaingen.Manifest{}, true},
		{"address table", dbsync.Capabilities{Variant: "address", UTxOMode: dbsync.ModeCore}, chaingen.Manifest{Mode: chaingen.ModeCore}, false},
		{"address table per manifest", core, chaingen.Manifest{Mode: chaingen.ModeCore, AddressTable: true}, false},
		{"prune", dbsync.Capabilities{Variant: "core", ConsumedPopulated: true, Pruned: true, UTxOMode: dbsync.ModeConsumed},
			chaingen.Manifest{Mode: chaingen.ModePrune}, false},
		{"disable", dbsync.Capabilities{Variant: "core", NoOutputs: true, UTxOMode: dbsync.ModeCore}, chaingen.Manifest{Mode: chaingen.ModeDisable}, false},
		{"13.6", core, chaingen.Manifest{Mode: chaingen.ModeCore, Schema: chaingen.Schema136}, false},
		{"manifest of another mode", core, chaingen.Manifest{Mode: chaingen.ModeConsumed}, false},
	} {
		err := wideSupported(c.caps, &c.m)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

// Every bench statement file is loaded (the service's test of the same
// does not see them).
func TestBenchSQLUsed(t *testing.T) {
	if unused := sqlfiles.BenchUnused(); len(unused) > 0 {
		t.Errorf("bench SQL nothing loads: %v", unused)
	}
}

// TestAddWide adds 1,000 outputs to a small seeded chain in each supported
// layout: the store lists and sums exactly those for the address and the
// stake key, the rows are db-sync's, the manifest copy names them, and
// adding again adds nothing.
func TestAddWide(t *testing.T) {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		t.Run(string(mode), func(t *testing.T) { testAddWide(t, mode) })
	}
}

func testAddWide(t *testing.T, mode chaingen.Mode) {
	testdb.RequirePostgres(t)
	ctx := t.Context()
	dsn, drop, err := testdb.Create("sg_wide_test_" + string(mode))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	m, err := chaingen.Seed(ctx, dsn, chaingen.Options{Txs: 3000, Seed: 42, Mode: mode, TipTime: testdb.FixedTipTime})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "m.json"), filepath.Join(dir, "wide.json")
	if err := m.WriteFile(in); err != nil {
		t.Fatal(err)
	}
	sqlDB := testdb.Open(t, dsn)
	var oldTipID int64
	if err := sqlDB.Get(&oldTipID, `SELECT id FROM block WHERE hash = decode($1, 'hex')`, m.Tip.BlockHash); err != nil {
		t.Fatal(err)
	}

	// 1,000 outputs in the default shape: 1,000 transactions of one wide
	// output and one change output, in 20 blocks of 50.
	const n, txs, blocks = 1000, 1000, 20
	if err := addWide(ctx, dsn, in, out, n); err != nil {
		t.Fatal(err)
	}
	w, err := chaingen.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := wideIdentityFor(true)
	changeAddr, changeCred, _ := wideChangeFor(true)
	if w.WideAddress == nil || w.WideStakeKey == nil {
		t.Fatalf("the manifest copy names no wide address: %+v %+v", w.WideAddress, w.WideStakeKey)
	}
	if *w.WideAddress != (chaingen.AddressRef{Address: id.Address, TxCount: txs, StakeAddress: id.StakeView, UTxOs: n}) ||
		*w.WideStakeKey != (chaingen.StakeRef{StakeAddress: id.StakeView, UTxOs: n}) {
		t.Errorf("wide address %+v, stake key %+v", *w.WideAddress, *w.WideStakeKey)
	}
	if w.Tip.BlockNo != m.Tip.BlockNo+blocks || w.Tip.Slot != m.Tip.Slot+blocks*wideSlotGap ||
		!w.Tip.Time.Equal(m.Tip.Time.Add(blocks*wideSlotGap*time.Second)) || w.Tip.Epoch != m.Tip.Epoch || w.Tip.BlockHash == m.Tip.BlockHash {
		t.Errorf("tip %+v after %+v", w.Tip, m.Tip)
	}
	if w.Counts.Txs != m.Counts.Txs+txs || w.Counts.TxOut != m.Counts.TxOut+n+txs || w.Counts.Outputs != m.Counts.Outputs+n+txs ||
		w.Counts.Blocks != m.Counts.Blocks+blocks || w.Counts.StakeAddresses != m.Counts.StakeAddresses+1 {
		t.Errorf("counts %+v after %+v", w.Counts, m.Counts)
	}

	// The rows, as db-sync writes them: blocks chaining from the old tip,
	// 20 slots (seconds) apart, in its epoch, each holding 50 transactions.
	type blockRow struct {
		ID, PreviousID, BlockNo, SlotNo, EpochNo, EpochSlotNo, TxCount, Txs, Size int64
		Hash                                                                      string
		Time                                                                      time.Time
	}
	var bs []blockRow
	if err := sqlDB.Select(&bs, `SELECT b.id, b.previous_id AS previousid, b.block_no AS blockno, b.slot_no AS slotno,
		b.epoch_no AS epochno, b.epoch_slot_no AS epochslotno, b.tx_count AS txcount, b.size, encode(b.hash, 'hex') AS hash, b.time,
		(SELECT count(*) FROM tx WHERE tx.block_id = b.id) AS txs
		FROM block b WHERE b.block_no > $1 ORDER BY b.block_no`, m.Tip.BlockNo); err != nil {
		t.Fatal(err)
	}
	if len(bs) != blocks {
		t.Fatalf("%d blocks after the old tip, want %d", len(bs), blocks)
	}
	var oldTip blockRow
	if err := sqlDB.Get(&oldTip, `SELECT id, slot_no AS slotno, epoch_slot_no AS epochslotno, block_no AS blockno FROM block WHERE id = $1`, oldTipID); err != nil {
		t.Fatal(err)
	}
	prev := oldTip
	for i, b := range bs {
		gap := int64(i+1) * wideSlotGap
		if b.PreviousID != prev.ID || b.BlockNo != prev.BlockNo+1 || b.SlotNo != oldTip.SlotNo+gap || b.EpochSlotNo != oldTip.EpochSlotNo+gap ||
			b.EpochNo != int64(m.Tip.Epoch) || !b.Time.Equal(m.Tip.Time.Add(time.Duration(gap)*time.Second)) ||
			b.TxCount != 50 || b.Txs != 50 || b.Size <= 50*190 {
			t.Errorf("block %d: %+v after %+v", i, b, prev)
		}
		prev = b
	}
	if last := bs[blocks-1]; last.Hash != w.Tip.BlockHash || last.SlotNo != int64(w.Tip.Slot) {
		t.Errorf("last block %+v, manifest tip %+v", last, w.Tip)
	}
	var bad int
	if err := sqlDB.Get(&bad, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id WHERE b.block_no > $1 AND
		(length(t.hash) <> 32 OR t.fee <= 0 OR t.size <= 0 OR t.block_index >= 50 OR t.invalid_hereafter <= b.slot_no
		 OR t.out_sum <> (SELECT sum(o.value) FROM tx_out o WHERE o.tx_id = t.id)
		 OR (SELECT count(*) FROM tx_out o WHERE o.tx_id = t.id) <> 2)`, m.Tip.BlockNo); err != nil || bad != 0 {
		t.Errorf("%d transactions of the wide blocks break db-sync's rules or do not hold 2 outputs (%v)", bad, err)
	}
	// Output 0 of each pays the wide address, output 1 the change address.
	if err := sqlDB.Get(&bad, `SELECT count(*) FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
		WHERE b.block_no > $1 AND (o.address_has_script OR o.consumed_by_tx_id IS NOT NULL OR o.data_hash IS NOT NULL
		 OR EXISTS (SELECT 1 FROM ma_tx_out ma WHERE ma.tx_out_id = o.id)
		 OR (o.index = 0 AND (o.address <> $2 OR o.payment_cred <> $3 OR o.stake_address_id IS DISTINCT FROM
		     (SELECT id FROM stake_address WHERE view = $4 AND hash_raw = $5)))
		 OR (o.index = 1 AND (o.address <> $6 OR o.payment_cred <> $7 OR o.stake_address_id IS NOT NULL))
		 OR o.index > 1)`,
		m.Tip.BlockNo, id.Address, id.PaymentCred, id.StakeView, id.StakeRaw, changeAddr, changeCred); err != nil || bad != 0 {
		t.Errorf("%d outputs of the wide blocks are not plain lovelace to the wide address or its change (%v)", bad, err)
	}
	if changeAddr == id.Address || !strings.HasPrefix(changeAddr, "addr1v") {
		t.Errorf("change address %s: not a fresh enterprise address", changeAddr)
	}
	// The wide address's outputs: n, in n transactions, across the blocks.
	var spread struct{ Outs, Txs, Blocks int64 }
	if err := sqlDB.Get(&spread, `SELECT count(*) AS outs, count(DISTINCT o.tx_id) AS txs, count(DISTINCT t.block_id) AS blocks
		FROM tx_out o JOIN tx t ON t.id = o.tx_id WHERE o.address = $1`, id.Address); err != nil ||
		spread.Outs != n || spread.Txs != txs || spread.Blocks != blocks {
		t.Errorf("the wide address's outputs: %+v (%v), want %d in %d transactions in %d blocks", spread, err, n, txs, blocks)
	}

	// The store's answers: exactly n outputs and their lovelace, for the
	// address and for the stake key.
	store := testdb.MustOpenDBSync(t, dsn)
	if tip, err := store.Tip(ctx); err != nil || tip.BlockHash != w.Tip.BlockHash {
		t.Errorf("store tip %+v (%v), manifest %s", tip, err, w.Tip.BlockHash)
	}
	wantSum := big.NewInt(planWide(n, wideDefaultShape).lovelace)
	newBlocks := map[string]bool{}
	for _, b := range bs {
		newBlocks[b.Hash] = true
	}
	addr, err := cardano.ParseAddress(w.WideAddress.Address, true)
	if err != nil {
		t.Fatal(err)
	}
	key, err := cardano.ParseStakeKey(w.WideStakeKey.StakeAddress, true)
	if err != nil {
		t.Fatal(err)
	}
	checkList := func(what string, us []dbsync.UTxO, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sum, seen, txSeen, blockSeen := new(big.Int), map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, u := range us {
			sum.Add(sum, u.Value.Lovelace)
			seen[fmt.Sprintf("%s#%d", u.TxHash, u.OutputIndex)] = true
			txSeen[u.TxHash], blockSeen[u.BlockHash] = true, true
			if u.Address != id.Address || len(u.Value.Assets) != 0 || !newBlocks[u.BlockHash] || u.OutputIndex != 0 {
				t.Fatalf("%s: %+v", what, u)
			}
		}
		if len(us) != n || len(seen) != n || len(txSeen) != txs || len(blockSeen) != blocks || sum.Cmp(wantSum) != 0 {
			t.Errorf("%s: %d outputs (%d distinct, in %d transactions, %d blocks), %s lovelace; want %d, %s",
				what, len(us), len(seen), len(txSeen), len(blockSeen), sum, n, wantSum)
		}
	}
	us, err := store.UTxOsByAddress(ctx, addr)
	checkList("UTxOs by address", us, err)
	us, err = store.UTxOsByStake(ctx, key)
	checkList("UTxOs by stake key", us, err)
	for what, read := range map[string]func() (dbsync.Value, error){
		"balance by address":   func() (dbsync.Value, error) { return store.BalanceByAddress(ctx, addr) },
		"balance by stake key": func() (dbsync.Value, error) { return store.BalanceByStake(ctx, key) },
	} {
		v, err := read()
		if err != nil || v.Lovelace.Cmp(wantSum) != 0 || len(v.Assets) != 0 {
			t.Errorf("%s: %v %v (%v), want %s lovelace", what, v.Lovelace, v.Assets, err, wantSum)
		}
	}

	// Again, from the first manifest or from the copy: nothing is added
	// and the same copy is written.
	countRows := func() (blockRows, outs int64) {
		t.Helper()
		if err := sqlDB.QueryRow(`SELECT (SELECT count(*) FROM block), (SELECT count(*) FROM tx_out)`).Scan(&blockRows, &outs); err != nil {
			t.Fatal(err)
		}
		return blockRows, outs
	}
	blockRows, outs := countRows()
	first, _ := os.ReadFile(out)
	for _, from := range []string{in, out} {
		again := filepath.Join(dir, "again.json")
		if err := addWide(ctx, dsn, from, again, n); err != nil {
			t.Fatalf("again from %s: %v", filepath.Base(from), err)
		}
		if b, _ := os.ReadFile(again); !bytes.Equal(b, first) {
			t.Errorf("again from %s: another manifest copy:\n%s", filepath.Base(from), b)
		}
		if b, o := countRows(); b != blockRows || o != outs {
			t.Errorf("again from %s: %d blockRows, %d outputs; were %d, %d", filepath.Base(from), b, o, blockRows, outs)
		}
	}
	if us, err := store.UTxOsByStake(ctx, key); err != nil || len(us) != n {
		t.Errorf("after adding again: %d outputs (%v)", len(us), err)
	}
	// Refused: another size, another shape, a manifest of another chain.
	if err := addWide(ctx, dsn, in, filepath.Join(dir, "x.json"), 2*n); err == nil || !strings.Contains(err.Error(), "with 1000 outputs") {
		t.Errorf("another size: %v", err)
	}
	if err := addWideShaped(ctx, dsn, in, filepath.Join(dir, "x.json"), n, wideShape{PerTx: 200, PerBlock: 1_000_000}); err == nil ||
		!strings.Contains(err.Error(), "another shape") {
		t.Errorf("another shape: %v", err)
	}
	other := *m
	other.Tip.BlockHash = strings.Repeat("00", 32)
	otherPath := filepath.Join(dir, "other.json")
	if err := other.WriteFile(otherPath); err != nil {
		t.Fatal(err)
	}
	if err := addWide(ctx, dsn, otherPath, filepath.Join(dir, "x.json"), n); err == nil || !strings.Contains(err.Error(), "wrong manifest") {
		t.Errorf("a manifest of another chain: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("a refused add wrote a manifest")
	}

	// The *_wide scenarios exist with the copy, not without, and their raw
	// calls answer.
	raw, err := openRaw(ctx, dsn, "", w.Network)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	wide := []string{"utxos_by_address_wide", "utxos_by_stake_wide", "balance_by_address_wide", "balance_by_stake_wide"}
	for _, c := range []struct {
		m    *chaingen.Manifest
		want bool
	}{{m, false}, {w, true}} {
		scenarios, skipped, err := buildScenarios(c.m, prepared{}, raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range wide {
			i := slices.IndexFunc(scenarios, func(s Scenario) bool { return s.Name == name })
			if (i >= 0) != c.want || slices.Contains(skipped, name) {
				t.Errorf("wide manifest %v: scenario %s present %v (skipped %v)", c.want, name, i >= 0, skipped)
				continue
			}
			if i < 0 {
				continue
			}
			s := scenarios[i]
			if len(s.Paths) != 1 || !strings.Contains(s.Paths[0], map[bool]string{true: id.StakeView, false: id.Address}[strings.Contains(name, "stake")]) {
				t.Errorf("%s: paths %v", name, s.Paths)
			}
			if err := s.RawAt(ctx, 0); err != nil {
				t.Errorf("%s raw: %v", name, err)
			}
		}
	}
}
