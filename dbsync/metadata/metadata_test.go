package metadata_test

import (
	"context"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/metadata"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const seedTxs = 4000

// TestExplainIndexBacked plans the label routes' statements. The labels'
// counts are planned over a short range (what every answer after a
// process's first reads); the first, over the whole table, is one pass by
// design.
func TestExplainIndexBacked(t *testing.T) {
	testdb.EachMode(t, seedTxs, func(t *testing.T, chain *testdb.Chain, raw *sqlx.DB, mode chaingen.Mode) {
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		var tip int64
		if err := raw.Get(&tip, `SELECT max(id) FROM tx`); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			file   string
			params map[string]any
			args   []any
			tables map[string]bool
		}{
			{"metadata_label_page.sql", map[string]any{"Order": "ASC"}, []any{"721", 0, 100, 0}, testdb.BigTables},
			{"metadata_label_page.sql", map[string]any{"Order": "ASC"}, []any{"721", tip / 2, 100, 7}, testdb.BigTables},
			{"metadata_label_page.sql", map[string]any{"Order": "DESC"}, []any{"721", 0, 5, 10}, testdb.BigTables},
			{"metadata_label_anchors.sql", nil, []any{"721", 0, 0, int64(math.MaxInt64), 256}, testdb.BigTables},
			{"metadata_label_anchors.sql", nil, []any{"721", tip / 2, 300, 600, 256}, testdb.BigTables},
			{"metadata_label_count.sql", nil, []any{"721", tip / 2, 513}, testdb.BigTables},
			{"metadata_label_known.sql", nil, []any{"721"}, testdb.BigTables},
			{"metadata_label_counts.sql", nil, []any{tip - 50, tip}, testdb.BigTables},
			{"metadata_tx_bounds.sql", nil, []any{2160}, testdb.BigTables},
		}
		walks := map[string]string{"metadata_label_page.sql": "sg_tx_metadata_key_tx_id", "metadata_label_anchors.sql": "sg_tx_metadata_key_tx_id", "metadata_label_count.sql": "sg_tx_metadata_key_tx_id"}
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

// TestCountsAtAddUp: the counts up to a final point at any depth, plus the
// counts from there to the tip, are the whole table's; and a keeper that
// had counted up to some transaction moves to the final point by reading
// only what lies between.
func TestCountsAtAddUp(t *testing.T) {
	chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: chaingen.ModeCore}, seedTxs)
	db, err := testdb.OpenDBSync(chain.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := sqlx.Open("postgres", chain.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var rows []struct {
		Label string `db:"label"`
		Count int64  `db:"count"`
	}
	if err := raw.Select(&rows, `SELECT key::text AS label, count(*) AS count FROM tx_metadata GROUP BY key`); err != nil {
		t.Fatal(err)
	}
	want := metadata.Counts{}
	for _, r := range rows {
		want[r.Label] = r.Count
	}
	var blocks int64
	if err := raw.Get(&blocks, `SELECT max(block_no) FROM block`); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, depth := range []int64{0, 10, blocks / 2, blocks + 10} {
		b, toFinal, toTip, err := metadata.CountsAt(ctx, db, depth, 0)
		if err != nil {
			t.Fatal(err)
		}
		if depth > blocks && (b.Final != 0 || toFinal != nil) || depth <= blocks/2 && (b.Final == 0 || b.Final > b.Tip) {
			t.Fatalf("depth %d: bounds %+v", depth, b)
		}
		if got := sum(toFinal, toTip); !maps.Equal(got, want) {
			t.Fatalf("depth %d: %v + %v, want %v", depth, toFinal, toTip, want)
		}
		// A keeper a third of the way to the final point.
		third := b.Final / 3
		var kept metadata.Counts
		if err := raw.Select(&rows, `SELECT key::text AS label, count(*) AS count FROM tx_metadata WHERE tx_id <= $1 GROUP BY key`, third); err != nil {
			t.Fatal(err)
		}
		kept = metadata.Counts{}
		for _, r := range rows {
			kept[r.Label] = r.Count
		}
		_, toFinal, toTip, err = metadata.CountsAt(ctx, db, depth, third)
		if err != nil {
			t.Fatal(err)
		}
		if got := sum(kept, sum(toFinal, toTip)); !maps.Equal(got, want) {
			t.Fatalf("depth %d from %d: %v + %v + %v, want %v", depth, third, kept, toFinal, toTip, want)
		}
	}
}

func sum(a, b metadata.Counts) metadata.Counts {
	out := metadata.Counts{}
	for k, v := range a {
		out[k] += v
	}
	for k, v := range b {
		out[k] += v
	}
	return out
}
