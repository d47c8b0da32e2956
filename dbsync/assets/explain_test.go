package assets_test

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const seedTxs = 4000

// TestExplainIndexBacked plans every statement of the asset routes on
// each mode's seeded chain, as planned for their values and as the
// generic plan a prepared statement runs, and fails on any scan of a big
// table that no index bounds. The list of every asset walks
// multi_asset_pkey from one end (or from a keyset anchor) and stops after
// its page, and the first harvest of its anchors walks it whole once: that
// index is read without a condition by design.
func TestExplainIndexBacked(t *testing.T) {
	testdb.EachMode(t, seedTxs, func(t *testing.T, chain *testdb.Chain, raw *sqlx.DB, mode chaingen.Mode) {
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		var busy struct {
			Policy []byte `db:"policy"`
			Name   []byte `db:"name"`
		}
		// The asset held in the most outputs.
		if err := raw.Get(&busy, `SELECT ma.policy, ma.name FROM ma_tx_out mto JOIN multi_asset ma ON ma.id = mto.ident
				GROUP BY ma.id ORDER BY count(*) DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		var lastID int64
		if err := raw.Get(&lastID, `SELECT max(id) FROM multi_asset`); err != nil {
			t.Fatal(err)
		}
		ref := chain.Manifest.Assets.CIP68.ReferenceUnit
		refPolicy, refName := hexBytes(t, ref[:56]), hexBytes(t, ref[57:])
		asc, desc := map[string]any{"Order": "ASC"}, map[string]any{"Order": "DESC"}
		allAssets := maps.Clone(testdb.BigTables)
		delete(allAssets, "multi_asset")
		cases := []struct {
			file   string
			params map[string]any
			args   []any
			tables map[string]bool
		}{
			{"assets_asset.sql", nil, []any{busy.Policy, busy.Name}, testdb.BigTables},
			{"assets_cip68_datum.sql", nil, []any{refPolicy, refName}, testdb.BigTables},
			{"assets_list.sql", asc, []any{0, 100, 0}, allAssets},
			{"assets_list.sql", asc, []any{lastID / 2, 100, 7}, testdb.BigTables},
			{"assets_list.sql", desc, []any{0, 10, 20}, allAssets},
			{"assets_list_anchors.sql", nil, []any{0, 0, int64(math.MaxInt64), 256}, allAssets},
			{"assets_list_anchors.sql", nil, []any{lastID / 2, 300, 600, 256}, testdb.BigTables},
			{"assets_list_count.sql", nil, []any{lastID / 2, 513}, testdb.BigTables},
			{"assets_is.sql", nil, []any{lastID, []byte("unit")}, testdb.BigTables},
			{"assets_policy.sql", asc, []any{busy.Policy, 0, 100, 0}, testdb.BigTables},
			{"assets_policy.sql", asc, []any{busy.Policy, lastID / 2, 100, 7}, testdb.BigTables},
			{"assets_policy.sql", desc, []any{busy.Policy, 0, 5, 10}, testdb.BigTables},
			{"assets_policy_anchors.sql", nil, []any{busy.Policy, 0, 0, int64(math.MaxInt64), 256}, testdb.BigTables},
			{"assets_policy_anchors.sql", nil, []any{busy.Policy, lastID / 2, 300, 600, 256}, testdb.BigTables},
			{"assets_policy_count.sql", nil, []any{busy.Policy, lastID / 2, 513}, testdb.BigTables},
			{"assets_policy_known.sql", nil, []any{busy.Policy}, testdb.BigTables},
			{"assets_history.sql", asc, []any{busy.Policy, busy.Name, 100, 0}, testdb.BigTables},
			{"assets_history.sql", desc, []any{busy.Policy, busy.Name, 5, 10}, testdb.BigTables},
			{"assets_txs.sql", asc, []any{busy.Policy, busy.Name, 100, 0, 0, int64(math.MaxInt64)}, testdb.BigTables},
			{"assets_txs.sql", desc, []any{busy.Policy, busy.Name, 5, 10, 100, 2000}, testdb.BigTables},
			{"assets_utxos.sql", nil, []any{busy.Policy, busy.Name}, testdb.BigTables},
			{"assets_holders.sql", nil, []any{busy.Policy, busy.Name}, testdb.BigTables},
		}
		walks := map[string]string{"assets_policy.sql": "sg_multi_asset_policy_id", "assets_policy_anchors.sql": "sg_multi_asset_policy_id", "assets_policy_count.sql": "sg_multi_asset_policy_id", "assets_txs.sql": "sg_ma_tx_out_ident_tx_out_id", "assets_history.sql": "sg_ma_tx_mint_ident_tx_id"}
		for _, tc := range cases {
			query := engine.MustRender("dbsync/"+tc.file, layout, tc.params).Text
			custom, generic := testdb.Plans(t, raw, query, tc.args...)
			for name, plan := range map[string]string{"plan": custom, "generic plan": generic} {
				if bad := testdb.UnindexedScansIn(plan, tc.tables); len(bad) > 0 {
					t.Errorf("%s of %s %v: %s\n%s", name, tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
			}
			// The page walks the index made for it (not a sort of
			// every row the condition matches).
			if want := walks[tc.file]; want != "" && !strings.Contains(generic, want) {
				t.Errorf("generic plan of %s walks no %s:\n%s", tc.file, want, generic)
			}
		}
	})
}
