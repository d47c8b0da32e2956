package clientcheck_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// amount is Blockfrost's {unit, quantity}.
type amount struct {
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
}

// amountKey is an amount list as text: its first item (lovelace, as the
// answer must list it), then the units sorted.
func amountKey(l []amount) string {
	var parts []string
	for _, a := range l {
		parts = append(parts, a.Unit+"="+a.Quantity)
	}
	if len(parts) > 1 {
		sort.Strings(parts[1:])
	}
	return strings.Join(parts, " ")
}

// checkTxs compares every transaction sub-resource blockfrost-js read
// with the test's SQL.
func checkTxs(t *testing.T, s *stack, r *results, in bfInput) {
	for _, h := range in.Txs {
		checkTx(t, s, r, h)
		checkTxUTxOs(t, s, r, h)
		checkTxCerts(t, s, r, h)
		checkTxExtras(t, s, r, h)
	}
}

func checkTx(t *testing.T, s *stack, r *results, h string) {
	var got struct {
		Hash, Block     string
		BlockHeight     int64    `json:"block_height"`
		BlockTime       int64    `json:"block_time"`
		Slot            uint64   `json:"slot"`
		Index           int      `json:"index"`
		OutputAmount    []amount `json:"output_amount"`
		Fees, Deposit   string
		Size            int
		InvalidBefore   *string `json:"invalid_before"`
		InvalidHere     *string `json:"invalid_hereafter"`
		UTxOCount       int     `json:"utxo_count"`
		Withdrawals     int     `json:"withdrawal_count"`
		MIRs            int     `json:"mir_cert_count"`
		Delegations     int     `json:"delegation_count"`
		StakeCerts      int     `json:"stake_cert_count"`
		PoolUpdates     int     `json:"pool_update_count"`
		PoolRetires     int     `json:"pool_retire_count"`
		Mints           int     `json:"asset_mint_or_burn_count"`
		Redeemers       int     `json:"redeemer_count"`
		ValidContract   bool    `json:"valid_contract"`
		TreasuryDonated *string `json:"treasury_donation"`
	}
	if !r.get("txs|"+h, "GET /txs/{hash}", &got) {
		return
	}
	var want struct {
		Block                                                          string
		Height                                                         int64
		Time                                                           int64
		Slot                                                           uint64
		Index                                                          int
		Fees, Deposit                                                  string
		Size                                                           int
		Before, Hereafter                                              *string
		UTxOs, Withdrawals, MIRs, Delegations, StakeCerts, PoolUpdates int
		PoolRetires, Mints, Redeemers                                  int
		Valid                                                          bool
		Amounts                                                        string
	}
	s.sql(t, &want, `SELECT encode(b.hash, 'hex') AS block, b.block_no AS height, extract(epoch FROM b.time)::bigint AS time,
		b.slot_no AS slot, tx.block_index AS index, tx.fee::text AS fees, tx.deposit::text AS deposit, tx.size,
		tx.invalid_before::text AS before, tx.invalid_hereafter::text AS hereafter, tx.valid_contract AS valid,
		(SELECT count(*) FROM tx_in WHERE tx_in_id = tx.id) + (SELECT count(*) FROM tx_out WHERE tx_id = tx.id) AS utxos,
		(SELECT count(*) FROM withdrawal WHERE tx_id = tx.id) AS withdrawals,
		(SELECT count(DISTINCT cert_index) FROM (SELECT cert_index FROM reserve WHERE tx_id = tx.id UNION ALL
			SELECT cert_index FROM treasury WHERE tx_id = tx.id) m) AS mirs, -- certificates paying stake addresses (DECISIONS)
		(SELECT count(*) FROM delegation WHERE tx_id = tx.id) AS delegations,
		(SELECT count(*) FROM stake_registration WHERE tx_id = tx.id) + (SELECT count(*) FROM stake_deregistration WHERE tx_id = tx.id) AS stakecerts,
		(SELECT count(*) FROM pool_update WHERE registered_tx_id = tx.id) AS poolupdates,
		(SELECT count(*) FROM pool_retire WHERE announced_tx_id = tx.id) AS poolretires,
		(SELECT count(*) FROM ma_tx_mint WHERE tx_id = tx.id) AS mints,
		(SELECT count(*) FROM redeemer WHERE tx_id = tx.id) AS redeemers,
		'lovelace=' || tx.out_sum || COALESCE((SELECT string_agg(' ' || u.unit || '=' || u.q, '' ORDER BY u.unit) FROM
			(SELECT encode(a.policy, 'hex') || encode(a.name, 'hex') AS unit, sum(mo.quantity)::text AS q FROM tx_out o
			 JOIN ma_tx_out mo ON mo.tx_out_id = o.id JOIN multi_asset a ON a.id = mo.ident WHERE o.tx_id = tx.id GROUP BY 1) u), '') AS amounts
		FROM tx JOIN block b ON b.id = tx.block_id WHERE tx.hash = decode($1, 'hex')`, h)
	c := "txs|" + h[:8] + " "
	eq(t, c+"hash", got.Hash, h)
	eq(t, c+"block", got.Block, want.Block)
	eq(t, c+"block_height", got.BlockHeight, want.Height)
	eq(t, c+"block_time", got.BlockTime, want.Time)
	eq(t, c+"slot", got.Slot, want.Slot)
	eq(t, c+"index", got.Index, want.Index)
	eq(t, c+"fees", got.Fees, want.Fees)
	eq(t, c+"deposit", got.Deposit, want.Deposit)
	eq(t, c+"size", got.Size, want.Size)
	eq(t, c+"invalid_before", deref(got.InvalidBefore), deref(want.Before))
	eq(t, c+"invalid_hereafter", deref(got.InvalidHere), deref(want.Hereafter))
	eq(t, c+"valid_contract", got.ValidContract, want.Valid)
	eq(t, c+"utxo_count", got.UTxOCount, want.UTxOs)
	eq(t, c+"withdrawal_count", got.Withdrawals, want.Withdrawals)
	eq(t, c+"mir_cert_count", got.MIRs, want.MIRs)
	eq(t, c+"delegation_count", got.Delegations, want.Delegations)
	eq(t, c+"stake_cert_count", got.StakeCerts, want.StakeCerts)
	eq(t, c+"pool_update_count", got.PoolUpdates, want.PoolUpdates)
	eq(t, c+"pool_retire_count", got.PoolRetires, want.PoolRetires)
	eq(t, c+"asset_mint_or_burn_count", got.Mints, want.Mints)
	eq(t, c+"redeemer_count", got.Redeemers, want.Redeemers)
	eq(t, c+"output_amount", amountKey(got.OutputAmount), want.Amounts)
}

