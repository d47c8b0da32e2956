package dbsync_test

import (
	"encoding/hex"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	_ "github.com/syncgate/syncgate/dbsync/chainfacts" // registers the scanner's fact statements planned here
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/sql"
)

// bigTables are the db-sync tables that grow with the chain: a sequential
// scan of any of them, or an index scan with no index condition (a whole
// index read in order), is a query that gets slower every block.
var bigTables = map[string]bool{"tx_out": true, "tx_in": true, "tx": true, "ma_tx_out": true, "multi_asset": true, "block": true}

type explainCase struct {
	file   string
	args   []any
	params map[string]any // the statement's template params, if any
}

// layoutOf is the statement layout a seeded chain of mode is served with.
func layoutOf(mode chaingen.Mode) dbsync.Layout {
	return dbsync.Layout{Consumed: mode == chaingen.ModeConsumed}
}

// statementFor renders a dbsync statement file for a chain of mode.
func statementFor(file string, mode chaingen.Mode, params map[string]any) string {
	return dbsync.StatementText(file, layoutOf(mode), params)
}

// TestExplainIndexBacked plans every chain-data statement of this stream
// with representative parameters (the whale, an ordinary address, a stake
// key, a page of tx ids, a failed tx) on each mode's seeded database, with
// sequential scans priced out, and fails on any left on a big table.
func TestExplainIndexBacked(t *testing.T) {
	needChains(t)
	whaleIDs, smallIDs := pageIDs(t, samples.Whale), pageIDs(t, samples.Small[0])
	var outIDs []int64
	if err := chains[0].raw.Select(&outIDs, `SELECT id FROM tx_out WHERE address = $1 ORDER BY id LIMIT 50`, samples.Whale); err != nil {
		t.Fatal(err)
	}
	stake := pq.ByteaArray{samples.StakeKeys[0]}
	stakeHex, _ := cardano.ParseStakeKey(hex.EncodeToString(samples.StakeKeys[0][1:]), true)
	failed, _ := hex.DecodeString(samples.FailedTxs[0])
	assetTx := assetTxHash(t)
	var midSlot int64
	if err := chains[0].raw.Get(&midSlot, `SELECT slot_no FROM block ORDER BY id OFFSET (SELECT count(*) / 2 FROM block) LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	var midID int64
	if err := chains[0].raw.Get(&midID, `SELECT max(id) / 2 FROM tx`); err != nil {
		t.Fatal(err)
	}
	// The busiest payment credential (most outputs) and a script one.
	var creds [][]byte
	if err := chains[0].raw.Select(&creds, `(SELECT payment_cred FROM tx_out WHERE payment_cred IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)
		UNION ALL (SELECT payment_cred FROM tx_out WHERE address_has_script GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)`); err != nil || len(creds) == 0 {
		t.Fatalf("no payment credential to plan with (%v)", err)
	}
	shared := []explainCase{
		{"tx_first_id_from_slot.sql", []any{midSlot}, nil},
		{"epoch_latest.sql", nil, nil},
		{"epoch_params.sql", []any{chains[0].manifest.Tip.Epoch}, nil},
		{"tx_history_head.sql", []any{samples.Whale, 1000, 2161}, nil},
		{"tx_by_hash.sql", []any{failed}, nil},
		{"tx_by_hash.sql", []any{assetTx}, nil},
		{"tx_block.sql", []any{failed}, nil},
		{"block_at_slot.sql", []any{midSlot}, nil},
		{"tx_outputs.sql", []any{pq.Array(whaleIDs)}, nil},
		{"tx_outputs.sql", []any{pq.Array(smallIDs)}, nil},
		{"tx_out_assets.sql", []any{pq.Array(outIDs)}, nil},
		{"tx_is.sql", []any{midID, make([]byte, 32)}, nil},
	}
	perMode := func() []explainCase {
		var cases []explainCase
		for _, a := range []string{samples.Whale, samples.Small[0], samples.Busy} {
			cases = append(cases,
				explainCase{"utxos_by_address.sql", []any{a, -1, -1, 500}, nil},
				explainCase{"utxos_by_address.sql", []any{a, midID, 0, 500}, nil},
				explainCase{"balance_by_address.sql", []any{a}, nil},
				explainCase{"tx_history_total.sql", []any{a}, nil},
				explainCase{"tx_history_count_after_consumed.sql", []any{a, midID}, nil},
				explainCase{"tx_history_small.sql", []any{a, 0, math.MaxInt64, 0, 21, false}, nil},
				explainCase{"tx_history_small.sql", []any{a, midID, math.MaxInt64, 40, nil, true}, nil},
				explainCase{"tx_history_first.sql", []any{a, 1000, 0, 21, false}, nil},
				explainCase{"tx_history_first.sql", []any{a, 1 << 30, 40, 101, true}, nil},
			)
			for _, order := range []string{"DESC", "ASC"} {
				page := map[string]any{"Order": order}
				for _, bounds := range [][2]int64{{0, math.MaxInt64}, {0, midID}, {midID, math.MaxInt64}} {
					cases = append(cases,
						explainCase{"tx_history_page.sql", []any{a, bounds[0], bounds[1], 0, 21}, page},
						explainCase{"tx_history_page.sql", []any{a, bounds[0], bounds[1], 40, 101}, page},
						explainCase{"tx_history_page.sql", []any{a, bounds[0], bounds[1], 0, nil}, page},
						explainCase{"tx_history_anchors.sql", []any{a, bounds[0], bounds[1], 5000, 1000}, page},
					)
				}
			}
		}
		for _, key := range []any{stake, pq.ByteaArray(stakeHex.Candidates())} {
			cases = append(cases,
				explainCase{"utxos_by_stake.sql", []any{key, -1, -1, 500}, nil},
				explainCase{"utxos_by_stake.sql", []any{key, midID, 0, 500}, nil},
				explainCase{"balance_by_stake.sql", []any{key}, nil},
			)
		}
		for _, cred := range creds {
			cases = append(cases,
				explainCase{"utxos_by_credential.sql", []any{cred, -1, -1, 500}, nil},
				explainCase{"utxos_by_credential.sql", []any{cred, midID, 0, 500}, nil},
				explainCase{"balance_by_credential.sql", []any{cred}, nil},
			)
		}
		cases = append(cases,
			explainCase{"tx_inputs.sql", []any{pq.Array(whaleIDs)}, nil},
			explainCase{"tx_inputs.sql", []any{pq.Array(smallIDs)}, nil},
		)
		return cases
	}
	forEachChain(t, func(t *testing.T, c *chain) {
		for _, tc := range append(perMode(), shared...) {
			if tc.file == "tx_history_count_after_consumed.sql" && c.mode != "consumed" {
				continue // core counts on only with the index (TestExplainSpentIndex)
			}
			query := statementFor("dbsync/"+tc.file, c.mode, tc.params)
			plan := explain(t, c, query, tc.args)
			if bad := unindexedScans(plan); len(bad) > 0 {
				t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
			}
			if idx := unspentOnly[c.mode][tc.file]; idx != "" && !strings.Contains(plan, `"`+idx+`"`) {
				t.Errorf("%s %v does not read %s:\n%s", tc.file, tc.args, idx, plan)
			}
			// Sessions plan generically (force_generic_plan); only core-mode
			// history walks of dense addresses switch to custom plans. So every
			// statement that is prepared, every consumed-mode one and the
			// core walk of a sparse address run their generic plan.
			if !isPreparable(query) && c.mode != "consumed" && !sparseWalk[tc.file] {
				continue
			}
			tx := lockedDownTx(t, c.raw)
			plan = genericPlan(t, tx, query, tc.args)
			tx.Rollback() //nolint:errcheck // read-only
			if bad := unindexedScans(plan); len(bad) > 0 {
				t.Errorf("generic plan of %s: %s\n%s", tc.file, strings.Join(bad, "; "), plan)
			}
			if idx := unspentOnly[c.mode][tc.file]; idx != "" && !strings.Contains(plan, `"`+idx+`"`) {
				t.Errorf("generic plan of %s does not read %s:\n%s", tc.file, idx, plan)
			}
		}
	})
}

// sparseWalk are the core-mode history statements that run planned for
// their values for a dense address and generically for a sparse one
// (dbsync denseOutputs).
var sparseWalk = map[string]bool{"tx_history_page.sql": true, "tx_history_anchors.sql": true, "tx_history_total.sql": true}

// unspentOnly are the consumed-mode statements that must find unspent
// outputs through the partial unspent-only indexes, so that their cost
// follows the unspent outputs, not the address's whole history.
var unspentOnly = map[chaingen.Mode]map[string]string{chaingen.ModeConsumed: {
	"utxos_by_address.sql": "sg_tx_out_unspent_address", "balance_by_address.sql": "sg_tx_out_unspent_address",
	"utxos_by_stake.sql": "sg_tx_out_unspent_stake", "balance_by_stake.sql": "sg_tx_out_unspent_stake",
	"account_assets.sql":      "sg_tx_out_unspent_stake",
	"utxos_by_credential.sql": "sg_tx_out_unspent_payment_cred", "balance_by_credential.sql": "sg_tx_out_unspent_payment_cred",
}}

// explain plans query with args on a connection that prices sequential
// scans out, as the planner does when no index can serve a table.
func explain(t *testing.T, c *chain, query string, args []any) string {
	t.Helper()
	tx := lockedDownTx(t, c.raw)
	defer tx.Rollback() //nolint:errcheck // read-only
	var plan string
	if err := tx.Get(&plan, "EXPLAIN (FORMAT JSON) "+query, args...); err != nil {
		t.Fatalf("EXPLAIN %.60s: %v", query, err)
	}
	return plan
}

// lockedDownTx begins a transaction that prices sequential scans, hash and
// merge joins out, as the planner does when no index can serve a table.
func lockedDownTx(t *testing.T, db *sqlx.DB) *sqlx.Tx {
	t.Helper()
	tx, err := db.BeginTxx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`); err != nil {
		tx.Rollback() //nolint:errcheck // read-only
		t.Fatal(err)
	}
	return tx
}

