package dbsync_test

import (
	"context"
	"encoding/hex"
	"github.com/syncgate/syncgate/internal/cardano"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// submitChainTxs is the size of the chains seeded for the input checks.
const submitChainTxs = 2500

// openSubmitChain seeds a db-sync database in mode and opens it; both are
// dropped in t.Cleanup. (A database per test rather than per package, so this
// file needs no TestMain of its own.)
func openSubmitChain(t *testing.T, mode chaingen.Mode) (*dbsync.DB, *chaingen.Manifest) {
	t.Helper()
	dsn, m, drop, err := testdb.DBSync(mode, submitChainTxs)
	if err != nil {
		t.Fatalf("seed %s: %v", mode, err)
	}
	t.Cleanup(drop)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mainnet, _ := cardano.NetworkByName("mainnet")
	db, err := dbsync.Open(ctx, config.NetworkConfig{Network: mainnet, DBSyncURL: dsn}, 10*time.Second)
	if err != nil {
		t.Fatalf("open %s: %v", mode, err)
	}
	t.Cleanup(db.Close)
	if string(capsOf(db).UTxOMode) != string(mode) {
		t.Fatalf("seeded %s chain detected as %s", mode, capsOf(db).UTxOMode)
	}
	return db, m
}

// chainOutputs picks outputs of the seeded chain by the mode's own record of
// spending (tx_in rows in core mode, consumed_by_tx_id in consumed mode), with
// plain queries independent of the ones under test.
func chainOutputs(t *testing.T, db *sqlx.DB, mode chaingen.Mode, spent bool, n int) []dbsync.OutputRef {
	t.Helper()
	cond := `EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if mode == chaingen.ModeConsumed {
		cond = `o.consumed_by_tx_id IS NOT NULL`
	}
	if !spent {
		cond = "NOT " + cond
	}
	var rows []struct {
		Hash  string `db:"hash"`
		Index uint32 `db:"index"`
	}
	q := `SELECT encode(t.hash, 'hex') AS hash, o.index FROM tx_out o JOIN tx t ON t.id = o.tx_id
	      WHERE ` + cond + ` ORDER BY o.id LIMIT $1`
	if err := db.Select(&rows, q, n); err != nil {
		t.Fatal(err)
	}
	if len(rows) < n {
		t.Fatalf("the seeded chain has %d %s outputs matching, need %d", len(rows), mode, n)
	}
	refs := make([]dbsync.OutputRef, len(rows))
	for i, r := range rows {
		refs[i] = dbsync.OutputRef{TxHash: r.Hash, Index: r.Index}
	}
	return refs
}

// isSpent says whether ref exists and is spent, by the mode's own record.
func isSpent(t *testing.T, db *sqlx.DB, mode chaingen.Mode, ref dbsync.OutputRef) bool {
	t.Helper()
	q := `SELECT EXISTS (SELECT 1 FROM tx_in i JOIN tx t ON t.id = i.tx_out_id
	      WHERE t.hash = decode($1, 'hex') AND i.tx_out_index = $2)`
	if mode == chaingen.ModeConsumed {
		q = `SELECT EXISTS (SELECT 1 FROM tx_out o JOIN tx t ON t.id = o.tx_id
		     WHERE t.hash = decode($1, 'hex') AND o.index = $2 AND o.consumed_by_tx_id IS NOT NULL)`
	}
	var spent bool
	if err := db.Get(&spent, q, ref.TxHash, ref.Index); err != nil {
		t.Fatal(err)
	}
	return spent
}

func TestUnspentInputs(t *testing.T) {
	requireDB(t)
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		t.Run(string(mode), func(t *testing.T) {
			db, m := openSubmitChain(t, mode)
			unspent := chainOutputs(t, db.Primary(), mode, false, 2)
			spent := chainOutputs(t, db.Primary(), mode, true, 1)[0]
			u0, u1 := unspent[0], unspent[1]
			unknownTx := dbsync.OutputRef{TxHash: strings.Repeat("ab", 32), Index: 0}
			unknownIndex := dbsync.OutputRef{TxHash: u0.TxHash, Index: 30000}
			hugeIndex := dbsync.OutputRef{TxHash: u0.TxHash, Index: 1<<32 - 1}
			// A transaction that failed phase-2 validation: its regular outputs
			// never existed; its collateral return did (DECISIONS.md).
			if m.Txs.CollateralReturnIndex < 1 {
				t.Fatalf("manifest: failed tx collateral return index %d", m.Txs.CollateralReturnIndex)
			}
			failedRegular := dbsync.OutputRef{TxHash: m.Txs.Failed.Hash, Index: 0}
			collReturn := dbsync.OutputRef{TxHash: m.Txs.Failed.Hash, Index: uint32(m.Txs.CollateralReturnIndex)}
			collReturnWant := -1
			if isSpent(t, db.Primary(), mode, collReturn) {
				collReturnWant = 1
			}
			cases := []struct {
				name   string
				inputs []dbsync.OutputRef
				want   int
			}{
				{"none", nil, -1},
				{"one unspent", []dbsync.OutputRef{u0}, -1},
				{"two unspent", []dbsync.OutputRef{u1, u0}, -1},
				{"the same unspent twice", []dbsync.OutputRef{u0, u0}, -1},
				{"spent alone", []dbsync.OutputRef{spent}, 0},
				{"spent after unspent", []dbsync.OutputRef{u0, spent}, 1},
				{"spent before unknown", []dbsync.OutputRef{u0, spent, unknownTx}, 1},
				{"unknown before spent", []dbsync.OutputRef{u1, unknownTx, spent}, 1},
				{"unknown transaction", []dbsync.OutputRef{unknownTx}, 0},
				{"unknown output index", []dbsync.OutputRef{u0, u1, unknownIndex}, 2},
				{"index beyond smallint", []dbsync.OutputRef{hugeIndex, u0}, 0},
				{"regular output of a failed transaction", []dbsync.OutputRef{u0, failedRegular}, 1},
				{"collateral return of a failed transaction", []dbsync.OutputRef{u0, collReturn}, collReturnWant},
			}
			for _, tc := range cases {
				got, err := db.UnspentInputs(t.Context(), tc.inputs)
				if err != nil || got != tc.want {
					t.Errorf("%s: got %d %v, want %d", tc.name, got, err, tc.want)
				}
			}
			if _, err := db.UnspentInputs(t.Context(), []dbsync.OutputRef{{TxHash: "zz"}}); err == nil {
				t.Error("a malformed hash must be an error")
			}
			explainUnspentInputs(t, db, mode, u0, spent)
		})
	}
}

// explainUnspentInputs checks that the mode's statement is index-backed: with
// sequential scans disabled, its plan still shows none.
func explainUnspentInputs(t *testing.T, db *dbsync.DB, mode chaingen.Mode, refs ...dbsync.OutputRef) {
	t.Helper()
	query := statementFor("dbsync/unspent_inputs.sql", mode, nil)
	hashes := pq.ByteaArray{}
	indexes := pq.Int64Array{}
	for _, r := range refs {
		h, _ := hex.DecodeString(r.TxHash)
		hashes = append(hashes, h)
		indexes = append(indexes, int64(r.Index))
	}
	tx, err := db.Primary().BeginTxx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	var plan []string
	if err := tx.Select(&plan, "EXPLAIN "+query, hashes, indexes); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if strings.Contains(text, "Seq Scan") {
		t.Errorf("%s is not index-backed:\n%s", "unspent_inputs.sql", text)
	}
	if generic := genericPlan(t, tx, query, []any{hashes, indexes}); strings.Contains(generic, "Seq Scan") {
		t.Errorf("generic plan of %s is not index-backed:\n%s", "unspent_inputs.sql", generic)
	}
}
