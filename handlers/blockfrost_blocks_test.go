package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// walk reads every page of a list route (count per page, page 1 on) until
// a short page, checking none is longer than count.
func walk[T any](t *testing.T, h http.Handler, path string, count int) (all []T, pages [][]T) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for page := 1; ; page++ {
		var items []T
		bfJSON(t, h, fmt.Sprintf("%s%scount=%d&page=%d", path, sep, count, page), &items)
		if len(items) > count {
			t.Fatalf("%s page %d: %d items, count %d", path, page, len(items), count)
		}
		pages = append(pages, items)
		all = append(all, items...)
		if len(items) < count {
			return all, pages
		}
		if page > 2000 {
			t.Fatalf("%s: no end", path)
		}
	}
}

// sqlStrings runs a query of the test's own returning one text column.
func sqlStrings(t *testing.T, db *sqlx.DB, query string, args ...any) []string {
	t.Helper()
	out := []string{}
	if err := db.Select(&out, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

type bfBlockItem struct {
	Hash          string  `json:"hash"`
	Height        *int64  `json:"height"`
	Slot          *int64  `json:"slot"`
	OpCert        *string `json:"op_cert"`
	Confirmations int64   `json:"confirmations"`
}

// TestBlockfrostBlockNeighbours: /blocks/{h}/next and /previous walked
// page by page from blocks around the genesis and Byron's epoch boundaries
// (blocks without a height), the middle and the tip give every block
// after (before) it once, oldest first, as block ids order them.
func TestBlockfrostBlockNeighbours(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var refs []struct {
			ID   int64  `db:"id"`
			Hash string `db:"hash"`
			No   *int64 `db:"block_no"`
		}
		// The first block with a height, an epoch boundary (no height),
		// the genesis, one in the middle, the tip.
		if err := c.raw.Select(&refs, `(SELECT id, encode(hash,'hex') AS hash, block_no FROM block WHERE block_no = 1)
			UNION ALL (SELECT id, encode(hash,'hex'), block_no FROM block WHERE block_no IS NULL AND epoch_no = 1)
			UNION ALL (SELECT id, encode(hash,'hex'), block_no FROM block WHERE previous_id IS NULL)
			UNION ALL (SELECT id, encode(hash,'hex'), block_no FROM block WHERE block_no = (SELECT max(block_no) / 2 FROM block))
			UNION ALL (SELECT id, encode(hash,'hex'), block_no FROM block WHERE block_no = (SELECT max(block_no) FROM block))`); err != nil || len(refs) != 5 {
			t.Fatalf("%s: reference blocks %v %v", c.mode, refs, err)
		}
		for i, ref := range refs {
			name := ref.Hash
			if ref.No != nil && i%2 == 0 {
				name = strconv.FormatInt(*ref.No, 10)
			}
			after := sqlStrings(t, c.raw, `SELECT encode(hash,'hex') FROM block WHERE id > $1 ORDER BY id`, ref.ID)
			before := sqlStrings(t, c.raw, `SELECT encode(hash,'hex') FROM block WHERE id < $1 ORDER BY id`, ref.ID)
			count := 100
			if i < 3 {
				count = 7 // across the blocks without a height
			}
			got, _ := walk[bfBlockItem](t, h, "/blocks/"+name+"/next", count)
			if hs := hashesOf(got); !slices.Equal(hs, after) {
				t.Fatalf("%s: next of %s: %d blocks, want %d (%v...)", c.mode, name, len(hs), len(after), hs[:min(len(hs), 3)])
			}
			// Previous pages run backwards: page 1 is the nearest, each
			// oldest first.
			_, pages := walk[bfBlockItem](t, h, "/blocks/"+name+"/previous?order=desc", count)
			var back []string
			for _, p := range pages {
				back = append(hashesOf(p), back...)
			}
			if !slices.Equal(back, before) {
				t.Fatalf("%s: previous of %s: %d blocks, want %d", c.mode, name, len(back), len(before))
			}
		}
		// An item is the block's own answer.
		var items []json.RawMessage
		bfJSON(t, h, "/blocks/1/next?count=2", &items)
		var one json.RawMessage
		var first bfBlockItem
		_ = json.Unmarshal(items[1], &first)
		bfJSON(t, h, "/blocks/"+first.Hash, &one)
		if string(items[1]) != string(one) {
			t.Fatalf("%s: a listed block differs from its own answer:\n%s\n%s", c.mode, items[1], one)
		}
		for _, path := range []string{"/blocks/" + strings.Repeat("0", 64) + "/next", "/blocks/99999999/previous"} {
			bfRefused(t, h, path, 404, "not been found")
		}
		bfRefused(t, h, "/blocks/xyz/next", 400, "hash_or_number")
		bfRefused(t, h, "/blocks/1/next?count=101", 400, "count")
		bfRefused(t, h, "/blocks/1/previous?page=0", 400, "page")
	}
}

func hashesOf(bs []bfBlockItem) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Hash
	}
	return out
}

