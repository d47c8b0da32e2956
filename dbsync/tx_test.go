package dbsync_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

const assetsAgg = `COALESCE((SELECT string_agg(encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex') || '=' || m.quantity::text,
	',' ORDER BY ma.policy, ma.name) FROM ma_tx_out m JOIN multi_asset ma ON ma.id = m.ident WHERE m.tx_out_id = o.id), '')`

// independentTx renders a transaction from plain per-transaction SQL: the
// header, then its inputs (each mode's own spend record, ledger order) and
// outputs, like txLines renders the store's answer.
func independentTx(t *testing.T, c *chain, hash string) []string {
	t.Helper()
	var head []string
	if err := c.raw.Select(&head, `SELECT encode(t.hash, 'hex') || ' block=' || encode(b.hash, 'hex') || ' slot=' || COALESCE(b.slot_no, 0) ||
		' no=' || COALESCE(b.block_no, 0) || ' time=' || to_char(b.time, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ' fee=' || t.fee::text || ' size=' || t.size
		FROM tx t JOIN block b ON b.id = t.block_id WHERE t.hash = decode($1, 'hex')`, hash); err != nil {
		t.Fatal(err)
	}
	spent := `o.id IN (SELECT o2.id FROM tx_in i JOIN tx_out o2 ON o2.tx_id = i.tx_out_id AND o2.index = i.tx_out_index
		WHERE i.tx_in_id = (SELECT id FROM tx WHERE hash = decode($1, 'hex')))`
	if c.mode == "consumed" {
		spent = `o.consumed_by_tx_id = (SELECT id FROM tx WHERE hash = decode($1, 'hex'))`
	}
	var ins, outs []string
	if err := c.raw.Select(&ins, `SELECT 'in ' || encode(src.hash, 'hex') || '#' || o.index || ' ' || o.address || ' ' || o.value::text || ' [' || `+assetsAgg+` || ']'
		FROM tx_out o JOIN tx src ON src.id = o.tx_id WHERE `+spent+` ORDER BY src.hash, o.index`, hash); err != nil {
		t.Fatal(err)
	}
	if err := c.raw.Select(&outs, `SELECT 'out ' || o.index || ' ' || o.address || ' ' || o.value::text || ' [' || `+assetsAgg+` || ']'
		FROM tx_out o WHERE o.tx_id = (SELECT id FROM tx WHERE hash = decode($1, 'hex')) ORDER BY o.index`, hash); err != nil {
		t.Fatal(err)
	}
	return append(append(head, ins...), outs...)
}

func txLines(tx dbsync.Tx) []string {
	lines := []string{fmt.Sprintf("%s block=%s slot=%d no=%d time=%s fee=%s size=%d", tx.Hash, tx.BlockHash, tx.SlotNo, tx.BlockNo,
		tx.BlockTime.Format("2006-01-02T15:04:05Z"), tx.Fee, tx.Size)}
	for _, in := range tx.Inputs {
		lines = append(lines, fmt.Sprintf("in %s#%d %s %s [%s]", in.TxHash, in.OutputIndex, in.Address, in.Value.Lovelace, assetsLine(in.Value.Assets)))
	}
	for _, o := range tx.Outputs {
		lines = append(lines, fmt.Sprintf("out %d %s %s [%s]", o.OutputIndex, o.Address, o.Value.Lovelace, assetsLine(o.Value.Assets)))
	}
	return lines
}

