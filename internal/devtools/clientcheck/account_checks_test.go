package clientcheck_test

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/cardano"
)

// accountSQL is the stake address $1's id; curEpochSQL the tip's epoch.
const (
	accountSQL  = `(SELECT id FROM stake_address WHERE view = $1)`
	curEpochSQL = `(SELECT max(epoch_no) FROM block)`
	// chainSQL is a row's transaction hash, slot, block time and height
	// (x: a row with tx_id).
	chainSQL = `encode(t.hash, 'hex') || ' ' || b.slot_no || ' ' || extract(epoch FROM b.time)::bigint || ' ' || b.block_no`
	joinSQL  = ` JOIN tx t ON t.id = x.tx_id JOIN block b ON b.id = t.block_id `
)

// checkAccounts compares every account method blockfrost-js called with
// the test's SQL: the summary, each list's first page and every page.
func checkAccounts(t *testing.T, s *stack, r *results, in bfInput) {
	for _, a := range in.Accounts {
		checkAccount(t, s, r, a)
		checkAccountLists(t, s, r, a)
		checkAccountHoldings(t, s, r, a)
	}
}

// accountFacts is an account's summary as the test reads it: registered
// now (its latest registration newer than its latest deregistration),
// active (delegated: Blockfrost's active is the delegation state), the
// epoch of the newer of the two, the sums of rewards spendable by now
// (reward and reward_rest), withdrawals (valid transactions), MIRs by pot,
// and its pool (the latest delegation since it registered).
type accountFacts struct {
	Registered   bool
	ActiveEpoch  *int `db:"active_epoch"`
	UTxO         string
	Rewards      string
	Withdrawals  string
	Reserves     string
	Treasury     string
	Withdrawable string
	Controlled   string
	Pool         *string
	// DRep: the latest vote delegation since it registered, as
	// "<raw hex> <has_script> <view>" (raw empty for a predefined DRep),
	// nil when none or when that DRep retired after it.
	DRep *string
}

func (s *stack) accountFacts(t *testing.T, a string) accountFacts {
	t.Helper()
	var f accountFacts
	s.sql(t, &f, `WITH reg AS (SELECT tx_id, cert_index, epoch_no FROM stake_registration WHERE addr_id = `+accountSQL+`
			ORDER BY tx_id DESC, cert_index DESC LIMIT 1),
		dereg AS (SELECT tx_id, cert_index, epoch_no FROM stake_deregistration WHERE addr_id = `+accountSQL+`
			ORDER BY tx_id DESC, cert_index DESC LIMIT 1),
		now AS (SELECT reg.* FROM reg WHERE NOT EXISTS (SELECT 1 FROM dereg WHERE (dereg.tx_id, dereg.cert_index) > (reg.tx_id, reg.cert_index))),
		sums AS (SELECT
			(SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.stake_address_id = `+accountSQL+` AND `+unspentSQL+`) AS utxo,
			(SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id = `+accountSQL+` AND spendable_epoch <= `+curEpochSQL+`) +
			(SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id = `+accountSQL+` AND spendable_epoch <= `+curEpochSQL+`) AS rewards,
			(SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w JOIN tx ON tx.id = w.tx_id WHERE w.addr_id = `+accountSQL+` AND tx.valid_contract) AS withdrawals,
			(SELECT COALESCE(sum(amount), 0) FROM reserve WHERE addr_id = `+accountSQL+`) AS reserves,
			(SELECT COALESCE(sum(amount), 0) FROM treasury WHERE addr_id = `+accountSQL+`) AS treasury)
		SELECT EXISTS (SELECT 1 FROM now) AS registered,
			(SELECT CASE WHEN dereg.tx_id IS NULL OR (reg.tx_id, reg.cert_index) > (dereg.tx_id, dereg.cert_index) THEN reg.epoch_no
				ELSE dereg.epoch_no END FROM reg LEFT JOIN dereg ON true) AS active_epoch,
			utxo::text AS utxo, rewards::text AS rewards, withdrawals::text AS withdrawals, reserves::text AS reserves,
			treasury::text AS treasury, GREATEST(rewards - withdrawals, 0)::text AS withdrawable,
			(utxo + GREATEST(rewards - withdrawals, 0))::text AS controlled,
			(SELECT ph.view FROM now JOIN delegation d ON d.addr_id = `+accountSQL+` AND (d.tx_id, d.cert_index) >= (now.tx_id, now.cert_index)
				JOIN pool_hash ph ON ph.id = d.pool_hash_id ORDER BY d.tx_id DESC, d.cert_index DESC LIMIT 1) AS pool,
			(SELECT CASE WHEN EXISTS (SELECT 1 FROM drep_registration r WHERE r.drep_hash_id = v.drep_hash_id AND r.deposit < 0
					AND (r.tx_id, r.cert_index) > (v.tx_id, v.cert_index)) THEN NULL
				ELSE COALESCE(encode(dh.raw, 'hex'), '') || ' ' || dh.has_script || ' ' || dh.view END
			 FROM (SELECT dv.* FROM now JOIN delegation_vote dv ON dv.addr_id = `+accountSQL+`
				AND (dv.tx_id, dv.cert_index) >= (now.tx_id, now.cert_index) ORDER BY dv.tx_id DESC, dv.cert_index DESC LIMIT 1) v
			 JOIN drep_hash dh ON dh.id = v.drep_hash_id) AS drep
		FROM sums`, a)
	return f
}

