package testdb

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
)

// BigTables are the db-sync tables that grow with the chain: a
// sequential scan of one, or an index scan with no index condition (a
// whole index read in order), gets slower every block.
var BigTables = map[string]bool{"tx_out": true, "tx_in": true, "tx": true, "ma_tx_out": true, "ma_tx_mint": true,
	"multi_asset": true, "block": true, "epoch_stake": true, "reward": true, "stake_address": true, "delegation": true,
	"tx_cbor": true, "redeemer": true, "datum": true, "redeemer_data": true, "script": true, "tx_metadata": true}

// Plans returns the JSON plans of query with args as PostgreSQL makes it
// for these values and as a prepared statement's generic plan (what
// every run after the fifth on a connection uses), each in a transaction
// that prices sequential scans, hash and merge joins out (as the planner
// does when no index can serve a table).
func Plans(t testing.TB, db *sqlx.DB, query string, args ...any) (custom, generic string) {
	t.Helper()
	plan := func(generic bool) string {
		tx, err := db.BeginTxx(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback() //nolint:errcheck // planning only
		if _, err := tx.Exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`); err != nil {
			t.Fatal(err)
		}
		var out string
		if !generic {
			if err := tx.Get(&out, "EXPLAIN (FORMAT JSON) "+query, args...); err != nil {
				t.Fatalf("EXPLAIN %.80s: %v", query, err)
			}
			return out
		}
		if _, err := tx.Exec(`SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`PREPARE sg_plan AS ` + query); err != nil {
			t.Fatalf("PREPARE %.80s: %v", query, err)
		}
		// A prepared statement outlives the transaction (it is the session's).
		defer tx.Exec(`DEALLOCATE sg_plan`) //nolint:errcheck // rolled back after
		execute := `EXECUTE sg_plan`
		if len(args) > 0 {
			// A generic plan does not look at the values.
			execute += `(` + strings.TrimSuffix(strings.Repeat("NULL, ", len(args)), ", ") + `)`
		}
		if err := tx.Get(&out, `EXPLAIN (FORMAT JSON) `+execute); err != nil {
			t.Fatalf("EXPLAIN EXECUTE %.80s: %v", query, err)
		}
		return out
	}
	return plan(false), plan(true)
}

// UnindexedScans lists a JSON plan's scans of BigTables that no index
// condition bounds.
func UnindexedScans(plan string) []string { return UnindexedScansIn(plan, BigTables) }

// UnindexedScansIn is UnindexedScans for another set of tables (a test
// that knows one table to be small on its chain leaves it out).
func UnindexedScansIn(plan string, tables map[string]bool) []string {
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
