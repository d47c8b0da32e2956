package testdb

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
)

// BigTables are the db-sync tables that grow with the chain: a
// sequential scan of any of them, or an index read whole (an index scan
// with no condition), is a query that gets slower every block.
var BigTables = map[string]bool{"tx_out": true, "tx_in": true, "tx": true, "ma_tx_out": true, "ma_tx_mint": true,
	"multi_asset": true, "block": true, "redeemer": true, "datum": true, "redeemer_data": true, "script": true,
	"tx_metadata": true}

// Plans returns, in JSON, the plan PostgreSQL picks for query with args
// and the generic plan it caches for it as a prepared statement, both on
// a connection that prices sequential scans, hash and merge joins out (as
// the planner does where no index serves a table).
func Plans(t *testing.T, db *sqlx.DB, query string, args []any) (custom, generic string) {
	t.Helper()
	tx, err := db.BeginTxx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Get(&custom, "EXPLAIN (FORMAT JSON) "+query, args...); err != nil {
		t.Fatalf("EXPLAIN %.80s: %v", query, err)
	}
	if _, err := tx.Exec(`SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`PREPARE sg_generic AS ` + query); err != nil {
		t.Fatalf("PREPARE %.80s: %v", query, err)
	}
	// A prepared statement outlives the transaction, on a pooled session.
	defer tx.Exec(`DEALLOCATE sg_generic`) //nolint:errcheck // the session may be gone
	// A generic plan does not look at the values: NULLs stand in for them.
	execute := `EXECUTE sg_generic`
	if len(args) > 0 {
		execute += `(` + strings.TrimSuffix(strings.Repeat("NULL, ", len(args)), ", ") + `)`
	}
	if err := tx.Get(&generic, `EXPLAIN (FORMAT JSON) `+execute); err != nil {
		t.Fatalf("EXPLAIN EXECUTE %.80s: %v", query, err)
	}
	return custom, generic
}

// UnindexedScans lists a plan's scans of tables that no index condition
// bounds: sequential scans, and index scans read whole.
func UnindexedScans(plan string, tables map[string]bool) []string {
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(plan), &doc); err != nil || len(doc) != 1 {
		return []string{"unreadable plan"}
	}
	var bad []string
	var walk func(n planNode)
	walk = func(n planNode) {
		if tables[n.Relation] {
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
