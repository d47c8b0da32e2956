package chaingen_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"math/big"
	"testing"
	"time"

	_ "github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// followDB seeds a fresh database in the variant for one test.
func followDB(t *testing.T, v chaingen.Variant) (string, *sql.DB, *chaingen.Manifest) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL")
	}
	dsn, m, drop, err := testdb.DBSyncVariant(v, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return dsn, db, m
}

func TestFollowCore(t *testing.T) {
	t.Parallel()
	testFollow(t, chaingen.Variant{Mode: chaingen.ModeCore})
}

func TestFollowConsumed(t *testing.T) {
	t.Parallel()
	testFollow(t, chaingen.Variant{Mode: chaingen.ModeConsumed})
}

// slotsToBoundary: blocks far enough apart that the seeded tip (70 % into
// its epoch) reaches the next epoch within a handful of blocks.
const slotsToBoundary = 30000

// testFollow follows a seeded chain across an epoch boundary, with
// rollbacks and a submitted transaction, and checks the database it leaves.
func testFollow(t *testing.T, v chaingen.Variant) {
	dsn, db, m := followDB(t, v)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	seedTip := queryInt(t, db, `SELECT max(id) FROM block`)
	seedBlockNo := queryInt(t, db, `SELECT max(block_no) FROM block`)
	unspentBefore := unspentSum(t, db, v)

	submitted := bytes.Repeat([]byte{0xab}, 32)
	payee := m.ScriptAddress.Address // receives only: the follower never spends it
	served := false
	var events []chaingen.FollowEvent
	opts := chaingen.FollowOptions{
		Interval: time.Millisecond, SlotsPerBlock: slotsToBoundary, TxsPerBlock: 3, Seed: 7, MaxBlocks: 12,
		RollbackEvery: 5, Manifest: m,
		Pending: func() []chaingen.PendingTx {
			if served {
				return nil
			}
			served = true
			return []chaingen.PendingTx{{Hash: submitted, To: []chaingen.PendingOutput{{Address: payee, Lovelace: 7_000_000}}}}
		},
		Report: func(ev chaingen.FollowEvent) { events = append(events, ev) },
	}
	if err := chaingen.Follow(ctx, db, opts); err != nil {
		t.Fatal(err)
	}

	// The events: 12 blocks appended, rollbacks in between, each block
	// on top of the tip before it.
	appended, rolledBack, boundaries := 0, 0, 0
	tip := chaingen.BlockRef{BlockNo: seedBlockNo}
	for _, ev := range events {
		switch ev.Kind {
		case chaingen.BlockAppended:
			appended++
			if ev.Block.BlockNo != tip.BlockNo+1 {
				t.Errorf("block %d appended on tip %d", ev.Block.BlockNo, tip.BlockNo)
			}
			if ev.EpochStart {
				boundaries++
			}
		case chaingen.RolledBack:
			rolledBack += len(ev.Removed)
			if len(ev.Removed) < 1 || len(ev.Removed) > 3 || ev.Removed[0].Hash != tip.Hash {
				t.Fatalf("rollback removed %+v, tip was %s", ev.Removed, tip.Hash)
			}
			if false {
				t.Errorf("rollback removed %d blocks from %s, tip was %s", len(ev.Removed), ev.Removed[0].Hash, tip.Hash)
			}
			for _, r := range ev.Removed {
				if n := queryInt(t, db, `SELECT count(*) FROM block WHERE hash = decode($1, 'hex')`, r.Hash); n != 0 {
					t.Errorf("rolled-back block %s still there", r.Hash)
				}
			}
		}
		tip = ev.Block
	}
	if appended != 12 || rolledBack == 0 || boundaries == 0 {
		t.Fatalf("%d blocks appended, %d rolled back, %d epoch boundaries", appended, rolledBack, boundaries)
	}

	// The tip advanced and the chain links up: every new block's parent
	// is the block one lower, back to the seeded tip.
	if got := queryInt(t, db, `SELECT max(block_no) FROM block`); got != seedBlockNo+int64(appended-rolledBack) || got != tip.BlockNo {
		t.Errorf("tip block_no %d, want %d", got, seedBlockNo+int64(appended-rolledBack))
	}
	newBlocks := queryInt(t, db, `SELECT count(*) FROM block WHERE id > $1`, seedTip)
	linked := queryInt(t, db, `SELECT count(*) FROM block b JOIN block p ON p.id = b.previous_id
		WHERE b.id > $1 AND p.block_no = b.block_no - 1 AND p.slot_no < b.slot_no`, seedTip)
	if newBlocks != int64(appended-rolledBack) || linked != newBlocks {
		t.Errorf("%d new blocks, %d linked to their parent", newBlocks, linked)
	}
	var hash string
	if err := db.QueryRow(`SELECT encode(hash, 'hex') FROM block ORDER BY id DESC LIMIT 1`).Scan(&hash); err != nil || hash != tip.Hash {
		t.Errorf("newest block %s, last event's %s (%v)", hash, tip.Hash, err)
	}

	// Every transaction of a kept block is there; each spends exactly
	// what it pays plus its fee, and no output is spent twice.
	var txs, fees int64
	for _, ev := range events {
		if ev.Kind != chaingen.BlockAppended {
			continue
		}
		for _, tx := range ev.Txs {
			if n := queryInt(t, db, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id
				WHERE t.hash = decode($1, 'hex') AND b.hash = decode($2, 'hex')`, tx.Hash, ev.Block.Hash); n == 1 {
				txs++
				fees += int64(tx.Fee)
			}
		}
	}
	if got := queryInt(t, db, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id WHERE b.id > $1`, seedTip); got != txs || txs == 0 {
		t.Errorf("%d transactions in the new blocks, %d reported and kept", got, txs)
	}
	spentBy := `SELECT i.tx_in_id AS tx, o.id, o.value FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index`
	if v.Mode != chaingen.ModeCore {
		spentBy = `SELECT o.consumed_by_tx_id AS tx, o.id, o.value FROM tx_out o WHERE o.consumed_by_tx_id IS NOT NULL`
	}
	if n := queryInt(t, db, `WITH s AS (`+spentBy+`)
		SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id
		WHERE b.id > $1 AND (SELECT COALESCE(sum(s.value), 0) FROM s WHERE s.tx = t.id) <> t.out_sum + t.fee`, seedTip); n != 0 {
		t.Errorf("%d new transactions do not balance", n)
	}
	if n := queryInt(t, db, `WITH s AS (`+spentBy+`) SELECT count(*) - count(DISTINCT id) FROM s`); n != 0 {
		t.Errorf("%d outputs spent twice", n)
	}
	if v.Mode != chaingen.ModeCore {
		if n := queryInt(t, db, `SELECT count(*) FROM tx_in`); n != 0 {
			t.Errorf("consumed layout: %d tx_in rows", n)
		}
		if n := queryInt(t, db, `SELECT count(*) FROM tx_out o WHERE o.consumed_by_tx_id IS NOT NULL
			AND (o.consumed_by_tx_id <= o.tx_id OR NOT EXISTS (SELECT 1 FROM tx t WHERE t.id = o.consumed_by_tx_id))`); n != 0 {
			t.Errorf("%d outputs consumed by a missing or earlier transaction", n)
		}
	}
	// Native assets moved now and then, to followed addresses.
	assets := 0
	for _, ev := range events {
		for _, tx := range ev.Txs {
			for _, o := range tx.Outputs {
				assets += o.Assets
			}
		}
	}
	if n := queryInt(t, db, `SELECT count(*) FROM ma_tx_out m JOIN tx_out o ON o.id = m.tx_out_id JOIN tx t ON t.id = o.tx_id
		WHERE t.block_id > $1`, seedTip); n == 0 || assets == 0 {
		t.Errorf("no native asset moved (%d ma_tx_out rows, %d reported)", n, assets)
	}
	// Value is conserved: the UTxO set shrank by the new transactions' fees.
	if got := unspentSum(t, db, v); new(big.Int).Sub(unspentBefore, got).Int64() != fees {
		t.Errorf("unspent %s -> %s, fees %d", unspentBefore, got, fees)
	}

	// The epoch boundary wrote what a seed writes for an epoch.
	checkBoundary(t, db, tip.Epoch)

	// Every generated transaction has its CBOR, whose id is its hash (the
	// submitted one came with a hash of its own and no CBOR).
	lastSeedTx := queryInt(t, db, `SELECT max(t.id) FROM tx t WHERE t.block_id <= $1`, seedTip)
	if n := chaingen.CheckTxCBOR(t, db, lastSeedTx); int64(n) != txs-1 {
		t.Errorf("%d new transactions with CBOR, want %d", n, txs-1)
	}

	// The submitted transaction is in, paying its output.
	if n := queryInt(t, db, `SELECT count(*) FROM tx t JOIN tx_out o ON o.tx_id = t.id
		WHERE t.hash = $1 AND o.value = 7000000`, submitted); n != 1 {
		t.Errorf("submitted transaction: %d matching outputs", n)
	}

	// db-sync's reader sees the new tip and the deposit to the address.
	d, err := testdb.OpenDBSync(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dt, err := d.Tip(ctx)
	if err != nil || dt.BlockHash != tip.Hash || uint64(dt.SlotNo) != tip.Slot {
		t.Errorf("dbsync tip %+v (%v), want %s at %d", dt, err, tip.Hash, tip.Slot)
	}
	addr, err := cardano.ParseAddress(payee, true)
	if err != nil {
		t.Fatal(err)
	}
	us, err := d.UTxOsByAddress(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, u := range us {
		if u.TxHash == hex.EncodeToString(submitted) {
			found = true
		}
	}
	if !found {
		t.Errorf("dbsync lists %d UTxOs of %s, none from the submitted transaction", len(us), payee)
	}

	checkRollback(t, db, m)
	checkEpochs(t, db, m)
}

// checkEpochs: one block per epoch for a few epochs; each boundary writes
// what the first one did, from what the previous one wrote.
func checkEpochs(t *testing.T, db *sql.DB, m *chaingen.Manifest) {
	t.Helper()
	f, err := chaingen.NewFollower(t.Context(), db, chaingen.FollowOptions{SlotsPerBlock: 432000, TxsPerBlock: 2, Seed: 5, Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		ev, err := f.AppendBlock(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !ev.EpochStart {
			t.Fatalf("block %d at slot %d does not start an epoch", ev.Block.BlockNo, ev.Block.Slot)
		}
		checkBoundary(t, db, ev.Block.Epoch)
	}
}

// checkBoundary: the first block of epoch e carries its parameters and
// pots, the finished epoch has its row (matching block and tx), and the
// stake snapshot for e+1 and rewards spendable at e+1 exist.
func checkBoundary(t *testing.T, db *sql.DB, e int) {
	t.Helper()
	first := queryInt(t, db, `SELECT min(id) FROM block WHERE epoch_no = $1`, e)
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_param WHERE epoch_no = $1 AND block_id = $2`, e, first); n != 1 {
		t.Errorf("epoch_param rows for epoch %d at its first block: %d", e, n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM ada_pots p JOIN block b ON b.id = p.block_id
		WHERE p.epoch_no = $1 AND p.block_id = $2 AND p.slot_no = b.slot_no
		AND p.treasury + p.reserves + p.rewards + p.utxo + p.deposits_stake + p.fees = 45000000000000000`, e, first); n != 1 {
		t.Errorf("ada_pots rows for epoch %d adding up to the maximum supply: %d", e, n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_finalized f
		JOIN (SELECT b.epoch_no, count(DISTINCT b.id) AS blocks, count(t.id) AS txs, COALESCE(sum(t.fee), 0) AS fees
		      FROM block b LEFT JOIN tx t ON t.block_id = b.id WHERE b.epoch_no = $1 GROUP BY 1) a ON a.epoch_no = f.no
		WHERE f.no = $1 AND f.id = $1 + 1 AND f.blk_count = a.blocks AND f.tx_count = a.txs AND f.fees = a.fees`, e-1); n != 1 {
		t.Errorf("epoch_finalized row of epoch %d matching its blocks: %d", e-1, n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_finalized WHERE no >= $1`, e); n != 0 {
		t.Errorf("current epoch %d finalized", e)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_stake WHERE epoch_no = $1`, e+1); n == 0 ||
		n != queryInt(t, db, `SELECT count(*) FROM epoch_stake WHERE epoch_no = $1`, e) {
		t.Errorf("epoch_stake rows for epoch %d: %d", e+1, n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_stake_progress WHERE epoch_no = $1 AND completed`, e+1); n != 1 {
		t.Errorf("epoch_stake_progress for epoch %d: %d", e+1, n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM reward WHERE spendable_epoch = $1 AND earned_epoch = $2`, e+1, e-1); n == 0 {
		t.Errorf("no reward spendable at epoch %d", e+1)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_state s JOIN constitution c ON c.id = s.constitution_id
		WHERE s.epoch_no = $1`, e); n != 1 {
		t.Errorf("epoch_state rows for epoch %d naming the constitution: %d", e, n)
	}
}

// checkRollback: a rollback removes exactly what the rolled-back blocks
// added (consumed layouts: their spends are unmarked), and the chain
// continues on a new fork. A new follower on the followed database also
// shows that one picks up where another left off.
func checkRollback(t *testing.T, db *sql.DB, m *chaingen.Manifest) {
	t.Helper()
	ctx := t.Context()
	submitted := bytes.Repeat([]byte{0xcd}, 32)
	offer := false
	pending := func() []chaingen.PendingTx {
		if !offer {
			return nil
		}
		offer = false
		return []chaingen.PendingTx{{Hash: submitted, To: []chaingen.PendingOutput{{Address: m.Whale.Address, Lovelace: 3_000_000}}}}
	}
	f, err := chaingen.NewFollower(ctx, db, chaingen.FollowOptions{SlotsPerBlock: 20, TxsPerBlock: 4, Seed: 11, Manifest: m,
		Pending: pending})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.AppendBlock(ctx); err != nil {
		t.Fatal(err)
	}
	before := tableCounts(t, db)
	kept := f.Tip()
	offer = true // the submitted transaction goes into the first block rolled back
	var removed []chaingen.BlockRef
	var txs int
	for i := 0; i < 3; i++ {
		ev, err := f.AppendBlock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		removed = append(removed, ev.Block)
		txs += len(ev.Txs)
	}
	if txs == 0 {
		t.Fatal("the blocks to roll back carry no transaction")
	}
	if after := tableCounts(t, db); after == before {
		t.Fatal("appending changed nothing")
	}
	ev, err := f.Rollback(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Kind != chaingen.RolledBack || ev.Block != kept || len(ev.Removed) != 3 || ev.Removed[0] != removed[2] {
		t.Fatalf("rollback event %+v", ev)
	}
	if after := tableCounts(t, db); after != before {
		t.Errorf("after the rollback:\n%+v\nbefore the rolled-back blocks:\n%+v", after, before)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM tx WHERE hash = $1`, submitted); n != 0 {
		t.Errorf("the rolled-back submitted transaction is still there")
	}
	next, err := f.AppendBlock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Txs) == 0 || !next.Txs[0].Pending || next.Txs[0].Hash != hex.EncodeToString(submitted) ||
		queryInt(t, db, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id WHERE t.hash = $1 AND b.hash = decode($2, 'hex')`,
			submitted, next.Block.Hash) != 1 {
		t.Errorf("the submitted transaction is not in the fork's first block: %+v", next.Txs)
	}
	if next.Block.BlockNo != kept.BlockNo+1 || next.Block.Hash == removed[0].Hash ||
		queryInt(t, db, `SELECT previous_id FROM block WHERE hash = decode($1, 'hex')`, next.Block.Hash) != kept.ID {
		t.Errorf("fork block %+v on %+v (removed %+v)", next.Block, kept, removed[0])
	}
}

// counts is what a rollback must restore.
type counts struct {
	Blocks, Txs, TxOut, MaTxOut, TxIn, Consumed, EpochRows int64
	ConsumedSum                                            int64
	TxCbor, Signers                                        int64
}

func tableCounts(t *testing.T, db *sql.DB) counts {
	t.Helper()
	return counts{
		Blocks: queryInt(t, db, `SELECT count(*) FROM block`), Txs: queryInt(t, db, `SELECT count(*) FROM tx`),
		TxOut: queryInt(t, db, `SELECT count(*) FROM tx_out`), MaTxOut: queryInt(t, db, `SELECT count(*) FROM ma_tx_out`),
		TxIn:     queryInt(t, db, `SELECT count(*) FROM tx_in`),
		Consumed: queryInt(t, db, `SELECT count(*) FROM tx_out WHERE consumed_by_tx_id IS NOT NULL`),
		EpochRows: queryInt(t, db, `SELECT (SELECT count(*) FROM epoch_param) + (SELECT count(*) FROM ada_pots)
			+ (SELECT count(*) FROM epoch_stake) + (SELECT count(*) FROM reward) + (SELECT count(*) FROM epoch_finalized)
			+ (SELECT count(*) FROM epoch_state)`),
		ConsumedSum: queryInt(t, db, `SELECT COALESCE(sum(consumed_by_tx_id), 0) FROM tx_out`),
		TxCbor:      queryInt(t, db, `SELECT count(*) FROM tx_cbor`),
		Signers:     queryInt(t, db, `SELECT count(*) FROM extra_key_witness`),
	}
}

func unspentSum(t *testing.T, db *sql.DB, v chaingen.Variant) *big.Int {
	t.Helper()
	q := `SELECT COALESCE(sum(value), 0)::text FROM tx_out o
		WHERE NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if v.Mode != chaingen.ModeCore {
		q = `SELECT COALESCE(sum(value), 0)::text FROM tx_out WHERE consumed_by_tx_id IS NULL`
	}
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatal(err)
	}
	n, _ := new(big.Int).SetString(s, 10)
	return n
}

func queryInt(t *testing.T, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var n sql.NullInt64
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n.Int64
}

// TestFollowLayouts: the other layouts, found by the follower itself (no
// manifest): blocks link up across an epoch boundary and a rollback, each
// new transaction spends what it pays plus its fee in the layout's own
// terms, and the epoch rows are kept as the layout keeps them.
func TestFollowLayouts(t *testing.T) {
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeCore, AddressTable: true},
		{Mode: chaingen.ModePrune},
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema136},
	} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			_, db, _ := followDB(t, v)
			ctx := t.Context()
			seedTip := queryInt(t, db, `SELECT max(id) FROM block`)
			f, err := chaingen.NewFollower(ctx, db, chaingen.FollowOptions{SlotsPerBlock: slotsToBoundary, TxsPerBlock: 3,
				Seed: 3, RollbackEvery: 4})
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Variant(); got.String() != v.String() {
				t.Fatalf("layout found %s, seeded %s", got, v)
			}
			var txs int
			for f.Appended() < 8 {
				ev, err := f.Step(ctx)
				if err != nil {
					t.Fatal(err)
				}
				txs += len(ev.Txs)
			}
			tip := f.Tip()
			newBlocks := queryInt(t, db, `SELECT count(*) FROM block WHERE id > $1`, seedTip)
			linked := queryInt(t, db, `SELECT count(*) FROM block b JOIN block p ON p.id = b.previous_id
				WHERE b.id > $1 AND p.block_no = b.block_no - 1`, seedTip)
			if newBlocks == 0 || linked != newBlocks || queryInt(t, db, `SELECT max(block_no) FROM block`) != tip.BlockNo {
				t.Errorf("%d new blocks, %d linked; tip %d", newBlocks, linked, tip.BlockNo)
			}
			newTxs := queryInt(t, db, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id WHERE b.id > $1`, seedTip)
			if v.Mode == chaingen.ModeDisable {
				if newTxs != 0 || txs != 0 {
					t.Errorf("disabled outputs: %d new transactions", newTxs)
				}
			} else if newTxs == 0 || txs == 0 {
				t.Error("no new transaction")
			}
			if v.Mode != chaingen.ModeDisable {
				spentBy := `SELECT i.tx_in_id AS tx, o.value FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index`
				if v.Mode != chaingen.ModeCore {
					spentBy = `SELECT o.consumed_by_tx_id AS tx, o.value FROM tx_out o WHERE o.consumed_by_tx_id IS NOT NULL`
				}
				if n := queryInt(t, db, `WITH s AS (`+spentBy+`)
					SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id
					WHERE b.id > $1 AND (SELECT COALESCE(sum(s.value), 0) FROM s WHERE s.tx = t.id) <> t.out_sum + t.fee`, seedTip); n != 0 {
					t.Errorf("%d new transactions do not balance", n)
				}
			}
			if v.AddressTable {
				if n := queryInt(t, db, `SELECT count(*) FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
					WHERE b.id > $1 AND NOT EXISTS (SELECT 1 FROM address a WHERE a.id = o.address_id)`, seedTip); n != 0 {
					t.Errorf("%d new outputs without their address row", n)
				}
			}
			if queryInt(t, db, `SELECT count(*) FROM epoch_param WHERE epoch_no = $1`, tip.Epoch) != 1 {
				t.Errorf("epoch %d: no parameters", tip.Epoch)
			}
			if v.Schema == chaingen.Schema136 {
				for _, e := range []int{tip.Epoch - 1, tip.Epoch} {
					if n := queryInt(t, db, `SELECT count(*) FROM epoch f
						JOIN (SELECT b.epoch_no, count(DISTINCT b.id) AS blocks, count(t.id) AS txs FROM block b
						      LEFT JOIN tx t ON t.block_id = b.id WHERE b.epoch_no = $1 GROUP BY 1) a ON a.epoch_no = f.no
						WHERE f.no = $1 AND f.blk_count = a.blocks AND f.tx_count = a.txs`, e); n != 1 {
						t.Errorf("13.6 epoch row of epoch %d matching its blocks: %d", e, n)
					}
				}
			} else if n := queryInt(t, db, `SELECT count(*) FROM epoch_finalized WHERE no = $1`, tip.Epoch-1); (n == 1) != (v.Mode == chaingen.ModePrune || v.Mode == chaingen.ModeCore) {
				t.Errorf("%s: %d epoch_finalized rows for epoch %d", v, n, tip.Epoch-1)
			}
		})
	}
}
