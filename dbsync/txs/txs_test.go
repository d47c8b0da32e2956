package txs_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/txs"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/sql"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// seedTxs: the size the other packages' tests seed, which holds every
// kind of transaction the generator makes.
const seedTxs = 4000

// chain is one seeded layout: the store under test and a raw handle.
type chain struct {
	mode   chaingen.Mode
	layout engine.Layout
	db     *dbsync.DB
	raw    *sqlx.DB
	m      *chaingen.Manifest
}

// chains are the core and the consumed layout of the same chain.
func chains(t *testing.T) []chain {
	t.Helper()
	var out []chain
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		c := testdb.SharedDBSync(t, chaingen.Variant{Mode: mode}, seedTxs)
		out = append(out, chain{mode: mode, layout: engine.Layout{Consumed: mode == chaingen.ModeConsumed},
			db: testdb.MustOpenDBSync(t, c.DSN), raw: testdb.Open(t, c.DSN), m: c.Manifest})
	}
	return out
}

// samples are transactions holding each thing the statements read, found
// with SQL of the test's own, and a hash no transaction has.
func samples(t *testing.T, c chain) map[string]string {
	t.Helper()
	m := c.m.Txs
	out := map[string]string{"ordinary": m.Ordinary.Hash, "failed": m.Failed.Hash, "multi_asset": m.MultiAsset.Hash,
		"signers": m.RequiredSigners.Hash, "mir_treasury": m.MIRTreasury.Hash, "mir_reserves": m.MIRReserves.Hash,
		"cbor": m.CBOR.Hash, "unknown": strings.Repeat("0", 64)}
	for name, q := range map[string]string{
		"reference_inputs":  `SELECT tx_in_id FROM reference_tx_in`,
		"collateral_output": `SELECT tx_id FROM collateral_tx_out`,
		"inline_datum":      `SELECT tx_id FROM tx_out WHERE inline_datum_id IS NOT NULL`,
		"reference_script":  `SELECT tx_id FROM tx_out WHERE reference_script_id IS NOT NULL`,
		"pool_update":       `SELECT registered_tx_id FROM pool_update`,
		"pool_retire":       `SELECT announced_tx_id FROM pool_retire`,
		"delegation":        `SELECT tx_id FROM delegation`,
		"deregistration":    `SELECT tx_id FROM stake_deregistration`,
		"withdrawal":        `SELECT tx_id FROM withdrawal`,
		"metadata":          `SELECT tx_id FROM tx_metadata`,
		"redeemers":         `SELECT tx_id FROM redeemer`,
		"mint":              `SELECT tx_id FROM ma_tx_mint`,
	} {
		var h string
		if err := c.raw.Get(&h, `SELECT encode(hash, 'hex') FROM tx WHERE id = (`+q+` ORDER BY 1 LIMIT 1)`); err != nil {
			t.Fatalf("no sample with %s: %v", name, err)
		}
		out[name] = h
	}
	for name, h := range out {
		if len(h) != 64 {
			t.Fatalf("sample %s: %q", name, h)
		}
	}
	return out
}

