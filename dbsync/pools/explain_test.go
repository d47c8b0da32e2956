package pools_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const seedTxs = 3000

// TestExplainIndexBacked plans every statement of this package on each
// mode's chain, for the values it runs with and generically, with
// sequential scans priced out, and fails on a big table read without an
// index condition.
func TestExplainIndexBacked(t *testing.T) {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: mode}, seedTxs)
		db := testdb.Open(t, chain.DSN)
		var pool []byte
		var epoch int64
		if err := db.QueryRow(`SELECT ph.hash_raw, (SELECT max(epoch_no) FROM block) FROM pool_hash ph
			JOIN slot_leader sl ON sl.pool_hash_id = ph.id JOIN block b ON b.slot_leader_id = sl.id
			GROUP BY ph.id ORDER BY count(*) DESC LIMIT 1`).Scan(&pool, &epoch); err != nil {
			t.Fatal(err)
		}
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		for _, tc := range []struct {
			file string
			args []any
		}{
			{"pools_all.sql", nil},
			{"pools_epoch_stakes.sql", []any{epoch}},
			{"pools_block_counts.sql", []any{0, epoch - 1}},
			{"pools_block_counts.sql", []any{epoch, epoch}},
			{"pool_history.sql", []any{pool, 0, epoch - 2}},
			{"pool_blocks.sql", []any{pool}},
			{"pool_updates.sql", []any{pool}},
			{"pool_votes.sql", []any{pool}},
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