// utxoOf is a transaction input or output as the test compares it.
type utxoOf struct {
	Address      string   `json:"address"`
	Amount       []amount `json:"amount"`
	TxHash       string   `json:"tx_hash"`
	OutputIndex  int      `json:"output_index"`
	DataHash     *string  `json:"data_hash"`
	InlineDatum  *string  `json:"inline_datum"`
	RefScript    *string  `json:"reference_script_hash"`
	Collateral   bool     `json:"collateral"`
	Reference    bool     `json:"reference"`
	ConsumedByTx *string  `json:"consumed_by_tx"`
}

func (u utxoOf) key(withTx bool) string {
	k := fmt.Sprintf("#%d %s %s collateral=%v reference=%v data=%s inline=%s script=%s", u.OutputIndex, u.Address,
		amountKey(u.Amount), u.Collateral, u.Reference, deref(u.DataHash), deref(u.InlineDatum), deref(u.RefScript))
	if withTx {
		k = u.TxHash + k
	} else {
		k += " consumed_by=" + deref(u.ConsumedByTx)
	}
	return k
}

// outputsSQL lists outputs (o: tx_out or collateral_tx_out) with their
// value as the answer lists it: lovelace, then units in order.
const outputRowSQL = `o.address, o.index AS output_index, 'lovelace=' || o.value ||
	COALESCE((SELECT string_agg(' ' || encode(a.policy, 'hex') || encode(a.name, 'hex') || '=' || mo.quantity, '' ORDER BY a.policy, a.name)
	  FROM ma_tx_out mo JOIN multi_asset a ON a.id = mo.ident WHERE mo.tx_out_id = o.id), '') AS amount,
	encode(o.data_hash, 'hex') AS data_hash, (SELECT encode(d.bytes, 'hex') FROM datum d WHERE d.id = o.inline_datum_id) AS inline_datum,
	(SELECT encode(sc.hash, 'hex') FROM script sc WHERE sc.id = o.reference_script_id) AS script`