func mustHash(t *testing.T, s string) cardano.TxHash {
	t.Helper()
	h, err := cardano.ParseTxHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// everything reads every answer of the store about one transaction.
func everything(t *testing.T, db *dbsync.DB, hash cardano.TxHash) map[string]any {
	t.Helper()
	ctx := t.Context()
	out := map[string]any{}
	add := func(name string, v any, err error) {
		if err != nil && !errors.Is(err, txs.ErrNoCBOR) {
			v = err.Error()
			if errors.Is(err, dbsync.ErrNotFound) {
				v = "not found"
			}
		}
		out[name] = v
	}
	c, err := txs.ContentOf(ctx, db, hash)
	add("content", c, err)
	u, err := txs.UTxOsOf(ctx, db, hash)
	add("utxos", u, err)
	st, err := txs.Stakes(ctx, db, hash)
	add("stakes", st, err)
	d, err := txs.Delegations(ctx, db, hash)
	add("delegations", d, err)
	w, err := txs.Withdrawals(ctx, db, hash)
	add("withdrawals", w, err)
	mi, err := txs.MIRs(ctx, db, hash)
	add("mirs", mi, err)
	pu, err := txs.PoolUpdates(ctx, db, hash)
	add("pool_updates", pu, err)
	pr, err := txs.PoolRetires(ctx, db, hash)
	add("pool_retires", pr, err)
	md, err := txs.Metadata(ctx, db, hash)
	add("metadata", md, err)
	r, err := txs.Redeemers(ctx, db, hash)
	add("redeemers", r, err)
	rs, err := txs.RequiredSigners(ctx, db, hash)
	add("required_signers", rs, err)
	cb, err := txs.CBOR(ctx, db, hash)
	add("cbor", cb, err)
	return out
}

// Both layouts describe the same chain: every answer about every sample
// is the same in each; an unknown hash is not found by every call, and a
// transaction without something has an empty list of it, not a missing one.
func TestAnswersAgreeAcrossLayouts(t *testing.T) {
	cs := chains(t)
	for name, h := range samples(t, cs[0]) {
		hash := mustHash(t, h)
		core, consumed := everything(t, cs[0].db, hash), everything(t, cs[1].db, hash)
		for part, v := range core {
			if !reflect.DeepEqual(v, consumed[part]) {
				a, _ := json.Marshal(v)
				b, _ := json.Marshal(consumed[part])
				t.Errorf("%s %s: core %s\nconsumed %s", name, part, a, b)
			}
			if s, isErr := v.(string); isErr && part != "cbor" && (name != "unknown" || s != "not found") {
				t.Errorf("%s %s: %s", name, part, s)
			}
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.IsNil() {
				t.Errorf("%s %s: a nil list", name, part)
			}
		}
	}
	// Which transactions keep their CBOR: those that have a tx_cbor row.
	smp := samples(t, cs[0])
	for _, name := range []string{"cbor", "ordinary"} {
		var kept bool
		if err := cs[0].raw.Get(&kept, `SELECT EXISTS (SELECT 1 FROM tx_cbor c JOIN tx ON tx.id = c.tx_id WHERE tx.hash = decode($1, 'hex'))`, smp[name]); err != nil {
			t.Fatal(err)
		}
		cbor, err := txs.CBOR(t.Context(), cs[0].db, mustHash(t, smp[name]))
		if kept != (err == nil) || (!kept && !errors.Is(err, txs.ErrNoCBOR)) || (kept && cbor == "") {
			t.Errorf("%s: CBOR %.20s… %v, kept in tx_cbor: %v", name, cbor, err, kept)
		}
	}
}

// TestExplainIndexBacked plans every statement for every sample on both
// layouts, as planned for its values and generically (how a prepared
// statement runs), with sequential scans and hash and merge joins priced
// out: any scan without an index condition on any table fails (each
// answer is about one transaction, so nothing may read a table whole).
func TestExplainIndexBacked(t *testing.T) {
	files := []string{}
	for _, f := range sqlfiles.Dir("dbsync") {
		if strings.HasPrefix(f, "dbsync/txs_") {
			files = append(files, f)
		}
	}
	if len(files) != 12 {
		t.Fatalf("%d txs_ statements: %v", len(files), files)
	}
	for _, c := range chains(t) {
		smp := samples(t, c)
		for _, f := range files {
			query := engine.MustRender(f, c.layout, nil).Text
			for name, h := range smp {
				hash, _ := hex.DecodeString(h)
				for _, generic := range []bool{false, true} {
					plan := explain(t, c.raw, query, hash, generic)
					if bad := unindexed(plan); len(bad) > 0 {
						t.Errorf("%s %s (%s, generic %v): %s\n%s", c.mode, f, name, generic, strings.Join(bad, "; "), plan)
					}
				}
			}
		}
	}
}

// explain plans query for the hash, in a transaction that prices
// sequential scans, hash and merge joins out; generic: the plan a prepared
// statement caches (forced, with NULL for the value it does not look at).
func explain(t *testing.T, raw *sqlx.DB, query string, hash []byte, generic bool) string {
	t.Helper()
	tx, err := raw.BeginTxx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`); err != nil {
		t.Fatal(err)
	}
	var plan string
	if !generic {
		if err := tx.Get(&plan, "EXPLAIN (FORMAT JSON) "+query, hash); err != nil {
			t.Fatalf("EXPLAIN %.60s: %v", query, err)
		}
		return plan
	}
	if _, err := tx.Exec(`SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`PREPARE sg_generic AS ` + query); err != nil {
		t.Fatalf("PREPARE %.60s: %v", query, err)
	}
	defer tx.Exec(`DEALLOCATE sg_generic`) //nolint:errcheck // PREPARE outlives the transaction
	if err := tx.Get(&plan, `EXPLAIN (FORMAT JSON) EXECUTE sg_generic(NULL)`); err != nil {
		t.Fatalf("EXPLAIN EXECUTE %.60s: %v", query, err)
	}
	return plan
}

type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	IndexName string     `json:"Index Name"`
	IndexCond string     `json:"Index Cond"`
	Plans     []planNode `json:"Plans"`
}

// unindexed lists the plan's scans of a table that no index condition
// bounds: a sequential scan, or a whole index read.
func unindexed(plan string) []string {
	var doc []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(plan), &doc); err != nil || len(doc) != 1 {
		return []string{"unreadable plan"}
	}
	var bad []string
	var walk func(n planNode)
	walk = func(n planNode) {
		switch {
		case n.NodeType == "Seq Scan":
			bad = append(bad, "Seq Scan on "+n.Relation)
		case slices.Contains([]string{"Index Scan", "Index Only Scan", "Bitmap Index Scan"}, n.NodeType) && n.IndexCond == "":
			bad = append(bad, "full "+n.NodeType+" of "+n.IndexName)
		}
		for _, child := range n.Plans {
			walk(child)
		}
	}
	walk(doc[0].Plan)
	return bad
}