// isPreparable says whether dbsync runs query as a prepared statement.
func isPreparable(query string) bool {
	return slices.Contains(dbsync.Preparable(), query)
}

// genericPlan returns, in JSON, the plan PostgreSQL caches for query as a
// prepared statement once it stops planning per call: the plan that serves
// every request after the fifth on a connection, whatever the parameters.
func genericPlan(t *testing.T, tx *sqlx.Tx, query string, args []any) string {
	t.Helper()
	if _, err := tx.Exec(`SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`PREPARE sg_generic AS ` + query); err != nil {
		t.Fatalf("PREPARE %.60s: %v", query, err)
	}
	defer tx.Exec(`DEALLOCATE sg_generic`) //nolint:errcheck // the transaction is rolled back anyway
	// A generic plan does not look at the values, so NULLs stand in for
	// them (EXECUTE cannot take protocol parameters).
	execute := `EXECUTE sg_generic`
	if len(args) > 0 {
		execute += `(` + strings.TrimSuffix(strings.Repeat("NULL, ", len(args)), ", ") + `)`
	}
	var plan string
	if err := tx.Get(&plan, `EXPLAIN (FORMAT JSON) `+execute); err != nil {
		t.Fatalf("EXPLAIN EXECUTE %.60s: %v", query, err)
	}
	return plan
}

// unindexedScans lists the plan's scans of big tables that no index
// condition bounds.
func unindexedScans(plan string) []string { return unindexedScansIn(plan, bigTables) }

// unindexedScansIn lists the plan's scans of the given tables that no
// index condition bounds (testdb's reading of a plan).
func unindexedScansIn(plan string, tables map[string]bool) []string {
	return testdb.UnindexedScansIn(plan, tables)
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

// TestStatementsArePrepared checks that Open prepared every registered
// statement (the generic ones and the three core-mode history statements
// that run custom-planned) on both modes' databases (the generator's schema has every
// column either mode reads), so requests do not fall back to planning per
// call, and that a prepared statement answers as the plain query does.
func TestStatementsArePrepared(t *testing.T) {
	needChains(t)
	if len(dbsync.Preparable()) < 20 {
		t.Fatalf("only %d statements registered as preparable", len(dbsync.Preparable()))
	}
	forEachChain(t, func(t *testing.T, c *chain) {
		if got, want := c.db.PreparedCount(), c.db.RegisteredCount(); got != want {
			t.Errorf("%d of %d statements prepared", got, want)
		}
		// Past the fifth run PostgreSQL may switch to the generic plan.
		addr := mustAddress(t, samples.Small[0])
		first, err := c.db.UTxOsByAddress(t.Context(), addr)
		if err != nil {
			t.Fatal(err)
		}
		for range 8 {
			again, err := c.db.UTxOsByAddress(t.Context(), addr)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(again) != fmt.Sprint(first) {
				t.Fatalf("answer changed between runs of the prepared statement")
			}
		}
	})
}

// TestSessionOptions checks what every pooled session carries: the
// statement timeout Open was given, JIT off, generic plans for prepared
// statements and no parallel workers; and that a core-mode history
// transaction switches itself to custom plans.
func TestSessionOptions(t *testing.T) {
	needChains(t)
	want := map[string]string{"jit": "off", "statement_timeout": "30s",
		"plan_cache_mode": "force_generic_plan", "max_parallel_workers_per_gather": "0"}
	for name, value := range want {
		var got string
		if err := chains[0].db.Primary().Get(&got, `SELECT current_setting($1)`, name); err != nil {
			t.Fatal(err)
		}
		if got != value {
			t.Errorf("%s = %q, want %q", name, got, value)
		}
	}
	tx, err := chains[0].db.Primary().Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	var mode string
	if _, err := tx.Exec(sqlfiles.Must("dbsync/custom_plans.sql")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Get(&mode, `SHOW plan_cache_mode`); err != nil || mode != "force_custom_plan" {
		t.Errorf("custom_plans.sql: plan_cache_mode %q (%v)", mode, err)
	}
}

// TestUnspentIndexesOnlyInConsumedMode: in core mode every output has a NULL
// consumed_by_tx_id, so the partial unspent-only indexes would copy the
// whole address index; CreateRecommendedIndexes leaves them out there.
func TestUnspentIndexesOnlyInConsumedMode(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		var n int
		if err := c.raw.Get(&n, `SELECT count(*) FROM pg_indexes WHERE indexname IN ('sg_tx_out_unspent_address', 'sg_tx_out_unspent_stake', 'sg_tx_out_unspent_payment_cred')`); err != nil {
			t.Fatal(err)
		}
		if want := map[chaingen.Mode]int{chaingen.ModeCore: 0, chaingen.ModeConsumed: 3}[c.mode]; n != want {
			t.Errorf("%d unspent-only indexes, want %d", n, want)
		}
	})
}

// accountTables are bigTables plus the tables that grow with every stake
// account: certificates, rewards, withdrawals, stake snapshots.
var accountTables = map[string]bool{"tx_out": true, "tx_in": true, "tx": true, "ma_tx_out": true, "block": true,
	"stake_address": true, "stake_registration": true, "stake_deregistration": true, "delegation": true,
	"delegation_vote": true, "reward": true, "reward_rest": true, "withdrawal": true, "epoch_stake": true}

// TestExplainAccountIndexBacked plans every stake-account statement for
// the busiest account (most rewards and withdrawals) and an ordinary one,
// as the query is written and as its generic plan, with sequential scans
// priced out: none may read a whole account-sized table. This is what
// sg_delegation_vote_addr_id is for (stock db-sync has no index on
// delegation_vote.addr_id: without it account_summary scans the table),
// and sg_tx_out_stake_address for the addresses' loose index scan.
func TestExplainAccountIndexBacked(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		var ids []int64
		if err := c.raw.Select(&ids, `(SELECT sa.id FROM stake_address sa
			  ORDER BY (SELECT count(*) FROM reward r WHERE r.addr_id = sa.id)
			         + (SELECT count(*) FROM withdrawal w WHERE w.addr_id = sa.id) DESC, sa.id LIMIT 1)
			UNION ALL (SELECT id FROM stake_address ORDER BY md5(view) LIMIT 1)`); err != nil {
			t.Fatal(err)
		}
		var raw []byte
		if err := c.raw.Get(&raw, `SELECT hash_raw FROM stake_address WHERE id = $1`, ids[0]); err != nil {
			t.Fatal(err)
		}
		epoch := int64(c.manifest.Tip.Epoch)
		cases := []explainCase{{"account_head.sql", []any{pq.ByteaArray{raw, append([]byte{0xf1}, raw[1:]...)}}, nil}}
		for _, id := range ids {
			cases = append(cases,
				explainCase{"account_summary.sql", []any{id, epoch}, nil},
				explainCase{"account_rewards.sql", []any{id, true, 100, 0, epoch}, nil},
				explainCase{"account_rewards.sql", []any{id, false, 10, 20, epoch}, nil},
				explainCase{"account_delegations.sql", []any{id, true, 100, 0}, nil},
				explainCase{"account_registrations.sql", []any{id, false, 100, 0}, nil},
				explainCase{"account_withdrawals.sql", []any{id, true, 100, 0}, nil},
				explainCase{"account_addresses.sql", []any{id, 100, 0}, nil},
				explainCase{"account_assets.sql", []any{id, 100, 0}, nil},
			)
		}
		for _, tc := range cases {
			query := statementFor("dbsync/"+tc.file, c.mode, nil)
			if !isPreparable(query) {
				t.Errorf("%s is not prepared", tc.file)
			}
			plan := explain(t, c, query, tc.args)
			if bad := unindexedScansIn(plan, accountTables); len(bad) > 0 {
				t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
			}
			tx := lockedDownTx(t, c.raw)
			plan = genericPlan(t, tx, query, tc.args)
			tx.Rollback() //nolint:errcheck // read-only
			if bad := unindexedScansIn(plan, accountTables); len(bad) > 0 {
				t.Errorf("generic plan of %s: %s\n%s", tc.file, strings.Join(bad, "; "), plan)
			}
			for _, idx := range append([]string{unspentOnly[c.mode][tc.file]}, accountIndexes[tc.file]...) {
				if idx != "" && !strings.Contains(plan, `"`+idx+`"`) {
					t.Errorf("generic plan of %s does not read %s:\n%s", tc.file, idx, plan)
				}
			}
		}
	})
}

// accountIndexes are the indexes syncgate adds for the account statements
// (sql/dbsync/indexes/0120-0123), which their plans must use.
var accountIndexes = map[string][]string{
	"account_summary.sql":     {"sg_delegation_vote_addr_id", "sg_withdrawal_addr_tx", "sg_tx_invalid"},
	"account_addresses.sql":   {"sg_tx_out_stake_address"},
	"account_withdrawals.sql": {"sg_withdrawal_addr_tx", "sg_tx_invalid"},
}

// TestExplainScanIndexBacked plans the event scanner's statements (a
// block range near the tip, its transactions' movements, the failed tx's,
// block hashes by height) on each mode's chain: every one index-backed,
// as custom and as generic plans (block_no index, tx.block_id,
// tx_out.tx_id, tx_in.tx_in_id or consumed_by_tx_id, ma_tx_out.tx_out_id).
func TestExplainScanIndexBacked(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		tip := c.manifest.Tip.BlockNo
		var ids []int64
		if err := c.raw.Select(&ids, `SELECT t.id FROM tx t JOIN block b ON b.id = t.block_id
			WHERE b.block_no BETWEEN $1 AND $2 OR t.hash = decode($3, 'hex') ORDER BY t.id`,
			tip-99, tip, c.manifest.Txs.Failed.Hash); err != nil || len(ids) < 2 {
			t.Fatalf("%d tx ids to plan with (%v)", len(ids), err)
		}
		cases := []explainCase{
			{"scan_block_hashes.sql", []any{pq.Array([]int64{tip - 2, tip - 1, tip})}, nil},
			{"scan_blocks.sql", []any{tip - 99, tip}, nil},
			{"scan_blocks.sql", []any{tip, tip}, nil},
			{"scan_movements.sql", []any{pq.Array(ids)}, nil},
			{"scan_movements.sql", []any{pq.Array(ids[len(ids)-1:])}, nil},
			{"scan_block_facts.sql", []any{tip - 99, tip}, nil},
			{"scan_certificates.sql", []any{tip - 99, tip}, nil},
		}
		needs := map[string][]string{
			"scan_blocks.sql":       {"idx_block_block_no", "idx_tx_block_id"},
			"scan_movements.sql":    {"idx_tx_out_tx_id", "idx_ma_tx_out_tx_out_id"},
			"scan_block_facts.sql":  {"idx_block_block_no"},
			"scan_certificates.sql": {"idx_block_block_no", "idx_tx_block_id", "sg_delegation_vote_tx_id"},
		}
		if c.mode == chaingen.ModeConsumed {
			needs["scan_movements.sql"] = append(needs["scan_movements.sql"], "idx_tx_out_consumed_by_tx_id")
		} else {
			needs["scan_movements.sql"] = append(needs["scan_movements.sql"], "idx_tx_in_tx_in_id")
		}
		for _, tc := range cases {
			query := statementFor("dbsync/"+tc.file, c.mode, nil)
			if !isPreparable(query) {
				t.Errorf("%s is not prepared", tc.file)
			}
			plans := []string{explain(t, c, query, tc.args)}
			tx := lockedDownTx(t, c.raw)
			plans = append(plans, genericPlan(t, tx, query, tc.args))
			tx.Rollback() //nolint:errcheck // read-only
			for _, plan := range plans {
				if bad := unindexedScans(plan); len(bad) > 0 {
					t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
				for _, idx := range needs[tc.file] {
					if !strings.Contains(plan, `"`+idx+`"`) {
						t.Errorf("%s does not read %s:\n%s", tc.file, idx, plan)
					}
				}
			}
		}
	})
}

// assetTxHash is the hash of a transaction with several inputs whose
// inputs and outputs hold native assets (the most holdings), to plan
// tx_by_hash.sql with.
func assetTxHash(t *testing.T) []byte {
	t.Helper()
	var hash []byte
	if err := chains[0].raw.Get(&hash, `SELECT t.hash FROM tx t
		JOIN tx_in i ON i.tx_in_id = t.id
		JOIN tx_out s ON s.tx_id = i.tx_out_id AND s.index = i.tx_out_index
		GROUP BY t.id, t.hash
		HAVING count(*) > 1
		ORDER BY (SELECT count(*) FROM ma_tx_out m WHERE m.tx_out_id = ANY(array_agg(s.id)))
		       + (SELECT count(*) FROM ma_tx_out m JOIN tx_out o ON o.id = m.tx_out_id WHERE o.tx_id = t.id) DESC, t.id
		LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	return hash
}

// TestExplainTxByHash: GET /v1/tx/hash is one statement, prepared, whose
// generic plan (the one every request runs) is planned here with only
// sequential scans priced out (the suite's tables are small enough to
// scan), hash and merge joins allowed: it must find the
// tx by its unique hash and everything else by index probes from it (its
// inputs, outputs and their assets; each asset's name by multi_asset_pkey),
// never hash or scan a big table (the generic-plan trap: a join to
// multi_asset that does not know how few holdings there are hashes the
// whole table). The address-table layouts: TestExplainEveryLayout.
func TestExplainTxByHash(t *testing.T) {
	needChains(t)
	failed, _ := hex.DecodeString(samples.FailedTxs[0])
	forEachChain(t, func(t *testing.T, c *chain) {
		query := statementFor("dbsync/tx_by_hash.sql", c.mode, nil)
		checkTxByHashPlan(t, c.raw, query, layoutOf(c.mode), [][]byte{assetTxHash(t), failed})
	})
}

// checkTxByHashPlan plans tx_by_hash.sql's generic plan for each hash on
// db (layout l), sequential scans priced out, and checks it as
// TestExplainTxByHash says.
func checkTxByHashPlan(t *testing.T, db *sqlx.DB, query string, l dbsync.Layout, hashes [][]byte) {
	t.Helper()
	if !isPreparable(query) {
		t.Fatalf("tx_by_hash.sql (%s) is not prepared", l)
	}
	need := []string{"unique_tx", "block_pkey", "tx_pkey", "idx_tx_out_tx_id", "idx_ma_tx_out_tx_out_id", "multi_asset_pkey"}
	if l.Consumed {
		need = append(need, "idx_tx_out_consumed_by_tx_id")
	} else {
		need = append(need, "idx_tx_in_tx_in_id")
	}
	for _, hash := range hashes {
		tx, err := db.BeginTxx(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
			tx.Rollback() //nolint:errcheck // read-only
			t.Fatal(err)
		}
		plan := genericPlan(t, tx, query, []any{hash})
		tx.Rollback() //nolint:errcheck // read-only
		if bad := unindexedScansIn(plan, layoutBigTables); len(bad) > 0 {
			t.Errorf("generic plan of tx_by_hash.sql (%s): %s\n%s", l, strings.Join(bad, "; "), plan)
		}
		for _, join := range []string{`"Hash Join"`, `"Merge Join"`, `"Node Type": "Hash"`} {
			if strings.Contains(plan, join) {
				t.Errorf("generic plan of tx_by_hash.sql (%s) has a %s:\n%s", l, join, plan)
			}
		}
		for _, idx := range need {
			if !strings.Contains(plan, `"`+idx+`"`) {
				t.Errorf("generic plan of tx_by_hash.sql (%s) does not read %s:\n%s", l, idx, plan)
			}
		}
	}
}