func TestTxByHash(t *testing.T) {
	needChains(t)
	if len(samples.FailedTxs) == 0 {
		t.Fatal("the seeded chain has no failed transactions")
	}
	var hashes []string
	if err := chains[0].raw.Select(&hashes, `SELECT encode(hash, 'hex') FROM tx ORDER BY md5(hash::text) LIMIT 25`); err != nil {
		t.Fatal(err)
	}
	hashes = append(hashes, samples.FailedTxs...)
	for _, h := range hashes {
		hash, err := cardano.ParseTxHash(h)
		if err != nil {
			t.Fatal(err)
		}
		var perMode []any
		for _, c := range chains {
			got, err := c.db.TxByHash(t.Context(), hash)
			if err != nil {
				t.Fatalf("%s %s: %v", c.mode, h, err)
			}
			compareLines(t, string(c.mode)+" "+h, txLines(got), independentTx(t, c, h))
			perMode = append(perMode, got)
		}
		sameAcrossModes(t, "tx "+h, perMode)
	}
	// A failed transaction consumed its collateral inputs; only its
	// collateral return (if any) exists as an output, never a UTxO of the
	// collateral's address again.
	for _, h := range samples.FailedTxs {
		hash, _ := cardano.ParseTxHash(h)
		for _, c := range chains {
			tx, err := c.db.TxByHash(t.Context(), hash)
			if err != nil {
				t.Fatal(err)
			}
			if len(tx.Inputs) == 0 {
				t.Errorf("%s: failed tx %s shows no collateral inputs", c.mode, h)
			}
			for _, in := range tx.Inputs {
				utxos, err := c.db.UTxOsByAddress(t.Context(), mustAddress(t, in.Address))
				if err != nil {
					t.Fatal(err)
				}
				for _, u := range utxos {
					if u.TxHash == in.TxHash && u.OutputIndex == in.OutputIndex {
						t.Errorf("%s: collateral %s#%d of failed tx %s is still a UTxO", c.mode, in.TxHash, in.OutputIndex, h)
					}
				}
			}
		}
	}
	missing, _ := cardano.ParseTxHash(strings.Repeat("0", 64))
	for _, c := range chains {
		if _, err := c.db.TxByHash(t.Context(), missing); !errors.Is(err, dbsync.ErrNotFound) {
			t.Errorf("%s: unknown hash: %v, want ErrNotFound", c.mode, err)
		}
	}
}

// A transaction asked for by hash is not remembered in the details memo
// (custodians ask for many once each: the memo would hold them for no
// reader); a detailed history page still fills it.
func TestTxByHashLeavesDetailsMemo(t *testing.T) {
	needChains(t)
	db, err := testdb.OpenDBSync(chains[0].dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var hashes []string
	if err := chains[0].raw.Select(&hashes, `SELECT encode(hash, 'hex') FROM tx ORDER BY id DESC LIMIT 20`); err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		hash, _ := cardano.ParseTxHash(h)
		if _, err := db.TxByHash(t.Context(), hash); err != nil {
			t.Fatal(err)
		}
	}
	if n := db.MemoDetails(); n != 0 {
		t.Fatalf("%d transactions read by hash are in the details memo", n)
	}
	if _, err := db.TxsByAddress(t.Context(), mustAddress(t, samples.Busy), dbsync.HistoryQuery{Limit: 5}, nil); err != nil {
		t.Fatal(err)
	}
	if db.MemoDetails() == 0 {
		t.Fatal("a detailed history page left the details memo empty")
	}
}

// The detailed history is the light history's page with each transaction's
// inputs and outputs, the same as TxByHash gives one by one.
func TestTxsByAddress(t *testing.T) {
	needChains(t)
	addrs := []string{samples.Whale, samples.Busy}
	addrs = append(addrs, samples.FailedAddr[:min(3, len(samples.FailedAddr))]...)
	for i, a := range addrs {
		queries := []dbsync.HistoryQuery{{Limit: 20}, {Limit: 7, Ascending: true}}
		if i == 0 {
			queries = append(queries, dbsync.HistoryQuery{Limit: 100, Offset: 3})
		}
		for _, q := range queries {
			var perMode []any
			for _, c := range chains {
				addr := mustAddress(t, a)
				got, err := c.db.TxsByAddress(t.Context(), addr, q, nil)
				if err != nil {
					t.Fatal(err)
				}
				light, err := c.db.TxHistory(t.Context(), addr, q, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Items) != len(light.Items) || got.Total != light.Total || cursorString(got.NextCursor) != cursorString(light.NextCursor) {
					t.Fatalf("%s %s %+v: detailed page (%d, total %d) differs from light page (%d, total %d)",
						c.mode, a, q, len(got.Items), got.Total, len(light.Items), light.Total)
				}
				for i, tx := range got.Items {
					if tx.Hash != light.Items[i].Hash {
						t.Fatalf("%s %s: item %d is %s, light page has %s", c.mode, a, i, tx.Hash, light.Items[i].Hash)
					}
					if i < 40 || i >= len(got.Items)-10 { // a whole busy slot is 300+ txs: sample its ends
						compareLines(t, string(c.mode)+" "+tx.Hash, txLines(tx), independentTx(t, c, tx.Hash))
					}
				}
				perMode = append(perMode, got)
			}
			sameAcrossModes(t, fmt.Sprintf("detailed history of %s %+v", a, q), perMode)
		}
	}
}

func cursorString(c *int64) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprint(*c)
}