// TestBlockfrostBlockBySlot: /blocks/slot/{slot} and
// /blocks/epoch/{epoch}/slot/{slot} for a Byron, a Shelley-era and the
// tip's block, as SQL places them; slots without a block are not found.
func TestBlockfrostBlockBySlot(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var rows []struct {
			Hash      string  `db:"hash"`
			Slot      int64   `db:"slot_no"`
			Epoch     int64   `db:"epoch_no"`
			EpochSlot int64   `db:"epoch_slot_no"`
			OpCert    *string `db:"op_cert"`
		}
		if err := c.raw.Select(&rows, `SELECT encode(hash,'hex') AS hash, slot_no, epoch_no, epoch_slot_no, encode(op_cert,'hex') AS op_cert
			FROM block WHERE block_no IN (3, (SELECT max(block_no) - 40 FROM block), (SELECT max(block_no) FROM block)) ORDER BY id`); err != nil || len(rows) != 3 {
			t.Fatalf("%s: %v %v", c.mode, rows, err)
		}
		for _, r := range rows {
			var bySlot, byEpochSlot bfBlockItem
			bfJSON(t, h, fmt.Sprintf("/blocks/slot/%d", r.Slot), &bySlot)
			bfJSON(t, h, fmt.Sprintf("/blocks/epoch/%d/slot/%d", r.Epoch, r.EpochSlot), &byEpochSlot)
			if bySlot.Hash != r.Hash || byEpochSlot.Hash != r.Hash || *bySlot.Slot != r.Slot {
				t.Fatalf("%s: slot %d (epoch %d slot %d): %s and %s, want %s", c.mode, r.Slot, r.Epoch, r.EpochSlot, bySlot.Hash, byEpochSlot.Hash, r.Hash)
			}
			if (r.OpCert == nil) != (bySlot.OpCert == nil) || r.OpCert != nil && *bySlot.OpCert != *r.OpCert {
				t.Fatalf("%s: op_cert %v, want %v", c.mode, bySlot.OpCert, r.OpCert)
			}
		}
		var empty int64
		if err := c.raw.Get(&empty, `SELECT s FROM generate_series($1::bigint, $1 + 1000) s WHERE NOT EXISTS (SELECT 1 FROM block WHERE slot_no = s) LIMIT 1`, rows[1].Slot); err != nil {
			t.Fatal(err)
		}
		bfRefused(t, h, fmt.Sprintf("/blocks/slot/%d", empty), 404, "not been found")
		bfRefused(t, h, fmt.Sprintf("/blocks/epoch/%d/slot/%d", rows[2].Epoch+1, 5), 404, "not been found")
		bfRefused(t, h, fmt.Sprintf("/blocks/epoch/%d/slot/%d", rows[0].Epoch, rows[0].EpochSlot+1), 404, "not been found")
		for _, bad := range []string{"-1", "x", "1.5", "+3", "99999999999999999999"} {
			bfRefused(t, h, "/blocks/slot/"+bad, 400, "slot_number")
			bfRefused(t, h, "/blocks/epoch/1/slot/"+bad, 400, "slot_number")
			bfRefused(t, h, "/blocks/epoch/"+bad+"/slot/1", 400, "epoch_number")
		}
		bfRefused(t, h, "/blocks/epoch/2147483648/slot/1", 400, "epoch_number")
		bfRefused(t, h, "/blocks/epoch/1/slot/2147483648", 400, "slot_number")
	}
}

