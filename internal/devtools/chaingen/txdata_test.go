package chaingen

import (
	"bytes"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/blinklabs-io/gouroboros/ledger/common"
)

// checkTxCBOR decodes every tx_cbor row of the transactions with id > from
// as a Conway transaction and checks it against the database: its id is
// tx.hash, and its inputs, outputs, fee, validity and required signers are
// the transaction's rows. It returns how
// many it checked. Inputs come from tx_in, or from consumed_by_tx_id when
// tx_in is empty (the consumed layouts).
func checkTxCBOR(t *testing.T, db *sql.DB, from int64) int {
	t.Helper()
	rows, err := db.Query(`SELECT t.id, t.hash, t.fee::text, t.valid_contract, COALESCE(t.invalid_hereafter, 0)::bigint, c.bytes,
		(SELECT count(*) FROM tx_cbor c2 WHERE c2.tx_id = t.id)
		FROM tx t JOIN tx_cbor c ON c.tx_id = t.id WHERE t.id > $1 ORDER BY t.id`, from)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		id         int64
		hash, cbor []byte
		fee        string
		valid      bool
		ttl        int64
		copies     int
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.hash, &r.fee, &r.valid, &r.ttl, &r.cbor, &r.copies); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	rows.Close()
	// Inputs: tx_in in the core layout, consumed_by_tx_id in the others.
	consumed := queryInt(t, db, `SELECT count(*) FROM (SELECT 1 FROM tx_in LIMIT 1) x`) == 0
	for _, r := range all {
		tx, err := ledger.NewTransactionFromCbor(ledger.TxTypeConway, r.cbor)
		if err != nil {
			t.Errorf("tx %d: CBOR does not decode: %v", r.id, err)
			continue
		}
		h := tx.Hash()
		if !bytes.Equal(h[:], r.hash) || r.copies != 1 {
			t.Errorf("tx %d: CBOR id %x, tx.hash %x (%d rows)", r.id, h[:], r.hash, r.copies)
			continue
		}
		if tx.Fee().String() != r.fee && r.valid || tx.IsValid() != r.valid || int64(tx.TTL()) != r.ttl {
			t.Errorf("tx %d: fee %s valid %v ttl %d, stored %s %v %d", r.id, tx.Fee(), tx.IsValid(), tx.TTL(), r.fee, r.valid, r.ttl)
		}
		var ins []string
		for _, in := range tx.Inputs() {
			ins = append(ins, fmt.Sprintf("%x#%d", in.Id().Bytes(), in.Index()))
		}
		slices.Sort(ins)
		q := `SELECT encode(p.hash, 'hex') || '#' || i.tx_out_index FROM tx_in i JOIN tx p ON p.id = i.tx_out_id WHERE i.tx_in_id = $1`
		if consumed {
			q = `SELECT encode(p.hash, 'hex') || '#' || o.index FROM tx_out o JOIN tx p ON p.id = o.tx_id WHERE o.consumed_by_tx_id = $1`
		}
		if !r.valid {
			q = `SELECT encode(p.hash, 'hex') || '#' || i.tx_out_index FROM collateral_tx_in i JOIN tx p ON p.id = i.tx_out_id WHERE i.tx_in_id = $1`
		}
		if want := queryStrings(t, db, q+` ORDER BY 1`, r.id); !slices.Equal(ins, want) {
			t.Errorf("tx %d: CBOR inputs %v, database %v", r.id, ins, want)
		}
		if r.valid {
			var outs []string
			for _, o := range tx.Outputs() {
				outs = append(outs, fmt.Sprintf("%s %d %d", o.Address().String(), o.Amount(), assetCount(o)))
			}
			want := queryStrings(t, db, `SELECT o.address || ' ' || o.value || ' ' || (SELECT count(*) FROM ma_tx_out m WHERE m.tx_out_id = o.id)
				FROM tx_out o WHERE o.tx_id = $1 ORDER BY o.index`, r.id)
			if !slices.Equal(outs, want) {
				t.Errorf("tx %d: CBOR outputs %v, database %v", r.id, outs, want)
			}
		}
		var signers []string
		for _, s := range tx.RequiredSigners() {
			signers = append(signers, hex.EncodeToString(s[:]))
		}
		if want := queryStrings(t, db, `SELECT encode(hash, 'hex') FROM extra_key_witness WHERE tx_id = $1 ORDER BY id`, r.id); !slices.Equal(signers, want) {
			t.Errorf("tx %d: CBOR required signers %v, extra_key_witness %v", r.id, signers, want)
		}
	}
	return len(all)
}

func assetCount(o common.TransactionOutput) int {
	a := o.Assets()
	if a == nil {
		return 0
	}
	n := 0
	for _, p := range a.Policies() {
		n += len(a.Assets(p))
	}
	return n
}