// txSpread is a spread of transaction hashes of the suite's chain (same
// seed in every layout), labelled by what makes each worth reading: random
// ones, outputs and inputs holding assets (one or several), several
// inputs, Byron addresses on either side, the most outputs, none spent
// (no inputs), failed phase-2 validation. Every kind must be there.
func txSpread(t *testing.T) map[string][]string {
	t.Helper()
	var rows []struct {
		Kind string `db:"kind"`
		Hash string `db:"hash"`
	}
	spent := `SELECT i.tx_in_id AS tx_id, o.id, o.address FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index`
	pick := func(kind, ids string, n int) string {
		return `(SELECT '` + kind + `' AS kind, encode(t.hash, 'hex') AS hash FROM tx t WHERE t.id IN (` + ids + `)
			ORDER BY md5(t.hash::text) LIMIT ` + fmt.Sprint(n) + `)`
	}
	query := strings.Join([]string{
		pick("random", `SELECT id FROM tx`, 60),
		pick("output assets", `SELECT o.tx_id FROM tx_out o JOIN ma_tx_out m ON m.tx_out_id = o.id`, 15),
		pick("output several assets", `SELECT o.tx_id FROM tx_out o WHERE (SELECT count(*) FROM ma_tx_out m WHERE m.tx_out_id = o.id) > 1`, 10),
		pick("input assets", `SELECT s.tx_id FROM (`+spent+`) s JOIN ma_tx_out m ON m.tx_out_id = s.id`, 15),
		pick("several inputs", `SELECT tx_in_id FROM tx_in GROUP BY 1 HAVING count(*) > 1`, 15),
		pick("byron output", `SELECT tx_id FROM tx_out WHERE address NOT LIKE 'addr%'`, 5),
		pick("byron input", `SELECT s.tx_id FROM (`+spent+`) s WHERE s.address NOT LIKE 'addr%'`, 5),
		pick("no inputs", `SELECT id FROM tx WHERE id NOT IN (SELECT tx_in_id FROM tx_in)`, 5),
		`(SELECT 'most outputs', encode(t.hash, 'hex') FROM tx t ORDER BY (SELECT count(*) FROM tx_out o WHERE o.tx_id = t.id) DESC, t.id LIMIT 3)`,
		`(SELECT 'failed', encode(hash, 'hex') FROM tx WHERE NOT valid_contract)`,
	}, "\nUNION ALL\n")
	if err := chains[0].raw.Select(&rows, query); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, r := range rows {
		out[r.Kind] = append(out[r.Kind], r.Hash)
	}
	for _, kind := range []string{"random", "output assets", "output several assets", "input assets", "several inputs",
		"byron output", "byron input", "no inputs", "most outputs", "failed"} {
		if len(out[kind]) == 0 {
			t.Fatalf("the seeded chain has no transaction of kind %q", kind)
		}
	}
	return out
}

// sameTxAsInSteps wants db's TxByHash (one statement) to answer every hash
// of spread exactly as the former snapshot of four statements does, and
// both to find no unknown hash.
func sameTxAsInSteps(t *testing.T, db *dbsync.DB, spread map[string][]string) {
	t.Helper()
	ctx := t.Context()
	for kind, hashes := range spread {
		for _, h := range hashes {
			hash, err := cardano.ParseTxHash(h)
			if err != nil {
				t.Fatal(err)
			}
			want, err := db.TxByHashInSteps(ctx, hash)
			if err != nil {
				t.Fatalf("%s tx %s in steps: %v", kind, h, err)
			}
			got, err := db.TxByHash(ctx, hash)
			if err != nil {
				t.Fatalf("%s tx %s: %v", kind, h, err)
			}
			if render(got) != render(want) {
				t.Errorf("%s tx %s differs from the answer in steps:\n got %.800s\nwant %.800s", kind, h, render(got), render(want))
			}
		}
	}
	missing, _ := cardano.ParseTxHash(strings.Repeat("ab", 32))
	if _, err := db.TxByHash(ctx, missing); !errors.Is(err, dbsync.ErrNotFound) {
		t.Errorf("unknown hash: %v, want ErrNotFound", err)
	}
	if _, err := db.TxByHashInSteps(ctx, missing); !errors.Is(err, dbsync.ErrNotFound) {
		t.Errorf("unknown hash in steps: %v, want ErrNotFound", err)
	}
}

// TxByHash reads in one statement what it read in a snapshot of four
// (the tx, its inputs, its outputs, their assets): the same answer, byte
// for byte, for every kind of transaction, in both modes (the other
// layouts: TestLayoutsAgree).
func TestTxByHashAsInSteps(t *testing.T) {
	needChains(t)
	spread := txSpread(t)
	forEachChain(t, func(t *testing.T, c *chain) { sameTxAsInSteps(t, c.db, spread) })
}
