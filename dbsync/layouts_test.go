package dbsync_test

import (
	"encoding/hex"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/account"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// layoutChain is the suite's chain seeded in another db-sync layout: the
// same seed and size as chains[0], so every answer the layout keeps the
// facts for must equal the core chain's (whose answers the rest of the
// suite checks against independent SQL).
type layoutChain struct {
	variant chaingen.Variant
	db      *dbsync.DB
	raw     *sqlx.DB
	dsn     string
	// history: the layout keeps spent outputs, so history, transactions'
	// inputs and outputs and accounts' address lists are compared too
	// (pruned layouts keep only the UTxO set whole).
	history bool
}

// seedLayout seeds v like the suite's chains and opens it as the service would.
func seedLayout(t *testing.T, v chaingen.Variant) *layoutChain {
	t.Helper()
	dsn, _, drop, err := testdb.DBSyncVariant(v, seedTxs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	db := testdb.MustOpenDBSync(t, dsn)
	if err := capsOf(db).Supported(); err != nil {
		t.Fatalf("%s: %v", v, err)
	}
	raw := sqlx.MustOpen("postgres", dsn)
	t.Cleanup(func() { raw.Close() })
	pruned := v.Mode == chaingen.ModePrune || v.Mode == chaingen.ModeBootstrap
	return &layoutChain{variant: v, db: db, raw: raw, dsn: dsn, history: !pruned}
}

// TestLayoutsAgree runs the read paths of every endpoint family on each
// layout db-sync can be configured with and compares them with the core
// chain's answers: the address table (with core and consumed spends),
// schema 13.6, and the pruned layouts for what they keep.
func TestLayoutsAgree(t *testing.T) {
	t.Parallel() // its own chains; the shared ones only read
	needChains(t)
	core := chains[0]
	variants := []chaingen.Variant{
		{Mode: chaingen.ModeCore, AddressTable: true, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeConsumed, AddressTable: true, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeCore, Schema: chaingen.Schema136},
		{Mode: chaingen.ModePrune, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeBootstrap, Schema: chaingen.Schema137},
	}
	for _, v := range variants {
		t.Run(strings.ReplaceAll(v.String(), "/", "_"), func(t *testing.T) {
			lc := seedLayout(t, v)
			wantLayout := dbsync.Layout{Consumed: v.Mode != chaingen.ModeCore, AddressTable: v.AddressTable}
			if got := capsOf(lc.db).Layout(); got != wantLayout {
				t.Fatalf("detected layout %s, want %s", got, wantLayout)
			}
			compareLayouts(t, core.db, lc)
		})
	}
}

// compareLayouts asks both databases the same questions and wants the same
// answers, rendered as JSON.
func compareLayouts(t *testing.T, core *dbsync.DB, lc *layoutChain) {
	ctx := t.Context()
	same := func(what string, call func(db *dbsync.DB) (any, error)) {
		t.Helper()
		want, err := call(core)
		if err != nil {
			t.Fatalf("%s on core: %v", what, err)
		}
		got, err := call(lc.db)
		if err != nil {
			t.Errorf("%s on %s: %v", what, lc.variant, err)
			return
		}
		if render(got) != render(want) {
			t.Errorf("%s differs on %s:\n got %.600s\nwant %.600s", what, lc.variant, render(got), render(want))
		}
	}
	addrs := append([]string{samples.Whale, samples.Busy, samples.Script, samples.Byron}, samples.Small...)
	for _, a := range addrs {
		if a == "" {
			continue
		}
		addr := mustAddress(t, a)
		same("UTxOs of "+a, func(db *dbsync.DB) (any, error) { return db.UTxOsByAddress(ctx, addr) })
		same("balance of "+a, func(db *dbsync.DB) (any, error) { return db.BalanceByAddress(ctx, addr) })
		if !lc.history {
			continue
		}
		for _, q := range []dbsync.HistoryQuery{{Limit: 20}, {Limit: 7, Offset: 3, Ascending: true}} {
			same(fmt.Sprintf("history of %s %+v", a, q), func(db *dbsync.DB) (any, error) { return db.TxHistory(ctx, addr, q, nil) })
			same(fmt.Sprintf("detailed history of %s %+v", a, q), func(db *dbsync.DB) (any, error) { return db.TxsByAddress(ctx, addr, q, nil) })
		}
	}
	for _, raw := range samples.StakeKeys[:min(4, len(samples.StakeKeys))] {
		key, err := cardano.ParseStakeKey(hex.EncodeToString(raw[1:]), true)
		if err != nil {
			t.Fatal(err)
		}
		same("UTxOs of stake "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return db.UTxOsByStake(ctx, key) })
		same("balance of stake "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return db.BalanceByStake(ctx, key) })
		same("account "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return account.Read(ctx, db, key) })
		q := dbsync.AccountQuery{Limit: 50, Ascending: true}
		same("account assets "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return account.Assets(ctx, db, key, q) })
		if lc.history {
			same("account addresses "+hex.EncodeToString(raw), func(db *dbsync.DB) (any, error) { return account.Addresses(ctx, db, key, q) })
		}
	}
	var creds []string
	if err := chains[0].raw.Select(&creds, `(SELECT encode(payment_cred, 'hex') FROM tx_out WHERE payment_cred IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2)
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
	if lc.history {
		var hashes []string
		if err := chains[0].raw.Select(&hashes, `SELECT encode(hash, 'hex') FROM tx ORDER BY id DESC LIMIT 5`); err != nil {
			t.Fatal(err)
		}
		for _, h := range append(hashes, samples.FailedTxs...) {
			hash, err := cardano.ParseTxHash(h)
			if err != nil {
				t.Fatal(err)
			}
			same("tx "+h, func(db *dbsync.DB) (any, error) { return db.TxByHash(ctx, hash) })
		}
	}
	// Every layout, pruned ones included: one statement or four, the
	// same transaction.
	sameTxAsInSteps(t, lc.db, txSpread(t))
	m := chains[0].manifest
	pool := c2Pool(t, m.Pools.Biggest.ID)
	same("pool live stake", func(db *dbsync.DB) (any, error) { return db.PoolStakeOne(ctx, pool) })
	same("pool live pledge", func(db *dbsync.DB) (any, error) { return db.PoolLivePledge(ctx, pool) })
}

// TestExplainEveryLayout plans the address-dependent statements on the
// address-table layouts with sequential scans priced out, as
// TestExplainIndexBacked does for core and consumed.
func TestExplainEveryLayout(t *testing.T) {
	t.Parallel() // its own chains; the shared ones only read
	needChains(t)
	whaleIDs := pageIDs(t, samples.Whale)
	assetTx := assetTxHash(t)
	failed, _ := hex.DecodeString(samples.FailedTxs[0])
	for _, v := range []chaingen.Variant{
		{Mode: chaingen.ModeCore, AddressTable: true, Schema: chaingen.Schema137},
		{Mode: chaingen.ModeConsumed, AddressTable: true, Schema: chaingen.Schema137},
	} {
		t.Run(v.String(), func(t *testing.T) {
			lc := seedLayout(t, v)
			c := &chain{mode: v.Mode, db: lc.db, raw: lc.raw}
			layout := capsOf(lc.db).Layout()
			var cred []byte
			if err := lc.raw.Get(&cred, `SELECT payment_cred FROM address WHERE payment_cred IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`); err != nil {
				t.Fatal(err)
			}
			var stakeID int64
			if err := lc.raw.Get(&stakeID, `SELECT id FROM stake_address WHERE hash_raw = $1`, samples.StakeKeys[0]); err != nil {
				t.Fatal(err)
			}
			var cases []explainCase
			for _, a := range []string{samples.Whale, samples.Small[0], samples.Busy} {
				cases = append(cases,
					explainCase{"utxos_by_address.sql", []any{a, -1, -1, 500}, nil},
					explainCase{"balance_by_address.sql", []any{a}, nil},
					explainCase{"tx_history_head.sql", []any{a, 1000, 2161}, nil},
					explainCase{"tx_history_total.sql", []any{a}, nil},
					explainCase{"tx_history_small.sql", []any{a, 0, int64(1) << 62, 0, 21, false}, nil},
					explainCase{"tx_history_first.sql", []any{a, 1000, 0, 21, false}, nil},
					explainCase{"tx_history_page.sql", []any{a, 0, int64(1) << 62, 0, 21}, map[string]any{"Order": "DESC"}},
					explainCase{"tx_history_page.sql", []any{a, 0, int64(1) << 62, 40, 101}, map[string]any{"Order": "ASC"}},
					explainCase{"tx_history_anchors.sql", []any{a, 0, int64(1) << 62, 5000, 1000}, map[string]any{"Order": "DESC"}},
				)
			}
			cases = append(cases,
				explainCase{"utxos_by_credential.sql", []any{cred, -1, -1, 500}, nil},
				explainCase{"balance_by_credential.sql", []any{cred}, nil},
				explainCase{"account_addresses.sql", []any{stakeID, 100, 0}, nil},
				explainCase{"tx_outputs.sql", []any{pq.Array(whaleIDs)}, nil},
				explainCase{"tx_inputs.sql", []any{pq.Array(whaleIDs)}, nil},
				explainCase{"tx_by_hash.sql", []any{failed}, nil},
				explainCase{"tx_by_hash.sql", []any{assetTx}, nil},
			)
			checkTxByHashPlan(t, lc.raw, dbsync.StatementText("dbsync/tx_by_hash.sql", layout, nil), layout, [][]byte{assetTx, failed})
			for _, tc := range cases {
				query := dbsync.StatementText("dbsync/"+tc.file, layout, tc.params)
				plan := explain(t, c, query, tc.args)
				if bad := unindexedScansIn(plan, layoutBigTables); len(bad) > 0 {
					t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
				tx := lockedDownTx(t, lc.raw)
				plan = genericPlan(t, tx, query, tc.args)
				tx.Rollback() //nolint:errcheck // read-only
				if bad := unindexedScansIn(plan, layoutBigTables); len(bad) > 0 {
					t.Errorf("generic plan of %s: %s\n%s", tc.file, strings.Join(bad, "; "), plan)
				}
			}
		})
	}
}

// layoutBigTables adds db-sync's address table, which grows with the chain
// (tens of millions of rows on mainnet), to the tables no plan may scan.
var layoutBigTables = func() map[string]bool {
	m := map[string]bool{"address": true}
	for k := range bigTables {
		m[k] = true
	}
	return m
}()