// TestBlockfrostBlockTxs: a block's transactions (the busy block's 310),
// every page in both orders, as block_index orders them; the latest
// block's by /blocks/latest/txs.
func TestBlockfrostBlockTxs(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		busy := c.manifest.BusySlot.BlockHash
		want := sqlStrings(t, c.raw, `SELECT encode(t.hash,'hex') FROM tx t JOIN block b ON b.id = t.block_id WHERE b.hash = decode($1,'hex') ORDER BY t.block_index`, busy)
		if int64(len(want)) != c.manifest.BusySlot.TxCount {
			t.Fatalf("%s: busy block has %d transactions", c.mode, len(want))
		}
		asc, _ := walk[string](t, h, "/blocks/"+busy+"/txs", 23)
		desc, _ := walk[string](t, h, "/blocks/"+busy+"/txs?order=desc", 100)
		slices.Reverse(desc)
		if !slices.Equal(asc, want) || !slices.Equal(desc, want) {
			t.Fatalf("%s: busy block's transactions: %d asc, %d desc, want %d", c.mode, len(asc), len(desc), len(want))
		}
		var byNo []string
		bfJSON(t, h, "/blocks/"+strconv.FormatInt(c.manifest.Tip.BlockNo, 10)+"/txs?order=desc&count=3&page=1", &byNo)
		var latest []string
		bfJSON(t, h, "/blocks/latest/txs?order=desc&count=3", &latest)
		tipTxs := sqlStrings(t, c.raw, `SELECT encode(t.hash,'hex') FROM tx t JOIN block b ON b.id = t.block_id WHERE b.block_no = $1 ORDER BY t.block_index DESC LIMIT 3`, c.manifest.Tip.BlockNo)
		if !slices.Equal(latest, tipTxs) || !slices.Equal(byNo, tipTxs) {
			t.Fatalf("%s: latest block's transactions %v / %v, want %v", c.mode, latest, byNo, tipTxs)
		}
		var none []string
		bfJSON(t, h, "/blocks/"+busy+"/txs?page=5", &none)
		if len(none) != 0 {
			t.Fatalf("%s: page past the end: %v", c.mode, none)
		}
		for _, path := range []string{"/blocks/latest/txs", "/blocks/1/txs", "/blocks/latest/txs/cbor", "/blocks/1/txs/cbor"} {
			bfRefused(t, h, path+"?count=0", 400, "count")
			bfRefused(t, h, path+"?page=x", 400, "page")
			bfRefused(t, h, path+"?order=newest", 400, "order")
		}
		bfRefused(t, h, "/blocks/"+strings.Repeat("ab", 32)+"/txs", 404, "not been found")
		bfRefused(t, h, "/blocks/"+strings.Repeat("ab", 32)+"/txs/cbor", 404, "not been found")
		bfRefused(t, h, "/blocks/-5/txs", 400, "hash_or_number")
		// db-sync kept no CBOR of the busy block's (Babbage) transactions:
		// every one is left out, as Blockfrost's backend leaves them.
		var cbors []json.RawMessage
		bfJSON(t, h, "/blocks/"+busy+"/txs/cbor", &cbors)
		if len(cbors) != 0 {
			t.Fatalf("%s: CBOR without tx_cbor: %s", c.mode, cbors)
		}
	}
}

