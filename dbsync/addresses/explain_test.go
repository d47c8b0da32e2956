package addresses_test

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// seedTxs: enough for the whale, assets of every kind and scripts.
const seedTxs = 4000

// TestExplainIndexBacked plans every statement of the address routes
// (and the UTxO listings with inline datums and reference scripts they
// read) on each mode's seeded chain, as planned for their values and as
// the generic plan a prepared statement runs, and fails on any scan of a
// big table that no index bounds.
func TestExplainIndexBacked(t *testing.T) {
	testdb.EachMode(t, seedTxs, func(t *testing.T, chain *testdb.Chain, raw *sqlx.DB, mode chaingen.Mode) {
		m := chain.Manifest
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		cred, _ := hex.DecodeString(m.Credentials.Payment.Hex)
		script, _ := hex.DecodeString(m.Credentials.Script.Hex)
		var ids []int64
		if err := raw.Select(&ids, `SELECT tx_id FROM tx_out WHERE address = $1 ORDER BY tx_id DESC LIMIT 100`, m.Whale.Address); err != nil {
			t.Fatal(err)
		}
		var midBlock int64
		if err := raw.Get(&midBlock, `SELECT max(block_no) / 2 FROM block`); err != nil {
			t.Fatal(err)
		}
		policies, names, refs, cip68 := assetArrays(t, raw, m)
		scripts := map[string]any{"Scripts": true}
		cases := []struct {
			file   string
			params map[string]any
			args   []any
		}{
			{"addresses_head.sql", nil, []any{m.Whale.Address}},
			{"addresses_head.sql", nil, []any{m.ByronAddress.Address}},
			{"addresses_credential_seen.sql", nil, []any{cred}},
			{"addresses_credential_seen.sql", nil, []any{script}},
			{"addresses_totals.sql", map[string]any{"Owner": "address"}, []any{m.Whale.Address}},
			{"addresses_totals.sql", map[string]any{"Owner": "address"}, []any{m.AssetAddress.Address}},
			{"addresses_totals.sql", map[string]any{"Owner": "credential"}, []any{cred}},
			{"addresses_totals.sql", map[string]any{"Owner": "credential"}, []any{script}},
			{"addresses_totals.sql", map[string]any{"Owner": "stake"}, []any{stakeRaw(t, raw, m.BusiestStakeKey.StakeAddress)}},
			{"addresses_tx_index.sql", nil, []any{pq.Array(ids)}},
			{"addresses_tx_bound.sql", nil, []any{midBlock, 3}},
			{"addresses_tx_bound.sql", nil, []any{int64(math.MaxInt32), 0}},
			{"addresses_asset_metadata.sql", nil, []any{policies, names, refs, cip68}},
			{"utxos_by_address.sql", scripts, []any{m.ScriptAddress.Address, -1, -1, 500}},
			{"utxos_by_address.sql", scripts, []any{m.Whale.Address, ids[len(ids)-1], 0, 500}},
			{"utxos_by_credential.sql", scripts, []any{script, -1, -1, 500}},
		}
		for _, tc := range cases {
			query := engine.MustRender("dbsync/"+tc.file, layout, tc.params).Text
			custom, generic := testdb.Plans(t, raw, query, tc.args...)
			for name, plan := range map[string]string{"plan": custom, "generic plan": generic} {
				if bad := testdb.UnindexedScansIn(plan, testdb.BigTables); len(bad) > 0 {
					t.Errorf("%s of %s %v: %s\n%s", name, tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
			}
		}
	})
}

// assetArrays are addresses_asset_metadata's arguments for the asset
// address's assets and every CIP-68 user token.
func assetArrays(t *testing.T, raw *sqlx.DB, m *chaingen.Manifest) (policies, names, refs pq.ByteaArray, cip68 pq.BoolArray) {
	t.Helper()
	var units []string
	if err := raw.Select(&units, `SELECT DISTINCT encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex')
		FROM tx_out o JOIN ma_tx_out x ON x.tx_out_id = o.id JOIN multi_asset ma ON ma.id = x.ident WHERE o.address = $1`, m.AssetAddress.Address); err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Assets.CIP68All {
		units = append(units, r.UserUnit)
	}
	for _, u := range units {
		id, err := cardano.ParseAssetID(u)
		if err != nil {
			t.Fatal(err)
		}
		ref, ok := id.CIP68Reference()
		policies, names, refs, cip68 = append(policies, id.Policy[:]), append(names, id.Name), append(refs, ref.Name), append(cip68, ok)
	}
	return policies, names, refs, cip68
}

// stakeRaw is the stake address's candidates as the stake statements take
// them (its hash_raw).
func stakeRaw(t *testing.T, raw *sqlx.DB, view string) pq.ByteaArray {
	t.Helper()
	var b []byte
	if err := raw.Get(&b, `SELECT hash_raw FROM stake_address WHERE view = $1`, view); err != nil {
		t.Fatal(err)
	}
	return pq.ByteaArray{b}
}
