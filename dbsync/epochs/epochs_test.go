package epochs_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/epochs"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const seedTxs = 3000

// TestExplainIndexBacked plans every statement of this package on each
// mode's chain (and the 13.6 rendering of the figures on a 13.6 chain),
// for the values it runs with and generically, with sequential scans
// priced out: no big table read without an index condition, and a page
// of an epoch's stake distribution read by id.
func TestExplainIndexBacked(t *testing.T) {
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore}, {Mode: chaingen.ModeConsumed}, {Mode: chaingen.ModeCore, Schema: chaingen.Schema136}} {
		chain := testdb.SharedDBSync(t, v, seedTxs)
		db := testdb.Open(t, chain.DSN)
		epoch := int64(chain.Manifest.Tip.Epoch)
		pool, _ := hexBytes(chain.Manifest.Pools.Biggest.Hash)
		layout := engine.Layout{Consumed: v.Mode == chaingen.ModeConsumed}
		var firstID int64
		if err := db.Get(&firstID, `SELECT min(id) FROM epoch_stake WHERE epoch_no = $1`, epoch); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			file   string
			params map[string]any
			args   []any
			needs  string // an index the plan must read
		}{
			{"epoch_exists.sql", nil, []any{epoch}, ""},
			{"epoch_stake_extent.sql", nil, []any{epoch}, ""},
			{"epoch_stakes.sql", nil, []any{epoch, firstID + 200, firstID + 299, 100, 0}, "epoch_stake_pkey"},
			{"epoch_pool_stakes.sql", nil, []any{epoch, pool, 100, 0}, ""},
			{"epoch_block_extent.sql", nil, []any{epoch - 3}, ""},
			{"epoch_block_extent.sql", nil, []any{epoch}, ""},
			{"epoch_block_hashes.sql", nil, []any{100, 199, pq.Array([]int64{2}), true}, ""},
			{"epoch_pool_blocks.sql", nil, []any{epoch, pool, false, 100, 0}, ""},
			{"epoch_protocols.sql", nil, nil, ""},
			{"epoch_figures.sql", map[string]any{"Schema136": v.Schema == chaingen.Schema136}, []any{epoch - 5, epoch}, ""},
		}
		for _, tc := range cases {
			query := engine.MustRender("dbsync/"+tc.file, layout, tc.params).Text
			custom, generic := testdb.Plans(t, db, query, tc.args...)
			for name, plan := range map[string]string{"custom": custom, "generic": generic} {
				if bad := testdb.UnindexedScans(plan); len(bad) > 0 {
					t.Errorf("%s %s plan of %s %v: %s\n%s", v, name, tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
				if tc.needs != "" && !strings.Contains(plan, `"`+tc.needs+`"`) {
					t.Errorf("%s %s plan of %s does not read %s:\n%s", v, name, tc.file, tc.needs, plan)
				}
			}
		}
	}
}

// TestFiguresAcrossSchemas: the same chain's epochs on a 13.7 database
// (epoch_finalized and the blocks of the epoch in progress) and on a 13.6
// one (the epoch table), each as its blocks and transactions count them.
func TestFiguresAcrossSchemas(t *testing.T) {
	var answers []string
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore}, {Mode: chaingen.ModeCore, Schema: chaingen.Schema136}} {
		chain := testdb.SharedDBSync(t, v, seedTxs)
		db := testdb.MustOpenDBSync(t, chain.DSN)
		raw := testdb.Open(t, chain.DSN)
		es, err := epochs.Figures(t.Context(), db, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		if err := raw.Select(&want, `SELECT concat_ws(' ', b.epoch_no, count(DISTINCT b.id), count(t.id), COALESCE(sum(t.out_sum), 0),
				COALESCE(sum(t.fee), 0), extract(epoch FROM min(b.time))::bigint, extract(epoch FROM max(b.time))::bigint)
			FROM block b LEFT JOIN tx t ON t.block_id = b.id WHERE b.epoch_no IS NOT NULL GROUP BY b.epoch_no ORDER BY b.epoch_no`); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range es {
			got = append(got, strings.Join([]string{fmt.Sprint(e.Epoch), fmt.Sprint(e.BlockCount), fmt.Sprint(e.TxCount), e.Output, e.Fees,
				fmt.Sprint(e.FirstBlockTime.Unix()), fmt.Sprint(e.LastBlockTime.Unix())}, " "))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: figures\n%v\nwant\n%v", v, got, want)
		}
		answers = append(answers, strings.Join(got, "\n"))
		one, err := epochs.Figures(t.Context(), db, 3, 4)
		if err != nil || len(one) != 2 || one[0].Epoch != 3 {
			t.Fatalf("%s: epochs 3..4: %+v %v", v, one, err)
		}
	}
	if answers[0] != answers[1] {
		t.Fatal("13.7 and 13.6 differ")
	}
}

// TestStakesWithGaps: a page read by offset (the ids have a gap) is the
// page read by id range.
func TestStakesWithGaps(t *testing.T) {
	chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: chaingen.ModeCore}, seedTxs)
	db := testdb.MustOpenDBSync(t, chain.DSN)
	epoch := int64(chain.Manifest.Tip.Epoch)
	x, err := epochs.Extent(t.Context(), db, epoch)
	if err != nil || x.Rows < 30 || x.LastID-x.FirstID+1 != x.Rows {
		t.Fatalf("extent %+v %v", x, err)
	}
	gapped := x
	gapped.Rows-- // as if a row had gone: every page by offset
	for _, offset := range []int{0, 7, int(x.Rows) - 5, int(x.Rows)} {
		a, err := epochs.Stakes(t.Context(), db, epoch, x, offset, 10)
		if err != nil {
			t.Fatal(err)
		}
		b, err := epochs.Stakes(t.Context(), db, epoch, gapped, offset, 10)
		if err != nil || !slices.Equal(a, b) || len(a) != min(10, int(x.Rows)-offset) {
			t.Fatalf("offset %d: %d by range, %d by offset (%v)", offset, len(a), len(b), err)
		}
	}
}

func hexBytes(s string) ([]byte, error) {
	var b []byte
	_, err := fmt.Sscanf(s, "%x", &b)
	return b, err
}
