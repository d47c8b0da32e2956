package main

import (
	"encoding/hex"
	"path/filepath"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/dbsync/account"
	"github.com/syncgate/syncgate/dbsync/assets"
	"github.com/syncgate/syncgate/dbsync/governance"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestAddBig adds small big entities to a seeded chain and reads them
// back through the stores the Blockfrost routes call: every asset of the
// policy, the airdropped asset's holders, the reward rows, the DRep's
// delegators in delegation order with their stake; a second run adds
// nothing and another size is refused.
func TestAddBig(t *testing.T) {
	testdb.RequirePostgres(t)
	ctx := t.Context()
	dsn, drop, err := testdb.Create("sg_big_test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	m, err := chaingen.Seed(ctx, dsn, chaingen.Options{Txs: 3000, Seed: 42, Mode: chaingen.ModeCore, TipTime: testdb.FixedTipTime})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "m.json"), filepath.Join(dir, "big.json")
	if err := m.WriteFile(in); err != nil {
		t.Fatal(err)
	}
	sizes := bigSizes{Assets: 250, Rewards: 2 * (m.Tip.Epoch - 1), Delegators: 120}
	if err := addBig(ctx, dsn, in, out, sizes); err != nil {
		t.Fatal(err)
	}
	refs, err := readBigRefs(out)
	if err != nil || refs == nil {
		t.Fatalf("manifest copy: %+v (%v)", refs, err)
	}
	after, err := chaingen.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	store := testdb.MustOpenDBSync(t, dsn)
	if tip, err := store.Tip(ctx); err != nil || tip.BlockHash != after.Tip.BlockHash {
		t.Errorf("store tip %+v (%v), manifest %s", tip, err, after.Tip.BlockHash)
	}

	policy, err := hex.DecodeString(refs.Policy)
	if err != nil {
		t.Fatal(err)
	}
	list, err := assets.Policy(ctx, store, policy, assets.Page{Limit: 1000})
	if err != nil || len(list) != sizes.Assets {
		t.Fatalf("policy assets: %d (%v), want %d", len(list), err, sizes.Assets)
	}
	if list[0].Asset != refs.HeldAsset || list[0].Quantity != "121" || list[1].Quantity != "1" {
		t.Errorf("first assets %+v, want %s with 121 minted, then 1 each", list[:2], refs.HeldAsset)
	}
	held, err := cardano.ParseAssetID(refs.Policy + "." + refs.HeldAsset[len(refs.Policy):])
	if err != nil {
		t.Fatal(err)
	}
	holders, err := assets.Holders(ctx, store, held)
	if err != nil || len(holders) != refs.Holders {
		t.Errorf("holders: %d (%v), want %d", len(holders), err, refs.Holders)
	}

	key, err := cardano.ParseStakeKey(refs.RewardAccount, true)
	if err != nil {
		t.Fatal(err)
	}
	rewards, err := account.RewardsPage(ctx, store, key, account.PageQuery{Limit: 1000})
	if err != nil || len(rewards) != sizes.Rewards {
		t.Fatalf("rewards: %d (%v), want %d", len(rewards), err, sizes.Rewards)
	}
	if rewards[0].Epoch != 0 || rewards[len(rewards)-1].Epoch != int64(m.Tip.Epoch-2) {
		t.Errorf("reward epochs %d to %d, want 0 to %d", rewards[0].Epoch, rewards[len(rewards)-1].Epoch, m.Tip.Epoch-2)
	}

	var drepID int64
	if err := testdb.Open(t, dsn).Get(&drepID, `SELECT id FROM drep_hash WHERE view = $1`, refs.DRep); err != nil {
		t.Fatal(err)
	}
	delegators, err := governance.ReadDelegators(ctx, store, drepID)
	ids := delegators.IDs
	if err != nil || len(ids) != sizes.Delegators || !slices.IsSorted(ids) {
		t.Fatalf("delegators: %d (%v), want %d in id order", len(ids), err, sizes.Delegators)
	}
	stake, err := governance.LiveStake(ctx, store, ids[:3], int64(after.Tip.Epoch))
	if err != nil || len(stake) != 3 || stake[0].Amount != "1500000" {
		t.Errorf("live stake %+v (%v), want the first delegator's 1500000", stake, err)
	}

	// Idempotent: nothing added, the same copy; another size refused.
	if err := addBig(ctx, dsn, in, out, sizes); err != nil {
		t.Fatal(err)
	}
	if again, err := chaingen.ReadManifest(out); err != nil || again.Tip != after.Tip {
		t.Errorf("second run's tip %+v (%v), want %+v", again.Tip, err, after.Tip)
	}
	if err := addBig(ctx, dsn, in, out, bigSizes{Assets: 10, Rewards: 1, Delegators: 1}); err == nil {
		t.Error("another size: no error")
	}
}