// TestBlockfrostBlockTxsCBOR: where db-sync keeps CBOR (tx_cbor: the
// chains keep it from the first Conway epoch on), a block's transactions
// come with theirs, every page in both orders; on a chain of its own, a
// transaction without a row is left out of its page, and every one once
// the table is gone (an older db-sync).
func TestBlockfrostBlockTxsCBOR(t *testing.T) {
	type txCBOR struct {
		TxHash string `json:"tx_hash" db:"tx_hash"`
		CBOR   string `json:"cbor" db:"cbor"`
	}
	cborsOf := func(t *testing.T, c *testChain, block int64) []txCBOR {
		t.Helper()
		var want []txCBOR
		if err := c.raw.Select(&want, `SELECT encode(t.hash,'hex') AS tx_hash, encode(x.bytes,'hex') AS cbor
			FROM tx t JOIN tx_cbor x ON x.tx_id = t.id WHERE t.block_id = $1 ORDER BY t.block_index`, block); err != nil {
			t.Fatal(err)
		}
		return want
	}
	// A Conway block with several transactions, below the tip.
	conwayBlock := func(t *testing.T, c *testChain) (id int64, hash string) {
		t.Helper()
		var b struct {
			ID   int64  `db:"id"`
			Hash string `db:"hash"`
		}
		if err := c.raw.Get(&b, `SELECT b.id, encode(b.hash,'hex') AS hash FROM block b
			WHERE b.tx_count >= 5 AND b.block_no < (SELECT max(block_no) FROM block)
			  AND EXISTS (SELECT 1 FROM tx t JOIN tx_cbor x ON x.tx_id = t.id WHERE t.block_id = b.id)
			ORDER BY b.id DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		return b.ID, b.Hash
	}
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		id, hash := conwayBlock(t, c)
		want := cborsOf(t, c, id)
		asc, _ := walk[txCBOR](t, h, "/blocks/"+hash+"/txs/cbor", 2)
		desc, _ := walk[txCBOR](t, h, "/blocks/"+hash+"/txs/cbor?order=desc", 3)
		slices.Reverse(desc)
		if len(want) < 5 || !slices.Equal(asc, want) || !slices.Equal(desc, want) {
			t.Fatalf("%s: CBOR of block %s: %d asc, %d desc, want %d", c.mode, hash, len(asc), len(desc), len(want))
		}
		var latest []txCBOR
		bfJSON(t, h, "/blocks/latest/txs/cbor", &latest)
		if tip := cborsOf(t, c, tipBlockID(t, c)); !slices.Equal(latest, tip) || len(tip) == 0 {
			t.Fatalf("%s: latest block's CBOR %v, want %v", c.mode, latest, tip)
		}
	}

	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	c, err := openTestChain(chaingen.ModeCore, dsn, m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.db.Close(); c.raw.Close() })
	id, hash := conwayBlock(t, c)
	all := cborsOf(t, c, id)
	if _, err := c.raw.Exec(`DELETE FROM tx_cbor WHERE tx_id = (SELECT t.id FROM tx t WHERE t.block_id = $1 AND t.block_index = 1)`, id); err != nil {
		t.Fatal(err)
	}
	var got []txCBOR
	bfJSON(t, chainServer(t, c).Handler(), "/blocks/"+hash+"/txs/cbor?count=2", &got)
	if len(got) != 1 || got[0] != all[0] {
		t.Fatalf("first page of two, the second without CBOR: %v", got)
	}
	if _, err := c.raw.Exec(`DROP TABLE tx_cbor`); err != nil {
		t.Fatal(err)
	}
	bfJSON(t, chainServer(t, c).Handler(), "/blocks/"+hash+"/txs/cbor", &got)
	if len(got) != 0 {
		t.Fatalf("without tx_cbor: %v", got)
	}
}

func tipBlockID(t *testing.T, c *testChain) int64 {
	t.Helper()
	var id int64
	if err := c.raw.Get(&id, `SELECT id FROM block WHERE block_no = (SELECT max(block_no) FROM block)`); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestBlockfrostBlockAddresses: the addresses a block's transactions paid
// or spent from (the busy block; the failed transaction's block, whose
// collateral inputs it spent), in byte order, each with its transactions
// in block order, every page; SQL of the test's own per layout.
func TestBlockfrostBlockAddresses(t *testing.T) {
	type item struct {
		Address      string `json:"address"`
		Transactions []struct {
			TxHash string `json:"tx_hash"`
		} `json:"transactions"`
	}
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var failedBlock string
		if err := c.raw.Get(&failedBlock, `SELECT encode(b.hash,'hex') FROM block b JOIN tx t ON t.block_id = b.id WHERE t.hash = decode($1,'hex')`, c.manifest.Txs.Failed.Hash); err != nil {
			t.Fatal(err)
		}
		spent := `SELECT i.tx_in_id AS tx_id, o.address FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index`
		if c.mode == chaingen.ModeConsumed {
			spent = `SELECT o.consumed_by_tx_id AS tx_id, o.address FROM tx_out o WHERE o.consumed_by_tx_id IS NOT NULL`
		}
		for _, block := range []string{c.manifest.BusySlot.BlockHash, failedBlock} {
			var rows []struct {
				Address string         `db:"address"`
				Txs     pq.StringArray `db:"txs"`
			}
			if err := c.raw.Select(&rows, `WITH bt AS (SELECT t.id, t.hash, t.block_index FROM tx t JOIN block b ON b.id = t.block_id WHERE b.hash = decode($1,'hex')),
				touched AS (SELECT o.tx_id, o.address FROM tx_out o WHERE o.tx_id IN (SELECT id FROM bt)
				            UNION SELECT s.tx_id, s.address FROM (`+spent+`) s WHERE s.tx_id IN (SELECT id FROM bt))
				SELECT x.address, array_agg(encode(bt.hash,'hex') ORDER BY bt.block_index) AS txs
				FROM touched x JOIN bt ON bt.id = x.tx_id GROUP BY x.address`, block); err != nil {
				t.Fatal(err)
			}
			sort.Slice(rows, func(i, j int) bool { return rows[i].Address < rows[j].Address })
			got, _ := walk[item](t, h, "/blocks/"+block+"/addresses", 9)
			if len(got) != len(rows) || len(rows) < 2 {
				t.Fatalf("%s: block %s: %d addresses, want %d", c.mode, block, len(got), len(rows))
			}
			for i, r := range rows {
				var txs []string
				for _, tx := range got[i].Transactions {
					txs = append(txs, tx.TxHash)
				}
				if got[i].Address != r.Address || !slices.Equal(txs, r.Txs) {
					t.Fatalf("%s: block %s address %d: %s %v, want %s %v", c.mode, block, i, got[i].Address, txs, r.Address, r.Txs)
				}
			}
		}
		bfRefused(t, h, "/blocks/"+strings.Repeat("0", 64)+"/addresses", 404, "not been found")
		bfRefused(t, h, "/blocks/1/addresses?count=x", 400, "count")
	}
}
