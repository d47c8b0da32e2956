package chaingen_test

import (
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// The follower keeps governance moving: votes in its blocks, at each
// boundary the proposals' life and the epoch's drep_distr; a rollback
// over a boundary takes them back.
func TestFollowGovernance(t *testing.T) {
	t.Parallel()
	_, db, m := followDB(t, chaingen.Variant{Mode: chaingen.ModeCore})
	ctx := t.Context()
	f, err := chaingen.NewFollower(ctx, db, chaingen.FollowOptions{SlotsPerBlock: 43200, TxsPerBlock: 3, Seed: 12, Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	votes := queryInt(t, db, `SELECT count(*) FROM voting_procedure`)
	tip := m.Tip.Epoch
	var last chaingen.FollowEvent
	for i := 0; i < 40 && last.Block.Epoch < tip+2; i++ {
		if last, err = f.AppendBlock(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if !last.EpochStart || last.Block.Epoch != tip+2 {
		t.Fatalf("last block %+v", last.Block)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM voting_procedure`); n <= votes {
		t.Errorf("no new votes (%d, %d before)", n, votes)
	}
	for e := tip + 1; e <= tip+2; e++ {
		if n := queryInt(t, db, `SELECT count(*) FROM drep_distr WHERE epoch_no = $1`, e); n == 0 {
			t.Errorf("no drep_distr for epoch %d", e)
		}
		// Every proposal whose expiration has passed is expired or on its
		// way to enactment; none is open.
		if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal WHERE expiration < $1 - 1
			AND ratified_epoch IS NULL AND enacted_epoch IS NULL AND dropped_epoch IS NULL AND expired_epoch IS NULL`, e); n != 0 {
			t.Errorf("epoch %d: %d proposals past their expiration still open", e, n)
		}
		if n := queryInt(t, db, `SELECT count(*) FROM epoch_state s WHERE s.epoch_no = $1 AND s.committee_id =
			(SELECT committee_id FROM epoch_state WHERE epoch_no = $2) AND s.constitution_id = (SELECT constitution_id FROM epoch_state WHERE epoch_no = $2)`,
			e, tip); n != 1 {
			t.Errorf("epoch %d: the committee and constitution in force not carried on", e)
		}
	}
	// Each new epoch's first block brings an info action, open until it
	// expires, with a proposal's deposit and return address.
	if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id JOIN block b ON b.id = t.block_id
		WHERE b.epoch_no > $1 AND p.type = 'InfoAction' AND p.expiration = b.epoch_no + 1 AND p.deposit > 0
		AND p.return_address IS NOT NULL AND b.id = (SELECT min(id) FROM block WHERE epoch_no = b.epoch_no)`, tip); n != 2 {
		t.Errorf("%d new info actions at the first blocks of epochs %d and %d, want 2", n, tip+1, tip+2)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal WHERE expired_epoch = $1 OR ratified_epoch = $1`, tip+1); n == 0 {
		t.Errorf("no proposal expired or ratified at epoch %d", tip+1)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM voting_procedure v LEFT JOIN gov_action_proposal p ON p.id = v.gov_action_proposal_id
		WHERE p.id IS NULL OR p.tx_id >= v.tx_id`); n != 0 {
		t.Errorf("%d votes on missing or later proposals", n)
	}
	if _, err := f.Rollback(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM drep_distr WHERE epoch_no > $1`, tip+1); n != 0 {
		t.Errorf("%d drep_distr rows of the rolled-back epoch", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal
		WHERE GREATEST(ratified_epoch, enacted_epoch, dropped_epoch, expired_epoch) > $1`, tip+1); n != 0 {
		t.Errorf("%d proposals keep the rolled-back boundary's life", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id JOIN block b ON b.id = t.block_id
		WHERE b.epoch_no > $1 AND p.type = 'InfoAction'`, tip); n != 1 {
		t.Errorf("%d info actions after the rollback of epoch %d's first block, want 1", n, tip+2)
	}
}
