package dbsync_test

import (
	"encoding/hex"
	"encoding/json"
	"github.com/syncgate/syncgate/internal/cardano"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
)

// spentChain is a core chain with syncgate's unspent-output index, opened
// twice: reading the index (db) and not (plain), so the two renderings can
// be compared on the very same data, whatever is done to it.
type spentChain struct {
	*layoutChain
	plain *dbsync.DB
	index *utxoindex.Index
	// lastJumps: the DB jumpPages read through last.
	lastJumps *dbsync.DB
}

// seedSpent seeds v (a core variant) like the suite's chains, builds the
// index up to lag blocks below the tip and switches db to it.
func seedSpent(t *testing.T, v chaingen.Variant, lag int) *spentChain {
	t.Helper()
	return seedSpentKeeping(t, v, lag, 40)
}

// seedSpentKeeping is seedSpent with the marks kept keep blocks
// (utxoindex.KeepAll: for ever).
func seedSpentKeeping(t *testing.T, v chaingen.Variant, lag, keep int) *spentChain {
	t.Helper()
	lc := seedLayout(t, v)
	x, err := utxoindex.New(t.Context(), lc.raw, utxoindex.Options{Batch: 700, Lag: lag, Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.CatchUp(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	useIndex(t, lc.db)
	plain := testdb.MustOpenDBSync(t, lc.dsn)
	return &spentChain{layoutChain: lc, plain: plain, index: x}
}

// useIndex switches db to the index and waits until its primary has
// prepared the index's statements and reads them.
func useIndex(t *testing.T, db *dbsync.DB) {
	t.Helper()
	db.UseSpentIndex(true)
	db.UseSpentMarks(true)
	deadline := time.Now().Add(15 * time.Second)
	for !db.SpentIndexOn() {
		if time.Now().After(deadline) {
			t.Fatal("the DB did not switch to the unspent-output index")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSpentIndexLayoutsAgree: with the index (built to 5 blocks below the
// tip, so every answer also reads the tail after it), every endpoint
// family answers as the core chain does, on both address layouts.
func TestSpentIndexLayoutsAgree(t *testing.T) {
	t.Parallel() // its own chains; the shared ones only read
	needChains(t)
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, AddressTable: true, Schema: chaingen.Schema137},
	} {
		t.Run(strings.ReplaceAll(v.String(), "/", "_"), func(t *testing.T) {
			sc := seedSpent(t, v, 5)
			want := dbsync.Layout{AddressTable: v.AddressTable, SpentIndex: true}
			if got := capsOf(sc.db).Layout(); got != (dbsync.Layout{AddressTable: v.AddressTable}) {
				t.Fatalf("detected layout %s", got)
			}
			if !sc.db.SpentIndexOn() {
				t.Fatalf("not reading the index (%s)", want)
			}
			compareLayouts(t, chains[0].db, sc.layoutChain)
			sc.db.UseSpentIndex(false)
			if sc.db.SpentIndexOn() {
				t.Error("still reading the index after UseSpentIndex(false)")
			}
		})
	}
}

// TestSpentIndexExactWhileBehind: answers read through the index equal the
// plain core answers on the same database when the index is far behind the
// tip, when db-sync has rolled back below it (before the maintainer has
// rewound it, then after), and when the rolled-back blocks come back with
// new ids (before and after the index catches up).
func TestSpentIndexExactWhileBehind(t *testing.T) {
	requireDB(t)
	ctx := t.Context()
	sc := seedSpent(t, chaingen.Variant{Mode: chaingen.ModeCore, Schema: chaingen.Schema137}, 60)
	st, err := sc.index.Status(ctx)
	if err != nil || !st.Valid || st.Lag() < 60 {
		t.Fatalf("status %+v (%v), want valid and 60 blocks behind", st, err)
	}
	compareUnspent(t, "60 blocks behind", sc)

	x, err := utxoindex.New(ctx, sc.raw, utxoindex.Options{Batch: 700, Lag: 0, Keep: 40})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.CatchUp(ctx, nil); err != nil {
		t.Fatal(err)
	}
	compareUnspent(t, "at the tip", sc)

	cut, err := testdb.CutBlocks(ctx, sc.raw, 8)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := x.Status(ctx); err != nil || st.Valid {
		t.Fatalf("status after the rollback: %+v (%v), want invalid", st, err)
	}
	compareUnspent(t, "rolled back below H, not rewound", sc)
	if _, err := x.CatchUp(ctx, nil); err != nil {
		t.Fatal(err)
	}
	compareUnspent(t, "rewound", sc)
	if err := cut.Restore(ctx, 50000); err != nil {
		t.Fatal(err)
	}
	compareUnspent(t, "blocks back, index behind", sc)
	if _, err := x.CatchUp(ctx, nil); err != nil {
		t.Fatal(err)
	}
	compareUnspent(t, "blocks back, index caught up", sc)
}

// compareUnspent asks the index-reading DB and the plain one for the
// unspent outputs and balances of the sample addresses, stake keys and
// payment credentials, and wants the same answers.
func compareUnspent(t *testing.T, when string, sc *spentChain) {
	t.Helper()
	ctx := t.Context()
	if !sc.db.SpentIndexOn() {
		t.Fatalf("%s: not reading the index", when)
	}
	n := 0
	same := func(what string, call func(db *dbsync.DB) (any, error)) {
		t.Helper()
		want, err := call(sc.plain)
		if err != nil {
			t.Fatalf("%s, %s without the index: %v", when, what, err)
		}
		got, err := call(sc.db)
		if err != nil {
			t.Fatalf("%s, %s with the index: %v", when, what, err)
		}
		if render(got) != render(want) {
			t.Errorf("%s: %s differs with the index:\n got %.600s\nwant %.600s", when, what, render(got), render(want))
		}
		if render(want) != "[]" {
			n++
		}
	}
	for _, a := range samples.Addresses() {
		addr := mustAddress(t, a)
		same("UTxOs of "+a, func(db *dbsync.DB) (any, error) { return db.UTxOsByAddress(ctx, addr) })
		same("balance of "+a, func(db *dbsync.DB) (any, error) { return db.BalanceByAddress(ctx, addr) })
	}
	for _, raw := range samples.StakeKeys {
		key, err := cardano.ParseStakeKey(hex.EncodeToString(raw[1:]), true)
		if err != nil {
			t.Fatal(err)
		}
		same("UTxOs of stake "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return db.UTxOsByStake(ctx, key) })
		same("balance of stake "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return db.BalanceByStake(ctx, key) })
	}
	var creds []string
	if err := sc.raw.Select(&creds, `(SELECT encode(payment_cred, 'hex') FROM tx_out WHERE payment_cred IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3)
		UNION ALL (SELECT encode(payment_cred, 'hex') FROM tx_out WHERE address_has_script GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range creds {
		cred, err := cardano.ParsePaymentCredential(c)
		if err != nil {
			t.Fatal(err)
		}
		same("UTxOs of credential "+c, func(db *dbsync.DB) (any, error) { return db.UTxOsByCredential(ctx, cred) })
		same("balance of credential "+c, func(db *dbsync.DB) (any, error) { return db.BalanceByCredential(ctx, cred) })
	}
	if n < 10 {
		t.Errorf("%s: only %d non-empty answers compared", when, n)
	}
}

// spentFiles are the statements with a +utxoindex rendering, and the index
// each must read.
var spentFiles = map[string]string{
	"utxos_by_address.sql": "output_live_address", "balance_by_address.sql": "output_live_address",
	"utxos_by_stake.sql": "output_live_stake", "balance_by_stake.sql": "output_live_stake",
	"utxos_by_credential.sql": "output_live_payment_cred", "balance_by_credential.sql": "output_live_payment_cred",
	"tx_history_recent.sql": "output_spent_address", "tx_history_count_after_marked.sql": "output_spent_address",
	"tx_history_anchors_marked.sql": "output_spent_address",
}

// recentParams and recentAscParams render tx_history_recent.sql as the
// service does, newest and oldest first.
var (
	recentParams    = map[string]any{"TailCap": dbsync.RecentTailCap, "Order": "DESC"}
	recentAscParams = map[string]any{"TailCap": dbsync.RecentTailCap, "Order": "ASC"}
)

// TestExplainSpentIndex plans the +utxoindex statements on both address
// layouts for the whale, the busy address and an ordinary one, the busiest
// stake keys and payment credentials, as written and as generic plans,
// with sequential scans priced out: none may scan a big table unbounded,
// each must read its live-output index. Then it runs the whale's and the
// busiest stake key's statements (EXPLAIN ANALYZE, ordinary planner
// settings) and counts the tx_out rows read through an address, stake or
// credential index: no more than the outputs after the index's high-water
// tx, where the core rendering reads the whole history.
func TestExplainSpentIndex(t *testing.T) {
	t.Parallel() // its own chains; the shared ones only read
	needChains(t)
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, AddressTable: true, Schema: chaingen.Schema137},
	} {
		t.Run(strings.ReplaceAll(v.String(), "/", "_"), func(t *testing.T) {
			sc := seedSpent(t, v, 5)
			c := &chain{mode: v.Mode, db: sc.db, raw: sc.raw}
			layout := dbsync.Layout{AddressTable: v.AddressTable, SpentIndex: true}
			var creds [][]byte
			if err := sc.raw.Select(&creds, `SELECT payment_cred FROM syncgate_utxo.output WHERE payment_cred IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2`); err != nil {
				t.Fatal(err)
			}
			stake := pq.ByteaArray{samples.StakeKeys[0]}
			var cases []explainCase
			for _, a := range []string{samples.Whale, samples.Busy, samples.Small[0]} {
				cases = append(cases,
					explainCase{"utxos_by_address.sql", []any{a, -1, -1, 500}, nil},
					explainCase{"utxos_by_address.sql", []any{a, 1000, 0, 500}, nil},
					explainCase{"balance_by_address.sql", []any{a}, nil},
					explainCase{"tx_history_recent.sql", []any{a, 0, int64(math.MaxInt64), 0, 21}, recentParams},
					explainCase{"tx_history_recent.sql", []any{a, 0, 3000, 40, 21}, recentParams},
					explainCase{"tx_history_recent.sql", []any{a, 3000, int64(math.MaxInt64), 0, 21}, recentAscParams},
					explainCase{"tx_history_anchors_marked.sql", []any{a, 0, int64(math.MaxInt64), 300, 7}, recentParams},
					explainCase{"tx_history_anchors_marked.sql", []any{a, 1000, int64(math.MaxInt64), 300, 7}, recentAscParams},
					explainCase{"tx_history_count_after_marked.sql", []any{a, 3000}, recentParams})
			}
			cases = append(cases,
				explainCase{"utxos_by_stake.sql", []any{stake, -1, -1, 500}, nil},
				explainCase{"balance_by_stake.sql", []any{stake}, nil})
			for _, cred := range creds {
				cases = append(cases,
					explainCase{"utxos_by_credential.sql", []any{cred, -1, -1, 500}, nil},
					explainCase{"balance_by_credential.sql", []any{cred}, nil})
			}
			for _, tc := range cases {
				query := dbsync.StatementText("dbsync/"+tc.file, layout, tc.params)
				if !isPreparable(query) {
					t.Errorf("%s (%s) is not prepared", tc.file, layout)
				}
				plan := explain(t, c, query, tc.args)
				if bad := unindexedScansIn(plan, layoutBigTables); len(bad) > 0 {
					t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
				tx := lockedDownTx(t, sc.raw)
				plan = genericPlan(t, tx, query, tc.args)
				tx.Rollback() //nolint:errcheck // read-only
				if bad := unindexedScansIn(plan, layoutBigTables); len(bad) > 0 {
					t.Errorf("generic plan of %s: %s\n%s", tc.file, strings.Join(bad, "; "), plan)
				}
				if idx := spentFiles[tc.file]; !strings.Contains(plan, `"`+idx+`"`) {
					t.Errorf("generic plan of %s does not read %s:\n%s", tc.file, idx, plan)
				}
			}

			// The whale's newest history page from the marks reads the page
			// from tx_out and the inputs after H (the tail) with one probe
			// each; the core walk reads tx_in back from the tip until it has
			// found the page's spends.
			var h, tail int64
			if err := sc.raw.Get(&h, `SELECT max(tx_id) FROM syncgate_utxo.checkpoint`); err != nil {
				t.Fatal(err)
			}
			if err := sc.raw.Get(&tail, `SELECT count(*) FROM tx_in WHERE tx_in_id > $1`, h); err != nil {
				t.Fatal(err)
			}
			recentArgs := []any{samples.Whale, 0, int64(math.MaxInt64), 0, 21}
			recent := chainRowsRead(t, sc.raw, dbsync.StatementText("dbsync/tx_history_recent.sql", layout, recentParams), recentArgs)
			walk := chainRowsRead(t, sc.raw, dbsync.StatementText("dbsync/tx_history_page.sql", dbsync.Layout{AddressTable: v.AddressTable}, map[string]any{"Order": "DESC"}), recentArgs)
			if recent > 21+2*tail {
				t.Errorf("the whale's newest page from the marks read %d rows of tx_out and tx_in; want at most the page and twice the %d inputs after H", recent, tail)
			}
			if walk <= 21+2*tail {
				t.Errorf("the core walk read %d rows of tx_out and tx_in: the count does not see the walk", walk)
			}

			// What the whale's and the busiest stake key's statements read.
			key := `o.address = $1`
			if v.AddressTable {
				key = `o.address_id = (SELECT id FROM address WHERE address = $1)`
			}
			var whaleAll, whaleTail int64
			if err := sc.raw.Get(&whaleAll, `SELECT count(*) FROM tx_out o WHERE `+key, samples.Whale); err != nil {
				t.Fatal(err)
			}
			if err := sc.raw.Get(&whaleTail, `SELECT count(*) FROM tx_out o WHERE o.tx_id > $2 AND `+key, samples.Whale, h); err != nil {
				t.Fatal(err)
			}
			if whaleAll < 200 || whaleTail >= whaleAll/10 {
				t.Fatalf("whale: %d outputs, %d after H: too few to tell the plans apart", whaleAll, whaleTail)
			}
			for _, tc := range []explainCase{
				{"utxos_by_address.sql", []any{samples.Whale, -1, -1, 500}, nil},
				{"balance_by_address.sql", []any{samples.Whale}, nil},
			} {
				spent := historyRowsRead(t, sc.raw, dbsync.StatementText("dbsync/"+tc.file, layout, nil), tc.args)
				core := historyRowsRead(t, sc.raw, dbsync.StatementText("dbsync/"+tc.file, dbsync.Layout{AddressTable: v.AddressTable}, nil), tc.args)
				if spent > whaleTail {
					t.Errorf("%s with the index read %d whale outputs from tx_out, more than the %d after H", tc.file, spent, whaleTail)
				}
				if core < whaleAll {
					t.Errorf("%s in core read %d whale outputs of %d: the count does not see the history walk", tc.file, core, whaleAll)
				}
			}
			for _, tc := range []explainCase{
				{"utxos_by_stake.sql", []any{stake, -1, -1, 500}, nil},
				{"balance_by_stake.sql", []any{stake}, nil},
			} {
				if n := historyRowsRead(t, sc.raw, dbsync.StatementText("dbsync/"+tc.file, layout, nil), tc.args); n != 0 {
					t.Errorf("%s with the index read %d outputs through the stake index (the core walk)", tc.file, n)
				}
			}
		})
	}
}

// historyRowsRead runs query under EXPLAIN ANALYZE and sums the tx_out
// rows its plan read through an index keyed by address, stake or payment
// credential, or by scanning the table (the reads whose cost grows with a
// key's history).
func historyRowsRead(t *testing.T, raw *sqlx.DB, query string, args []any) int64 {
	t.Helper()
	history := map[string]bool{"sg_tx_out_address_tx_id": true, "idx_tx_out_stake_address_id": true,
		"idx_tx_out_payment_cred": true, "sg_tx_out_stake_address": true}
	return rowsRead(t, raw, query, args, func(p analyzedNode) float64 {
		switch {
		case history[p.IndexName]: // index, index-only or bitmap index scan
			return p.ActualRows * p.ActualLoops
		case p.Relation == "tx_out" && p.NodeType == "Seq Scan":
			return (p.ActualRows + p.RemovedByFilter) * p.ActualLoops
		}
		return 0
	})
}

// chainRowsRead runs query under EXPLAIN ANALYZE and sums the rows its
// plan read from tx_out and tx_in (through any index or a scan), filtered
// out or not.
func chainRowsRead(t *testing.T, raw *sqlx.DB, query string, args []any) int64 {
	t.Helper()
	return rowsRead(t, raw, query, args, func(p analyzedNode) float64 {
		if p.Relation == "tx_out" || p.Relation == "tx_in" {
			return (p.ActualRows + p.RemovedByFilter) * p.ActualLoops
		}
		return 0
	})
}

// rowsRead runs query under EXPLAIN ANALYZE and sums rows over the nodes
// of its plan.
func rowsRead(t *testing.T, raw *sqlx.DB, query string, args []any, rows func(analyzedNode) float64) int64 {
	t.Helper()
	var out string
	if err := raw.Get(&out, "EXPLAIN (ANALYZE, FORMAT JSON) "+query, args...); err != nil {
		t.Fatalf("EXPLAIN ANALYZE %.60s: %v", query, err)
	}
	var doc []struct {
		Plan analyzedNode `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc) != 1 {
		t.Fatalf("unreadable plan: %v", err)
	}
	var n float64
	var walk func(p analyzedNode)
	walk = func(p analyzedNode) {
		n += rows(p)
		for _, c := range p.Plans {
			walk(c)
		}
	}
	walk(doc[0].Plan)
	return int64(n)
}

type analyzedNode struct {
	NodeType        string         `json:"Node Type"`
	RemovedByFilter float64        `json:"Rows Removed by Filter"`
	Relation        string         `json:"Relation Name"`
	IndexName       string         `json:"Index Name"`
	ActualRows      float64        `json:"Actual Rows"`
	ActualLoops     float64        `json:"Actual Loops"`
	Plans           []analyzedNode `json:"Plans"`
}
