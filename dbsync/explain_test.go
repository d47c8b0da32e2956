package dbsync_test

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

// bigTables are the db-sync tables that grow with the chain: a sequential
// scan of any of them, or an index scan with no index condition (a whole
// index read in order), is a query that gets slower every block.
var bigTables = map[string]bool{"tx_out": true, "tx_in": true, "tx": true, "ma_tx_out": true, "block": true}

type explainCase struct {
	file string
	args []any
}

// TestExplainIndexBacked plans every chain-data statement of this stream
// with representative parameters (the whale, an ordinary address, a stake
// key, a page of tx ids, a failed tx) on each mode's seeded database, with
// sequential scans priced out, and fails on any left on a big table.
func TestExplainIndexBacked(t *testing.T) {
	whaleIDs, smallIDs := pageIDs(t, samples.Whale), pageIDs(t, samples.Small[0])
	var outIDs []int64
	if err := chains[0].raw.Select(&outIDs, `SELECT id FROM tx_out WHERE address = $1 ORDER BY id LIMIT 50`, samples.Whale); err != nil {
		t.Fatal(err)
	}
	stake := pq.ByteaArray{samples.StakeKeys[0]}
	stakeHex, _ := dbsync.ParseStakeKey(hex.EncodeToString(samples.StakeKeys[0][1:]), true)
	failed, _ := hex.DecodeString(samples.FailedTxs[0])
	var midSlot int64
	if err := chains[0].raw.Get(&midSlot, `SELECT slot_no FROM block ORDER BY id OFFSET (SELECT count(*) / 2 FROM block) LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	var midID int64
	if err := chains[0].raw.Get(&midID, `SELECT max(id) / 2 FROM tx`); err != nil {
		t.Fatal(err)
	}
	shared := []explainCase{
		{"tx_first_id_from_slot.sql", []any{midSlot}},
		{"tx_by_hash.sql", []any{failed}},
		{"tx_outputs.sql", []any{pq.Array(whaleIDs)}},
		{"tx_outputs.sql", []any{pq.Array(smallIDs)}},
		{"tx_out_assets.sql", []any{pq.Array(outIDs)}},
	}
	perMode := func(suffix string) []explainCase {
		var cases []explainCase
		for _, a := range []string{samples.Whale, samples.Small[0], samples.Busy} {
			cases = append(cases,
				explainCase{"utxos_by_address" + suffix, []any{a}},
				explainCase{"balance_by_address" + suffix, []any{a}},
				explainCase{"tx_history_total" + suffix, []any{a}},
			)
			for _, page := range []string{"tx_history_page_desc", "tx_history_page_asc"} {
				for _, bounds := range [][2]int64{{0, math.MaxInt64}, {0, midID}, {midID, math.MaxInt64}} {
					cases = append(cases,
						explainCase{page + suffix, []any{a, bounds[0], bounds[1], 0, 21}},
						explainCase{page + suffix, []any{a, bounds[0], bounds[1], 40, 101}},
						explainCase{page + suffix, []any{a, bounds[0], bounds[1], 0, nil}},
					)
				}
			}
		}
		for _, key := range []any{stake, pq.ByteaArray(stakeHex.Candidates())} {
			cases = append(cases,
				explainCase{"utxos_by_stake" + suffix, []any{key}},
				explainCase{"balance_by_stake" + suffix, []any{key}},
			)
		}
		cases = append(cases,
			explainCase{"tx_inputs" + suffix, []any{pq.Array(whaleIDs)}},
			explainCase{"tx_inputs" + suffix, []any{pq.Array(smallIDs)}},
		)
		return cases
	}
	forEachChain(t, func(t *testing.T, c *chain) {
		suffix := ".sql"
		if c.mode == "consumed" {
			suffix = "_consumed.sql"
		}
		for _, tc := range append(perMode(suffix), shared...) {
			plan := explain(t, c, sqlfiles.Must("dbsync/"+tc.file), tc.args)
			if bad := unindexedScans(plan); len(bad) > 0 {
				t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
			}
		}
	})
}

// explain plans query with args on a connection that prices sequential
// scans out, as the planner does when no index can serve a table.
func explain(t *testing.T, c *chain, query string, args []any) string {
	t.Helper()
	tx, err := c.raw.BeginTxx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`); err != nil {
		t.Fatal(err)
	}
	var plan string
	if err := tx.Get(&plan, "EXPLAIN (FORMAT JSON) "+query, args...); err != nil {
		t.Fatalf("EXPLAIN %.60s: %v", query, err)
	}
	return plan
}

// unindexedScans lists the plan's scans of big tables that no index
// condition bounds.
func unindexedScans(plan string) []string {
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(plan), &doc); err != nil || len(doc) != 1 {
		return []string{"unreadable plan"}
	}
	var bad []string
	var walk func(n planNode)
	walk = func(n planNode) {
		if bigTables[n.Relation] {
			switch {
			case n.NodeType == "Seq Scan":
				bad = append(bad, "Seq Scan on "+n.Relation)
			case (n.NodeType == "Index Scan" || n.NodeType == "Index Only Scan") && n.IndexCond == "":
				bad = append(bad, "full "+n.NodeType+" of "+n.IndexName+" on "+n.Relation)
			}
		}
		for _, child := range n.Plans {
			walk(child)
		}
	}
	walk(doc[0].Plan)
	return bad
}

type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	IndexName string     `json:"Index Name"`
	IndexCond string     `json:"Index Cond"`
	Plans     []planNode `json:"Plans"`
}

// pageIDs are the tx ids of an address's newest transactions.
func pageIDs(t *testing.T, addr string) []int64 {
	t.Helper()
	var ids []int64
	if err := chains[0].raw.Select(&ids, `SELECT DISTINCT tx_id FROM tx_out WHERE address = $1 ORDER BY tx_id DESC LIMIT 20`, addr); err != nil {
		t.Fatal(err)
	}
	return ids
}
