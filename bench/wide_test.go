package main

import (
	"bytes"
	"fmt"
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
	"github.com/syncgate/syncgate/internal/chaingen"
	"github.com/syncgate/syncgate/internal/testdb"
	sqlfiles "github.com/syncgate/syncgate/sql"
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
	if a, err := dbsync.ParseAddress(id.Address, true); err != nil || a.String() != id.Address {
		t.Errorf("ParseAddress(%s) = %v, %v", id.Address, a, err)
	}
	if _, err := dbsync.ParseStakeKey(id.StakeView, true); err != nil {
		t.Errorf("ParseStakeKey(%s): %v", id.StakeView, err)
	}
	if !strings.HasPrefix(id.Address, "addr1q") || !strings.HasPrefix(id.StakeView, "stake1u") {
		t.Errorf("wide address %s, stake key %s: not a key-hash base address and stake key", id.Address, id.StakeView)
	}
}

// Transactions hold 200 outputs each, the last one the rest; sums add up.
func TestPlanWide(t *testing.T) {
	for _, c := range []struct{ n, txs, last int }{{1, 1, 1}, {200, 1, 200}, {1000, 5, 200}, {1001, 6, 1}} {
		p := planWide(c.n)
		if p.txs != c.txs || len(p.hashes) != c.txs || len(p.value) != c.n {
			t.Fatalf("n=%d: %d txs (%d hashes), %d outputs; want %d txs", c.n, p.txs, len(p.hashes), len(p.value), c.txs)
		}
		perTx := make([]int64, p.txs)
		count := make([]int, p.txs)
		var total int64
		for i, v := range p.value {
			if v < 1_000_000 || v >= 10_000_000 {
				t.Errorf("n=%d: output %d holds %d lovelace", c.n, i, v)
			}
			perTx[p.blockIndex[i]] += v
			if int(p.index[i]) != count[p.blockIndex[i]] {
				t.Errorf("n=%d: output %d has index %d, want %d", c.n, i, p.index[i], count[p.blockIndex[i]])
			}
			count[p.blockIndex[i]]++
			total += v
		}
		if !slices.Equal(perTx, p.outSum) || total != p.lovelace || count[p.txs-1] != c.last {
			t.Errorf("n=%d: out sums %v vs %v, total %d vs %d, last tx %d outputs", c.n, perTx, p.outSum, total, p.lovelace, count[p.txs-1])
		}
		for i, h := range p.hashes {
			if len(h) != 32 || slices.ContainsFunc(p.hashes[:i], func(o []byte) bool { return bytes.Equal(o, h) }) {
				t.Errorf("n=%d: tx hash %d %x is not a fresh 32-byte hash", c.n, i, h)
			}
		}
	}
	if p := planWide(1000); slices.Min(p.value) == slices.Max(p.value) {
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

	const n = 1000
	if err := addWide(ctx, dsn, in, out, n); err != nil {
		t.Fatal(err)
	}
	w, err := chaingen.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := wideIdentityFor(true)
	if w.WideAddress == nil || w.WideStakeKey == nil {
		t.Fatalf("the manifest copy names no wide address: %+v %+v", w.WideAddress, w.WideStakeKey)
	}
	if *w.WideAddress != (chaingen.AddressRef{Address: id.Address, TxCount: 5, StakeAddress: id.StakeView, UTxOs: n}) ||
		*w.WideStakeKey != (chaingen.StakeRef{StakeAddress: id.StakeView, UTxOs: n}) {
		t.Errorf("wide address %+v, stake key %+v", *w.WideAddress, *w.WideStakeKey)
	}
	if w.Tip.BlockNo != m.Tip.BlockNo+1 || w.Tip.Slot != m.Tip.Slot+wideSlotGap || !w.Tip.Time.Equal(m.Tip.Time.Add(wideSlotGap*time.Second)) ||
		w.Tip.Epoch != m.Tip.Epoch || w.Tip.BlockHash == m.Tip.BlockHash {
		t.Errorf("tip %+v after %+v", w.Tip, m.Tip)
	}
	if w.Counts.Txs != m.Counts.Txs+5 || w.Counts.TxOut != m.Counts.TxOut+n || w.Counts.Outputs != m.Counts.Outputs+n ||
		w.Counts.Blocks != m.Counts.Blocks+1 || w.Counts.StakeAddresses != m.Counts.StakeAddresses+1 {
		t.Errorf("counts %+v after %+v", w.Counts, m.Counts)
	}

	// The rows, as db-sync writes them.
	var blk struct {
		ID, PreviousID, BlockNo, SlotNo, EpochSlotNo, TxCount, Txs, Size int64
		Hash                                                             string
	}
	if err := sqlDB.Get(&blk, `SELECT b.id, b.previous_id AS previousid, b.block_no AS blockno, b.slot_no AS slotno,
		b.epoch_slot_no AS epochslotno, b.tx_count AS txcount, b.size, encode(b.hash, 'hex') AS hash,
		(SELECT count(*) FROM tx WHERE tx.block_id = b.id) AS txs
		FROM block b ORDER BY b.id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if blk.PreviousID != oldTipID || blk.BlockNo != w.Tip.BlockNo || blk.SlotNo != int64(w.Tip.Slot) || blk.Hash != w.Tip.BlockHash ||
		blk.TxCount != 5 || blk.Txs != 5 || blk.Size <= 5*13_000 {
		t.Errorf("block %+v (previous tip %d)", blk, oldTipID)
	}
	var bad int
	if err := sqlDB.Get(&bad, `SELECT count(*) FROM tx t WHERE t.block_id = $1 AND (length(t.hash) <> 32 OR t.fee <= 0 OR t.size <= 0
		OR t.out_sum <> (SELECT sum(o.value) FROM tx_out o WHERE o.tx_id = t.id) OR t.block_index > 4
		OR (SELECT count(*) FROM tx_out o WHERE o.tx_id = t.id) <> 200)`, blk.ID); err != nil || bad != 0 {
		t.Errorf("%d transactions of the wide block break db-sync's rules (%v)", bad, err)
	}
	if err := sqlDB.Get(&bad, `SELECT count(*) FROM tx_out o JOIN tx t ON t.id = o.tx_id WHERE t.block_id = $1 AND
		(o.address <> $2 OR o.address_has_script OR o.payment_cred <> $3 OR o.stake_address_id IS DISTINCT FROM
		 (SELECT id FROM stake_address WHERE view = $4 AND hash_raw = $5) OR o.consumed_by_tx_id IS NOT NULL
		 OR o.data_hash IS NOT NULL OR EXISTS (SELECT 1 FROM ma_tx_out ma WHERE ma.tx_out_id = o.id))`,
		blk.ID, id.Address, id.PaymentCred, id.StakeView, id.StakeRaw); err != nil || bad != 0 {
		t.Errorf("%d outputs of the wide block are not plain lovelace to the wide address (%v)", bad, err)
	}

	// The store's answers: exactly n outputs and their lovelace, for the
	// address and for the stake key.
	store := testdb.MustOpenDBSync(t, dsn)
	if tip, err := store.Tip(ctx); err != nil || tip.BlockHash != w.Tip.BlockHash {
		t.Errorf("store tip %+v (%v), manifest %s", tip, err, w.Tip.BlockHash)
	}
	wantSum := big.NewInt(planWide(n).lovelace)
	addr, err := dbsync.ParseAddress(w.WideAddress.Address, true)
	if err != nil {
		t.Fatal(err)
	}
	key, err := dbsync.ParseStakeKey(w.WideStakeKey.StakeAddress, true)
	if err != nil {
		t.Fatal(err)
	}
	checkList := func(what string, us []dbsync.UTxO, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sum, seen := new(big.Int), map[string]bool{}
		for _, u := range us {
			sum.Add(sum, u.Value.Lovelace)
			seen[fmt.Sprintf("%s#%d", u.TxHash, u.OutputIndex)] = true
			if u.Address != id.Address || len(u.Value.Assets) != 0 || u.BlockHash != w.Tip.BlockHash {
				t.Fatalf("%s: %+v", what, u)
			}
		}
		if len(us) != n || len(seen) != n || sum.Cmp(wantSum) != 0 {
			t.Errorf("%s: %d outputs (%d distinct), %s lovelace; want %d, %s", what, len(us), len(seen), sum, n, wantSum)
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
	countRows := func() (blocks, outs int64) {
		t.Helper()
		if err := sqlDB.QueryRow(`SELECT (SELECT count(*) FROM block), (SELECT count(*) FROM tx_out)`).Scan(&blocks, &outs); err != nil {
			t.Fatal(err)
		}
		return blocks, outs
	}
	blocks, outs := countRows()
	first, _ := os.ReadFile(out)
	for _, from := range []string{in, out} {
		again := filepath.Join(dir, "again.json")
		if err := addWide(ctx, dsn, from, again, n); err != nil {
			t.Fatalf("again from %s: %v", filepath.Base(from), err)
		}
		if b, _ := os.ReadFile(again); !bytes.Equal(b, first) {
			t.Errorf("again from %s: another manifest copy:\n%s", filepath.Base(from), b)
		}
		if b, o := countRows(); b != blocks || o != outs {
			t.Errorf("again from %s: %d blocks, %d outputs; were %d, %d", filepath.Base(from), b, o, blocks, outs)
		}
	}
	if us, err := store.UTxOsByStake(ctx, key); err != nil || len(us) != n {
		t.Errorf("after adding again: %d outputs (%v)", len(us), err)
	}
	// Refused: another size, a manifest of another chain.
	if err := addWide(ctx, dsn, in, filepath.Join(dir, "x.json"), 2*n); err == nil || !strings.Contains(err.Error(), "with 1000 outputs") {
		t.Errorf("another size: %v", err)
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