func checkAccount(t *testing.T, s *stack, r *results, a string) {
	var got struct {
		StakeAddress string  `json:"stake_address"`
		Active       bool    `json:"active"`
		Registered   bool    `json:"registered"`
		ActiveEpoch  *int    `json:"active_epoch"`
		Controlled   string  `json:"controlled_amount"`
		Rewards      string  `json:"rewards_sum"`
		Withdrawals  string  `json:"withdrawals_sum"`
		Reserves     string  `json:"reserves_sum"`
		Treasury     string  `json:"treasury_sum"`
		Withdrawable string  `json:"withdrawable_amount"`
		Pool         *string `json:"pool_id"`
		DRep         *string `json:"drep_id"`
	}
	c := "accounts|" + a
	if !r.get(c, "GET /accounts/{stake_address}", &got) {
		return
	}
	f := s.accountFacts(t, a)
	eq(t, c+" stake_address", got.StakeAddress, a)
	eq(t, c+" active (delegated)", got.Active, f.Pool != nil)
	eq(t, c+" registered", got.Registered, f.Registered)
	eq(t, c+" active_epoch", ptr(got.ActiveEpoch), ptr(f.ActiveEpoch))
	eq(t, c+" controlled_amount", got.Controlled, f.Controlled)
	eq(t, c+" rewards_sum", got.Rewards, f.Rewards)
	eq(t, c+" withdrawals_sum", got.Withdrawals, f.Withdrawals)
	eq(t, c+" reserves_sum", got.Reserves, f.Reserves)
	eq(t, c+" treasury_sum", got.Treasury, f.Treasury)
	eq(t, c+" withdrawable_amount", got.Withdrawable, f.Withdrawable)
	eq(t, c+" pool_id", deref(got.Pool), deref(f.Pool))
	eq(t, c+" drep_id", deref(got.DRep), drepAnswer(t, f.DRep))
}

// drepAnswer is how Blockfrost writes the DRep of accountFacts.DRep:
// CIP-129 for a key or script DRep, db-sync's view for a predefined one.
func drepAnswer(t *testing.T, fact *string) string {
	t.Helper()
	if fact == nil {
		return "null"
	}
	raw, script, view := splitDRepFact(t, *fact)
	if raw == nil {
		return view
	}
	return cardano.DRepCIP129(raw, script)
}

func splitDRepFact(t *testing.T, fact string) (raw []byte, script bool, view string) {
	t.Helper()
	parts := strings.SplitN(fact, " ", 3)
	if len(parts) != 3 {
		t.Fatalf("DRep fact %q", fact)
	}
	if parts[0] != "" {
		var err error
		if raw, err = hex.DecodeString(parts[0]); err != nil {
			t.Fatal(err)
		}
	}
	return raw, parts[1] == "true", parts[2]
}

