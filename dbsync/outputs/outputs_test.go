package outputs_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/outputs"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// variants are the layouts whose statement text differs: core, consumed
// (the same text: spent or not does not matter here) and the address
// table.
var variants = []chaingen.Variant{
	{Mode: chaingen.ModeCore},
	{Mode: chaingen.ModeConsumed},
	{Mode: chaingen.ModeCore, AddressTable: true},
}

const seedTxs = 2500

type fact struct {
	Hash     string `db:"hash"`
	Index    uint32 `db:"index"`
	Address  string `db:"address"`
	Lovelace string `db:"lovelace"`
	Spent    bool   `db:"spent"`
}

// facts reads outputs spent and unspent, with this test's own SQL.
func facts(t *testing.T, raw *sqlx.DB, v chaingen.Variant) []fact {
	t.Helper()
	addr, join := "o.address", ""
	if v.AddressTable {
		addr, join = "a.address", "JOIN address a ON a.id = o.address_id"
	}
	spent := "EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
	if v.Mode == chaingen.ModeConsumed {
		spent = "o.consumed_by_tx_id IS NOT NULL"
	}
	var out []fact
	q := `(SELECT encode(t.hash, 'hex') AS hash, o.index, ` + addr + ` AS address, o.value::text AS lovelace, ` + spent + ` AS spent
	       FROM tx_out o JOIN tx t ON t.id = o.tx_id ` + join + ` WHERE ` + spent + ` ORDER BY o.id LIMIT 8)
	      UNION ALL
	      (SELECT encode(t.hash, 'hex'), o.index, ` + addr + `, o.value::text, ` + spent + `
	       FROM tx_out o JOIN tx t ON t.id = o.tx_id ` + join + ` WHERE NOT ` + spent + ` ORDER BY o.id DESC LIMIT 8)`
	if err := raw.Select(&out, q); err != nil {
		t.Fatal(err)
	}
	if len(out) != 16 {
		t.Fatalf("%d outputs to look up, want 8 spent and 8 unspent", len(out))
	}
	return out
}

func TestByRefMatchesSQL(t *testing.T) {
	for _, v := range variants {
		t.Run(v.String(), func(t *testing.T) {
			c := testdb.SharedDBSync(t, v, seedTxs)
			db := testdb.MustOpenDBSync(t, c.DSN)
			raw := sqlx.MustOpen("postgres", c.DSN)
			defer raw.Close()
			want := facts(t, raw, v)
			// Asked in another order, with an unknown transaction, an
			// index past a known transaction's outputs and a repeat.
			var refs []dbsync.OutputRef
			for i := len(want) - 1; i >= 0; i-- {
				refs = append(refs, dbsync.OutputRef{TxHash: want[i].Hash, Index: want[i].Index})
			}
			refs = append(refs, dbsync.OutputRef{TxHash: strings.Repeat("ab", 32), Index: 0},
				dbsync.OutputRef{TxHash: want[0].Hash, Index: 9999}, refs[3])
			got, err := outputs.ByRef(t.Context(), db, refs)
			if err != nil {
				t.Fatal(err)
			}
			wantAt := map[int]fact{len(refs) - 1: want[len(want)-1-3]}
			for i := range want {
				wantAt[i] = want[len(want)-1-i]
			}
			if len(got) != len(wantAt) {
				t.Fatalf("%d outputs found, want %d (the repeat twice, none for the unknown two)", len(got), len(wantAt))
			}
			for k, o := range got {
				w, ok := wantAt[o.Pos]
				if !ok || o.Address != w.Address || o.Lovelace != w.Lovelace || k > 0 && got[k-1].Pos >= o.Pos {
					t.Errorf("output %d: %+v, want %+v (in the references' order)", k, o, w)
				}
			}
			if got, err := outputs.ByRef(t.Context(), db, nil); got != nil || err != nil {
				t.Errorf("no references: %v %v", got, err)
			}
			if _, err := outputs.ByRef(t.Context(), db, []dbsync.OutputRef{{TxHash: "zz"}}); err == nil {
				t.Error("a malformed hash must be an error")
			}
			explainIndexBacked(t, raw, v, refs)
		})
	}
}

// explainIndexBacked plans the statement for the refs, and as the generic
// plan a prepared statement keeps, with sequential scans, hash and merge
// joins priced out: no big table may be read whole.
func explainIndexBacked(t *testing.T, raw *sqlx.DB, v chaingen.Variant, refs []dbsync.OutputRef) {
	t.Helper()
	query := engine.MustRender("dbsync/mempool_spent_outputs.sql",
		engine.Layout{Consumed: v.Mode == chaingen.ModeConsumed, AddressTable: v.AddressTable}, nil).Text
	hashes, indexes := pq.StringArray{}, pq.Int64Array{}
	for _, r := range refs {
		hashes = append(hashes, `\x`+r.TxHash)
		indexes = append(indexes, int64(r.Index))
	}
	tx := raw.MustBeginTx(t.Context(), nil)
	defer tx.Rollback() //nolint:errcheck // read-only
	tx.MustExec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`)
	var plan string
	if err := tx.Get(&plan, "EXPLAIN (FORMAT JSON) "+query, hashes, indexes); err != nil {
		t.Fatal(err)
	}
	if bad := unindexed(t, plan); len(bad) > 0 {
		t.Errorf("%s: %v\n%s", v, bad, plan)
	}
	tx.MustExec(`SET LOCAL plan_cache_mode = force_generic_plan`)
	tx.MustExec(`PREPARE spent_outputs AS ` + query)
	if err := tx.Get(&plan, `EXPLAIN (FORMAT JSON) EXECUTE spent_outputs(NULL, NULL)`); err != nil {
		t.Fatal(err)
	}
	if bad := unindexed(t, plan); len(bad) > 0 {
		t.Errorf("%s generic plan: %v\n%s", v, bad, plan)
	}
}

type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	IndexName string     `json:"Index Name"`
	IndexCond string     `json:"Index Cond"`
	Plans     []planNode `json:"Plans"`
}

// unindexed lists the plan's reads of tx, tx_out or address that no
// index condition bounds, and checks the lookups are there at all.
func unindexed(t *testing.T, plan string) []string {
	t.Helper()
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(plan), &doc); err != nil || len(doc) != 1 {
		t.Fatalf("unreadable plan: %v", err)
	}
	var bad []string
	probed := map[string]bool{}
	var walk func(planNode)
	walk = func(n planNode) {
		switch n.Relation {
		case "tx", "tx_out", "address":
			if n.NodeType == "Seq Scan" || n.IndexCond == "" {
				bad = append(bad, n.NodeType+" on "+n.Relation)
			}
			probed[n.Relation] = true
		}
		for _, c := range n.Plans {
			walk(c)
		}
	}
	walk(doc[0].Plan)
	if !probed["tx"] || !probed["tx_out"] {
		bad = append(bad, "tx and tx_out not both read")
	}
	return bad
}
