package blocks_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// seedTxs keeps the shared chains small; they hold Byron's boundary
// blocks, the busy block and failed transactions all the same.
const seedTxs = 3000

// TestExplainIndexBacked plans every statement of this package on each
// mode's chain, for the values it runs with and generically, with
// sequential scans priced out, and fails on a big table read without an
// index condition.
func TestExplainIndexBacked(t *testing.T) {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: mode}, seedTxs)
		db := testdb.Open(t, chain.DSN)
		var mid struct {
			ID        int64  `db:"id"`
			Hash      []byte `db:"hash"`
			No        int64  `db:"block_no"`
			Slot      int64  `db:"slot_no"`
			Epoch     int64  `db:"epoch_no"`
			EpochSlot int64  `db:"epoch_slot_no"`
		}
		if err := db.Get(&mid, `SELECT id, hash, block_no, slot_no, epoch_no, epoch_slot_no FROM block
			WHERE block_no = (SELECT max(block_no) / 2 FROM block)`); err != nil {
			t.Fatal(err)
		}
		ids := pq.Array([]int64{1, 2})
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		for _, tc := range []struct {
			file string
			args []any
		}{
			{"block_by.sql", []any{mid.Hash, nil, nil, nil}},
			{"block_by.sql", []any{nil, mid.No, nil, nil}},
			{"block_by.sql", []any{nil, nil, mid.Slot, nil}},
			{"block_by.sql", []any{nil, nil, mid.EpochSlot, mid.Epoch}},
			{"block_by.sql", []any{nil, nil, nil, nil}},
			{"block_ref.sql", []any{mid.Hash, nil}},
			{"block_ref.sql", []any{nil, nil}},
			{"block_unnumbered.sql", nil},
			{"block_list.sql", []any{mid.No, mid.No + 99, ids}},
			{"block_txs.sql", []any{mid.ID, 0, 99, true}},
			{"block_txs_cbor.sql", []any{mid.ID, 0, 99, false}},
			{"block_addresses.sql", []any{mid.ID, 100, 0}},
		} {
			checkPlans(t, db, mode, engine.MustRender("dbsync/"+tc.file, layout, nil).Text, tc.file, tc.args)
		}
	}
}

func checkPlans(t *testing.T, db *sqlx.DB, mode chaingen.Mode, query, file string, args []any) {
	t.Helper()
	custom, generic := testdb.Plans(t, db, query, args...)
	for name, plan := range map[string]string{"custom": custom, "generic": generic} {
		if bad := testdb.UnindexedScans(plan); len(bad) > 0 {
			t.Errorf("%s %s plan of %s %v: %s\n%s", mode, name, file, args, strings.Join(bad, "; "), plan)
		}
	}
}