// checkAccountLists: rewards, history, delegations, registrations,
// withdrawals and MIRs, each in chain order.
func checkAccountLists(t *testing.T, s *stack, r *results, a string) {
	c := func(call string) string { return call + "|" + a }
	rewards := listCheck{t: t, r: r, route: "GET /accounts/{stake_address}/rewards", byFirst: true,
		fields: []string{"epoch", "amount", "pool_id", "type"},
		want: s.want(t, `SELECT x.earned_epoch || ' ' || x.amount || ' ' || ph.view || ' ' ||
			CASE WHEN x.type = 'refund' THEN 'pool_deposit_refund' ELSE x.type::text END
			FROM reward x JOIN pool_hash ph ON ph.id = x.pool_id
			WHERE x.addr_id = `+accountSQL+` AND x.spendable_epoch <= `+curEpochSQL+` ORDER BY x.earned_epoch`, a)}
	rewards.page(c("accountsRewards"))
	rewards.all(c("accountsRewardsAll"))
	if _, asked := r.calls[c("accountsRewardsAll")+"|order=desc"]; asked { // the first account's only
		rewards.desc(c("accountsRewardsAll") + "|order=desc")
	}
	history := listCheck{t: t, r: r, route: "GET /accounts/{stake_address}/history", byFirst: true,
		fields: []string{"active_epoch", "amount", "pool_id"},
		want: s.want(t, `SELECT x.epoch_no || ' ' || x.amount || ' ' || ph.view FROM epoch_stake x
			JOIN pool_hash ph ON ph.id = x.pool_id WHERE x.addr_id = `+accountSQL+` ORDER BY x.epoch_no`, a)}
	history.page(c("accountsHistory"))
	history.all(c("accountsHistoryAll"))

	type chained struct{ call, route, from, cols string }
	for _, l := range []chained{
		{"accountsDelegations", "GET /accounts/{stake_address}/delegations",
			`SELECT x.tx_id, x.cert_index, ph.view || ' ' || x.active_epoch_no || ' ' || v.out_sum AS cols FROM delegation x
			JOIN pool_hash ph ON ph.id = x.pool_hash_id JOIN tx v ON v.id = x.tx_id WHERE x.addr_id = ` + accountSQL,
			"pool_id active_epoch amount"},
		{"accountsRegistrations", "GET /accounts/{stake_address}/registrations",
			`SELECT x.tx_id, x.cert_index, 'registered' AS cols FROM stake_registration x WHERE x.addr_id = ` + accountSQL + `
			UNION ALL SELECT x.tx_id, x.cert_index, 'deregistered' FROM stake_deregistration x WHERE x.addr_id = ` + accountSQL,
			"action"},
		{"accountsWithdrawals", "GET /accounts/{stake_address}/withdrawals",
			`SELECT x.tx_id, 0 AS cert_index, x.amount::text AS cols FROM withdrawal x JOIN tx v ON v.id = x.tx_id
			WHERE v.valid_contract AND x.addr_id = ` + accountSQL, "amount"},
		{"accountsMirs", "GET /accounts/{stake_address}/mirs",
			`SELECT x.tx_id, x.cert_index, x.amount::text AS cols FROM reserve x WHERE x.addr_id = ` + accountSQL + `
			UNION ALL SELECT x.tx_id, x.cert_index, x.amount::text FROM treasury x WHERE x.addr_id = ` + accountSQL, "amount"},
	} {
		lc := listCheck{t: t, r: r, route: l.route,
			fields: append([]string{"tx_hash", "tx_slot", "block_time", "block_height"}, strings.Fields(l.cols)...),
			want:   s.want(t, `SELECT `+chainSQL+` || ' ' || x.cols FROM (`+l.from+`) x`+joinSQL+` ORDER BY x.tx_id, x.cert_index`, a)}
		lc.page(c(l.call))
		lc.all(c(l.call + "All"))
	}
	// Every transaction with an output of the account or spending one.
	txs := listCheck{t: t, r: r, route: "GET /accounts/{stake_address}/transactions",
		fields: []string{"tx_hash", "tx_index", "block_height", "block_time"},
		want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || t.block_index || ' ' || b.block_no || ' ' || extract(epoch FROM b.time)::bigint
			FROM tx t JOIN block b ON b.id = t.block_id WHERE t.id IN (`+accountTxsSQL+`) ORDER BY t.id`, a)}
	txs.page(c("accountsTransactions"))
	txs.all(c("accountsTransactionsAll"))
}

// accountTxsSQL is the ids of the transactions with an output of the
// stake address $1 or an input spending one.
const accountTxsSQL = `SELECT o.tx_id FROM tx_out o WHERE o.stake_address_id = ` + accountSQL + `
	UNION SELECT i.tx_in_id FROM tx_out o JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
	WHERE o.stake_address_id = ` + accountSQL

// checkAccountHoldings: the account's addresses, the assets and totals of
// its outputs, and its unspent outputs.
func checkAccountHoldings(t *testing.T, s *stack, r *results, a string) {
	c := func(call string) string { return call + "|" + a }
	// Every address that ever received an output of the account, in the
	// order of its first one.
	addrs := listCheck{t: t, r: r, route: "GET /accounts/{stake_address}/addresses", fields: []string{"address"},
		want: s.want(t, `SELECT address FROM tx_out WHERE stake_address_id = `+accountSQL+` GROUP BY address ORDER BY min(id)`, a)}
	addrs.page(c("accountsAddresses"))
	addrs.all(c("accountsAddressesAll"))
	assets := listCheck{t: t, r: r, route: "GET /accounts/{stake_address}/addresses/assets", fields: []string{"unit", "quantity"},
		want: s.want(t, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') || ' ' || sum(mo.quantity) FROM tx_out o
			JOIN ma_tx_out mo ON mo.tx_out_id = o.id JOIN multi_asset ma ON ma.id = mo.ident
			WHERE o.stake_address_id = `+accountSQL+` AND `+unspentSQL+` GROUP BY ma.id ORDER BY 1`, a)}
	sortedList(t, r, assets, c("accountsAddressesAssets"), true)
	sortedList(t, r, assets, c("accountsAddressesAssetsAll"), false)

	var total struct {
		StakeAddress string   `json:"stake_address"`
		Received     []amount `json:"received_sum"`
		Sent         []amount `json:"sent_sum"`
		TxCount      int      `json:"tx_count"`
	}
	if r.get(c("accountsAddressesTotal"), "GET /accounts/{stake_address}/addresses/total", &total) {
		var received, sent string
		var n int
		s.sql(t, &received, valueSQL(`o.stake_address_id = `+accountSQL), a)
		s.sql(t, &sent, valueSQL(`o.stake_address_id = `+accountSQL+` AND NOT `+unspentSQL), a)
		s.sql(t, &n, `SELECT count(*) FROM (`+accountTxsSQL+`) x`, a)
		eq(t, c("accountsAddressesTotal")+" stake_address", total.StakeAddress, a)
		eq(t, c("accountsAddressesTotal")+" received_sum", amountKey(total.Received), received)
		eq(t, c("accountsAddressesTotal")+" sent_sum", amountKey(total.Sent), sent)
		eq(t, c("accountsAddressesTotal")+" tx_count", total.TxCount, n)
	}
	checkUTxOs(t, s, r, c("accountsUtxos"), c("accountsUtxosAll"), "GET /accounts/{stake_address}/utxos",
		`o.stake_address_id = `+accountSQL, a)
}

// sortedList compares a list whose order is not the contract's with
// SQL's rows, both sorted: a first page holds min(100, n) of them.
func sortedList(t *testing.T, r *results, c listCheck, call string, firstPage bool) {
	t.Helper()
	var raw []map[string]json.RawMessage
	if !r.get(call, c.route, &raw) {
		return
	}
	got := itemsKey(raw, c.fields...)
	if firstPage {
		eq(t, call+" items", len(got), min(100, len(c.want)))
		return
	}
	slices.Sort(got)
	want := append([]string{}, c.want...)
	slices.Sort(want)
	sameList(t, call, got, want)
}