type utxoRow struct {
	TxHash      string  `db:"tx_hash"`
	Address     string  `db:"address"`
	OutputIndex int     `db:"output_index"`
	Amount      string  `db:"amount"`
	DataHash    *string `db:"data_hash"`
	InlineDatum *string `db:"inline_datum"`
	Script      *string `db:"script"`
	Collateral  bool    `db:"collateral"`
	Reference   bool    `db:"reference"`
	Consumed    *string `db:"consumed"`
}

func (u utxoRow) key(withTx bool) string {
	k := fmt.Sprintf("#%d %s %s collateral=%v reference=%v data=%s inline=%s script=%s", u.OutputIndex, u.Address,
		u.Amount, u.Collateral, u.Reference, deref(u.DataHash), deref(u.InlineDatum), deref(u.Script))
	if withTx {
		k = u.TxHash + k
	} else {
		k += " consumed_by=" + deref(u.Consumed)
	}
	return k
}

func checkTxUTxOs(t *testing.T, s *stack, r *results, h string) {
	var got struct {
		Hash    string
		Inputs  []utxoOf
		Outputs []utxoOf
	}
	if !r.get("txsUtxos|"+h, "GET /txs/{hash}/utxos", &got) {
		return
	}
	var ins, outs []utxoRow
	s.sqlList(t, &ins, `WITH t AS (SELECT id FROM tx WHERE hash = decode($1, 'hex')),
		spent AS (SELECT tx_out_id, tx_out_index, false AS collateral, false AS reference FROM tx_in, t WHERE tx_in_id = t.id
		  UNION ALL SELECT tx_out_id, tx_out_index, true, false FROM collateral_tx_in, t WHERE tx_in_id = t.id
		  UNION ALL SELECT tx_out_id, tx_out_index, false, true FROM reference_tx_in, t WHERE tx_in_id = t.id)
		SELECT encode(x.hash, 'hex') AS tx_hash, sp.collateral, sp.reference, `+outputRowSQL+`
		FROM spent sp JOIN tx x ON x.id = sp.tx_out_id JOIN tx_out o ON o.tx_id = sp.tx_out_id AND o.index = sp.tx_out_index`, h)
	s.sqlList(t, &outs, `WITH t AS (SELECT id FROM tx WHERE hash = decode($1, 'hex'))
		SELECT false AS collateral, (SELECT encode(c.hash, 'hex') FROM tx_in i JOIN tx c ON c.id = i.tx_in_id
		  WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index) AS consumed, `+outputRowSQL+` FROM tx_out o, t WHERE o.tx_id = t.id
		UNION ALL SELECT true, NULL, `+outputRowSQL+` FROM collateral_tx_out o, t WHERE o.tx_id = t.id`, h)
	var gi, wi, gout, wout []string
	for _, u := range got.Inputs {
		gi = append(gi, u.key(true))
	}
	for _, u := range ins {
		wi = append(wi, u.key(true))
	}
	for _, u := range got.Outputs {
		gout = append(gout, u.key(false))
	}
	for _, u := range outs {
		wout = append(wout, u.key(false))
	}
	sort.Strings(gi)
	sort.Strings(wi)
	sort.Strings(gout)
	sort.Strings(wout)
	eq(t, "txsUtxos hash", got.Hash, h)
	sameList(t, "txsUtxos|"+h[:8]+" inputs", gi, wi)
	sameList(t, "txsUtxos|"+h[:8]+" outputs", gout, wout)
}

