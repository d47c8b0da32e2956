package scripts_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const seedTxs = 4000

// TestExplainIndexBacked plans every statement of the script routes on
// each mode's seeded chain, as planned for their values and as the
// generic plan a prepared statement runs, and fails on any scan of a big
// table that no index bounds. The list of every script walks script_pkey
// from one end and stops after its page: that index is read without a
// condition by design.
func TestExplainIndexBacked(t *testing.T) {
	testdb.EachMode(t, seedTxs, func(t *testing.T, chain *testdb.Chain, raw *sqlx.DB, mode chaingen.Mode) {
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		var busy, withOutputs, datum []byte
		if err := raw.Get(&busy, `SELECT script_hash FROM redeemer GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		if err := raw.Get(&withOutputs, `SELECT s.hash FROM script s JOIN tx_out o ON o.reference_script_id = s.id LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		if err := raw.Get(&datum, `SELECT hash FROM datum LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		asc, desc := map[string]any{"Order": "ASC"}, map[string]any{"Order": "DESC"}
		allScripts := maps.Clone(testdb.BigTables)
		delete(allScripts, "script")
		cases := []struct {
			file   string
			params map[string]any
			args   []any
			tables map[string]bool
		}{
			{"scripts_list.sql", asc, []any{100, 0}, allScripts},
			{"scripts_list.sql", desc, []any{10, 20}, allScripts},
			{"scripts_by_hash.sql", nil, []any{busy}, testdb.BigTables},
			{"scripts_redeemers.sql", asc, []any{busy, 100, 0}, testdb.BigTables},
			{"scripts_redeemers.sql", desc, []any{busy, 5, 10}, testdb.BigTables},
			{"scripts_datum.sql", nil, []any{datum}, testdb.BigTables},
			{"scripts_utxos.sql", map[string]any{"Scripts": true}, []any{withOutputs, -1, -1, 500}, testdb.BigTables},
		}
		for _, tc := range cases {
			query := engine.MustRender("dbsync/"+tc.file, layout, tc.params).Text
			custom, generic := testdb.Plans(t, raw, query, tc.args...)
			for name, plan := range map[string]string{"plan": custom, "generic plan": generic} {
				if bad := testdb.UnindexedScansIn(plan, tc.tables); len(bad) > 0 {
					t.Errorf("%s of %s %v: %s\n%s", name, tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
			}
		}
	})
}
