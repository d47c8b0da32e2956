package dbsync_test

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// dialectAccountTables are the tables the Blockfrost dialect's account
// statements read that a mainnet database holds many rows of.
var dialectAccountTables = func() map[string]bool {
	m := maps.Clone(accountTables)
	for _, t := range []string{"reserve", "treasury", "drep_registration", "pool_hash", "drep_hash"} {
		m[t] = true
	}
	return m
}()

// TestExplainDialectAccountIndexBacked plans the Blockfrost dialect's
// account statements (sql/dbsync/accounts_*.sql) for the busiest account
// and an ordinary one, each list in both orders and on a deep page, as
// written and as its generic plan, with sequential scans priced out.
func TestExplainDialectAccountIndexBacked(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		var ids []int64
		if err := c.raw.Select(&ids, `(SELECT sa.id FROM stake_address sa
			  ORDER BY (SELECT count(*) FROM reward r WHERE r.addr_id = sa.id)
			         + (SELECT count(*) FROM withdrawal w WHERE w.addr_id = sa.id) DESC, sa.id LIMIT 1)
			UNION ALL (SELECT id FROM stake_address ORDER BY md5(view) LIMIT 1)`); err != nil {
			t.Fatal(err)
		}
		epoch := int64(c.manifest.Tip.Epoch)
		var cases []explainCase
		for _, id := range ids {
			cases = append(cases, explainCase{"accounts_summary.sql", []any{id, epoch}, nil})
			for _, order := range []string{"ASC", "DESC"} {
				params := map[string]any{"Order": order}
				cases = append(cases, explainCase{"accounts_rewards.sql", []any{id, epoch, 100, 0}, params},
					explainCase{"accounts_rewards.sql", []any{id, epoch, 100, 400}, params})
				for _, f := range []string{"history", "delegations", "registrations", "withdrawals", "mirs", "addresses"} {
					cases = append(cases, explainCase{"accounts_" + f + ".sql", []any{id, 100, 0}, params},
						explainCase{"accounts_" + f + ".sql", []any{id, 100, 1000}, params})
				}
			}
		}
		for _, tc := range cases {
			query := statementFor("dbsync/"+tc.file, c.mode, tc.params)
			plan := explain(t, c, query, tc.args)
			if bad := unindexedScansIn(plan, dialectAccountTables); len(bad) > 0 {
				t.Errorf("%s %v %v: %s\n%s", tc.file, tc.params, tc.args, strings.Join(bad, "; "), plan)
			}
			tx := lockedDownTx(t, c.raw)
			plan = genericPlan(t, tx, query, tc.args)
			tx.Rollback() //nolint:errcheck // read-only
			if bad := unindexedScansIn(plan, dialectAccountTables); len(bad) > 0 {
				t.Errorf("generic plan of %s %v: %s\n%s", tc.file, tc.params, strings.Join(bad, "; "), plan)
			}
			for _, idx := range dialectAccountIndexes[tc.file] {
				if !strings.Contains(plan, `"`+idx+`"`) {
					t.Errorf("generic plan of %s does not read %s:\n%s", tc.file, idx, plan)
				}
			}
		}
	})
}

// dialectAccountIndexes are syncgate's indexes the dialect's account
// statements must use.
var dialectAccountIndexes = map[string][]string{
	"accounts_summary.sql":     {"sg_delegation_vote_addr_id", "sg_withdrawal_addr_tx", "sg_drep_registration_drep"},
	"accounts_withdrawals.sql": {"sg_withdrawal_addr_tx"},
	"accounts_addresses.sql":   {"sg_tx_out_stake_address"},
}

// TestExplainAccountTxsIndexBacked plans the stake key transaction walks
// (accounts_txs_*.sql) for the stake key with the most outputs and an
// ordinary one, from the start and from the middle of the chain: each
// index-backed. Core mode runs them planned for the key (custom plans),
// consumed mode as generic plans too. Which stake index the paid side
// takes is left to the planner: on the seeded chain a key's few hundred
// outputs are cheaper read through db-sync's idx_tx_out_stake_address_id
// and sorted; sg_tx_out_stake_tx is what a mainnet-sized key walks in
// order (its consumed twin is read here already).
func TestExplainAccountTxsIndexBacked(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		var ids []int64
		if err := c.raw.Select(&ids, `(SELECT stake_address_id FROM tx_out WHERE stake_address_id IS NOT NULL
			  GROUP BY stake_address_id ORDER BY count(*) DESC, stake_address_id LIMIT 1)
			UNION ALL (SELECT id FROM stake_address ORDER BY md5(view) LIMIT 1)`); err != nil {
			t.Fatal(err)
		}
		var mid int64
		if err := c.raw.Get(&mid, `SELECT id FROM tx ORDER BY id OFFSET (SELECT count(*) / 2 FROM tx) LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		const top = int64(math.MaxInt64)
		var cases []explainCase
		for _, id := range ids {
			cases = append(cases,
				explainCase{"accounts_txs_page.sql", []any{id, 0, top, 0, 100}, nil},
				explainCase{"accounts_txs_page.sql", []any{id, mid, top, 500, 100}, nil},
				explainCase{"accounts_txs_page.sql", []any{id, mid, mid + 1000, 9, 3}, nil},
				explainCase{"accounts_txs_anchors.sql", []any{id, 0, top, top, 256, 0}, nil},
				explainCase{"accounts_txs_anchors.sql", []any{id, mid, top, 1000, 256, 5000}, nil},
				explainCase{"accounts_txs_count.sql", []any{id, mid, top, 513}, nil})
		}
		for _, tc := range cases {
			query := statementFor("dbsync/"+tc.file, c.mode, tc.params)
			plans := []string{explain(t, c, query, tc.args)}
			if c.mode == chaingen.ModeConsumed {
				tx := lockedDownTx(t, c.raw)
				plans = append(plans, genericPlan(t, tx, query, tc.args))
				tx.Rollback() //nolint:errcheck // read-only
			}
			for _, plan := range plans {
				if bad := unindexedScansIn(plan, dialectAccountTables); len(bad) > 0 {
					t.Errorf("%s %v: %s\n%s", tc.file, tc.args, strings.Join(bad, "; "), plan)
				}
			}
		}
	})
}
