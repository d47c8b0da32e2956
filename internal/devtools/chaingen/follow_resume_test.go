package chaingen_test

import (
	"context"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// A follower started again on a database it followed before (as `syncgate
// seed --follow` run twice, with the same default seed) resumes from what
// the database holds: its tip, its ids, its coins. Each run's blocks link
// onto the previous run's, with new hashes.
func TestFollowResumes(t *testing.T) {
	t.Parallel()
	_, db, m := followDB(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	seedTip := queryInt(t, db, `SELECT max(id) FROM block`)
	seedBlockNo := queryInt(t, db, `SELECT max(block_no) FROM block`)

	runs := []chaingen.FollowOptions{
		{SlotsPerBlock: 20, TxsPerBlock: 3, Seed: 1, MaxBlocks: 4, Manifest: m},
		{SlotsPerBlock: 20, TxsPerBlock: 3, Seed: 1, MaxBlocks: 4, Manifest: m},
		{SlotsPerBlock: 20, TxsPerBlock: 3, Seed: 1, MaxBlocks: 6, Manifest: m, RollbackEvery: 2},
		{SlotsPerBlock: 20, TxsPerBlock: 3, Seed: 1, MaxBlocks: 3},
	}
	var appended, removed int
	for i, opts := range runs {
		lastTx := queryInt(t, db, `SELECT max(id) FROM tx`)
		tip := queryInt(t, db, `SELECT max(block_no) FROM block`)
		opts.Report = func(ev chaingen.FollowEvent) {
			if ev.Kind == chaingen.RolledBack {
				removed += len(ev.Removed)
				return
			}
			appended++
			for _, tx := range ev.Txs {
				if tx.ID <= lastTx {
					t.Errorf("run %d: transaction id %d reused (the database's last was %d)", i+1, tx.ID, lastTx)
				}
			}
		}
		if err := chaingen.Follow(ctx, db, opts); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if got := queryInt(t, db, `SELECT max(block_no) FROM block`); got <= tip {
			t.Errorf("run %d: tip block %d, was %d", i+1, got, tip)
		}
	}
	newBlocks := queryInt(t, db, `SELECT count(*) FROM block WHERE id > $1`, seedTip)
	linked := queryInt(t, db, `SELECT count(*) FROM block b JOIN block p ON p.id = b.previous_id
		WHERE b.id > $1 AND p.block_no = b.block_no - 1 AND p.slot_no < b.slot_no`, seedTip)
	if appended != 17 || removed == 0 || newBlocks != int64(appended-removed) || linked != newBlocks {
		t.Errorf("%d blocks appended, %d rolled back, %d new, %d linked", appended, removed, newBlocks, linked)
	}
	if got := queryInt(t, db, `SELECT max(block_no) FROM block`); got != seedBlockNo+newBlocks {
		t.Errorf("tip block_no %d, want %d", got, seedBlockNo+newBlocks)
	}
	if queryInt(t, db, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id WHERE b.id > $1`, seedTip) == 0 {
		t.Error("the followers wrote no transaction")
	}
}

// Rolling back an epoch's first block removes what that boundary wrote
// (its governance state among the rest), and appending it again writes it
// once.
func TestFollowRollbackEpochBoundary(t *testing.T) {
	t.Parallel()
	_, db, m := followDB(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx := t.Context()
	f, err := chaingen.NewFollower(ctx, db, chaingen.FollowOptions{SlotsPerBlock: 432000, TxsPerBlock: 3, Seed: 9, Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	before := tableCounts(t, db)
	states := queryInt(t, db, `SELECT count(*) FROM epoch_state`)
	ev, err := f.AppendBlock(ctx)
	if err != nil || !ev.EpochStart {
		t.Fatalf("first block %+v: %v", ev, err)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_state WHERE epoch_no = $1`, ev.Block.Epoch); n != 1 {
		t.Fatalf("epoch %d: %d epoch_state rows", ev.Block.Epoch, n)
	}
	if _, err := f.Rollback(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if after := tableCounts(t, db); after != before || queryInt(t, db, `SELECT count(*) FROM epoch_state`) != states {
		t.Errorf("after the rollback:\n%+v\nbefore the boundary:\n%+v", after, before)
	}
	ev, err = f.AppendBlock(ctx)
	if err != nil || !ev.EpochStart {
		t.Fatalf("block again %+v: %v", ev, err)
	}
	checkBoundary(t, db, ev.Block.Epoch)
}

// A database seeded before some of db-sync's tables were generated (here:
// without tx_cbor, extra_key_witness and epoch_state) is followed too: the
// follower creates what is missing.
func TestFollowOlderDatabase(t *testing.T) {
	t.Parallel()
	_, db, m := followDB(t, chaingen.Variant{Mode: chaingen.ModeCore})
	if _, err := db.Exec(`DROP TABLE tx_cbor, extra_key_witness, epoch_state`); err != nil {
		t.Fatal(err)
	}
	if err := chaingen.Follow(t.Context(), db, chaingen.FollowOptions{SlotsPerBlock: 432000, TxsPerBlock: 3, Seed: 2,
		MaxBlocks: 2, Manifest: m}); err != nil {
		t.Fatal(err)
	}
	if queryInt(t, db, `SELECT count(*) FROM tx_cbor`) == 0 || queryInt(t, db, `SELECT count(*) FROM epoch_state`) != 2 {
		t.Error("the follower wrote no CBOR or no governance state")
	}
	if queryInt(t, db, `SELECT count(*) FROM pg_constraint WHERE conname IN ('tx_cbor_pkey', 'epoch_state_pkey', 'extra_key_witness_pkey')`) != 3 {
		t.Error("the recreated tables lack their keys")
	}
}