// rowsKey runs a query returning one text column and sorts it.
func (s *stack) rowsKey(t *testing.T, query string, args ...any) []string {
	t.Helper()
	var l []string
	s.sqlList(t, &l, query, args...)
	if l == nil {
		l = []string{}
	}
	sort.Strings(l)
	return l
}

// gotKey formats every item of a list the client got with format's fields.
func gotKey(t *testing.T, raw []map[string]any, fields ...string) []string {
	t.Helper()
	out := []string{}
	for _, item := range raw {
		var parts []string
		for _, f := range fields {
			parts = append(parts, fmt.Sprint(item[f]))
		}
		out = append(out, strings.Join(parts, " "))
	}
	sort.Strings(out)
	return out
}

func checkTxCerts(t *testing.T, s *stack, r *results, h string) {
	var got []map[string]any
	c := func(call string) string { return call + "|" + h }
	tx := `(SELECT id FROM tx WHERE hash = decode($1, 'hex'))`
	if r.get(c("txsStakes"), "GET /txs/{hash}/stakes", &got) {
		sameList(t, c("txsStakes"), gotKey(t, got, "cert_index", "address", "registration"), s.rowsKey(t,
			`SELECT r.cert_index || ' ' || sa.view || ' true' FROM stake_registration r JOIN stake_address sa ON sa.id = r.addr_id WHERE r.tx_id = `+tx+`
			UNION ALL SELECT r.cert_index || ' ' || sa.view || ' false' FROM stake_deregistration r JOIN stake_address sa ON sa.id = r.addr_id WHERE r.tx_id = `+tx, h))
	}
	if r.get(c("txsDelegations"), "GET /txs/{hash}/delegations", &got) {
		sameList(t, c("txsDelegations"), gotKey(t, got, "cert_index", "address", "pool_id", "active_epoch"), s.rowsKey(t,
			`SELECT d.cert_index || ' ' || sa.view || ' ' || ph.view || ' ' || d.active_epoch_no FROM delegation d
			JOIN stake_address sa ON sa.id = d.addr_id JOIN pool_hash ph ON ph.id = d.pool_hash_id WHERE d.tx_id = `+tx, h))
	}
	if r.get(c("txsWithdrawals"), "GET /txs/{hash}/withdrawals", &got) {
		sameList(t, c("txsWithdrawals"), gotKey(t, got, "address", "amount"), s.rowsKey(t,
			`SELECT sa.view || ' ' || w.amount FROM withdrawal w JOIN stake_address sa ON sa.id = w.addr_id WHERE w.tx_id = `+tx, h))
	}
	if r.get(c("txsMirs"), "GET /txs/{hash}/mirs", &got) {
		sameList(t, c("txsMirs"), gotKey(t, got, "pot", "cert_index", "address", "amount"), s.rowsKey(t,
			`SELECT 'reserve ' || m.cert_index || ' ' || sa.view || ' ' || m.amount FROM reserve m JOIN stake_address sa ON sa.id = m.addr_id WHERE m.tx_id = `+tx+`
			UNION ALL SELECT 'treasury ' || m.cert_index || ' ' || sa.view || ' ' || m.amount FROM treasury m JOIN stake_address sa ON sa.id = m.addr_id WHERE m.tx_id = `+tx, h))
	}
	if r.get(c("txsPoolUpdates"), "GET /txs/{hash}/pool_updates", &got) {
		sameList(t, c("txsPoolUpdates"), gotKey(t, got, "cert_index", "pool_id", "pledge", "fixed_cost", "active_epoch"), s.rowsKey(t,
			`SELECT u.cert_index || ' ' || ph.view || ' ' || u.pledge || ' ' || u.fixed_cost || ' ' || u.active_epoch_no FROM pool_update u
			JOIN pool_hash ph ON ph.id = u.hash_id WHERE u.registered_tx_id = `+tx, h))
	}
	if r.get(c("txsPoolRetires"), "GET /txs/{hash}/pool_retires", &got) {
		sameList(t, c("txsPoolRetires"), gotKey(t, got, "cert_index", "pool_id", "retiring_epoch"), s.rowsKey(t,
			`SELECT p.cert_index || ' ' || ph.view || ' ' || p.retiring_epoch FROM pool_retire p JOIN pool_hash ph ON ph.id = p.hash_id
			WHERE p.announced_tx_id = `+tx, h))
	}
}

