package governance_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const seedTxs = 3000

// govTables are the governance tables that grow with the chain on
// mainnet, checked as testdb's big tables are; the committee tables and
// drep_hash stay small.
var govTables = func() map[string]bool {
	t := maps.Clone(testdb.BigTables)
	for _, name := range []string{"delegation_vote", "voting_procedure", "drep_registration", "gov_action_proposal",
		"treasury_withdrawal", "drep_distr", "stake_deregistration", "withdrawal", "reward_rest", "off_chain_vote_data"} {
		t[name] = true
	}
	return t
}()

// TestExplainIndexBacked plans every statement of this package on each
// mode's chain, for the values it runs with and generically, with
// sequential scans priced out, and fails on a growing table read without
// an index condition.
func TestExplainIndexBacked(t *testing.T) {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: mode}, seedTxs)
		db := testdb.Open(t, chain.DSN)
		var drep, proposal, params, epoch int64
		var raw, txHash []byte
		if err := db.QueryRow(`SELECT dh.id, dh.raw FROM drep_hash dh JOIN delegation_vote dv ON dv.drep_hash_id = dh.id
			WHERE dh.raw IS NOT NULL GROUP BY dh.id ORDER BY count(*) DESC, dh.id LIMIT 1`).Scan(&drep, &raw); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT gap.id, t.hash, COALESCE((SELECT max(param_proposal) FROM gov_action_proposal), 0),
			(SELECT max(epoch_no) FROM block) FROM gov_action_proposal gap JOIN tx t ON t.id = gap.tx_id ORDER BY gap.id LIMIT 1`).Scan(&proposal, &txHash, &params, &epoch); err != nil {
			t.Fatal(err)
		}
		var cc []byte
		if err := db.QueryRow(`SELECT raw FROM committee_hash ORDER BY id LIMIT 1`).Scan(&cc); err != nil {
			t.Fatal(err)
		}
		var addrs []int64
		if err := db.Select(&addrs, `SELECT addr_id FROM delegation_vote ORDER BY id LIMIT 100`); err != nil {
			t.Fatal(err)
		}
		layout := engine.Layout{Consumed: mode == chaingen.ModeConsumed}
		member := map[string]any{"Member": true}
		cases := []struct {
			file   string
			args   []any
			params map[string]any
		}{
			{"gov_drep_find.sql", []any{raw, false, ""}, nil},
			{"gov_drep_find.sql", []any{nil, false, "drep_always_abstain"}, nil},
			{"gov_dreps.sql", []any{nil}, nil},
			{"gov_dreps.sql", []any{drep}, nil},
			{"gov_drep_activity.sql", []any{epoch}, nil},
			{"gov_drep_distr.sql", []any{epoch}, nil},
			{"gov_drep_metadata.sql", []any{pq.Array([]int64{drep})}, nil},
			{"gov_drep_delegators.sql", []any{drep}, nil},
			{"gov_cert_stamps.sql", nil, nil},
			{"gov_cert_stamps_hold.sql", []any{5, txHash, 3, txHash}, nil},
			{"gov_cert_changes.sql", []any{1, 1, 5001}, nil},
			{"gov_stake_live.sql", []any{pq.Array(addrs), epoch}, nil},
			{"gov_drep_updates.sql", []any{drep}, nil},
			{"gov_drep_votes.sql", []any{drep}, nil},
			{"gov_proposal.sql", []any{txHash, 0}, nil},
			{"gov_proposal_parameters.sql", []any{params}, nil},
			{"gov_proposal_withdrawals.sql", []any{proposal}, nil},
			{"gov_proposal_votes.sql", []any{proposal}, nil},
			{"gov_proposal_metadata.sql", []any{proposal}, nil},
			{"gov_committee.sql", nil, nil},
			{"gov_committee_members.sql", []any{1}, nil},
			{"gov_committee_votes.sql", nil, map[string]any{"Member": false}},
			{"gov_committee_votes.sql", []any{pq.Array([]int64{1, 2})}, member},
			{"gov_committee_hot_ids.sql", []any{cc, false, false}, nil},
		}
		planned := map[string]bool{"dbsync/gov_proposals.sql": true}
		for _, tc := range cases {
			planned["dbsync/"+tc.file] = true
		}
		// A new gov_ statement is planned here or the test fails.
		for _, f := range sqlfiles.Dir("dbsync") {
			if strings.HasPrefix(f, "dbsync/gov_") && !planned[f] {
				t.Errorf("%s has no EXPLAIN check", f)
			}
		}
		for _, tc := range cases {
			checkPlans(t, db, mode, engine.MustRender("dbsync/"+tc.file, layout, tc.params).Text, tc.file, tc.args, govTables)
		}
		// Every proposal, read whole once per tip (hundreds on mainnet):
		// only its joins must be index-backed.
		checkPlans(t, db, mode, engine.MustRender("dbsync/gov_proposals.sql", layout, nil).Text, "gov_proposals.sql", nil, testdb.BigTables)
	}
}

func checkPlans(t *testing.T, db *sqlx.DB, mode chaingen.Mode, query, file string, args []any, tables map[string]bool) {
	t.Helper()
	custom, generic := testdb.Plans(t, db, query, args...)
	for name, plan := range map[string]string{"custom": custom, "generic": generic} {
		if bad := testdb.UnindexedScansIn(plan, tables); len(bad) > 0 {
			t.Errorf("%s %s plan of %s %v: %s\n%s", mode, name, file, args, strings.Join(bad, "; "), plan)
		}
	}
}