func queryStrings(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// What Blockfrost's /txs/{hash}/cbor and /blocks/{h}/txs/cbor read: every
// transaction of the Conway epochs has its CBOR, a Conway transaction whose
// id is tx.hash and whose contents are the transaction's rows; none before.
func TestSeedTxCBOR(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	first := queryInt(t, db, `SELECT min(t.id) FROM tx t JOIN block b ON b.id = t.block_id WHERE b.epoch_no >= $1`, cborFrom)
	if n := queryInt(t, db, `SELECT count(*) FROM tx_cbor WHERE tx_id < $1`, first); n != 0 {
		t.Errorf("%d transactions before Conway have CBOR", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM tx WHERE id >= $1 AND NOT EXISTS (SELECT 1 FROM tx_cbor c WHERE c.tx_id = tx.id)`, first); n != 0 {
		t.Errorf("%d Conway transactions without CBOR", n)
	}
	if n := checkTxCBOR(t, db, first-1); n < 100 {
		t.Errorf("%d transactions with CBOR", n)
	}
	if queryInt(t, db, `SELECT count(*) FROM tx_cbor c JOIN tx t ON t.id = c.tx_id WHERE t.hash = decode($1, 'hex') AND t.id = $2`,
		m.Txs.CBOR.Hash, m.Txs.CBOR.ID) != 1 {
		t.Errorf("manifest's CBOR transaction %+v", m.Txs.CBOR)
	}
}

// Required signers (/txs/{hash}/required_signers): some Alonzo-era and
// later transactions carry 1 to 3 key hashes, the first usually the payer's.
func TestSeedRequiredSigners(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	if n := queryInt(t, db, `SELECT count(DISTINCT tx_id) FROM extra_key_witness`); n < 5 {
		t.Errorf("%d transactions with required signers", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM (SELECT tx_id FROM extra_key_witness GROUP BY tx_id HAVING count(*) > 3) x`); n != 0 {
		t.Errorf("%d transactions with more than 3 required signers", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM extra_key_witness w JOIN tx t ON t.id = w.tx_id JOIN block b ON b.id = t.block_id
		WHERE b.epoch_no < $1`, firstShelley+4); n != 0 {
		t.Errorf("%d required signers before Alonzo", n)
	}
	got := queryStrings(t, db, `SELECT encode(w.hash, 'hex') FROM extra_key_witness w JOIN tx t ON t.id = w.tx_id
		WHERE t.hash = decode($1, 'hex') ORDER BY w.id`, m.Txs.RequiredSigners.Hash)
	if len(got) == 0 || !slices.Equal(got, m.Txs.Signers) {
		t.Errorf("manifest's required signers %v, database %v", m.Txs.Signers, got)
	}
	// The payer's key is a required signer of most of them.
	if n := queryInt(t, db, `SELECT count(*) FROM extra_key_witness w WHERE EXISTS (SELECT 1 FROM tx_in i
		JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE i.tx_in_id = w.tx_id AND o.payment_cred = w.hash)`); n == 0 {
		t.Error("no required signer is its transaction's payer")
	}
}

// MIR certificates (/txs/{hash}/mirs): the Shelley epoch's instant rewards
// from the reserves and the Alonzo epoch's from the treasury (with a pot
// transfer), each paid to its account as reward_rest one epoch later.
func TestSeedMIRs(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	for _, c := range []struct {
		table, typ string
		ref        TxRef
		epoch, n   int64 // n: the most the plan pays
	}{{"reserve", "reserves", m.Txs.MIRReserves, firstShelley + 1, 20}, {"treasury", "treasury", m.Txs.MIRTreasury, firstShelley + 4, 3}} {
		if n := queryInt(t, db, fmt.Sprintf(`SELECT count(*) FROM %s x JOIN tx t ON t.id = x.tx_id JOIN block b ON b.id = t.block_id
			WHERE t.hash = decode($1, 'hex') AND t.id = $2 AND b.epoch_no = $3`, c.table), c.ref.Hash, c.ref.ID, c.epoch); n < 1 || n > c.n ||
			n != queryInt(t, db, `SELECT count(*) FROM `+c.table) {
			t.Errorf("%s: %d certificates in %+v (epoch %d), want 1 to %d, all of them", c.table, n, c.ref, c.epoch, c.n)
		}
		if n := queryInt(t, db, fmt.Sprintf(`SELECT count(*) FROM %s x WHERE x.cert_index <> (SELECT count(*) FROM %s y
			WHERE y.tx_id = x.tx_id AND y.id < x.id)`, c.table, c.table)); n != 0 {
			t.Errorf("%s: %d certificates out of order", c.table, n)
		}
		if n := queryInt(t, db, fmt.Sprintf(`SELECT count(*) FROM %s x WHERE NOT EXISTS (SELECT 1 FROM reward_rest r
			WHERE r.addr_id = x.addr_id AND r.type = $1 AND r.amount = x.amount AND r.spendable_epoch = $2)`, c.table), c.typ, c.epoch+1); n != 0 {
			t.Errorf("%s: %d certificates not paid as reward_rest at epoch %d", c.table, n, c.epoch+1)
		}
	}
	if got := queryString(t, db, `SELECT p.treasury || ' ' || p.reserves || ' ' || p.cert_index FROM pot_transfer p WHERE p.tx_id = $1`,
		m.Txs.MIRTreasury.ID); got != "1000000000000 -1000000000000 3" {
		t.Errorf("pot transfer: %q", got)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM reward_rest WHERE type IN ('reserves', 'treasury')`); n !=
		queryInt(t, db, `SELECT (SELECT count(*) FROM reserve) + (SELECT count(*) FROM treasury) + (SELECT count(*)
			FROM treasury_withdrawal w JOIN gov_action_proposal p ON p.id = w.gov_action_proposal_id WHERE p.enacted_epoch IS NOT NULL)`) {
		t.Errorf("%d MIR rewards, not one per certificate", n)
	}
}

// Pre-Conway update proposals (/epochs/{n}/parameters' sources): one per
// era change, each with one row per genesis key, proposing the next
// epoch's protocol version (which epoch_param then has).
func TestSeedParamProposals(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	if got := queryString(t, db, `SELECT string_agg(epoch_no || ':' || n, ',' ORDER BY epoch_no) FROM (
		SELECT epoch_no, count(*) AS n FROM param_proposal GROUP BY 1) x`); got != "3:7,4:7,5:7,6:7,7:7,8:7" {
		t.Errorf("proposals per epoch: %s", got)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM param_proposal p JOIN tx t ON t.id = p.registered_tx_id JOIN block b ON b.id = t.block_id
		JOIN epoch_param ep ON ep.epoch_no = p.epoch_no + 1
		WHERE b.epoch_no = p.epoch_no AND ep.protocol_major = p.protocol_major AND ep.protocol_minor = p.protocol_minor
		AND octet_length(p.key) = 28`); n != 42 {
		t.Errorf("%d proposals naming the next epoch's protocol version from their own epoch", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM param_proposal p JOIN epoch_param ep ON ep.epoch_no = p.epoch_no + 1
		WHERE p.cost_model_id = ep.cost_model_id AND p.coins_per_utxo_size = ep.coins_per_utxo_size`); n != 7 {
		t.Errorf("%d Alonzo proposals with the Alonzo parameters", n)
	}
	if m.Txs.ParamProposalEpoch != firstShelley+1 || queryInt(t, db, `SELECT count(*) FROM param_proposal p JOIN tx t ON t.id = p.registered_tx_id
		WHERE t.hash = decode($1, 'hex') AND p.epoch_no = $2`, m.Txs.ParamProposal.Hash, m.Txs.ParamProposalEpoch) != 7 {
		t.Errorf("manifest's proposal %+v in epoch %d", m.Txs.ParamProposal, m.Txs.ParamProposalEpoch)
	}
}

// Governance state: one epoch_state per Conway epoch, naming the genesis
// constitution and committee (recorded at the first Conway boundary)
// until the epoch their successors were enacted in, and those from then on.
func TestSeedEpochState(t *testing.T) {
	t.Parallel()
	db, _ := sharedCore.get(t, ModeCore)
	if got := queryString(t, db, `SELECT string_agg(s.epoch_no::text, ',' ORDER BY s.epoch_no) FROM epoch_state s
		JOIN constitution c ON c.id = s.constitution_id JOIN voting_anchor a ON a.id = c.voting_anchor_id
		JOIN committee cm ON cm.id = s.committee_id
		WHERE s.no_confidence_id IS NULL AND a.type = 'constitution' AND c.gov_action_proposal_id IS NULL
		AND cm.gov_action_proposal_id IS NULL
		AND a.block_id = (SELECT min(id) FROM block WHERE epoch_no = $1)`, firstConway); got != "9,10" {
		t.Errorf("epoch_state epochs with the genesis constitution and committee: %q", got)
	}
	if got := queryString(t, db, `SELECT string_agg(s.epoch_no::text, ',' ORDER BY s.epoch_no) FROM epoch_state s
		JOIN constitution c ON c.id = s.constitution_id JOIN gov_action_proposal p ON p.id = c.gov_action_proposal_id
		JOIN committee cm ON cm.id = s.committee_id JOIN gov_action_proposal q ON q.id = cm.gov_action_proposal_id
		WHERE p.enacted_epoch <= s.epoch_no AND q.enacted_epoch <= s.epoch_no`); got != "11" {
		t.Errorf("epoch_state epochs with an enacted constitution and committee: %q", got)
	}
}