func checkTxExtras(t *testing.T, s *stack, r *results, h string) {
	c := func(call string) string { return call + "|" + h }
	tx := `(SELECT id FROM tx WHERE hash = decode($1, 'hex'))`
	var meta []struct {
		Label    string          `json:"label"`
		JSON     json.RawMessage `json:"json_metadata"`
		Metadata string          `json:"metadata"`
	}
	var wantMeta []struct {
		Label string
		JSON  *string
		Bytes string
	}
	s.sqlList(t, &wantMeta, `SELECT key::text AS label, json::text AS json, encode(bytes, 'hex') AS bytes FROM tx_metadata
		WHERE tx_id = `+tx+` ORDER BY key`, h)
	if r.get(c("txsMetadata"), "GET /txs/{hash}/metadata", &meta) {
		eq(t, c("txsMetadata")+" labels", len(meta), len(wantMeta))
		for i := range min(len(meta), len(wantMeta)) {
			eq(t, c("txsMetadata")+" label", meta[i].Label, wantMeta[i].Label)
			if wantMeta[i].JSON != nil && !sameJSON(meta[i].JSON, []byte(*wantMeta[i].JSON)) {
				t.Errorf("%s: label %s: %s, SQL says %s", c("txsMetadata"), meta[i].Label, meta[i].JSON, *wantMeta[i].JSON)
			}
		}
	}
	if r.get(c("txsMetadataCbor"), "GET /txs/{hash}/metadata/cbor", &meta) {
		eq(t, c("txsMetadataCbor")+" labels", len(meta), len(wantMeta))
		for i := range min(len(meta), len(wantMeta)) {
			eq(t, c("txsMetadataCbor")+" label "+meta[i].Label, meta[i].Metadata, wantMeta[i].Bytes)
		}
	}
	var got []map[string]any
	if r.get(c("txsRedeemers"), "GET /txs/{hash}/redeemers", &got) {
		sameList(t, c("txsRedeemers"), gotKey(t, got, "tx_index", "purpose", "script_hash", "unit_mem", "unit_steps", "fee"), s.rowsKey(t,
			`SELECT r.index || ' ' || r.purpose || ' ' || encode(r.script_hash, 'hex') || ' ' || r.unit_mem || ' ' || r.unit_steps || ' ' || r.fee
			FROM redeemer r WHERE r.tx_id = `+tx, h))
	}
	if r.get(c("txsRequiredSigners"), "GET /txs/{hash}/required_signers", &got) {
		sameList(t, c("txsRequiredSigners"), gotKey(t, got, "witness_hash"), s.rowsKey(t,
			`SELECT encode(hash, 'hex') FROM extra_key_witness WHERE tx_id = `+tx, h))
	}
	var want []string
	s.sqlList(t, &want, `SELECT encode(bytes, 'hex') FROM tx_cbor WHERE tx_id = `+tx, h)
	if len(want) == 0 {
		r.refused(c("txsCbor"), "GET /txs/{hash}/cbor", 404) // db-sync kept no CBOR for it
		return
	}
	var cb struct{ CBOR string }
	if r.get(c("txsCbor"), "GET /txs/{hash}/cbor", &cb) {
		eq(t, c("txsCbor"), cb.CBOR, want[0])
	}
}

// sameJSON compares two JSON texts as values.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
