package governance_test

import (
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/governance"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestDelegatorListForward: a DRep's delegator list brought forward by
// the certificates since it was read is the list read whole at that
// point, through a newcomer, a delegator leaving for another DRep, one
// re-delegating to it (it moves last), a deregistration, and rollbacks:
// one cutting blocks as db-sync does, one where the freed ids are given
// to other rows.
func TestDelegatorListForward(t *testing.T) {
	testdb.RequirePostgres(t)
	ctx := t.Context()
	dsn, _, drop, err := testdb.DBSync(chaingen.ModeCore, seedTxs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	raw := testdb.Open(t, dsn)
	db, err := dbsync.Open(ctx, config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: dsn}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)

	var drep, other int64
	if err := raw.Get(&drep, `SELECT drep_hash_id FROM delegation_vote GROUP BY drep_hash_id ORDER BY count(*) DESC, drep_hash_id LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if err := raw.Get(&other, `SELECT id FROM drep_hash WHERE id <> $1 ORDER BY id LIMIT 1`, drep); err != nil {
		t.Fatal(err)
	}
	list, err := governance.ReadDelegators(ctx, db, drep)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.IDs) < 4 {
		t.Fatalf("the busiest DRep has %d delegators: too few to move", len(list.IDs))
	}
	forward := func(wantWhole bool) {
		t.Helper()
		next, whole, err := list.Forward(ctx, db, drep)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := governance.ReadDelegators(ctx, db, drep)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(next.IDs, fresh.IDs) || whole != wantWhole {
			t.Fatalf("forward (whole %v, want %v): %d ids, read whole: %d\n%v\n%v", whole, wantWhole, len(next.IDs), len(fresh.IDs), next.IDs, fresh.IDs)
		}
		list = next
	}
	forward(false) // nothing since

	// Certificates in a new block's transaction, as db-sync adds them.
	var stranger int64
	if err := raw.Get(&stranger, `SELECT id FROM stake_address sa WHERE NOT EXISTS (SELECT 1 FROM delegation_vote dv WHERE dv.addr_id = sa.id) ORDER BY id LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	tx := newTx(t, raw)
	d := list.IDs
	raw.MustExec(`INSERT INTO delegation_vote (addr_id, cert_index, drep_hash_id, tx_id) VALUES ($1, 0, $2, $5), ($3, 1, $4, $5), ($6, 2, $2, $5)`,
		stranger, drep, d[0], other, tx, d[1])
	raw.MustExec(`INSERT INTO stake_deregistration (addr_id, cert_index, epoch_no, tx_id) SELECT $1, 3, epoch_no, $2 FROM block b
		JOIN tx t ON t.block_id = b.id WHERE t.id = $2`, d[2], tx)
	forward(false)
	if got := list.IDs[len(list.IDs)-2:]; got[0] != stranger || got[1] != d[1] {
		t.Fatalf("the newcomer and the re-delegator should close the list: %v", got)
	}

	// A rollback as db-sync does it: the new block and its rows go.
	if _, err := testdb.CutBlocks(ctx, raw, 1); err != nil {
		t.Fatal(err)
	}
	forward(true)

	// Ids freed by the rollback given to other rows: the stamps' hashes
	// tell them apart.
	tx = newTx(t, raw)
	raw.MustExec(`INSERT INTO delegation_vote (addr_id, cert_index, drep_hash_id, tx_id) VALUES ($1, 0, $2, $3)`, stranger, drep, tx)
	forward(false)
	if _, err := testdb.CutBlocks(ctx, raw, 1); err != nil {
		t.Fatal(err)
	}
	raw.MustExec(`SELECT setval(pg_get_serial_sequence('delegation_vote', 'id'), (SELECT max(id) FROM delegation_vote))`)
	tx = newTx(t, raw)
	raw.MustExec(`INSERT INTO delegation_vote (addr_id, cert_index, drep_hash_id, tx_id) VALUES ($1, 0, $2, $3)`, d[3], other, tx)
	forward(true)
}

// newTx appends a block after the tip holding one transaction (copies of
// the newest rows with new ids, hashes and positions) and returns the
// transaction's id.
func newTx(t *testing.T, raw *sqlx.DB) int64 {
	t.Helper()
	var tx int64
	err := raw.Get(&tx, `WITH b AS (
			INSERT INTO block SELECT (jsonb_populate_record(NULL::block, to_jsonb(p) || jsonb_build_object(
				'id', p.id + 1, 'block_no', p.block_no + 1, 'slot_no', p.slot_no + 1, 'previous_id', p.id, 'tx_count', 1,
				'hash', '\x' || md5(random()::text) || md5(random()::text)))).*
			FROM (SELECT * FROM block ORDER BY id DESC LIMIT 1) p
			RETURNING id)
		INSERT INTO tx SELECT (jsonb_populate_record(NULL::tx, to_jsonb(p) || jsonb_build_object(
				'id', p.id + 1, 'block_id', (SELECT id FROM b), 'block_index', 0,
				'hash', '\x' || md5(random()::text) || md5(random()::text)))).*
			FROM (SELECT * FROM tx ORDER BY id DESC LIMIT 1) p
		RETURNING id`)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}
